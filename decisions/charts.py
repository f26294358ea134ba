"""Dashboard charts drawn on the server as SVG, each with the numbers behind it as a table.

No JavaScript and no chart library: a chart is a few rectangles and labels. Every label is
escaped here, so the SVG string is safe to mark as such.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from html import escape

from django.utils.safestring import SafeString, mark_safe

from claimcheck.models import Outcome
from decisions.selectors import (
    CLAIM_LATENCY_BUCKETS_S,
    PROVIDER_LATENCY_BUCKETS_MS,
    DashboardData,
    EnrichmentMetrics,
    Share,
)

WIDTH = 640
HEIGHT = 220
PAD_LEFT = 44
PAD_RIGHT = 12
PAD_TOP = 14
PAD_BOTTOM = 34


@dataclass(frozen=True)
class Series:
    name: str
    values: Sequence[float]
    css: str  # the class that colours it (see app.css, .chart .s-*)


@dataclass(frozen=True)
class Chart:
    slug: str
    title: str
    summary: str
    svg: SafeString
    headers: list[str]
    rows: list[list[str]]
    empty: bool = False
    legend: list[Series] = field(default_factory=list)  # keys under the chart, when it has several


def _ticks(value: float) -> list[float]:
    """Round axis ticks from 0 to at or above `value`: steps of 1, 2 or 5 times a power of ten."""
    raw = max(value, 1e-9) / 4
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if raw <= m * power)
    count = max(1, math.ceil(value / step - 1e-9))
    return [step * n for n in range(count + 1)]


def _fmt(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"


def _svg(title: str, desc: str, body: list[str], height: int = HEIGHT) -> SafeString:
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" '
        f'preserveAspectRatio="xMidYMid meet" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title><desc>{escape(desc)}</desc>",
        *body,
        "</svg>",
    ]
    # Every piece of text above went through html.escape; numbers are formatted here.
    return mark_safe("".join(parts))  # noqa: S308


def bar_chart(
    *,
    title: str,
    desc: str,
    categories: Sequence[str],
    series: Sequence[Series],
    stacked: bool = False,
    unit: str = "",
    label_every: int = 1,
    min_top: float = 4,
    x_label: str = "",
    y_label: str = "",
) -> SafeString:
    """Vertical bars per category: side by side, or stacked. The axis reaches at least
    `min_top`, so a handful of counts gets whole-number ticks. `x_label` and `y_label` name
    the axes when the categories or counts do not say what they are."""
    count = max(1, len(categories))
    totals = [
        sum(s.values[i] for s in series)
        if stacked
        else max((s.values[i] for s in series), default=0)
        for i in range(len(categories))
    ]
    ticks = _ticks(max(max(totals, default=0), min_top))
    top = ticks[-1]
    plot_w = WIDTH - PAD_LEFT - PAD_RIGHT
    plot_h = HEIGHT - PAD_TOP - PAD_BOTTOM
    slot = plot_w / count
    gap = min(6.0, slot * 0.2)
    body: list[str] = []
    for value in ticks:
        y = PAD_TOP + plot_h - plot_h * value / top
        body.append(
            f'<line class="grid" x1="{PAD_LEFT}" x2="{WIDTH - PAD_RIGHT}" '
            f'y1="{y:.1f}" y2="{y:.1f}"/>'
            f'<text class="axis" x="{PAD_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">'
            f"{escape(_fmt(value))}{escape(unit)}</text>"
        )
    bar_w = min(56.0, (slot - gap) / (1 if stacked else max(1, len(series))))
    inset = (slot - gap - bar_w * (1 if stacked else len(series))) / 2
    for i, category in enumerate(categories):
        x0 = PAD_LEFT + i * slot + gap / 2 + inset
        base = 0.0
        for n, s in enumerate(series):
            value = float(s.values[i])
            h = plot_h * value / top
            x = x0 if stacked else x0 + n * bar_w
            y = PAD_TOP + plot_h - h - (plot_h * base / top if stacked else 0)
            if value > 0:
                body.append(
                    f'<rect class="{escape(s.css)}" x="{x:.1f}" y="{y:.1f}" '
                    f'width="{max(bar_w - 1, 1):.1f}" height="{h:.1f}">'
                    f"<title>{escape(category)}: {escape(s.name)} {escape(_fmt(value))}"
                    f"{escape(unit)}</title></rect>"
                )
            if stacked:
                base += value
        if i % label_every == 0 or i == len(categories) - 1:
            body.append(
                f'<text class="axis" x="{x0 - inset + (slot - gap) / 2:.1f}" '
                f'y="{HEIGHT - PAD_BOTTOM + 16}" '
                f'text-anchor="middle">{escape(category)}</text>'
            )
    body.append(
        f'<line class="baseline" x1="{PAD_LEFT}" x2="{WIDTH - PAD_RIGHT}" '
        f'y1="{PAD_TOP + plot_h}" y2="{PAD_TOP + plot_h}"/>'
    )
    if x_label:
        body.append(
            f'<text class="axis-label" x="{PAD_LEFT + plot_w / 2:.1f}" y="{HEIGHT - 2}" '
            f'text-anchor="middle">{escape(x_label)}</text>'
        )
    if y_label:
        middle = PAD_TOP + plot_h / 2
        body.append(
            f'<text class="axis-label" x="10" y="{middle:.1f}" text-anchor="middle" '
            f'transform="rotate(-90 10 {middle:.1f})">{escape(y_label)}</text>'
        )
    return _svg(title, desc, body)


def meter_chart(
    *, title: str, desc: str, rows: Sequence[tuple[str, float, float, str]]
) -> SafeString:
    """Horizontal bars, one per row: (label, value, limit, text). A bar past its limit is drawn
    in the warning colour; the limit is a tick."""
    row_h = 44
    height = PAD_TOP + row_h * max(1, len(rows)) + 6
    label_w = 150
    plot_w = WIDTH - label_w - PAD_RIGHT - 170
    body: list[str] = []
    for n, (label, value, limit, text) in enumerate(rows):
        y = PAD_TOP + n * row_h
        scale = max(limit, value, 1e-9)
        w = plot_w * value / scale
        css = "s-over" if limit and value > limit else "s-main"
        body.append(
            f'<text class="label" x="0" y="{y + 17}">{escape(label)}</text>'
            f'<rect class="track" x="{label_w}" y="{y + 4}" width="{plot_w}" height="18" rx="3"/>'
            f'<rect class="{css}" x="{label_w}" y="{y + 4}" width="{max(w, 0):.1f}" '
            f'height="18" rx="3">'
            f"<title>{escape(label)}: {escape(text)}</title></rect>"
        )
        if limit:
            tick = label_w + plot_w * limit / scale
            body.append(
                f'<line class="limit" x1="{tick:.1f}" x2="{tick:.1f}" y1="{y}" y2="{y + 26}"/>'
            )
        body.append(
            f'<text class="value" x="{label_w + plot_w + 8}" y="{y + 17}">{escape(text)}</text>'
        )
    return _svg(title, desc, body, height=height)


def _money(value: Decimal) -> str:
    return f"${value:,.2f}"


def dashboard_charts(data: DashboardData) -> list[Chart]:
    days = [day.strftime("%d %b") for day in data.days]
    every = max(1, len(days) // 6)
    outcome_series = [
        Series(Outcome(key).label, data.outcomes_by_day[key], f"s-{key}") for key in Outcome.values
    ]
    decided_total = sum(d for _, d, _ in data.overrides_by_day)
    overridden_total = sum(o for _, _, o in data.overrides_by_day)
    rate = [round(100 * o / d, 1) if d else 0.0 for _, d, o in data.overrides_by_day]
    overall = round(100 * overridden_total / decided_total, 1) if decided_total else 0.0

    spread_keys = sorted(
        {n for n, _ in data.queries_per_claim} | {n for n, _ in data.crawls_per_claim}
    )
    queries = dict(data.queries_per_claim)
    crawls = dict(data.crawls_per_claim)

    charts = [
        Chart(
            slug="outcomes",
            title="Outcomes over time",
            summary=f"{decided_total} claims decided in the last {len(days)} days, by outcome.",
            svg=bar_chart(
                title="Outcomes over time",
                desc="Claims decided per day, stacked by outcome",
                categories=days,
                series=outcome_series,
                stacked=True,
                label_every=every,
            ),
            headers=["Day", *(s.name for s in outcome_series)],
            rows=[
                [days[i], *(_fmt(s.values[i]) for s in outcome_series)]
                for i in range(len(days))
                if any(s.values[i] for s in outcome_series)
            ],
            empty=decided_total == 0,
        ),
        Chart(
            slug="overrides",
            title="Overrides rate",
            summary=(
                f"{overridden_total} of {decided_total} decided claims overridden ({overall}%)."
            ),
            svg=bar_chart(
                title="Overrides rate",
                desc="Share of each day's decided claims whose outcome an editor changed",
                categories=days,
                series=[Series("Overridden", rate, "s-override")],
                unit="%",
                min_top=10,
                label_every=every,
            ),
            headers=["Day", "Decided", "Overridden", "Rate"],
            rows=[
                [day.strftime("%d %b"), str(d), str(o), f"{round(100 * o / d, 1)}%"]
                for day, d, o in data.overrides_by_day
                if d
            ],
            empty=decided_total == 0,
        ),
        Chart(
            slug="per-claim",
            title="Queries and crawls per claim",
            summary="How many searches and page reads each decided claim needed.",
            svg=bar_chart(
                title="Queries and crawls per claim",
                desc="Number of decided claims by queries used and by pages read",
                categories=[str(n) for n in spread_keys],
                series=[
                    Series("Queries", [queries.get(n, 0) for n in spread_keys], "s-queries"),
                    Series("Crawls", [crawls.get(n, 0) for n in spread_keys], "s-crawls"),
                ],
                x_label="queries or pages read for one claim",
                y_label="claims",
            ),
            headers=["Count", "Claims with this many queries", "Claims with this many crawls"],
            rows=[[str(n), str(queries.get(n, 0)), str(crawls.get(n, 0))] for n in spread_keys],
            empty=not spread_keys,
        ),
        Chart(
            slug="providers",
            title="Provider latency and success",
            summary="Median latency per search provider (the tick is its 95th percentile).",
            svg=meter_chart(
                title="Provider latency and success",
                desc="Median and 95th percentile latency and success rate per provider",
                rows=[
                    (
                        p.name,
                        p.median_ms,
                        p.p95_ms,
                        f"{p.median_ms} ms · {p.success_pct:.0f}% ok",
                    )
                    for p in data.providers
                ],
            ),
            headers=["Provider", "Calls", "Answered", "Success", "Median", "95th percentile"],
            rows=[
                [
                    p.name,
                    str(p.calls),
                    str(p.ok),
                    f"{p.success_pct}%",
                    f"{p.median_ms} ms",
                    f"{p.p95_ms} ms",
                ]
                for p in data.providers
            ],
            empty=not data.providers,
        ),
        Chart(
            slug="confidence",
            title="Confidence histogram",
            summary="Merged search results by how many providers returned the same URL.",
            svg=bar_chart(
                title="Confidence histogram",
                desc="Number of merged results per confidence (providers agreeing)",
                categories=[str(c) for c, _ in data.confidence],
                series=[Series("Results", [n for _, n in data.confidence], "s-main")],
                x_label="providers that returned the URL",
                y_label="results",
            ),
            headers=["Providers agreeing", "Results"],
            rows=[[str(c), str(n)] for c, n in data.confidence],
            empty=not data.confidence,
        ),
        Chart(
            slug="spend",
            title="Spend against the budget",
            summary="Provider and LLM spend; paid calls stop when a budget is reached.",
            svg=meter_chart(
                title="Spend against the budget",
                desc="Spend today and this month against the daily and monthly budgets",
                rows=[
                    (
                        "Today",
                        float(data.spend_today),
                        float(data.budget_daily),
                        f"{_money(data.spend_today)} of {_money(data.budget_daily)}",
                    ),
                    (
                        "This month",
                        float(data.spend_month),
                        float(data.budget_monthly),
                        f"{_money(data.spend_month)} of {_money(data.budget_monthly)}",
                    ),
                ],
            ),
            headers=["Period", "Spent", "Budget", "Used"],
            rows=[
                [
                    label,
                    _money(spent),
                    _money(budget),
                    f"{round(100 * spent / budget, 1) if budget else 0}%",
                ]
                for label, spent, budget in (
                    ("Today", data.spend_today, data.budget_daily),
                    ("This month", data.spend_month, data.budget_monthly),
                )
            ],
        ),
    ]
    return charts + enrichment_charts(data.enrichment)


def _share_chart(*, slug: str, title: str, summary: str, label: str, share: Share) -> Chart:
    return Chart(
        slug=slug,
        title=title,
        summary=summary,
        svg=meter_chart(
            title=title,
            desc=summary,
            rows=[(label, share.pct, 100.0, f"{share.pct:g}% ({share.part} of {share.whole})")],
        ),
        headers=["", "Count", "Of", "Rate"],
        rows=[[label, str(share.part), str(share.whole), f"{share.pct:g}%"]],
        empty=share.whole == 0,
    )


def enrichment_charts(metrics: EnrichmentMetrics) -> list[Chart]:
    """Fact-check match rate, corroboration coverage, checking latency overall and per
    provider, provider errors and circuit-breaker refusals, page cache hits, evidence match."""
    claim_buckets = [label for _, label in CLAIM_LATENCY_BUCKETS_S]
    provider_buckets = [label for _, label in PROVIDER_LATENCY_BUCKETS_MS]
    providers = metrics.providers
    palette = ["s-queries", "s-crawls", "s-override", "s-invalid", "s-true", "s-false"]
    checked = sum(metrics.claim_latency_counts)
    provider_series = [
        Series(p.name, p.latency_counts, palette[n % len(palette)]) for n, p in enumerate(providers)
    ]
    return [
        _share_chart(
            slug="fact-check-match",
            title="Fact-check match rate",
            summary="Decided claims that a published fact-check matched.",
            label="With a fact-check",
            share=metrics.fact_check_match,
        ),
        _share_chart(
            slug="corroboration",
            title="Corroboration coverage",
            summary="Decided claims another channel reported too (the same content words).",
            label="Also reported",
            share=metrics.corroboration,
        ),
        Chart(
            slug="claim-latency",
            title="Checking time per claim",
            summary=f"{checked} decided claims by the time from the first step to the verdict.",
            svg=bar_chart(
                title="Checking time per claim",
                desc="Decided claims by how long their check took",
                categories=claim_buckets,
                series=[Series("Claims", metrics.claim_latency_counts, "s-main")],
                x_label="time from the first step to the verdict",
                y_label="claims",
            ),
            headers=["Time", "Claims"],
            rows=[
                [label, str(n)]
                for label, n in zip(claim_buckets, metrics.claim_latency_counts, strict=True)
            ],
            empty=checked == 0,
        ),
        Chart(
            slug="provider-latency",
            title="Latency per provider",
            summary="Provider calls by how long the provider took to answer.",
            svg=bar_chart(
                title="Latency per provider",
                desc="Calls per latency range, one series per provider",
                categories=provider_buckets,
                series=provider_series,
                x_label="time to answer",
                y_label="calls",
            ),
            legend=provider_series,
            headers=["Provider", *provider_buckets],
            rows=[[p.name, *(str(n) for n in p.latency_counts)] for p in providers],
            empty=not providers,
        ),
        Chart(
            slug="provider-errors",
            title="Provider errors and circuit-breaker refusals",
            summary="Share of calls that failed, and calls refused while a breaker was open.",
            svg=bar_chart(
                title="Provider errors",
                desc="Failed calls as a share of all calls, per provider",
                categories=[p.name for p in providers],
                series=[Series("Failed", [p.error_pct for p in providers], "s-false")],
                unit="%",
                min_top=10,
            ),
            headers=["Provider", "Calls", "Failed", "Error rate", "Refused by an open breaker"],
            rows=[
                [p.name, str(p.calls), str(p.failed), f"{p.error_pct:g}%", str(p.breaker_refusals)]
                for p in providers
            ],
            empty=not providers,
        ),
        _share_chart(
            slug="page-cache",
            title="Page cache hits",
            summary="Page reads answered from the page cache instead of a fetch.",
            label="From the cache",
            share=metrics.page_cache,
        ),
        _share_chart(
            slug="evidence-match",
            title="Evidence match rate",
            summary="Pages read (listing pages aside) that gave at least one piece of evidence.",
            label="With evidence",
            share=metrics.evidence_match,
        ),
    ]
