"""Fetching pages: a page that works is stored with its text and dates, a denied domain is never
asked, and many pages are fetched at once, each ending in a status.

The outside web is respx routes at integrations.http's boundary, with DNS faked through
`integrations.http.addresses.resolve`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import respx

from evidence.fetching import DeniedDomain, page_fetch, pages_fetch
from evidence.fetching.reading import PARTIAL_CHARS
from evidence.models import ContentDepth, Page, VerificationStatus
from harvester.models import LocalDocument
from tests.evidence.factories import ARTICLE_TEXT, DeniedDomainFactory, article_html, use_config
from tests.factories import PageFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("offline_fetching")]

URL = "https://news.example.org/rail"
HTML = {"content-type": "text/html; charset=utf-8"}


# --- a page that works --------------------------------------------------------------------------


def test_a_live_article_is_stored_verified_with_its_real_title_and_full_text(
    web: respx.MockRouter,
) -> None:
    route = web.get(host="www.news.example.org", path="/rail/").respond(
        200, headers=HTML, text=article_html(title="Rail line to open")
    )

    page = page_fetch(
        url="https://www.news.example.org/rail/?utm_source=feed",
        snippet="The line opens...",
        title_hint="Rail line opening date",
    )

    assert route.called  # the URL as given is fetched; the page is stored under its canonical
    assert page.url == URL  # no www, no tracking parameter, no trailing slash
    assert page.http_status == 200
    assert page.verification_status == VerificationStatus.VERIFIED
    assert page.content_depth == ContentDepth.FULL
    assert page.title == "Rail line to open"
    assert "final safety inspection" in page.text
    assert page.scraped_chars == len(page.text) > 500
    assert page.content_type == "text/html"
    assert page.domain == "example.org"
    assert page.fetcher == "http"
    assert page.published_at is not None and page.published_at.date().isoformat() == "2024-03-04"
    assert page.metadata["title_hint_overlap"] > 0
    assert "<article>" in page.html
    assert page.error == ""


def test_a_stored_page_is_added_to_the_local_search_index(web: respx.MockRouter) -> None:
    web.get(URL).respond(200, headers=HTML, text=article_html(title="Rail line to open"))

    page_fetch(url=URL)

    document = LocalDocument.objects.get(url=URL)
    assert document.title == "Rail line to open"
    assert "safety inspection" in document.text


def test_a_short_page_keeps_the_partial_text_it_has(web: respx.MockRouter) -> None:
    body = article_html(text=ARTICLE_TEXT[:300])
    web.get(URL).respond(200, headers=HTML, text=body)

    page = page_fetch(url=URL)

    assert page.content_depth == ContentDepth.PARTIAL
    assert page.verification_status == VerificationStatus.VERIFIED
    assert PARTIAL_CHARS < page.scraped_chars <= 500


def test_a_page_with_almost_no_text_falls_back_to_the_search_snippet(
    web: respx.MockRouter,
) -> None:
    web.get(URL).respond(200, headers=HTML, text="<html><head><title>Rail</title></head></html>")

    page = page_fetch(url=URL, snippet="The rail line opens in the autumn, officials said.")

    assert page.content_depth == ContentDepth.SNIPPET
    assert page.verification_status == VerificationStatus.PARTIAL
    assert page.text == "The rail line opens in the autumn, officials said."
    assert page.error == "no readable text"


# --- denied domains -----------------------------------------------------------------------------


def test_a_denied_domain_is_never_fetched(web: respx.MockRouter) -> None:
    DeniedDomainFactory.create(name="blocked.example.com")
    route = web.route().respond(200, headers=HTML, text=article_html())

    with pytest.raises(DeniedDomain):
        page_fetch(url="https://www.blocked.example.com/story")

    assert not route.called
    assert not Page.objects.exists()


def test_a_suffix_rule_denies_every_host_under_it(web: respx.MockRouter) -> None:
    DeniedDomainFactory.create(name=".example.com")
    route = web.route().respond(200, headers=HTML, text=article_html())

    with pytest.raises(DeniedDomain):
        page_fetch(url="https://blocked.example.com/story")

    assert not route.called


def test_a_url_that_is_not_http_is_refused_as_bad_input() -> None:
    with pytest.raises(ValueError):
        page_fetch(url="ftp://news.example.org/file")


# --- many pages at once -------------------------------------------------------------------------


def test_many_pages_are_fetched_concurrently_each_ending_in_a_status(
    web: respx.MockRouter, settings: Any, tmp_path: Path
) -> None:
    use_config(settings, tmp_path, "fetcher: {concurrency: 3}\n")
    DeniedDomainFactory.create(name="blocked.example.com")
    cached = PageFactory.create(url="https://news.example.org/cached")
    web.get(URL).respond(200, headers=HTML, text=article_html())
    web.get("https://news.example.org/gone").respond(404)
    web.get("https://mirror.example.net/x").respond(200, headers=HTML, text=article_html())
    urls = [
        URL,
        "https://www.news.example.org/rail?utm_source=dup",  # same page as URL
        "https://news.example.org/gone",
        "https://mirror.example.net/x",
        "https://news.example.org/cached",
        "https://blocked.example.com/story",
        "mailto:someone@example.org",
    ]

    pages = pages_fetch(urls=urls)

    assert set(pages) == set(urls[:5])
    assert pages[URL].pk == pages[urls[1]].pk
    assert pages[URL].verification_status == VerificationStatus.VERIFIED
    assert pages["https://news.example.org/gone"].error == "http 404"
    assert pages["https://news.example.org/cached"].pk == cached.pk
    assert web.calls.call_count == 3
    assert Page.objects.count() == 4
