"""How far a claim being checked has got: the steps of its run so far and what it is doing, for
the claim page's status bar and the queue's rows."""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from itertools import accumulate

from claimcheck.config import get_config
from claims.models import Claim, EventKind, PipelineEvent

# What a claim is doing once a step of each kind is on its timeline.
DOING: dict[str, str] = {
    EventKind.QUEUED: "waiting for a worker",
    EventKind.QUERY: "composing a query",
    EventKind.SEARCH: "searching",
    EventKind.GATE: "choosing what to read",
    EventKind.CRAWL: "reading pages",
    EventKind.VERIFY: "checking snippets on their pages",
    EventKind.EVIDENCE: "reading pages",
    EventKind.FACTCHECK: "looking up fact-checks",
    EventKind.DECISION: "weighing the evidence",
    EventKind.VERDICT: "deciding",
    EventKind.ERROR: "stopped on an error",
}


@dataclass(frozen=True)
class Progress:
    step: int
    """Steps of the current run on the timeline (the run's "queued" line not counted)."""
    doing: str

    @property
    def label(self) -> str:
        return f"step {self.step}: {self.doing}" if self.step else self.doing


def doing_after(*, steps: list[str]) -> str:
    """What a claim is doing once `steps` (its run's event kinds, in order) are on its
    timeline, against the run's budgets: "reading page 2 of at most 4"."""
    if not steps:
        return DOING[EventKind.QUEUED]
    latest = steps[-1]
    budgets = get_config().budgets
    if latest in (EventKind.QUERY, EventKind.SEARCH):
        # Counted per attempt: each search sends one query, so a query being composed is the
        # one after those sent, and a search is the query it sends.
        sent = steps.count(EventKind.SEARCH)
        if latest == EventKind.QUERY:
            return f"composing query {sent + 1} of at most {budgets.max_queries}"
        return f"searching: query {sent} of at most {budgets.max_queries}"
    if latest in (EventKind.CRAWL, EventKind.EVIDENCE, EventKind.VERIFY):
        pages = max(1, steps.count(EventKind.CRAWL) + steps.count(EventKind.VERIFY))
        where = f"page {pages} of at most {budgets.total_crawls}"
        if latest == EventKind.VERIFY:
            return f"checking snippets on their pages: {where}"
        return f"reading {where}"
    return DOING.get(latest, "working")


def counts_after(*, steps: list[str], found: int) -> dict[str, int]:
    """The run's queries sent, pages read and evidence once `steps` are on its timeline;
    `found` is the evidence rows the run had stored by then (the status bar, each step and the
    verdict count the same rows)."""
    return {
        "queries": steps.count(EventKind.SEARCH),
        "pages": steps.count(EventKind.CRAWL) + steps.count(EventKind.VERIFY),
        "evidence": found,
    }


def reporting_steps(*, stored: dict[int, datetime], events: list[PipelineEvent]) -> dict[int, int]:
    """Each evidence row (by id, with when it was stored) against the step that reports it:
    the first step recorded at or after it. A row stored after the latest step is left out:
    its step is not on the timeline yet."""
    # Steps recorded by several processes may be a clock tick out of order: the latest so far.
    times = list(accumulate((event.created_at for event in events), max))
    steps: dict[int, int] = {}
    for pk, at in stored.items():
        index = bisect_left(times, at)
        if index < len(events):
            steps[pk] = events[index].sequence
    return steps


def progress_of(*, kinds: list[str]) -> Progress:
    """From a claim's event kinds in timeline order: the steps after its latest "queued"."""
    start = max((i for i, kind in enumerate(kinds) if kind == EventKind.QUEUED), default=-1)
    steps = kinds[start + 1 :]
    if not steps:
        return Progress(step=0, doing=DOING[EventKind.QUEUED])
    return Progress(step=len(steps), doing=doing_after(steps=steps))


def claims_progress(*, claims: list[Claim]) -> dict[int, Progress]:
    """The progress of each claim in `claims` being checked now, in one query (none when no
    claim is queued or running)."""
    active = [claim.pk for claim in claims if not claim.is_terminal]
    if not active:
        return {}
    kinds: dict[int, list[str]] = defaultdict(list)
    rows = (
        PipelineEvent.objects.filter(claim_id__in=active)
        .order_by("claim_id", "sequence")
        .values_list("claim_id", "kind")
    )
    for claim_id, kind in rows:
        kinds[claim_id].append(kind)
    return {pk: progress_of(kinds=kinds[pk]) for pk in active}
