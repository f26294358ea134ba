"""Load the shipped demo corpus into the domain registry, the page cache and the local index.

The corpus is a small fictional news world on `.example` domains (which never resolve), so a new
user can check the demo claims with no keys and no network. Every live page is read by the
evidence app's own reader (`read_raw`), exactly as a real fetch would read it, and stored as a
fresh `Page`, so the page cache answers instead of the network; it is also indexed for the
`local` search provider. Dead links and pages on denied domains are indexed only: they show up in
search, as they would on the web, but there is nothing to fetch (dead) or fetching is refused
(denied).

Loading is idempotent and cheap, so it runs at every start: rows are updated in place, and the
pages' `fetched_at` is renewed so they stay within the page cache's TTL.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from pathlib import Path
from typing import Any

from django.db import transaction

from evidence.fetching import corpus_page_store
from evidence.fetching.base import StoredFetcher
from evidence.fetching.reading import fetch_outcome
from harvester.services import index_document
from integrations.http.canonical import canonicalize_url
from registry.domain_rows import DomainCsvError, parse_domains_csv
from registry.services import domains_import

logger = logging.getLogger(__name__)

DEMO_DIR = Path(__file__).resolve().parent
MANIFEST = DEMO_DIR / "manifest.json"
DOMAINS_CSV = DEMO_DIR / "domains.csv"
CLAIMS_JSON = DEMO_DIR / "claims.json"
FETCHER_NAME = "demo"
OUTCOMES = ("true", "false", "invalid")


class DemoCorpusError(Exception):
    """The shipped corpus is inconsistent (a missing file, a bad manifest entry)."""


@dataclass(frozen=True)
class DemoEntry:
    """One manifest line: a live page (with its file) or a dead link (title and snippet only)."""

    url: str
    file: str = ""
    content_type: str = ""
    dead: bool = False
    title: str = ""
    snippet: str = ""
    published: datetime | None = None
    role: str = ""

    @property
    def path(self) -> Path:
        return DEMO_DIR / self.file


@dataclass(frozen=True)
class DemoClaim:
    text: str
    timeframe_start: datetime | None
    timeframe_end: datetime | None
    source_channel: str
    expected: str
    why: str
    sources: tuple[str, ...] = ()
    """The corpus pages the outcome rests on (for tests, benchmarks and the UI)."""


@dataclass(frozen=True)
class DemoSummary:
    domains: int
    domains_created: int
    domains_updated: int
    pages: int
    pdfs: int
    denied: int
    dead_links: int
    indexed: int
    claims: int

    def lines(self) -> list[str]:
        return [
            f"domains: {self.domains} ({self.domains_created} created,"
            f" {self.domains_updated} updated)",
            f"pages stored: {self.pages} (of which PDF: {self.pdfs})",
            f"pages on denied domains (indexed, not stored): {self.denied}",
            f"dead links (indexed, not stored): {self.dead_links}",
            f"documents in the local index: {self.indexed}",
            f"demo claims: {self.claims}",
        ]


def _aware_datetime(value: str | None) -> datetime | None:
    if not value:
        return None
    if len(value) == 10:
        return datetime.combine(date.fromisoformat(value), time(), UTC)
    parsed = datetime.fromisoformat(value)
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


def demo_manifest() -> list[DemoEntry]:
    """Every manifest entry, checked: live pages name an existing file and a content type."""
    try:
        raw = json.loads(MANIFEST.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DemoCorpusError(f"cannot read {MANIFEST.name}: {exc}") from exc
    entries: list[DemoEntry] = []
    for index, item in enumerate(raw.get("pages", [])):
        if not isinstance(item, dict) or not item.get("url"):
            raise DemoCorpusError(f"manifest entry {index} has no url")
        entry = DemoEntry(
            url=str(item["url"]),
            file=str(item.get("file", "")),
            content_type=str(item.get("content_type", "")),
            dead=bool(item.get("dead", False)),
            title=str(item.get("title", "")),
            snippet=str(item.get("snippet", "")),
            published=_aware_datetime(item.get("published")),
            role=str(item.get("role", "")),
        )
        if entry.dead:
            if not entry.title or not entry.snippet:
                raise DemoCorpusError(f"dead link {entry.url} needs a title and a snippet")
        elif not entry.file or not entry.content_type or not entry.path.is_file():
            raise DemoCorpusError(f"{entry.url}: file {entry.file!r} is missing")
        entries.append(entry)
    return entries


def demo_claims() -> list[DemoClaim]:
    """The demo claims with the outcome each should reach on this corpus."""
    try:
        raw = json.loads(CLAIMS_JSON.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DemoCorpusError(f"cannot read {CLAIMS_JSON.name}: {exc}") from exc
    claims: list[DemoClaim] = []
    for item in raw:
        expected = str(item.get("expected", ""))
        if expected not in OUTCOMES:
            raise DemoCorpusError(f"claim {item.get('text')!r}: expected {expected!r} is unknown")
        start = _aware_datetime(item.get("timeframe_start"))
        end = _aware_datetime(item.get("timeframe_end"))
        claims.append(
            DemoClaim(
                text=str(item["text"]),
                timeframe_start=start,
                # A timeframe's end day is included whole.
                timeframe_end=end.replace(hour=23, minute=59, second=59) if end else None,
                source_channel=str(item.get("source_channel", "")),
                expected=expected,
                why=str(item.get("why", "")),
                sources=tuple(str(url) for url in item.get("sources", [])),
            )
        )
    return claims


def demo_load() -> DemoSummary:
    """Upsert the demo domains, pages and index entries. Safe to run any number of times."""
    entries = demo_manifest()
    claims = demo_claims()
    domains_text = DOMAINS_CSV.read_text(encoding="utf-8")
    try:
        domain_count = len(parse_domains_csv(domains_text))
    except DomainCsvError as exc:
        raise DemoCorpusError(f"{DOMAINS_CSV.name}: {exc}") from exc
    created, updated = domains_import(text=domains_text)
    live = {entry.url: entry for entry in entries if not entry.dead}
    fetcher = StoredFetcher(
        {url: (e.content_type, e.path.read_bytes()) for url, e in live.items()},
        name=FETCHER_NAME,
    )
    pages = pdfs = denied = dead = 0
    with transaction.atomic():
        for entry in entries:
            canonical = canonicalize_url(entry.url)
            if entry.dead:
                index_document(
                    url=entry.url, title=entry.title, text=entry.snippet, published=entry.published
                )
                dead += 1
                continue
            outcome = fetch_outcome(fetcher, entry.url)
            if outcome.failed:
                raise DemoCorpusError(f"{entry.url} cannot be read: {outcome.error}")
            if corpus_page_store(url=entry.url, canonical=canonical, outcome=outcome) is None:
                denied += 1
                continue
            pages += 1
            pdfs += int(entry.content_type == "application/pdf")
    summary = DemoSummary(
        domains=domain_count,
        domains_created=created,
        domains_updated=updated,
        pages=pages,
        pdfs=pdfs,
        denied=denied,
        dead_links=dead,
        indexed=pages + denied + dead,
        claims=len(claims),
    )
    logger.info("demo corpus loaded", extra={"demo": _as_extra(summary)})
    return summary


def _as_extra(summary: DemoSummary) -> dict[str, Any]:
    return {key: getattr(summary, key) for key in summary.__dataclass_fields__}


def demo_claims_decide(*, progress: Callable[[int, int, str], None] | None = None) -> Counter[str]:
    """Check every demo claim that is not in the queue yet, in the foreground, so that a first
    login finds them decided. Returns how many of those checked reached each outcome ("True",
    "False", "Invalid", or the claim's status if it has none); safe to run again."""
    from claims.models import Claim, claim_hash
    from decisions.pipeline import claim_pipeline_run
    from decisions.services import claim_submit

    missing = [
        demo
        for demo in demo_claims()
        if not Claim.objects.filter(
            normalized_hash=claim_hash(demo.text), source_channel=demo.source_channel
        ).exists()
    ]
    tally: Counter[str] = Counter()
    for number, demo in enumerate(missing, start=1):
        if progress is not None:
            progress(number, len(missing), demo.text)
        claim, created = claim_submit(
            text=demo.text,
            timeframe_start=demo.timeframe_start,
            timeframe_end=demo.timeframe_end,
            source_channel=demo.source_channel,
            enqueue=False,
        )
        if created:
            claim_pipeline_run(claim_id=claim.pk)
            claim.refresh_from_db()
        tally[claim.get_outcome_display() or claim.status] += 1
    return tally
