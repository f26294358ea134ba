"""Reads for the review desk pages and the claims API, with their joins done up front."""

from __future__ import annotations

import re
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Count, Exists, F, Max, OuterRef, Q, QuerySet
from django.db.models.functions import TruncDate
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.safestring import SafeString, mark_safe

from claimcheck.config import get_config
from claimcheck.errors import NotFound
from claimcheck.models import (
    Claim,
    ClaimStatus,
    EventKind,
    Outcome,
    PipelineEvent,
    claim_fingerprint,
    claim_tokens,
)
from claimcheck.roles import require_editor
from decisions.models import Comment, Override, Verdict, VerdictReason
from decisions.proof import proof_as_shown, render_proof
from decisions.summary import verdict_summary
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
    assigned_to: int | None = None,
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
    if assigned_to is not None:
        claims = claims.filter(assigned_to_id=assigned_to)
    return claims.select_related("assigned_to").order_by("-created_at", "-id")


def claim_get(*, claim_id: int, with_people: bool = False) -> Claim:
    """The claim, or `NotFound`. `with_people` joins who submitted it and who holds it."""
    claims = Claim.objects.all()
    if with_people:
        claims = claims.select_related("created_by", "assigned_to")
    claim = claims.filter(pk=claim_id).first()
    if claim is None:
        raise NotFound(f"no claim {claim_id}")
    return claim


def claim_for_editor(*, user: User, claim_id: int, with_people: bool = False) -> Claim:
    """The claim, looked up for a user who must be an editor: `Forbidden` before `NotFound`, so
    that an outsider learns nothing of which claims exist."""
    require_editor(user)
    return claim_get(claim_id=claim_id, with_people=with_people)


def also_reported_by(*, claim: Claim, days: int = 7, threshold: float = 0.8) -> list[Claim]:
    """Claims from other channels that say the same thing: the same content
    words, or nearly (Jaccard similarity of content words at or above `threshold`)."""
    window = (claim.created_at - timedelta(days=days), claim.created_at + timedelta(days=days))
    nearby = Claim.objects.exclude(pk=claim.pk).filter(created_at__range=window)
    same = list(nearby.filter(fingerprint=claim.fingerprint or claim_fingerprint(claim.text)))
    mine = claim_tokens(claim.text)
    if mine:
        for other in nearby.exclude(pk__in=[c.pk for c in same]).only(
            "id", "text", "source_channel", "created_at", "outcome", "status"
        )[:2000]:
            theirs = claim_tokens(other.text)
            if theirs and len(mine & theirs) / len(mine | theirs) >= threshold:
                same.append(other)
    others = [
        c for c in same if c.source_channel != claim.source_channel or not claim.source_channel
    ]
    return sorted(others, key=lambda c: c.created_at)


@dataclass(frozen=True)
class QueueState:
    """What a live queue compares between polls: `token` changes whenever any claim is added or
    changes (every step touches its claim's updated_at); `active` counts queued and running."""

    token: str
    active: int


def queue_state() -> QueueState:
    """One query."""
    row = Claim.objects.aggregate(
        total=Count("id"),
        latest=Max("updated_at"),
        active=Count("id", filter=Q(status__in=[ClaimStatus.QUEUED, ClaimStatus.RUNNING])),
    )
    latest = round(row["latest"].timestamp() * 1_000_000) if row["latest"] else 0
    return QueueState(token=f"{row['total']}-{latest}", active=int(row["active"] or 0))


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
class ClaimHistory:
    claim: Claim
    verdict: Verdict | None
    verdicts: list[Verdict]
    overrides: list[Override]
    events: list[PipelineEvent]
    fact_checks: list[FactCheckMatch]
    also_reported_by: list[Claim]


