"""The dashboard's charts of how the checking goes: fact-check matches, corroboration, checking
time, provider latency and errors, page cache hits and evidence found."""

from __future__ import annotations

from desk.charts.draw import Chart, Series, bar_chart, meter_chart
from desk.selectors import (
    CLAIM_LATENCY_BUCKETS_S,
    PROVIDER_LATENCY_BUCKETS_MS,
    EnrichmentMetrics,
    Share,
)


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
