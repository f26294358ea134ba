"""Reads for the review desk pages and the claims API, with their joins done up front."""

from __future__ import annotations

import re
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from django.db.models import Count, Exists, F, Max, OuterRef, QuerySet
from django.db.models.functions import TruncDate
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.safestring import SafeString, mark_safe

from claimcheck.config import get_config
from claimcheck.models import Claim, ClaimStatus, EventKind, Outcome, PipelineEvent
from decisions.models import Override, Verdict, VerdictReason
from decisions.proof import proof_as_shown, render_proof
from evidence.models import Evidence, FactCheckMatch, Stance
from harvester.models import ProcessedResult, SearchRun

_TERMS = re.compile(r'"([^"]+)"|(\S+)')


def _search_terms(q: str) -> list[str]:
    """Words of a search, with "quoted phrases" kept whole; every term must match."""
    return [phrase or word for phrase, word in _TERMS.findall(q) if (phrase or word).strip()][:8]


def claim_queue(
    *,
    status: str = "",
    outcome: str = "",
    q: str = "",
    created_from: date | None = None,
    created_to: date | None = None,
    overridden: str = "",
    needs_review: bool = False,
    channel: str = "",
) -> QuerySet[Claim]:
    """Claims newest first, each with `leaning` (its current verdict leans, below the agreement
    score). `overridden` is "yes", "no" or "" (either); `needs_review` keeps decided claims no
    editor has reviewed yet."""
    leaning = Verdict.objects.filter(
        claim=OuterRef("pk"), run_number=OuterRef("run_number"), reason=VerdictReason.LEANING
    )
    claims = Claim.objects.annotate(leaning=Exists(leaning))
    if status in ClaimStatus.values:
        claims = claims.filter(status=status)
    if outcome in Outcome.values:
        claims = claims.filter(outcome=outcome)
    for term in _search_terms(q):
        claims = claims.filter(text__icontains=term)
    if created_from:
        claims = claims.filter(created_at__gte=datetime.combine(created_from, time.min, tzinfo=UTC))
    if created_to:
        claims = claims.filter(created_at__lte=datetime.combine(created_to, time.max, tzinfo=UTC))
    if overridden in ("yes", "no"):
        claims = claims.filter(overridden=overridden == "yes")
    if needs_review:
        claims = claims.filter(status=ClaimStatus.DECIDED, reviewed_at__isnull=True)
    if channel:
        claims = claims.filter(source_channel=channel)
    return claims.order_by("-created_at", "-id")


def claim_source_counts(*, claims: list[Claim]) -> dict[int, int]:
    """Distinct sources that took a side in each claim's current run, in one query for a page."""
    rows = (
        Evidence.objects.filter(claim__in=[c.pk for c in claims])
        .filter(attempt__gt=F("claim__attempt_offset"))
        .exclude(stance=Stance.NEUTRAL)
        .values("claim_id")
        .annotate(n=Count("url", distinct=True))
        .order_by()
    )
    return {row["claim_id"]: row["n"] for row in rows}


def claim_channels(*, limit: int = 200) -> list[str]:
    return list(
        Claim.objects.exclude(source_channel="")
        .order_by("source_channel")
        .values_list("source_channel", flat=True)
        .distinct()[:limit]
    )


@dataclass(frozen=True)
class ClaimDetail:
    claim: Claim
    verdict: Verdict | None
    verdicts: list[Verdict]
    overrides: list[Override]
    events: list[PipelineEvent]
    fact_checks: list[FactCheckMatch]
    also_reported_by: list[Claim]


def claim_detail(*, claim: Claim) -> ClaimDetail:
    from decisions.claims import also_reported_by

    verdicts = list(claim.verdicts.order_by("-run_number", "-decided_at"))
    overrides = list(
        Override.objects.filter(verdict__claim=claim)
        .select_related("editor", "verdict")
        .order_by("-at", "-id")
    )
    return ClaimDetail(
        claim=claim,
        verdict=verdicts[0] if verdicts else None,
        verdicts=verdicts,
        overrides=overrides,
        events=list(claim.events.order_by("sequence")),
        fact_checks=list(claim.fact_checks.all()),
        also_reported_by=also_reported_by(claim=claim),
    )


# --- the live timeline --------------------------------------------------------------------------


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


@dataclass(frozen=True)
class TimelineRun:
    number: int
    entries: list[TimelineEntry]


@dataclass(frozen=True)
class Totals:
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


