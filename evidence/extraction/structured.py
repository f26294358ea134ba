"""What a page says about itself in markup: JSON-LD, microdata, OpenGraph, meta tags, <time>.

Each date found here carries the name of the place it came from (`jsonld:datePublished`,
`meta:article:published_time`, `time`), because an editor reading a verdict should be able to
see why a source was judged to be in or out of the claim's timeframe.
"""

from __future__ import annotations

import email.utils
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta, timezone
from typing import Any

import extruct
from lxml.html import HtmlElement

from evidence.dates import find_text_dates

logger = logging.getLogger(__name__)

EARLIEST = datetime(1995, 1, 1, tzinfo=UTC)

# schema.org types whose datePublished is the page's own date (not an embedded video's, say).
_CREATIVE_WORKS = re.compile(
    r"(Article|Posting|Report|BlogPosting|WebPage|Review|Release|Claim|Recipe|Creative|"
    r"Story|Blog|Checkin|Message|Comment|Question|Answer|LiveBlog|Collection)$",
    re.IGNORECASE,
)
_EVENT_TYPES = re.compile(r"Event$", re.IGNORECASE)

# Meta names that hold the publication date, best first. Lower-cased name / property /
# itemprop / http-equiv.
PUBLISHED_META = (
    "article:published_time",
    "og:article:published_time",
    "og:published_time",
    "article:published",
    "datepublished",
    "date_published",
    "citation_publication_date",
    "citation_date",
    "citation_online_date",
    "dc.date.issued",
    "dcterms.issued",
    "dc.date.created",
    "dcterms.created",
    "dc.date",
    "dcterms.date",
    "parsely-pub-date",
    "sailthru.date",
    "article.published",
    "published_time",
    "published-date",
    "publish-date",
    "publish_date",
    "publishdate",
    "pubdate",
    "originalpublicationdate",
    "article_date_original",
    "cxenseparse:recs:publishtime",
    "og:pubdate",
    "rnews:datepublished",
    "prism.publicationdate",
    "bt:pubdate",
    "date",
    "created",
)
MODIFIED_META = (
    "article:modified_time",
    "og:updated_time",
    "og:article:modified_time",
    "datemodified",
    "dcterms.modified",
    "dc.date.modified",
    "last-modified",
    "lastmod",
    "article:modified",
)

_ISO_PREFIX = re.compile(
    r"(?P<y>(?:19|20)\d\d)[-/.](?P<m>[01]?\d)[-/.](?P<d>[0-3]?\d)"
    r"(?:[T ](?P<H>[0-2]\d):(?P<M>[0-5]\d)(?::(?P<S>[0-5]\d)(?:\.\d+)?)?"
    r"\s*(?P<tz>Z|[+-][01]\d:?[0-5]\d)?)?"
)
_COMPACT = re.compile(r"^(?P<y>(?:19|20)\d\d)(?P<m>[01]\d)(?P<d>[0-3]\d)(?:\D|$)")


def parse_date_value(value: object, *, latest: datetime | None = None) -> datetime | None:
    """A timezone-aware datetime from a markup value, or None when it is no plausible date.

    The offset written in the page is kept (not converted to UTC) so that the calendar day
    stays the one the page states; a value without an offset is read as UTC.
    """
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        value = value.get("@value")
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        return None
    text = str(value).strip()
    if not text:
        return None
    parsed = _parse_date_text(text)
    if parsed is None:
        return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    ceiling = latest or datetime.now(UTC) + timedelta(days=2)
    if not EARLIEST <= parsed <= ceiling:
        return None
    return parsed


def _parse_date_text(text: str) -> datetime | None:
    if text.isdigit() and len(text) >= 10:
        # A Unix timestamp, in seconds or milliseconds.
        seconds = int(text) / (1000 if len(text) >= 13 else 1)
        try:
            return datetime.fromtimestamp(seconds, UTC)
        except (OverflowError, OSError, ValueError):
            return None
    match = _ISO_PREFIX.search(text)
    if match:
        return _from_iso_match(match)
    compact = _COMPACT.match(text)
    if compact:
        return _combine(int(compact["y"]), int(compact["m"]), int(compact["d"]), None, None)
    if re.search(r"\d{1,2}:\d\d", text) and re.search(r"[A-Za-z]{3},?\s", text):
        try:
            return email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            pass  # not RFC 2822 after all; the written-date parser below may still read it
    mentions = find_text_dates(text, reference=None, source="markup")
    day_mentions = [m for m in mentions if m.precision == "day"]
    if day_mentions:
        return datetime.combine(day_mentions[0].when, time(), UTC)
    return None


