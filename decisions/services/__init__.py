"""The decisions app's writes: every action on a claim a page or an API client can ask for.

- `claims`: submit one claim or a batch, re-run;
- `verdicts`: override a verdict's outcome, or many claims' at once;
- `review`: take, release, comment, mark reviewed;
- `sameness`: mark two claims as the same assertion, or not;
- `outcome_models`: refit the outcome model on the reviews, accept a refit, restore the one before;
- `queue_views`: an editor's saved view of the queue;
- `retention`: the daily sweep of evidence and pages past their TTL.

Reads are in `decisions.selectors`; what these raise is in `decisions.errors`."""

from decisions.services.claims import (
    BATCH_MAX_CLAIMS,
    BULK_MAX,
    CHANNEL_MAX_CHARS,
    BulkResult,
    ClaimInput,
    claim_enqueue,
    claim_rerun,
    claim_submit,
    claim_validate,
    claims_rerun_many,
    claims_submit_batch,
    claims_submit_many,
    queue_check,
)
from decisions.services.outcome_models import (
    outcome_model_accept,
    outcome_model_refit,
    outcome_model_restore,
)
from decisions.services.queue_views import queue_query, saved_queue_set
from decisions.services.review import (
    claim_mark_reviewed,
    claim_release,
    claim_take,
    claims_review_many,
    comment_add,
)
from decisions.services.sameness import claims_mark_same
from decisions.services.verdicts import (
    REASON_MAX_CHARS,
    current_verdict,
    verdict_override,
    verdicts_override_many,
)

__all__ = [
    "BATCH_MAX_CLAIMS",
    "BULK_MAX",
    "CHANNEL_MAX_CHARS",
    "REASON_MAX_CHARS",
    "BulkResult",
    "ClaimInput",
    "claim_enqueue",
    "claim_mark_reviewed",
    "claim_release",
    "claim_rerun",
    "claim_submit",
    "claim_take",
    "claim_validate",
    "claims_mark_same",
    "claims_rerun_many",
    "claims_review_many",
    "claims_submit_batch",
    "claims_submit_many",
    "comment_add",
    "current_verdict",
    "outcome_model_accept",
    "outcome_model_refit",
    "outcome_model_restore",
    "queue_check",
    "queue_query",
    "saved_queue_set",
    "verdict_override",
    "verdicts_override_many",
]
