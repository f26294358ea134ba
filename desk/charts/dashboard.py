"""The dashboard's charts of the desk's work: outcomes, overrides, queries and crawls per claim,
providers, the verdicts' confidence, agreement between providers and spend."""

from __future__ import annotations

from decimal import Decimal

from claims.models import Outcome
from desk.charts.draw import Chart, Series, bar_chart, meter_chart, number_text
from desk.charts.enrichment import enrichment_charts
from desk.selectors import DashboardData


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
                [days[i], *(number_text(s.values[i]) for s in outcome_series)]
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
        _verdict_confidence_chart(data),
        Chart(
            slug="provider-agreement",
            title="Provider agreement",
            summary="Merged search results by how many providers returned the same URL.",
            svg=bar_chart(
                title="Provider agreement",
                desc="Number of merged results per number of providers that returned the URL",
                categories=[str(c) for c, _ in data.agreement],
                series=[Series("Results", [n for _, n in data.agreement], "s-main")],
                x_label="providers that returned the URL",
                y_label="results",
            ),
            headers=["Providers agreeing", "Results"],
            rows=[[str(c), str(n)] for c, n in data.agreement],
            empty=not data.agreement,
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


def _verdict_confidence_chart(data: DashboardData) -> Chart:
    """Decided claims by the fact-check score of ClaimCheck's own verdict: the confidence the queue
    and the claim page show beside its proposal. An overridden claim's outcome is an editor's,
    which carries none, so it is left out."""
    tenths = [f"{n / 10:.1f} to {(n + 1) / 10:.1f}" for n in range(10)]
    tiers = data.confidence_tiers
    scored = sum(data.verdict_confidence)
    return Chart(
        slug="verdict-confidence",
        title="Verdict confidence",
        summary=(
            f"{scored} claims decided by ClaimCheck and not overridden, by its fact-check score: "
            f"{tiers.get('high', 0)} high, {tiers.get('medium', 0)} medium and "
            f"{tiers.get('low', 0)} low confidence. Overridden claims are left out: their "
            "outcome is an editor's."
        ),
        svg=bar_chart(
            title="Verdict confidence",
            desc="Decided claims per tenth of their fact-check score, from 0 to 1",
            categories=[f"{n / 10:.1f}" for n in range(10)],
            series=[Series("Claims", data.verdict_confidence, "s-main")],
            x_label="fact-check score (each bar from its value to the next tenth)",
            y_label="claims",
        ),
        headers=["Fact-check score", "Claims"],
        rows=[
            [label, str(n)] for label, n in zip(tenths, data.verdict_confidence, strict=True) if n
        ],
        empty=scored == 0,
    )