def _from_iso_match(match: re.Match[str]) -> datetime | None:
    offset = None
    tz = match["tz"]
    if tz:
        if tz == "Z":
            offset = UTC
        else:
            sign = 1 if tz[0] == "+" else -1
            digits = tz[1:].replace(":", "")
            try:
                offset = timezone(sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:])))
            except ValueError:
                offset = None
    hour = (int(match["H"]), int(match["M"]), int(match["S"] or 0)) if match["H"] else None
    return _combine(int(match["y"]), int(match["m"]), int(match["d"]), hour, offset)


def _combine(
    year: int, month: int, day: int, hms: tuple[int, int, int] | None, tz: Any
) -> datetime | None:
    try:
        found = date(year, month, day)
        clock = time(*hms) if hms else time()
    except ValueError:
        return None
    return datetime.combine(found, clock, tz)


@dataclass
class StructuredData:
    jsonld: list[dict[str, Any]] = field(default_factory=list)
    microdata: list[dict[str, Any]] = field(default_factory=list)
    opengraph: dict[str, Any] = field(default_factory=dict)
    meta: dict[str, str] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "jsonld": self.jsonld[:10],
            "microdata": self.microdata[:10],
            "opengraph": self.opengraph,
            "meta": self.meta,
        }


def read_structured(tree: HtmlElement, url: str) -> StructuredData:
    try:
        raw = extruct.extract(
            tree,
            base_url=url or None,
            syntaxes=["json-ld", "microdata", "opengraph"],
            uniform=True,
            errors="ignore",
        )
    except (ValueError, TypeError, AttributeError, KeyError) as exc:
        # extruct trips over some malformed markup; the page's text is still worth reading.
        logger.info("structured data unreadable", extra={"url": url, "error": repr(exc)[:200]})
        raw = {}
    opengraph: dict[str, Any] = {}
    for item in raw.get("opengraph", []):
        if isinstance(item, dict):
            opengraph.update({k: v for k, v in item.items() if not k.startswith("@")})
    return StructuredData(
        jsonld=[item for item in _flatten(raw.get("json-ld", [])) if isinstance(item, dict)],
        microdata=[item for item in _flatten(raw.get("microdata", [])) if isinstance(item, dict)],
        opengraph=opengraph,
        meta=_meta_tags(tree),
    )


def _flatten(items: Any) -> Iterator[Any]:
    """JSON-LD nests the page's item inside @graph lists and mainEntity wrappers."""
    if isinstance(items, list):
        for item in items:
            yield from _flatten(item)
    elif isinstance(items, dict):
        yield items
        for key in ("@graph", "mainEntity", "mainEntityOfPage", "itemListElement"):
            nested = items.get(key)
            if isinstance(nested, list | dict):
                yield from _flatten(nested)


def _meta_tags(tree: HtmlElement) -> dict[str, str]:
    found: dict[str, str] = {}
    for element in tree.iter("meta"):
        key = (
            element.get("property")
            or element.get("name")
            or element.get("itemprop")
            or element.get("http-equiv")
            or ""
        ).strip()
        value = (element.get("content") or element.get("datetime") or "").strip()
        if key and value and key.lower() not in found:
            found[key.lower()] = value[:1000]
    return found


def _types(item: dict[str, Any]) -> list[str]:
    kind = item.get("@type", "")
    kinds = kind if isinstance(kind, list) else [kind]
    return [str(k).rsplit("/", 1)[-1] for k in kinds]


@dataclass(frozen=True)
class DateFound:
    value: datetime
    source: str


def structured_dates(data: StructuredData, key: str, prefix: str) -> Iterator[DateFound]:
    """datePublished / dateModified from JSON-LD or microdata items that describe the page."""
    items = data.jsonld if prefix == "jsonld" else data.microdata
    ranked = sorted(items, key=lambda item: 0 if _is_page_item(item) else 1)
    for item in ranked:
        if any(_EVENT_TYPES.search(kind) for kind in _types(item)):
            continue
        parsed = parse_date_value(item.get(key))
        if parsed is not None:
            yield DateFound(parsed, f"{prefix}:{key}")


