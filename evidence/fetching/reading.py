"""Reading what a fetcher brought back: verification (status, title, type), content depth, the
text of HTML, plain text and PDFs. No database here, so it runs in worker threads."""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from evidence.extraction import extract_document
from evidence.extraction.hubs import hub_signals
from evidence.fetching.base import Fetcher, RawFetch
from evidence.fetching.pdf import PdfUnreadable, looks_like_pdf, pdf_text
from evidence.models import ContentDepth, VerificationStatus

logger = logging.getLogger(__name__)

# Depth thresholds: more than this many characters of text is a full read, ...
FULL_CHARS = 500
# ... more than this (a sentence of the page's own) is a partial one, read like any other;
# less falls back to the search snippet, a lead that cannot be checked against the page.
PARTIAL_CHARS = 40
# Raw HTML kept for re-extraction, in characters.
HTML_KEEP_CHARS = 500_000
RETRY_DELAY_S = 0.5

_HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
_SNIFF_TYPES = frozenset({"", "application/octet-stream", "binary/octet-stream"})
_PDF_TYPES = frozenset({"application/pdf", "application/x-pdf"})
# Statuses that mean "the page is there, but not for us": keep the lead, mark access partial.
_RESTRICTED = frozenset({401, 402, 403, 451})
_PAYWALL_MARKUP = re.compile(rb"""["']isAccessibleForFree["']\s*:\s*["']?false""", re.IGNORECASE)
_PAYWALL_WORDS = re.compile(
    rb"paywall|subscribe to (?:continue|read)|subscription required|subscribers only",
    re.IGNORECASE,
)


@dataclass
class FetchOutcome:
    """What one fetch established about a page: everything a Page row records."""

    final_url: str
    http_status: int | None
    verification_status: str
    content_depth: str
    scraped_chars: int = 0
    error: str = ""
    title: str = ""
    text: str = ""
    content_type: str = ""
    html: str = ""
    published_at: datetime | None = None
    modified_at: datetime | None = None
    date_source: str = ""
    language: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)
    fetcher: str = ""

    @property
    def failed(self) -> bool:
        return self.verification_status == VerificationStatus.FAILED


def fetch_with_retry(fetcher: Fetcher, url: str) -> RawFetch:
    """One fetch, and one more after a short pause when the server answered 5xx."""
    raw = fetcher.fetch(url)
    if raw.status is not None and raw.status >= 500:
        logger.info("fetch: retrying after server error", extra={"url": url, "status": raw.status})
        time.sleep(RETRY_DELAY_S)
        raw = fetcher.fetch(url)
    return raw


def _depth(chars: int) -> str:
    if chars > FULL_CHARS:
        return ContentDepth.FULL
    if chars > PARTIAL_CHARS:
        return ContentDepth.PARTIAL
    return ContentDepth.SNIPPET


def _snippet_only(
    raw: RawFetch, *, status: str, error: str, snippet: str, title_hint: str
) -> FetchOutcome:
    return FetchOutcome(
        final_url=raw.final_url,
        http_status=raw.status,
        verification_status=status,
        content_depth=ContentDepth.SNIPPET,
        error=error,
        title=raw.title or title_hint,
        text="" if status == VerificationStatus.FAILED else snippet.strip(),
        content_type=raw.content_type,
        metadata=_fetch_metadata(raw),
    )


def _fetch_metadata(raw: RawFetch) -> dict[str, Any]:
    return {**raw.metadata, "elapsed_ms": raw.elapsed_ms}