def _totals_from(payload: dict[str, Any]) -> Totals:
    return Totals(
        support=float(payload.get("support") or 0),
        refute=float(payload.get("refute") or 0),
        threshold=float(payload.get("threshold") or get_config().budgets.agreement_score),
        support_domains=list(payload.get("support_domains") or []),
        refute_domains=list(payload.get("refute_domains") or []),
    )


def timeline(*, events: list[PipelineEvent]) -> list[TimelineRun]:
    """Events grouped by the run they belong to, newest run first, each in order."""
    runs: dict[int, list[TimelineEntry]] = defaultdict(list)
    current = 1
    for event in events:
        number = (event.payload or {}).get("run")
        if isinstance(number, int):
            current = number
        runs[current].append(_entry(event, current))
    return [TimelineRun(number, runs[number]) for number in sorted(runs, reverse=True)]


def latest_totals(*, claim: Claim, events: list[PipelineEvent]) -> Totals:
    for event in reversed(events):
        if event.kind == EventKind.DECISION and event.payload.get("run") == claim.run_number:
            return _totals_from(event.payload)
    return Totals(
        support=claim.support_total,
        refute=claim.refute_total,
        threshold=get_config().budgets.agreement_score,
    )


def last_event_sequence(*, claim: Claim) -> int:
    return int(claim.events.aggregate(n=Max("sequence"))["n"] or 0)


@dataclass(frozen=True)
class ClaimPage:
    """Everything the claim page shows, loaded with a fixed number of queries."""

    claim: Claim
    runs: list[TimelineRun]
    last_sequence: int
    totals: Totals
    evidence: list[Evidence]
    verdict: Verdict | None
    proof_html: SafeString
    earlier_verdicts: list[Verdict]
    overrides: list[Override]
    fact_checks: list[FactCheckMatch]
    also_reported_by: list[Claim]


def shown_proof(verdict: Verdict, overrides: list[Override]) -> str:
    """The verdict's proof with the latest override of it in its lead."""
    latest = next((o for o in overrides if o.verdict_id == verdict.pk), None)
    return proof_as_shown(markdown_text=verdict.proof_markdown, override=latest)


def _proof_html(verdict: Verdict | None, overrides: list[Override]) -> SafeString:
    if verdict is None:
        return SafeString("")
    # render_proof sanitizes (nh3) after escaping raw HTML; its output is the one thing the
    # page marks safe.
    return mark_safe(render_proof(shown_proof(verdict, overrides)))  # noqa: S308


def claim_page(*, claim: Claim, full: bool = True) -> ClaimPage:
    """The claim page's data. `full` is False while the claim is still running: the poll then
    skips the parts that only show once there is a verdict."""
    events = list(claim.events.order_by("sequence"))
    evidence = list(
        Evidence.objects.filter(claim=claim, attempt__gt=claim.attempt_offset).order_by(
            "-weight", "id"
        )
    )
    verdicts: list[Verdict] = []
    overrides: list[Override] = []
    fact_checks: list[FactCheckMatch] = []
    others: list[Claim] = []
    if full:
        from decisions.claims import also_reported_by

        verdicts = list(claim.verdicts.order_by("-run_number", "-decided_at"))
        overrides = list(
            Override.objects.filter(verdict__claim=claim)
            .select_related("editor", "verdict")
            .order_by("-at", "-id")
        )
        fact_checks = list(claim.fact_checks.all())
        others = also_reported_by(claim=claim)
    verdict = verdicts[0] if verdicts and verdicts[0].run_number == claim.run_number else None
    return ClaimPage(
        claim=claim,
        runs=timeline(events=events),
        last_sequence=events[-1].sequence if events else 0,
        totals=latest_totals(claim=claim, events=events),
        evidence=evidence,
        verdict=verdict,
        proof_html=_proof_html(verdict, overrides),
        earlier_verdicts=[v for v in verdicts if v is not verdict],
        overrides=overrides,
        fact_checks=fact_checks,
        also_reported_by=others,
    )


# --- the dashboard ------------------------------------------------------------------------------


def dashboard_totals() -> dict[str, int]:
    by_status = dict(Claim.objects.values_list("status").annotate(n=Count("id")).order_by())
    by_outcome = dict(
        Claim.objects.exclude(outcome="").values_list("outcome").annotate(n=Count("id")).order_by()
    )
    return {
        "claims": sum(by_status.values()),
        **{f"status_{key}": by_status.get(key, 0) for key in ClaimStatus.values},
        **{f"outcome_{key}": by_outcome.get(key, 0) for key in Outcome.values},
        "overridden": Claim.objects.filter(overridden=True).count(),
    }