def claim_history(*, claim: Claim) -> ClaimHistory:
    verdicts = list(claim.verdicts.order_by("-run_number", "-decided_at"))
    overrides = list(
        Override.objects.filter(verdict__claim=claim)
        .select_related("editor", "verdict")
        .order_by("-at", "-id")
    )
    return ClaimHistory(
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
class AgreementBars:
    """The decision's weights as the claim page draws them: each side against the agreement
    threshold (the verdict's own totals are `decisions.decide.Totals`)."""

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


def timeline(*, events: list[PipelineEvent]) -> list[TimelineRun]:
    """Events grouped by the run they belong to, newest run first, each in order."""
    runs: dict[int, list[TimelineEntry]] = defaultdict(list)
    current = 1
    shown = ""
    for event in events:
        number = (event.payload or {}).get("run")
        if isinstance(number, int):
            current = number
        entry = _entry(event, current)
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
    return AgreementBars(
        support=claim.support_total,
        refute=claim.refute_total,
        threshold=get_config().budgets.agreement_score,
    )


def last_event_sequence(*, claim: Claim) -> int:
    return int(claim.events.aggregate(n=Max("sequence"))["n"] or 0)


@dataclass(frozen=True)
class RunChanges:
    """What a re-run changed against the run before it: the outcome and the counted sources."""

    previous_run: int
    outcome_before: str
    outcome_after: str
    added: list[dict[str, Any]]
    removed: list[dict[str, Any]]
    kept: int

    @property
    def outcome_changed(self) -> bool:
        return self.outcome_before != self.outcome_after

    @property
    def anything(self) -> bool:
        return self.outcome_changed or bool(self.added or self.removed)


def run_changes(*, current: Verdict, previous: Verdict) -> RunChanges:
    def keyed(sources: Any) -> dict[str, dict[str, Any]]:
        return {str(s.get("url")): s for s in (sources or []) if isinstance(s, dict)}

    now, before = keyed(current.sources), keyed(previous.sources)
    return RunChanges(
        previous_run=previous.run_number,
        outcome_before=previous.outcome,
        outcome_after=current.outcome,
        added=[now[url] for url in now if url not in before],
        removed=[before[url] for url in before if url not in now],
        kept=len(now.keys() & before.keys()),
    )


@dataclass(frozen=True)
class ClaimPage:
    """Everything the claim page shows, loaded with a fixed number of queries."""

    claim: Claim
    runs: list[TimelineRun]
    last_sequence: int
    totals: AgreementBars
    evidence: list[Evidence]
    verdict: Verdict | None
    proof_html: SafeString
    earlier_verdicts: list[Verdict]
    overrides: list[Override]
    fact_checks: list[FactCheckMatch]
    also_reported_by: list[Claim]
    summary: str = ""
    comments: list[Comment] = field(default_factory=list)
    changes: RunChanges | None = None


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
    comments: list[Comment] = []
    if full:
        verdicts = list(claim.verdicts.order_by("-run_number", "-decided_at"))
        overrides = list(
            Override.objects.filter(verdict__claim=claim)
            .select_related("editor", "verdict")
            .order_by("-at", "-id")
        )
        fact_checks = list(claim.fact_checks.all())
        others = also_reported_by(claim=claim)
        comments = list(claim.comments.select_related("author"))
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
        summary=""
        if verdict is None
        else verdict_summary(
            outcome=verdict.outcome,
            reason=verdict.reason,
            sources=verdict.sources or [],
            lean=verdict.lean,
        ),
        comments=comments,
        changes=_changes(verdict, verdicts),
    )


def _changes(verdict: Verdict | None, verdicts: list[Verdict]) -> RunChanges | None:
    """Against the latest earlier run that reached a verdict."""
    if verdict is None:
        return None
    previous = next((v for v in verdicts if v.run_number < verdict.run_number), None)
    return None if previous is None else run_changes(current=verdict, previous=previous)


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


# Buckets of the latency histograms: (upper bound, label); the last is open-ended.
CLAIM_LATENCY_BUCKETS_S = [(5, "under 5 s"), (15, "5-15 s"), (30, "15-30 s"), (60, "30-60 s"),
                           (120, "1-2 min"), (None, "over 2 min")]  # fmt: skip
