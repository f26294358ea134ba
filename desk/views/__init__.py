"""The review desk: the claim queue, submitting claims, the claim page with its live timeline,
verdict review and override, the dashboard, and (for admins) people.

Each view looks the claim up, checks the role, validates, calls one action from
the engine's `decisions.services` and renders the page, or only the partial HTMX asked for."""

from desk.views.claim import (
    claim_comment,
    claim_detail,
    claim_live,
    claim_mark_same_view,
    claim_override,
    claim_release_view,
    claim_rerun_view,
    claim_review,
    claim_take_view,
    evidence_context,
)
from desk.views.dashboard import dashboard
from desk.views.people import (
    people_list,
    person_active,
    person_password,
    person_role,
    person_token,
    person_token_revoke,
)
from desk.views.queue import (
    claim_list,
    claim_queue_live,
    claim_review_next,
    claims_bulk,
    my_queue,
)
from desk.views.submit import claim_new, claim_new_batch

__all__ = [
    "claim_comment",
    "claim_detail",
    "claim_list",
    "claim_live",
    "claim_mark_same_view",
    "claim_new",
    "claim_new_batch",
    "claim_override",
    "claim_queue_live",
    "claim_release_view",
    "claim_rerun_view",
    "claim_review",
    "claim_review_next",
    "claim_take_view",
    "claims_bulk",
    "dashboard",
    "evidence_context",
    "my_queue",
    "people_list",
    "person_active",
    "person_password",
    "person_role",
    "person_token",
    "person_token_revoke",
]