def _kind_of(raw: RawFetch) -> str:
    """html, text, pdf, unsupported or binary: the declared type, checked against the bytes."""
    declared = raw.content_type
    head = raw.content[:1024]
    if declared in _PDF_TYPES or looks_like_pdf(raw.content):
        return "pdf"
    if not raw.content and raw.text:
        return "text"  # the fetcher read the page itself (Firecrawl's Markdown)
    # Text holds no NUL bytes, except in UTF-16/32, which detect_encoding finds by their BOM.
    encoding = (raw.encoding or "").lower().replace("_", "-")
    if b"\x00" in head and not encoding.startswith(("utf-16", "utf-32")):
        return "binary"
    if declared in _HTML_TYPES:
        return "html"
    if declared.startswith("text/"):
        return "text"
    if declared in _SNIFF_TYPES and re.search(rb"<(?:!doctype html|html|head|body)\b", head, re.I):
        return "html"
    if declared.endswith(("/xml", "+xml", "/json", "+json")):
        return "unsupported"  # data feeds and APIs, not pages to read
    return "binary"


def read_raw(raw: RawFetch, *, snippet: str = "", title_hint: str = "") -> FetchOutcome:
    """Turn a raw fetch into the page's verified record (status, title, type, depth)."""
    if raw.error or raw.status is None:
        return _snippet_only(
            raw,
            status=VerificationStatus.FAILED,
            error=raw.error or "no response",
            snippet=snippet,
            title_hint=title_hint,
        )
    status = raw.status
    if status in _RESTRICTED:
        return _snippet_only(
            raw,
            status=VerificationStatus.PARTIAL,
            error=f"http {status}",
            snippet=snippet,
            title_hint=title_hint,
        )
    if not 200 <= status < 300:
        # Dead (404 / 410), still failing after a retry (5xx), rate limited, and the rest.
        return _snippet_only(
            raw,
            status=VerificationStatus.FAILED,
            error=f"http {status}",
            snippet=snippet,
            title_hint=title_hint,
        )
    kind = _kind_of(raw)
    if kind in ("binary", "unsupported"):
        return _snippet_only(
            raw,
            status=VerificationStatus.FAILED,
            error="binary" if kind == "binary" else f"unsupported type {raw.content_type}",
            snippet=snippet,
            title_hint=title_hint,
        )
    if kind == "pdf":
        return _read_pdf(raw, snippet=snippet, title_hint=title_hint)
    return _read_document(raw, kind=kind, snippet=snippet, title_hint=title_hint)


def _read_pdf(raw: RawFetch, *, snippet: str, title_hint: str) -> FetchOutcome:
    if not looks_like_pdf(raw.content) and raw.text:
        # A fetcher that read the PDF itself (Firecrawl) hands over its text instead.
        text, title, created, modified, extra = raw.text, raw.title, None, None, {}
    else:
        try:
            pdf = pdf_text(raw.content)
        except PdfUnreadable as exc:
            logger.info("fetch: unreadable pdf", extra={"url": raw.url, "reason": str(exc)})
            return _snippet_only(
                raw,
                status=VerificationStatus.FAILED,
                error="unreadable pdf",
                snippet=snippet,
                title_hint=title_hint,
            )
        text, title, created, modified = pdf.text, pdf.title, pdf.created_at, pdf.modified_at
        extra = {"pdf_pages": pdf.pages}
    document = extract_document(
        content=text.encode("utf-8"), content_type="text/plain", url=raw.final_url, encoding="utf-8"
    )
    outcome = _assess(
        raw,
        text=document.text or text,
        title=title or document.title,
        snippet=snippet,
        title_hint=title_hint,
        paywalled=False,
    )
    outcome.content_type = "application/pdf"
    outcome.published_at = document.published_at or created
    outcome.modified_at = document.modified_at or modified
    outcome.date_source = document.date_source or ("pdf metadata" if created else "")
    outcome.language = document.language
    outcome.metadata = {**outcome.metadata, **document.metadata, **extra}
    return outcome


