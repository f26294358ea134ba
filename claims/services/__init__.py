"""Every change of a claim's state, and the event each one writes on the claim's timeline.

A claim is queued (`claim_create`, `claim_rerun_reset`), taken by a worker (`claim_start`), kept
alive while it runs (`claim_lease_renew`) or handed back (`claim_hand_back`,
`claims_requeue_stale`), and ends decided (`claim_decide`) or failed (`claim_fail`). An editor
then takes it (`claim_take`), lets it go (`claim_release`), keeps its verdict
(`claim_mark_reviewed`) or changes its outcome (`claim_override`). The machine's verdict and the
editor's override both set the outcome through one function, `versions.outcome_fields`.

The timeline is `events`; the engine's moves are `lifecycle`, the editors' `review`. Every
one of these changes raises the claim's version and records who made it, when, and what
it was (`versions`). An editor's change is made against the version the editor saw
(`expected_version`, from the page's form or the API's `If-Match`): when the claim has changed
since, `StaleClaim` says how, and nothing is written. The check is a conditional UPDATE on the
version, so two editors writing in the same instant cannot both win, on PostgreSQL (where the
row is also locked first) and on SQLite alike.

Nothing else writes a claim's row: the engine and the desk call these, and the rules of each
change (which state it starts from, what it clears) live here with it.
"""

from claims.services.events import event_record
from claims.services.lifecycle import (
    ClaimEvent,
    Confidence,
    RunFigures,
    claim_create,
    claim_decide,
    claim_fail,
    claim_figures_set,
    claim_hand_back,
    claim_language_set,
    claim_lease_renew,
    claim_requeued_after_stop,
    claim_rerun_reset,
    claim_start,
    claim_taken_over,
    claims_requeue_stale,
    lease_expired_before,
    lease_seconds,
)
from claims.services.review import claim_mark_reviewed, claim_override, claim_release, claim_take
from claims.services.versions import claim_locked, claim_state

__all__ = [
    "ClaimEvent",
    "Confidence",
    "RunFigures",
    "claim_create",
    "claim_decide",
    "claim_fail",
    "claim_figures_set",
    "claim_hand_back",
    "claim_language_set",
    "claim_lease_renew",
    "claim_locked",
    "claim_mark_reviewed",
    "claim_override",
    "claim_release",
    "claim_requeued_after_stop",
    "claim_rerun_reset",
    "claim_start",
    "claim_state",
    "claim_take",
    "claim_taken_over",
    "claims_requeue_stale",
    "event_record",
    "lease_expired_before",
    "lease_seconds",
]
