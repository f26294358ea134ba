"""The evaluation's offline web: the dataset's pages are stored and indexed as a real fetch
would store them, and nothing else is reachable during the run."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from claimcheck.config import get_config
from evaluation.averitec import read_averitec
from evaluation.web import offline_web, web_load
from evidence.fetching import page_fetch
from evidence.models import Page
from harvester.local_index import search_documents
from harvester.models import LocalDocument
from integrations.http.canonical import canonicalize_url
from registry.weighing import weigh_source

MINI = Path(__file__).parent / "fixtures" / "averitec_mini.json"


@pytest.mark.django_db
def test_the_offline_web_is_found_only_by_searching_and_denied_pages_are_not_stored() -> None:
    dataset = read_averitec(MINI)
    with offline_web():
        summary = web_load(dataset=dataset)
    assert summary.pages_stored == 3
    assert summary.pages_denied == 1
    page = Page.objects.get(
        url=canonicalize_url("https://www.ports.gov/halvik/container-terminal-opens")
    )
    assert page.published_at == datetime(2024, 3, 15, 9, 30, tzinfo=UTC)
    assert "opened its new container terminal on 12 March 2024" in page.text
    hits = search_documents(query="Halvik container terminal")
    assert {hit.url for hit in hits} >= {page.url}
    assert weigh_source("https://fakecures.example/tessel-water-cures-colds").denied
    assert not Page.objects.filter(url__contains="fakecures").exists()
    assert LocalDocument.objects.filter(url__contains="fakecures").exists()


@pytest.mark.django_db
def test_the_run_cannot_reach_the_internet_and_searches_only_the_local_index() -> None:
    with offline_web():
        config = get_config()
        assert config.search.cascade_order == ["local"]
        assert config.factcheck.enabled is False
        page = page_fetch(url="https://not-in-the-corpus.example/story")
        assert page.error == "offline"  # refused before any look-up
    assert get_config().search.cascade_order == ["local"]  # the shipped config is back


# --- the command --------------------------------------------------------------------------------
