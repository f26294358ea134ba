"""The claim page's live timeline: each step as the page shows it, with what the status bar
shows once that step is on the timeline (its number, what the claim is doing, the run's counts
and weights so far)."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Max
from django.utils.dateparse import parse_datetime

from claimcheck.config import get_config
from claims.models import Claim, EventKind, PipelineEvent
from desk.selectors.progress import DOING, counts_after, doing_after, reporting_steps


def _when(value: Any) -> datetime | None:
    if not value:
        return None
    try:
        return parse_datetime(str(value))
    except ValueError:
        return None


@dataclass(frozen=True)
class TimelineEntry:
    """One event as the page shows it: the payload's keys, with dates parsed."""

    event: PipelineEvent
    run: int
    data: dict[str, Any]

    @property
    def kind(self) -> str:
        return self.event.kind

    @property
    def doing(self) -> str:
        """What the claim is doing once this step is on its timeline, against its budgets."""
        return str(self.data.get("doing") or DOING.get(self.event.kind, "working"))

    @property
    def counts(self) -> dict[str, int]:
        """The run's queries, pages read and evidence once this step is on its timeline."""
        return dict(self.data.get("counts") or {})

    @property
    def step(self) -> int:
        """The step's number in its run (the run's "queued" line is 0)."""
        return int(self.data.get("step") or 0)

    @property
    def weights(self) -> AgreementBars | None:
        """The weights of the run's latest decision step so far, if any."""
        weights = self.data.get("weights")
        return weights if isinstance(weights, AgreementBars) else None


@dataclass(frozen=True)
class TimelineRun:
    number: int
    entries: list[TimelineEntry]


@dataclass(frozen=True)
class AgreementBars:
    """The decision's weights as the claim page draws them: each side against the agreement
    threshold (the verdict's own totals are `decisions.types.Totals`)."""

    support: float
    refute: float
    threshold: float
    support_domains: list[str] = field(default_factory=list)
    refute_domains: list[str] = field(default_factory=list)

    @property
    def support_pct(self) -> int:
        return _pct(self.support, self.threshold)

    @property
    def refute_pct(self) -> int:
        return _pct(self.refute, self.threshold)


def _pct(value: float, threshold: float) -> int:
    return min(100, round(100 * value / threshold)) if threshold > 0 else 0


def _entry(event: PipelineEvent, run: int) -> TimelineEntry:
    data = dict(event.payload or {})
    if event.kind == EventKind.SEARCH:
        data["provider_rows"] = sorted((data.get("providers") or {}).items())
    elif event.kind == EventKind.CRAWL:
        data["published_at"] = _when(data.get("published"))
    elif event.kind == EventKind.EVIDENCE:
        data["event_date"] = _when(data.get("event_at"))
    elif event.kind == EventKind.DECISION:
        data["totals"] = _totals_from(data)
    return TimelineEntry(event=event, run=run, data=data)


def _totals_from(payload: dict[str, Any]) -> AgreementBars:
    return AgreementBars(
        support=float(payload.get("support") or 0),
        refute=float(payload.get("refute") or 0),
        threshold=float(payload.get("threshold") or get_config().budgets.agreement_score),
        support_domains=list(payload.get("support_domains") or []),
        refute_domains=list(payload.get("refute_domains") or []),
    )


def timeline(
    *, events: list[PipelineEvent], stored: dict[int, datetime] | None = None
) -> list[TimelineRun]:
    """Events grouped by the run they belong to, newest run first, each in order. Each step
    carries what the status bar shows once it is on the timeline: its number in the run, what
    the claim is doing, the run's counts (`stored`: the claim's evidence rows by id, with when
    each was stored) and the weights of its latest decision step."""
    reported = Counter(reporting_steps(stored=stored or {}, events=events).values())
    runs: dict[int, list[TimelineEntry]] = defaultdict(list)
    current = 1
    shown = ""
    steps: list[str] = []
    found = 0
    weights: AgreementBars | None = None
    for event in events:
        number = (event.payload or {}).get("run")
        if isinstance(number, int):
            current = number
        entry = _entry(event, current)
        steps = [] if event.kind == EventKind.QUEUED else [*steps, event.kind]
        if not steps:
            found, weights = 0, None
        found += reported[event.sequence]
        weights = entry.data.get("totals", weights)
        entry.data["step"] = len(steps)
        entry.data["doing"] = doing_after(steps=steps)
        entry.data["counts"] = counts_after(steps=steps, found=found)
        entry.data["weights"] = weights
        if event.kind in (EventKind.QUERY, EventKind.SEARCH):
            # A search that sends the query just shown does not show it again.
            query = str(entry.data.get("query") or "")
            entry.data["repeat_query"] = bool(query) and query == shown
            shown = query
        runs[current].append(entry)
    return [TimelineRun(number, runs[number]) for number in sorted(runs, reverse=True)]


def latest_totals(*, claim: Claim, events: list[PipelineEvent]) -> AgreementBars:
    for event in reversed(events):
        if event.kind == EventKind.DECISION and event.payload.get("run") == claim.run_number:
            return _totals_from(event.payload)
    # No decision step in the run yet: nothing weighed so far while it runs (each step says
    # the same); a claim decided without one shows its own totals.
    running = not claim.is_terminal
    return AgreementBars(
        support=0.0 if running else claim.support_total,
        refute=0.0 if running else claim.refute_total,
        threshold=get_config().budgets.agreement_score,
    )


def last_event_sequence(*, claim: Claim) -> int:
    return int(claim.events.aggregate(n=Max("sequence"))["n"] or 0)
