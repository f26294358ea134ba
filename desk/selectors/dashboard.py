"""The dashboard's figures: totals, outcomes and overrides over time, per-claim effort,
provider health and latency, spend, how the checking goes (desk.charts draws them), and how
often the model's replies needed repair."""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from django.db.models import Count, F, Sum, Value
from django.db.models.functions import Floor, Least, TruncDate
from django.utils import timezone

from claimcheck.config import get_config
from claimcheck.models import ModelReplyDay
from claims.models import Claim, ClaimStatus, ConfidenceTier, EventKind, Outcome, PipelineEvent
from harvester.selectors import recent_provider_metrics, result_agreement

# --- the dashboard ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReplyRepairs:
    """Findings of the model's replies clipped into range or refused over the last `days` days."""

    days: int
    clipped: int
    refused: int
    llm_configured: bool

    @property
    def shown(self) -> bool:
        """Worth a line on the dashboard: a model is configured, or was when these were counted."""
        return self.llm_configured or bool(self.clipped or self.refused)


def model_reply_repairs(*, days: int = 7) -> ReplyRepairs:
    since = timezone.localdate() - timedelta(days=days - 1)
    totals = ModelReplyDay.objects.filter(day__gte=since).aggregate(
        clipped=Sum("clipped"), refused=Sum("refused")
    )
    return ReplyRepairs(
        days=days,
        clipped=int(totals["clipped"] or 0),
        refused=int(totals["refused"] or 0),
        llm_configured=bool(get_config().llm.model),
    )


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
    for metrics in recent_provider_metrics(limit=runs_sampled, since=since):
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
    agreement: list[tuple[int, int]]  # (providers agreeing on a URL, results)
    verdict_confidence: list[int]  # claims ClaimCheck decided (not overridden) per tenth of score
    confidence_tiers: dict[str, int]  # the same claims per confidence tier (high, medium, low)
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
    sampled = recent_provider_metrics(limit=runs_sampled)
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
    agreement = result_agreement(since=since)
    # ClaimCheck's own verdicts: an overridden claim's outcome is the editor's, and the score
    # it keeps describes a proposal no longer standing. A score of exactly 1 belongs to the last
    # tenth.
    own = decided.filter(overridden=False)
    tenths = (
        own.exclude(fact_check_score=None)
        .annotate(tenth=Least(Floor(F("fact_check_score") * 10), Value(9.0)))
        .values_list("tenth")
        .annotate(n=Count("id"))
        .order_by()
    )
    verdict_confidence = [0] * 10
    for tenth, n in tenths:
        verdict_confidence[min(9, max(0, int(tenth)))] += n
    tiers = dict(
        own.exclude(fact_check_tier="")
        .values_list("fact_check_tier")
        .annotate(n=Count("id"))
        .order_by()
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
        agreement=[(int(c), int(n)) for c, n in agreement],
        verdict_confidence=verdict_confidence,
        confidence_tiers={tier: int(tiers.get(tier, 0)) for tier in ConfidenceTier.values},
        spend_today=spend.today,
        spend_month=spend.month,
        budget_daily=Decimal(str(budgets.daily_usd)),
        budget_monthly=Decimal(str(budgets.monthly_usd)),
        enrichment=enrichment_metrics(since=since, runs_sampled=runs_sampled),
    )