def _read_document(raw: RawFetch, *, kind: str, snippet: str, title_hint: str) -> FetchOutcome:
    if kind == "text" and not raw.content:
        document = extract_document(
            content=raw.text.encode("utf-8"),
            content_type="text/plain",
            url=raw.final_url,
            encoding="utf-8",
        )
    else:
        document = extract_document(
            content=raw.content,
            content_type="text/html" if kind == "html" else "text/plain",
            url=raw.final_url,
            encoding=raw.encoding,
        )
    text = document.text
    if kind == "html" and len(text.strip()) <= PARTIAL_CHARS and raw.text:
        text = raw.text  # Firecrawl's Markdown when its HTML gave our reader nothing
    paywalled = kind == "html" and _looks_paywalled(raw.content, text)
    outcome = _assess(
        raw,
        text=text,
        title=document.title or raw.title,
        snippet=snippet,
        title_hint=title_hint,
        paywalled=paywalled,
    )
    outcome.published_at = document.published_at
    outcome.modified_at = document.modified_at
    outcome.date_source = document.date_source
    outcome.language = document.language or str(
        raw.metadata.get("firecrawl", {}).get("language", "")
    )
    outcome.metadata = {**outcome.metadata, **document.metadata}
    if kind == "html":
        outcome.html = _decode(raw)[:HTML_KEEP_CHARS]
        hub = hub_signals(outcome.html, base_url=raw.final_url or raw.url)
        if hub is not None and hub.is_hub:
            outcome.metadata["hub"] = True
            outcome.metadata["hub_links"] = [[url, label[:200]] for url, label in hub.targets]
    return outcome


def _assess(
    raw: RawFetch, *, text: str, title: str, snippet: str, title_hint: str, paywalled: bool
) -> FetchOutcome:
    text = text.strip()
    depth = _depth(len(text))
    verification = VerificationStatus.VERIFIED
    error = ""
    if paywalled:
        verification, error = VerificationStatus.PARTIAL, "paywall"
    elif depth == ContentDepth.SNIPPET:
        # The page is live but says (almost) nothing we could read: the snippet stands in.
        verification, error = VerificationStatus.PARTIAL, "no readable text"
    metadata = _fetch_metadata(raw)
    if title_hint and title:
        metadata["title_hint_overlap"] = _overlap(title, title_hint)
    return FetchOutcome(
        final_url=raw.final_url,
        http_status=raw.status,
        verification_status=verification,
        content_depth=depth,
        scraped_chars=len(text),
        error=error,
        title=(title or title_hint).strip()[:1000],
        text=text if depth != ContentDepth.SNIPPET else (snippet.strip() or text),
        content_type=raw.content_type,
        metadata=metadata,
    )


def _looks_paywalled(content: bytes, text: str) -> bool:
    if _PAYWALL_MARKUP.search(content):
        return True
    return len(text) <= FULL_CHARS and bool(_PAYWALL_WORDS.search(content))


def _overlap(title: str, hint: str) -> float:
    """Word overlap (Jaccard) of the real title and the one the search result showed."""
    words = set(re.findall(r"\w+", title.lower()))
    expected = set(re.findall(r"\w+", hint.lower()))
    if not words or not expected:
        return 0.0
    return round(len(words & expected) / len(words | expected), 3)


def _decode(raw: RawFetch) -> str:
    try:
        return raw.content.decode(raw.encoding or "utf-8", errors="replace")
    except LookupError:
        return raw.content.decode("utf-8", errors="replace")


def fetch_outcome(
    fetcher: Fetcher, url: str, *, snippet: str = "", title_hint: str = ""
) -> FetchOutcome:
    """Fetch and read one URL. Never raises for network trouble or unreadable content."""
    raw = fetch_with_retry(fetcher, url)
    try:
        outcome = read_raw(raw, snippet=snippet, title_hint=title_hint)
    except Exception:
        # A reader bug on one odd page must not lose the other pages of a batch; the page is
        # recorded as failed and the traceback logged for whoever fixes the reader.
        logger.exception("fetch: reading the page failed", extra={"url": url})
        outcome = _snippet_only(
            raw,
            status=VerificationStatus.FAILED,
            error="unreadable",
            snippet=snippet,
            title_hint=title_hint,
        )
    outcome.fetcher = fetcher.name
    return outcome