PROVIDER_LATENCY_BUCKETS_MS = [(250, "under 250 ms"), (500, "250-500 ms"), (1000, "0.5-1 s"),
                               (2000, "1-2 s"), (5000, "2-5 s"), (None, "over 5 s")]  # fmt: skip


def _bucket(value: float, buckets: list[tuple[int | None, str]]) -> int:
    return next(n for n, (top, _) in enumerate(buckets) if top is None or value < top)


@dataclass(frozen=True)
class Share:
    """`part` of `whole`, e.g. decided claims with a published fact-check."""

    part: int
    whole: int

    @property
    def pct(self) -> float:
        return round(100 * self.part / self.whole, 1) if self.whole else 0.0


@dataclass(frozen=True)
class ProviderHealth:
    name: str
    calls: int
    failed: int
    breaker_refusals: int  # calls refused because the provider's circuit breaker was open
    latency_counts: list[int]  # per PROVIDER_LATENCY_BUCKETS_MS

    @property
    def error_pct(self) -> float:
        return round(100 * self.failed / self.calls, 1) if self.calls else 0.0


@dataclass(frozen=True)
class EnrichmentMetrics:
    fact_check_match: Share  # decided claims with at least one published fact-check
    corroboration: Share  # decided claims another channel reported too (same fingerprint)
    page_cache: Share  # page reads served from the page cache
    evidence_match: Share  # pages read (not listings) that gave at least one evidence row
    claim_latency_counts: list[int]  # per CLAIM_LATENCY_BUCKETS_S
    providers: list[ProviderHealth]


def enrichment_metrics(*, since: datetime, runs_sampled: int = 2000) -> EnrichmentMetrics:
    """The second phase's figures: how often a claim finds fact-checks and other channels, how
    long checking takes overall and per provider, how providers fail, how often the page cache
    answers and how often a page read gives evidence."""
    decided = Claim.objects.filter(status=ClaimStatus.DECIDED, decided_at__gte=since)
    total = decided.count()
    with_fact_check = decided.filter(fact_checks__isnull=False).distinct().count()
    channels_by_print = (
        Claim.objects.exclude(fingerprint="")
        .exclude(source_channel="")
        .values("fingerprint")
        .annotate(n=Count("source_channel", distinct=True))
        .filter(n__gte=2)
        .values("fingerprint")
    )
    corroborated = decided.filter(fingerprint__in=channels_by_print).count()
    latency_counts = [0] * len(CLAIM_LATENCY_BUCKETS_S)
    for started, ended in decided.values_list("started_at", "decided_at"):
        if started is None or ended is None:
            continue
        seconds = max(0.0, (ended - started).total_seconds())
        latency_counts[_bucket(seconds, CLAIM_LATENCY_BUCKETS_S)] += 1
    # Pages are read by the crawl step and to check a snippet: both steps say whether the
    # page came from the cache (None: no page) and whether it gave evidence.
    reads = PipelineEvent.objects.filter(
        kind__in=[EventKind.CRAWL, EventKind.VERIFY], created_at__gte=since
    ).values_list("kind", "payload")
    cache_hits = cache_known = read = with_evidence = 0
    for kind, payload in reads.iterator():
        if payload.get("cached") is not None:
            cache_known += 1
            cache_hits += bool(payload["cached"])
        if kind == EventKind.VERIFY:
            if payload.get("cached") is not None:
                read += 1
                with_evidence += bool(payload.get("verified"))
        elif payload.get("http_status") and not payload.get("hub"):
            read += 1
            with_evidence += int(payload.get("evidence") or 0) > 0
    calls: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    latencies: dict[str, list[int]] = defaultdict(lambda: [0] * len(PROVIDER_LATENCY_BUCKETS_MS))
    sampled = SearchRun.objects.filter(run_timestamp__gte=since).order_by("-run_timestamp")
    for metrics in sampled.values_list("provider_metrics", flat=True)[:runs_sampled]:
        for name, figures in (metrics or {}).items():
            if figures.get("status") == "skipped":
                continue
            calls[name] += 1
            if figures.get("status") != "ok":
                failed[name] += 1
                refused[name] += str(figures.get("error") or "").startswith("circuit open")
            latency = int(figures.get("latency_ms") or 0)
            latencies[name][_bucket(latency, PROVIDER_LATENCY_BUCKETS_MS)] += 1
    return EnrichmentMetrics(
        fact_check_match=Share(with_fact_check, total),
        corroboration=Share(corroborated, total),
        page_cache=Share(cache_hits, cache_known),
        evidence_match=Share(with_evidence, read),
        claim_latency_counts=latency_counts,
        providers=[
            ProviderHealth(name, calls[name], failed[name], refused[name], latencies[name])
            for name in sorted(calls)
        ],
    )


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
    enrichment: EnrichmentMetrics


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
        enrichment=enrichment_metrics(since=since, runs_sampled=runs_sampled),
    )


