"""The greedy merge: the union of every provider's results, one row per canonical URL, with
the providers that found it. Confidence is the number of distinct providers, nothing more."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from harvester.providers.base import ProviderOutcome
from integrations.http.canonical import canonicalize_url, dedupe_hash

_NO_RANK = 10**9


@dataclass
class MergedResult:
    url: str
    dedupe_hash: str
    providers: list[str] = field(default_factory=list)
    best_rank: int | None = None
    title: str = ""
    snippet: str = ""
    published: datetime | None = None
    first_seen: int = 0

    @property
    def confidence(self) -> int:
        return len(self.providers)


def merge_outcomes(outcomes: Sequence[ProviderOutcome]) -> list[MergedResult]:
    """Merge the answered outcomes (in the order given: the cascade order). Per URL: the
    providers in that order, the best rank, the longest title and snippet, the earliest date.
    URLs that are not http(s) are dropped here (the raw rows still keep them)."""
    merged: dict[str, MergedResult] = {}
    seen = 0
    for outcome in outcomes:
        if not outcome.ok:
            continue
        for hit in outcome.hits:
            try:
                canonical = canonicalize_url(hit.url)
            except ValueError:
                continue
            entry = merged.get(canonical)
            if entry is None:
                entry = MergedResult(
                    url=canonical, dedupe_hash=dedupe_hash(canonical), first_seen=seen
                )
                merged[canonical] = entry
                seen += 1
            if outcome.provider not in entry.providers:
                entry.providers.append(outcome.provider)
            if hit.rank is not None and (entry.best_rank is None or hit.rank < entry.best_rank):
                entry.best_rank = hit.rank
            if len(hit.title) > len(entry.title):
                entry.title = hit.title
            if len(hit.snippet) > len(entry.snippet):
                entry.snippet = hit.snippet
            if hit.published is not None and (
                entry.published is None or hit.published < entry.published
            ):
                entry.published = hit.published
    return sorted(
        merged.values(),
        key=lambda m: (
            -m.confidence,
            m.best_rank if m.best_rank is not None else _NO_RANK,
            m.first_seen,
        ),
    )
