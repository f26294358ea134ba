"""Fetching pages: every way a page can go wrong ends in a recorded status, never a crash.

The outside web is respx routes at integrations.http's boundary, with DNS faked through
`integrations.http.addresses.resolve`; the slow server is a real one on 127.0.0.1. Firecrawl's SDK
talks through `requests`, which respx cannot see, so its tests replace the SDK's HttpClient.post.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
import requests
import respx
from firecrawl.v2.utils.http_client import HttpClient

from evidence import fetching
from evidence.fetching import (
    DeniedDomain,
    FetcherUnavailable,
    fetcher_for,
    page_fetch,
    pages_fetch,
    reading,
)
from evidence.fetching.firecrawl import FirecrawlFetcher
from evidence.fetching.reading import PARTIAL_CHARS
from evidence.models import ContentDepth, Page, VerificationStatus
from harvester.models import LocalDocument
from tests.evidence.factories import (
    ARTICLE_TEXT,
    DeniedDomainFactory,
    FailedPageFactory,
    StalePageFactory,
    article_html,
    install_fake_dns,
    minimal_pdf,
    use_config,
)
from tests.factories import PageFactory

pytestmark = pytest.mark.django_db

URL = "https://news.example.org/rail"
HTML = {"content-type": "text/html; charset=utf-8"}


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    install_fake_dns(monkeypatch)
    monkeypatch.setattr(reading, "RETRY_DELAY_S", 0)


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


# --- statuses -----------------------------------------------------------------------------------


@pytest.mark.parametrize("status", [404, 410])
def test_a_dead_link_is_recorded_as_failed_and_not_indexed(
    web: respx.MockRouter, status: int
) -> None:
    web.get(URL).respond(status, headers=HTML, text="<h1>Not found</h1>")

    page = page_fetch(url=URL, snippet="a snippet that must not stand in for a dead page")

    assert page.http_status == status
    assert page.verification_status == VerificationStatus.FAILED
    assert page.error == f"http {status}"
    assert page.text == ""
    assert not LocalDocument.objects.filter(url=URL).exists()


def test_a_host_that_does_not_resolve_is_recorded_as_a_dns_failure() -> None:
    page = page_fetch(url="https://gone.example.org/story")

    assert page.url == "https://gone.example.org/story"
    assert page.http_status is None
    assert page.verification_status == VerificationStatus.FAILED
    assert page.error == "dns"


def test_a_403_is_partial_access_and_keeps_the_snippet(web: respx.MockRouter) -> None:
    web.get(URL).respond(403, headers=HTML, text="<h1>Access denied</h1>")

    page = page_fetch(
        url=URL, snippet="Officials said the line opens in autumn.", title_hint="Rail"
    )

    assert page.http_status == 403
    assert page.verification_status == VerificationStatus.PARTIAL
    assert page.content_depth == ContentDepth.SNIPPET
    assert page.text == "Officials said the line opens in autumn."
    assert page.title == "Rail"
    assert page.error == "http 403"


def test_a_paywalled_article_is_marked_partial(web: respx.MockRouter) -> None:
    marker = (
        '<script type="application/ld+json">{"@type": "NewsArticle",'
        ' "isAccessibleForFree": "False"}</script>'
    )
    web.get(URL).respond(200, headers=HTML, text=article_html(head=marker))

    page = page_fetch(url=URL)

    assert page.verification_status == VerificationStatus.PARTIAL
    assert page.error == "paywall"
    assert "safety inspection" in page.text  # what is readable is kept


def test_a_server_error_is_retried_once_and_the_second_answer_counts(
    web: respx.MockRouter,
) -> None:
    route = web.get(URL)
    route.side_effect = [
        httpx.Response(503, text="busy"),
        httpx.Response(200, headers=HTML, text=article_html()),
    ]

    page = page_fetch(url=URL)

    assert route.call_count == 2
    assert page.http_status == 200
    assert page.verification_status == VerificationStatus.VERIFIED


def test_a_server_that_keeps_failing_is_tried_twice_then_recorded(web: respx.MockRouter) -> None:
    route = web.get(URL).respond(502, text="bad gateway")

    page = page_fetch(url=URL)

    assert route.call_count == 2
    assert page.http_status == 502
    assert page.verification_status == VerificationStatus.FAILED
    assert page.error == "http 502"


def test_a_redirect_loop_is_recorded_not_followed_forever(web: respx.MockRouter) -> None:
    web.get("https://news.example.org/a").respond(302, headers={"Location": "/b"})
    web.get("https://news.example.org/b").respond(302, headers={"Location": "/a"})

    page = page_fetch(url="https://news.example.org/a")

    assert page.verification_status == VerificationStatus.FAILED
    assert page.error == "too_many_redirects"


def test_a_redirect_is_followed_and_the_final_url_kept(web: respx.MockRouter) -> None:
    web.get(URL).respond(301, headers={"Location": "https://mirror.example.net/rail-line"})
    web.get("https://mirror.example.net/rail-line").respond(200, headers=HTML, text=article_html())

    page = page_fetch(url=URL)

    assert page.url == URL
    assert page.final_url == "https://mirror.example.net/rail-line"
    assert page.domain == "example.net"
    assert page.verification_status == VerificationStatus.VERIFIED


def test_a_redirect_into_a_denied_domain_is_not_counted(web: respx.MockRouter) -> None:
    DeniedDomainFactory.create(name="example.net")
    web.get(URL).respond(302, headers={"Location": "https://mirror.example.net/rail-line"})
    web.get("https://mirror.example.net/rail-line").respond(200, headers=HTML, text=article_html())

    page = page_fetch(url=URL)

    assert page.verification_status == VerificationStatus.FAILED
    assert page.error == "redirected to a denied domain"
    assert page.text == ""


def test_a_page_over_the_byte_cap_is_refused(
    web: respx.MockRouter, settings: Any, tmp_path: Path
) -> None:
    use_config(settings, tmp_path, "fetcher: {max_bytes: 4096}\n")
    web.get(URL).respond(200, headers=HTML, text=article_html() + "<p>" + "x" * 10_000 + "</p>")

    page = page_fetch(url=URL)

    assert page.verification_status == VerificationStatus.FAILED
    assert page.error == "too_large"
    assert page.text == ""


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("image/png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"),
        ("application/octet-stream", b"\x00\x01\x02\x03binary blob"),
        ("text/html", b"\x00\x00\x01\x00icon disguised as a page"),
    ],
)
def test_a_binary_answer_is_recorded_as_binary(
    web: respx.MockRouter, content_type: str, body: bytes
) -> None:
    web.get(URL).respond(200, headers={"content-type": content_type}, content=body)

    page = page_fetch(url=URL)

    assert page.verification_status == VerificationStatus.FAILED
    assert page.error == "binary"
    assert page.text == ""


def test_a_data_feed_is_recorded_as_an_unsupported_type(web: respx.MockRouter) -> None:
    web.get(URL).respond(200, json={"items": [1, 2, 3]})

    page = page_fetch(url=URL)

    assert page.verification_status == VerificationStatus.FAILED
    assert page.error == "unsupported type application/json"


def test_a_plain_text_document_is_read_as_text(web: respx.MockRouter) -> None:
    web.get(URL).respond(200, headers={"content-type": "text/plain"}, text=ARTICLE_TEXT)

    page = page_fetch(url=URL)

    assert page.verification_status == VerificationStatus.VERIFIED
    assert page.content_depth == ContentDepth.FULL
    assert page.text.startswith("The Ministry of Transport")
    assert page.html == ""


@pytest.mark.parametrize("content_type", ["application/pdf", "application/octet-stream"])
def test_a_pdf_is_read_instead_of_dropped(web: respx.MockRouter, content_type: str) -> None:
    lines = [
        "Annual Report on Rail Infrastructure",
        *[f"{sentence.strip()}." for sentence in ARTICLE_TEXT.split(". ")],
    ]
    pdf = minimal_pdf(lines=lines, title="Rail Infrastructure Report 2024")
    web.get("https://agency.example.gov/report.pdf").respond(
        200, headers={"content-type": content_type}, content=pdf
    )

    page = page_fetch(url="https://agency.example.gov/report.pdf")

    assert page.verification_status == VerificationStatus.VERIFIED
    assert page.content_type == "application/pdf"
    assert page.title == "Rail Infrastructure Report 2024"
    assert "final safety inspection" in page.text
    assert page.content_depth == ContentDepth.FULL
    assert page.metadata["pdf_pages"] == 1
    assert page.published_at is not None


def test_a_damaged_pdf_is_recorded_as_unreadable(web: respx.MockRouter) -> None:
    web.get(URL).respond(
        200, headers={"content-type": "application/pdf"}, content=b"%PDF-1.4\nnot really a pdf"
    )

    page = page_fetch(url=URL)

    assert page.verification_status == VerificationStatus.FAILED
    assert page.error == "unreadable pdf"


def test_a_page_in_a_charset_other_than_the_one_declared_is_read_correctly(
    web: respx.MockRouter,
) -> None:
    text = ARTICLE_TEXT + " The café near the station reopened, said Müller."
    body = article_html(text=text).replace("<meta charset='utf-8'>", "").encode("cp1252")
    web.get(URL).respond(200, headers={"content-type": "text/html; charset=utf-8"}, content=body)

    page = page_fetch(url=URL)

    assert page.verification_status == VerificationStatus.VERIFIED
    assert "café" in page.text and "Müller" in page.text
    assert "\ufffd" not in page.text


@pytest.mark.parametrize(
    "url", ["https://internal.example.org/admin", "http://127.0.0.1:8000/", "http://[::1]/"]
)
def test_a_private_address_is_refused_and_recorded(web: respx.MockRouter, url: str) -> None:
    route = web.route().respond(200, text="secret")

    page = page_fetch(url=url)

    assert not route.called
    assert page.verification_status == VerificationStatus.FAILED
    assert page.error == "blocked"


# --- a real slow server on loopback -------------------------------------------------------------


class _SlowHandler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        try:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(b"<html><body>")
            self.wfile.flush()
            time.sleep(3)
            self.wfile.write(b"too late</body></html>")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up on purpose: that is the point of the test

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def slow_server(settings: Any) -> Iterator[str]:
    settings.CLAIMCHECK_HTTP_ALLOW_LOOPBACK = True
    server = ThreadingHTTPServer(("127.0.0.1", 0), _SlowHandler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def test_a_slow_server_times_out_and_is_recorded(
    slow_server: str, settings: Any, tmp_path: Path
) -> None:
    use_config(settings, tmp_path, "fetcher: {timeout_s: 0.5}\n")
    started = time.monotonic()

    page = page_fetch(url=f"{slow_server}/slow")

    assert time.monotonic() - started < 2.5
    assert page.verification_status == VerificationStatus.FAILED
    assert page.error == "timeout"


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


# --- the page cache -----------------------------------------------------------------------------


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


# --- fetchers -----------------------------------------------------------------------------------


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