def needs_review_count() -> int:
    return Claim.objects.filter(status=ClaimStatus.DECIDED, reviewed_at__isnull=True).count()


# --- a quote in its page ------------------------------------------------------------------------


@dataclass(frozen=True)
class QuoteInContext:
    """A stored page's text split around one evidence quote (found is False when the quote is not
    in the stored text any more, for example after the page was read again)."""

    evidence: Evidence
    before: str
    quote: str
    after: str
    found: bool


_ELLIPSIS_ENDS = re.compile(r"^\s*(?:\.\.\.|…)\s*|[\s,;:]*(?:\.\.\.|…)\s*$")
# A search snippet is cut short ("...") and may join a title to the text; the longest run of its
# words found on the page is the part highlighted, if it is long enough to mean something.
_MIN_WORDS = 6


def _locate(text: str, quote: str) -> tuple[int, int] | None:
    """Where `quote` sits in `text`: exactly, with the page's own white space, or its longest
    leading run of words (a snippet's cut-off ending left out)."""
    if not quote:
        return None
    start = text.find(quote)
    if start >= 0:
        return start, start + len(quote)
    words = _ELLIPSIS_ENDS.sub("", quote).split()
    for count in range(len(words), min(_MIN_WORDS, len(words)) - 1, -1):
        pattern = r"\s+".join(re.escape(word) for word in words[:count])
        match = re.search(pattern, text)
        if match:
            return match.start(), match.end()
    return None


def evidence_in_context(*, claim: Claim, evidence_id: int) -> QuoteInContext | None:
    """The evidence row of this claim with its page's stored text, or None when there is none."""
    evidence = (
        Evidence.objects.select_related("page")
        .filter(claim=claim, pk=evidence_id, page__isnull=False)
        .first()
    )
    if evidence is None or evidence.page is None:
        return None
    text = evidence.page.text or ""
    where = _locate(text, evidence.source_quote)
    if where is None:
        return QuoteInContext(evidence, text, "", "", found=False)
    start, end = where
    return QuoteInContext(evidence, text[:start], text[start:end], text[end:], found=True)


# --- review order -------------------------------------------------------------------------------


def _to_review() -> QuerySet[Claim]:
    """Decided claims no editor has reviewed, oldest first: the order "next to review" walks."""
    return Claim.objects.filter(status=ClaimStatus.DECIDED, reviewed_at__isnull=True).order_by(
        "created_at", "id"
    )


def review_neighbour(*, claim_id: int | None, forward: bool = True) -> Claim | None:
    """The claim to review after (or before) `claim_id` in review order, wrapping around; the
    first one when `claim_id` is None. Never `claim_id` itself."""
    queue = _to_review()
    if claim_id is not None:
        queue = queue.exclude(pk=claim_id)
        current = Claim.objects.filter(pk=claim_id).values("created_at", "id").first()
        if current is not None:
            later = Q(created_at__gt=current["created_at"]) | Q(
                created_at=current["created_at"], id__gt=current["id"]
            )
            if forward:
                found = queue.filter(later).first()
            else:
                found = queue.exclude(later).order_by("-created_at", "-id").first()
            if found is not None:
                return found
    return queue.first() if forward else queue.order_by("-created_at", "-id").first()
