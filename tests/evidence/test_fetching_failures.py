"""Fetching pages: every way a page can go wrong ends in a recorded status, never a crash.

The outside web is respx routes at integrations.http's boundary, with DNS faked through
`integrations.http.addresses.resolve`; the slow server is a real one on 127.0.0.1.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
import respx

from evidence.fetching import page_fetch
from evidence.models import ContentDepth, VerificationStatus
from harvester.models import LocalDocument
from tests.evidence.factories import (
    ARTICLE_TEXT,
    DeniedDomainFactory,
    article_html,
    minimal_pdf,
    use_config,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("offline_fetching")]

URL = "https://news.example.org/rail"
HTML = {"content-type": "text/html; charset=utf-8"}


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