def _is_page_item(item: dict[str, Any]) -> bool:
    return any(_CREATIVE_WORKS.search(kind) for kind in _types(item))


def structured_event_dates(data: StructuredData) -> Iterator[tuple[datetime, str, str]]:
    """schema.org Event items: (start date, the event's name, source)."""
    for item in [*data.jsonld, *data.microdata]:
        if any(_EVENT_TYPES.search(kind) for kind in _types(item)):
            parsed = parse_date_value(
                item.get("startDate"), latest=datetime.max.replace(tzinfo=UTC)
            )
            if parsed is not None:
                yield parsed, str(item.get("name") or ""), "jsonld:startDate"


def meta_dates(data: StructuredData, names: tuple[str, ...]) -> Iterator[DateFound]:
    for name in names:
        parsed = parse_date_value(data.meta.get(name)) if name in data.meta else None
        if parsed is not None:
            yield DateFound(parsed, f"meta:{name}")


_URL_DATE = re.compile(
    r"[/_-](?P<y>(?:19|20)\d\d)(?P<sep>[/_.-])(?P<m>[01]?\d)(?P=sep)(?P<d>[0-3]?\d)"
    r"(?=/|\.|$|(?P=sep))"
)


def url_date(url: str) -> DateFound | None:
    """A full date in the URL path (/2023/11/08/...): publishers put it there when the page
    is first published, and it does not move when the page is later edited."""
    path = re.sub(r"^[a-z]+://[^/]+", "", url or "").split("?", 1)[0]
    match = _URL_DATE.search(path)
    if match is None:
        return None
    parsed = _combine(int(match["y"]), int(match["m"]), int(match["d"]), None, UTC)
    if parsed is None or parse_date_value(parsed.date().isoformat()) is None:
        return None
    return DateFound(parsed, "url")


_TIME_CUES = re.compile(r"publish|posted|entry-date|created|dateline|byline|date", re.IGNORECASE)
_TIME_NOISE = re.compile(r"comment|related|sidebar|footer|widget|modified|updated", re.IGNORECASE)


def time_element_date(tree: HtmlElement) -> DateFound | None:
    """The first <time datetime> that looks like the article's own date: marked pubdate or
    datePublished, or inside the article header, never in comments, sidebars or footers."""
    elements = tree.xpath("//time[@datetime]")
    marked = [
        e
        for e in elements
        if e.get("pubdate") is not None or (e.get("itemprop") or "").lower() == "datepublished"
    ]
    for element in marked or elements:
        if not marked and _in_noise(element):
            continue
        if not marked and not _looks_like_dateline(element):
            continue
        parsed = parse_date_value(element.get("datetime"))
        if parsed is not None:
            return DateFound(parsed, "time")
    return None


def _context_attributes(element: HtmlElement, depth: int = 4) -> Iterator[str]:
    node: HtmlElement | None = element
    for _ in range(depth):
        if node is None:
            return
        yield " ".join(filter(None, [node.get("class"), node.get("id"), node.get("itemprop")]))
        node = node.getparent()


def _in_noise(element: HtmlElement) -> bool:
    for ancestor in element.iterancestors():
        if ancestor.tag in ("footer", "aside", "nav"):
            return True
        attrs = " ".join(filter(None, [ancestor.get("class"), ancestor.get("id")]))
        if attrs and _TIME_NOISE.search(attrs):
            return True
    return False


def _looks_like_dateline(element: HtmlElement) -> bool:
    if any(_TIME_CUES.search(attrs) for attrs in _context_attributes(element)):
        return True
    return any(ancestor.tag in ("article", "header") for ancestor in element.iterancestors())


def first_text(*values: Any) -> str:
    for value in values:
        if isinstance(value, list):
            value = value[0] if value else None
        if isinstance(value, dict):
            value = value.get("@value") or value.get("name")
        if isinstance(value, str) and value.strip():
            return " ".join(value.split())
    return ""


def page_language(tree: HtmlElement, data: StructuredData) -> str:
    raw = first_text(
        tree.get("lang"),
        tree.get("{http://www.w3.org/XML/1998/namespace}lang"),
        data.meta.get("content-language"),
        data.meta.get("og:locale"),
        data.meta.get("dc.language"),
        *(item.get("inLanguage") for item in data.jsonld),
    )
    match = re.match(r"[A-Za-z]{2,3}", raw)
    return match.group(0).lower() if match else ""
