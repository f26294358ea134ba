"""Fetchers chosen by configuration, and Firecrawl's answers mapped onto the page.

Firecrawl's SDK talks through `requests`, which respx cannot see, so its tests replace the SDK's
HttpClient.post.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import requests
from firecrawl.v2.utils.http_client import HttpClient

from evidence import fetching
from evidence.fetching import FetcherUnavailable, fetcher_for, page_fetch
from evidence.fetching.firecrawl import FirecrawlFetcher
from evidence.models import Page, VerificationStatus
from tests.evidence.factories import ARTICLE_TEXT, article_html, use_config

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("offline_fetching")]

URL = "https://news.example.org/rail"
HTML = {"content-type": "text/html; charset=utf-8"}


def test_the_fetcher_is_chosen_by_configuration(settings: Any, tmp_path: Path) -> None:
    assert fetcher_for(use_config(settings, tmp_path, "fetcher: {kind: http}\n").fetcher).name == (
        "http"
    )
    assert set(fetching.FETCHERS) >= {"http", "firecrawl"}


def test_firecrawl_refuses_to_start_without_a_key_or_a_self_hosted_url(
    settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("FIRECRAWL_API_KEY", raising=False)
    config = use_config(settings, tmp_path, "fetcher: {kind: firecrawl}\n")

    with pytest.raises(FetcherUnavailable, match="FIRECRAWL_API_KEY"):
        fetcher_for(config.fetcher)
    with pytest.raises(FetcherUnavailable):
        page_fetch(url=URL)
    assert not Page.objects.exists()


def test_firecrawl_starts_with_a_self_hosted_url_and_no_key(
    settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("FIRECRAWL_API_KEY", raising=False)
    config = use_config(
        settings, tmp_path, "fetcher: {kind: firecrawl, firecrawl: {api_url: 'http://fc:3002'}}\n"
    )

    fetcher = fetcher_for(config.fetcher)

    assert isinstance(fetcher, FirecrawlFetcher)


class _FirecrawlAPI:
    """Stands in for Firecrawl's HTTP API at the SDK's HttpClient.post boundary."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        self.status = status
        self.body = body
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def post(self, endpoint: str, data: dict[str, Any]) -> requests.Response:
        self.calls.append((endpoint, data))
        response = requests.Response()
        response.status_code = self.status
        response._content = json.dumps(self.body).encode()
        response.headers["Content-Type"] = "application/json"
        return response


@pytest.fixture
def firecrawl_config(settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FIRECRAWL_TEST_KEY", "fc-secret")
    use_config(
        settings,
        tmp_path,
        "fetcher: {kind: firecrawl, firecrawl: {api_key_env: FIRECRAWL_TEST_KEY}}\n",
    )


def _install_firecrawl(monkeypatch: pytest.MonkeyPatch, api: _FirecrawlAPI) -> None:
    def post(client: HttpClient, endpoint: str, data: dict[str, Any], **_: Any) -> Any:
        return api.post(endpoint, data)

    monkeypatch.setattr(HttpClient, "post", post)


def test_firecrawl_scrapes_are_mapped_onto_the_page(
    firecrawl_config: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = _FirecrawlAPI(
        200,
        {
            "success": True,
            "data": {
                "html": article_html(title="Rail line to open"),
                "markdown": "# Rail line to open\n\n" + ARTICLE_TEXT,
                "metadata": {
                    "title": "Rail line to open",
                    "statusCode": 200,
                    "url": "https://news.example.org/rail",
                    "sourceURL": "https://news.example.org/rail",
                    "contentType": "text/html; charset=utf-8",
                    "language": "en",
                },
            },
        },
    )
    _install_firecrawl(monkeypatch, api)

    page = page_fetch(url=URL)

    assert api.calls[0][0] == "/v2/scrape"
    assert set(api.calls[0][1]["formats"]) == {"html", "markdown"}
    assert page.fetcher == "firecrawl"
    assert page.http_status == 200
    assert page.verification_status == VerificationStatus.VERIFIED
    assert page.title == "Rail line to open"
    assert "final safety inspection" in page.text


def test_firecrawl_reporting_a_dead_page_is_recorded_as_failed(
    firecrawl_config: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = _FirecrawlAPI(
        200,
        {"success": True, "data": {"html": "<h1>Not found</h1>", "metadata": {"statusCode": 404}}},
    )
    _install_firecrawl(monkeypatch, api)

    page = page_fetch(url=URL)

    assert page.http_status == 404
    assert page.verification_status == VerificationStatus.FAILED


def test_a_firecrawl_api_error_is_recorded_not_raised(
    firecrawl_config: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = _FirecrawlAPI(500, {"success": False, "error": "internal"})
    _install_firecrawl(monkeypatch, api)

    page = page_fetch(url=URL)

    assert api.calls
    assert page.verification_status == VerificationStatus.FAILED
    assert page.error == "firecrawl error 500"


def test_a_firecrawl_scrape_that_ended_on_a_private_address_is_refused(
    firecrawl_config: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = _FirecrawlAPI(
        200,
        {
            "success": True,
            "data": {
                "html": article_html(title="Router admin"),
                "markdown": "# Router admin\n\n" + ARTICLE_TEXT,
                "metadata": {
                    "title": "Router admin",
                    "statusCode": 200,
                    "url": "http://10.0.0.7/admin",
                    "sourceURL": URL,
                    "contentType": "text/html",
                },
            },
        },
    )
    _install_firecrawl(monkeypatch, api)

    page = page_fetch(url=URL)

    assert api.calls
    assert page.error == "blocked"
    assert page.verification_status == VerificationStatus.FAILED
    assert "final safety inspection" not in page.text


def test_firecrawl_is_never_asked_for_a_private_address(
    firecrawl_config: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = _FirecrawlAPI(200, {"success": True, "data": {"html": "secret"}})
    _install_firecrawl(monkeypatch, api)

    page = page_fetch(url="https://internal.example.org/admin")

    assert not api.calls
    assert page.error == "blocked"
