"""The page cache: a fresh page is not fetched again, a stale one is refreshed, and a good copy
outlives a refresh that hits an outage.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import respx

from evidence.fetching import page_fetch
from evidence.models import Page, VerificationStatus
from tests.evidence.factories import (
    ARTICLE_TEXT,
    FailedPageFactory,
    StalePageFactory,
    article_html,
    use_config,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("offline_fetching")]

URL = "https://news.example.org/rail"
HTML = {"content-type": "text/html; charset=utf-8"}


def test_a_fresh_cached_page_is_not_fetched_again(web: respx.MockRouter) -> None:
    route = web.get(URL).respond(200, headers=HTML, text=article_html())

    first = page_fetch(url=URL)
    second = page_fetch(url="http://www.news.example.org/rail?utm_campaign=x")

    assert route.call_count == 1
    assert second.pk == first.pk


def test_a_failed_fetch_is_not_retried_before_the_ttl_passes(web: respx.MockRouter) -> None:
    FailedPageFactory.create(url=URL)
    route = web.get(URL).respond(200, headers=HTML, text=article_html())

    page = page_fetch(url=URL)

    assert not route.called
    assert page.verification_status == VerificationStatus.FAILED


def test_a_page_older_than_the_ttl_is_fetched_again(web: respx.MockRouter) -> None:
    stale = StalePageFactory.create(url=URL, title="Old title")
    route = web.get(URL).respond(200, headers=HTML, text=article_html(title="New title"))

    page = page_fetch(url=URL)

    assert route.call_count == 1
    assert page.pk == stale.pk
    assert page.title == "New title"
    assert Page.objects.filter(url=URL).count() == 1


def test_a_good_copy_survives_a_refresh_that_hits_an_outage(web: respx.MockRouter) -> None:
    stale = StalePageFactory.create(url=URL, title="Kept title", text=ARTICLE_TEXT)
    route = web.get(URL).respond(503, text="maintenance")

    page = page_fetch(url=URL)

    assert route.call_count == 2
    assert page.pk == stale.pk
    assert (page.title, page.text) == ("Kept title", ARTICLE_TEXT)
    assert page.verification_status == VerificationStatus.VERIFIED
    assert page.metadata["refresh_error"] == "http 503"
    assert page_fetch(url=URL).pk == stale.pk  # fresh again: not retried at once
    assert route.call_count == 2


def test_a_page_that_has_gone_dead_is_recorded_as_dead(web: respx.MockRouter) -> None:
    StalePageFactory.create(url=URL, text=ARTICLE_TEXT)
    web.get(URL).respond(404)

    page = page_fetch(url=URL)

    assert page.verification_status == VerificationStatus.FAILED
    assert page.error == "http 404"
    assert page.text == ""


def test_a_ttl_of_zero_always_fetches(web: respx.MockRouter, settings: Any, tmp_path: Path) -> None:
    use_config(settings, tmp_path, "fetcher: {cache_ttl_hours: 0}\n")
    route = web.get(URL).respond(200, headers=HTML, text=article_html())

    page_fetch(url=URL)
    page_fetch(url=URL)

    assert route.call_count == 2
