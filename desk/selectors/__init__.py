"""The desk's reads, by subject: `claims` (the queue, lookups with the role check, the review
order), `claim_page` (everything the claim page shows), `timeline` (its live steps), `quotes`
(a quote in its page), `verdict_card` (whose outcome a claim shows: ClaimCheck's proposal or an
editor's), `claimreview` (an editor-confirmed verdict as schema.org ClaimReview JSON-LD),
`dashboard`, `agreement` (how often editors kept ClaimCheck's proposals), `checked_before` (an
earlier same claim an editor confirmed) and `progress` (how far a claim being checked has got).
Pages and the API call the same ones; writes are in `decisions.services`, and whether and why
each evidence row counted is the engine's `decisions.selectors.claim_counting`."""

from desk.selectors.agreement import EditorAgreement, Tally, editor_agreement
from desk.selectors.claim_page import (
    ClaimPage,
    RunChanges,
    claim_page,
    run_changes,
    shown_proof,
)
from desk.selectors.claimreview import (
    NoClaimReview,
    ReviewLinks,
    claim_review,
    claim_review_document,
    rating_name,
    review_links,
)
from desk.selectors.claims import (
    QUEUE_SORT_DEFAULT,
    QUEUE_SORTS,
    ClaimHistory,
    QueueState,
    also_reported_by,
    claim_channels,
    claim_for_editor,
    claim_for_viewer,
    claim_get,
    claim_history,
    claim_queue,
    claim_source_counts,
    needs_review_count,
    proposed_outcomes,
    queue_state,
    review_neighbour,
    saved_queue_query,
)
from desk.selectors.dashboard import (
    CLAIM_LATENCY_BUCKETS_S,
    PROVIDER_LATENCY_BUCKETS_MS,
    DashboardData,
    EnrichmentMetrics,
    ProviderHealth,
    ProviderStats,
    ReplyRepairs,
    Share,
    dashboard_data,
    dashboard_totals,
    enrichment_metrics,
    model_reply_repairs,
)
from desk.selectors.progress import Progress, claims_progress, progress_of
from desk.selectors.quotes import QuoteInContext, evidence_in_context
from desk.selectors.timeline import (
    AgreementBars,
    TimelineEntry,
    TimelineRun,
    last_event_sequence,
    latest_totals,
    timeline,
)
from desk.selectors.verdict_card import EditorWord, VerdictCard, verdict_card
from desk.selectors.weighed_rows import weighed_words

__all__ = [
    "CLAIM_LATENCY_BUCKETS_S",
    "PROVIDER_LATENCY_BUCKETS_MS",
    "QUEUE_SORTS",
    "QUEUE_SORT_DEFAULT",
    "AgreementBars",
    "ClaimHistory",
    "ClaimPage",
    "DashboardData",
    "EditorAgreement",
    "EditorWord",
    "EnrichmentMetrics",
    "NoClaimReview",
    "Progress",
    "ProviderHealth",
    "ProviderStats",
    "QueueState",
    "QuoteInContext",
    "ReplyRepairs",
    "ReviewLinks",
    "RunChanges",
    "Share",
    "Tally",
    "TimelineEntry",
    "TimelineRun",
    "VerdictCard",
    "also_reported_by",
    "claim_channels",
    "claim_for_editor",
    "claim_for_viewer",
    "claim_get",
    "claim_history",
    "claim_page",
    "claim_queue",
    "claim_review",
    "claim_review_document",
    "claim_source_counts",
    "claims_progress",
    "dashboard_data",
    "dashboard_totals",
    "editor_agreement",
    "enrichment_metrics",
    "evidence_in_context",
    "last_event_sequence",
    "latest_totals",
    "model_reply_repairs",
    "needs_review_count",
    "progress_of",
    "proposed_outcomes",
    "queue_state",
    "rating_name",
    "review_links",
    "review_neighbour",
    "run_changes",
    "saved_queue_query",
    "shown_proof",
    "timeline",
    "verdict_card",
    "weighed_words",
]