@dataclass(frozen=True)
class ProviderStats:
    name: str
    calls: int
    ok: int
    median_ms: int
    p95_ms: int

    @property
    def success_pct(self) -> float:
        return round(100 * self.ok / self.calls, 1) if self.calls else 0.0


@dataclass(frozen=True)
class DashboardData:
    days: list[date]
    outcomes_by_day: dict[str, list[int]]
    overrides_by_day: list[tuple[date, int, int]]  # (day, decided, overridden)
    queries_per_claim: list[tuple[int, int]]  # (queries used, claims)
    crawls_per_claim: list[tuple[int, int]]
    providers: list[ProviderStats]
    confidence: list[tuple[int, int]]  # (providers agreeing on a URL, results)
    spend_today: Decimal
    spend_month: Decimal
    budget_daily: Decimal
    budget_monthly: Decimal


def _percentile(values: list[int], pct: float) -> int:
    if not values:
        return 0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(pct / 100 * (len(ordered) - 1))))
    return ordered[index]


def dashboard_data(*, days: int = 30, runs_sampled: int = 2000) -> DashboardData:
    """The dashboard's figures for the last `days` days (provider figures from the most recent
    `runs_sampled` search runs)."""
    from harvester.services import current_spend

    today = timezone.localdate()
    day_list = [today - timedelta(days=n) for n in range(days - 1, -1, -1)]
    since = timezone.make_aware(datetime.combine(day_list[0], time.min))
    decided = Claim.objects.filter(status=ClaimStatus.DECIDED, decided_at__gte=since)

    outcomes: dict[str, list[int]] = {key: [0] * days for key in Outcome.values}
    decided_per_day = [0] * days
    overridden_per_day = [0] * days
    index = {day: n for n, day in enumerate(day_list)}
    rows = (
        decided.annotate(day=TruncDate("decided_at"))
        .values("day", "outcome", "overridden")
        .annotate(n=Count("id"))
        .order_by()
    )
    for row in rows:
        position = index.get(row["day"])
        if position is None or row["outcome"] not in outcomes:
            continue
        outcomes[row["outcome"]][position] += row["n"]
        decided_per_day[position] += row["n"]
        if row["overridden"]:
            overridden_per_day[position] += row["n"]

    def spread(field_name: str) -> list[tuple[int, int]]:
        counted = decided.values(field_name).annotate(n=Count("id")).order_by(field_name)
        return [(row[field_name], row["n"]) for row in counted]

    latencies: dict[str, list[int]] = defaultdict(list)
    answered: Counter[str] = Counter()
    sampled = SearchRun.objects.order_by("-run_timestamp").values_list(
        "provider_metrics", flat=True
    )[:runs_sampled]
    for metrics in sampled:
        for name, figures in (metrics or {}).items():
            if figures.get("status") == "skipped":
                continue
            latencies[name].append(int(figures.get("latency_ms") or 0))
            answered[name] += figures.get("status") == "ok"
    providers = [
        ProviderStats(
            name=name,
            calls=len(values),
            ok=answered[name],
            median_ms=round(statistics.median(values)),
            p95_ms=_percentile(values, 95),
        )
        for name, values in sorted(latencies.items())
    ]
    confidence = list(
        ProcessedResult.objects.filter(run__run_timestamp__gte=since)
        .values_list("confidence")
        .annotate(n=Count("id"))
        .order_by("confidence")
    )
    spend = current_spend()
    budgets = get_config().budgets
    return DashboardData(
        days=day_list,
        outcomes_by_day=outcomes,
        overrides_by_day=list(zip(day_list, decided_per_day, overridden_per_day, strict=True)),
        queries_per_claim=spread("queries_used"),
        crawls_per_claim=spread("crawls_used"),
        providers=providers,
        confidence=[(int(c), int(n)) for c, n in confidence],
        spend_today=spend.today,
        spend_month=spend.month,
        budget_daily=Decimal(str(budgets.daily_usd)),
        budget_monthly=Decimal(str(budgets.monthly_usd)),
    )


def needs_review_count() -> int:
    return Claim.objects.filter(status=ClaimStatus.DECIDED, reviewed_at__isnull=True).count()
