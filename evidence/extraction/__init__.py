"""Main text, metadata and dates of one fetched page, cheap first.

One parse of the HTML feeds everything: structured data (JSON-LD, microdata, OpenGraph, meta
tags, `<time>`), then htmldate's heuristics only when the markup names no date, then
trafilatura for the main text and its headings, then dates written in the text. The
publication date (what the page says about itself) and event dates (what happened, according
to the text) are kept apart.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime, time
from typing import Any

import htmldate
import trafilatura
from lxml.html import HtmlElement
from trafilatura.baseline import baseline
from trafilatura.metadata import extract_title
from trafilatura.utils import load_html

from evidence.dates import DatedMention, find_text_dates
from evidence.extraction.structured import (
    MODIFIED_META,
    PUBLISHED_META,
    DateFound,
    StructuredData,
    first_text,
    meta_dates,
    page_language,
    parse_date_value,
    read_structured,
    structured_dates,
    structured_event_dates,
    time_element_date,
    url_date,
)
from evidence.extraction.visible import is_shown, visible_text

logger = logging.getLogger(__name__)

__all__ = ["ExtractedDocument", "extract_document"]

_METADATA_JSON_MAX = 20_000
_MAX_EVENT_DATES = 50
# A date written in the text stands in for the publication date only near the top of the page,
# where datelines are; further down it is more likely an event the article reports.
_DATELINE_ZONE = 400


@dataclass
class ExtractedDocument:
    title: str
    text: str
    published_at: datetime | None
    modified_at: datetime | None
    date_source: str
    language: str
    metadata: dict[str, Any]
    event_dates: list[DatedMention]
    headings: list[str]
    heading_levels: list[int] = field(default_factory=list)


def extract_document(
    *, content: bytes | str, content_type: str, url: str, encoding: str | None = None
) -> ExtractedDocument:
    """Read one page. HTML gets the full treatment; `text/plain` (and anything that is not
    markup) is kept as it is, with dates found in the text."""
    if isinstance(content, bytes) and encoding:
        try:
            content = content.decode(encoding, errors="replace")
        except LookupError:
            logger.info("unknown page encoding", extra={"url": url, "encoding": encoding})
    if not _is_html(content_type, content):
        return _plain_document(content)
    tree = load_html(content)
    if tree is None:
        return _plain_document(content)
    return _html_document(tree, url)


def _is_html(content_type: str, content: bytes | str) -> bool:
    kind = content_type.split(";")[0].strip().lower()
    if kind in ("text/html", "application/xhtml+xml"):
        return True
    if kind and kind != "application/octet-stream":
        return False
    head = (
        content[:1000].lower()
        if isinstance(content, str)
        else content[:1000].lower().decode("ascii", errors="ignore")
    )
    return "<html" in head or "<!doctype html" in head


def _plain_document(content: bytes | str) -> ExtractedDocument:
    text = content if isinstance(content, str) else content.decode("utf-8", errors="replace")
    # NUL cannot be stored in a PostgreSQL text column; it never carries meaning in text.
    text = text.replace("\x00", "").replace("\r\n", "\n").strip()
    first_line = text.split("\n", 1)[0].strip() if text else ""
    mentions = find_text_dates(text, reference=None)
    events = [m for m in mentions if m.is_event][:_MAX_EVENT_DATES]
    return ExtractedDocument(
        title=first_line if len(first_line) <= 200 else "",
        text=text,
        published_at=None,
        modified_at=None,
        date_source="",
        language="",
        metadata={"event_dates": [m.as_json() for m in events], "headings": []},
        event_dates=events,
        headings=[],
    )


def _html_document(tree: HtmlElement, url: str) -> ExtractedDocument:
    data = read_structured(tree, url)
    modified = next(_modified_dates(data), None)
    published = publication_date(tree, data, url, modified)
    text, headings, levels = main_text(tree, url)
    title = first_text(
        *(item.get("headline") for item in data.jsonld),
        data.opengraph.get("og:title"),
        extract_title(tree),
    )
    if published is None:
        published = _text_dateline(f"{title}\n{text}")
    reference = published.value.date() if published else None
    mentions = find_text_dates(text, reference=reference)
    events = [m for m in mentions if m.is_event]
    for start, name, source in structured_event_dates(data):
        events.insert(
            0,
            DatedMention(
                when=start.date(), phrase=name, sentence=name, source=source, is_event=True
            ),
        )
    events = events[:_MAX_EVENT_DATES]
    metadata = {
        "description": first_text(
            data.opengraph.get("og:description"),
            data.meta.get("description"),
            *(item.get("description") for item in data.jsonld),
        ),
        "site_name": first_text(data.opengraph.get("og:site_name")),
        "author": first_text(
            *(item.get("author") for item in data.jsonld), data.meta.get("author")
        ),
        "event_dates": [m.as_json() for m in events],
        "headings": headings,
        "heading_levels": levels,
        "structured": _json_safe(data.as_json()),
    }
    return ExtractedDocument(
        title=title,
        text=text,
        published_at=published.value if published else None,
        modified_at=modified.value if modified else None,
        date_source=published.source if published else "",
        language=page_language(tree, data),
        metadata=metadata,
        event_dates=events,
        headings=headings,
        heading_levels=levels,
    )


def publication_date(
    tree: HtmlElement, data: StructuredData, url: str, modified: DateFound | None = None
) -> DateFound | None:
    """The page's own publication date, from the most explicit statement of it.

    Markup can disagree with what the page shows its readers. When the declared date is
    printed nowhere on the page but the modification date is (a page re-dated on update), or
    htmldate finds another date that is printed, the printed date is the one readers take as
    the page's date.
    """
    from_url = url_date(url)
    if from_url is not None:
        return from_url
    declared = next(_published_dates(data), None)
    if declared is None:
        declared = time_element_date(tree)
    if declared is None:
        visible = _htmldate(tree, url)
        return DateFound(visible, "htmldate") if visible else None
    text = visible_text(tree)
    if is_shown(text, declared.value.date()):
        return declared
    if modified is not None and is_shown(text, modified.value.date()):
        return modified
    visible = _htmldate(tree, url)
    if visible is not None and is_shown(text, visible.date()):
        return DateFound(visible, "htmldate")
    return declared


def _htmldate(tree: HtmlElement, url: str) -> datetime | None:
    guessed = htmldate.find_date(tree, extensive_search=True, original_date=False, url=url or None)
    return parse_date_value(guessed) if guessed else None


def _published_dates(data: StructuredData) -> Any:
    yield from structured_dates(data, "datePublished", "jsonld")
    yield from meta_dates(data, PUBLISHED_META)
    yield from structured_dates(data, "datePublished", "microdata")
    yield from structured_dates(data, "dateCreated", "jsonld")


def _modified_dates(data: StructuredData) -> Any:
    yield from structured_dates(data, "dateModified", "jsonld")
    yield from meta_dates(data, MODIFIED_META)
    yield from structured_dates(data, "dateModified", "microdata")


def _text_dateline(text: str) -> DateFound | None:
    for mention in find_text_dates(text[:_DATELINE_ZONE], reference=None):
        if mention.precision == "day":
            return DateFound(datetime.combine(mention.when, time(), UTC), "text")
    return None


def main_text(tree: HtmlElement, url: str) -> tuple[str, list[str], list[int]]:
    """trafilatura's main text with its headings (and their levels); its baseline extractor
    when the page is too short or too odd for the full one."""
    document = trafilatura.bare_extraction(
        tree,
        url=url or None,
        with_metadata=False,
        include_comments=False,
        include_tables=True,
        output_format="python",
    )
    if document is not None and not isinstance(document, dict) and document.text:
        headings: list[str] = []
        levels: list[int] = []
        if document.body is not None:
            for head in document.body.iter("head"):
                heading = " ".join("".join(head.itertext()).split())
                if heading:
                    headings.append(heading)
                    levels.append(_level(head.get("rend")))
        return document.text, headings, levels
    _, text, _ = baseline(tree)
    return text, [], []


def _level(rend: str | None) -> int:
    if rend and len(rend) == 2 and rend[0] == "h" and rend[1].isdigit():
        return int(rend[1])
    return 2


def _json_safe(value: dict[str, Any]) -> dict[str, Any]:
    """Structured data as stored JSON: values that JSON cannot hold become strings, and an
    oversized blob (recipe sites embed whole catalogues) is dropped rather than truncated
    into invalid JSON."""
    encoded = json.dumps(value, default=str, ensure_ascii=False)
    if len(encoded) > _METADATA_JSON_MAX:
        return {"truncated": True, "meta": value.get("meta", {})}
    loaded: dict[str, Any] = json.loads(encoded)
    return loaded
