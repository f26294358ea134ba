"""A verdict's outcome changed by an editor: one atomic action that keeps the verdict and writes
the override row, the audit trail a claim shows."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from claims.models import Claim, ClaimStatus, Outcome
from claims.services import claim_override
from decisions.errors import OverrideRefused
from decisions.models import Override, Verdict
from decisions.services.claims import BULK_MAX, BulkResult

REASON_MAX_CHARS = 2000


def current_verdict(claim: Claim) -> Verdict | None:
    return claim.verdicts.order_by("-run_number", "-decided_at").first()


def _override_input(*, to_outcome: str, reason: str) -> str:
    """The reason, stripped, once the outcome and the reason are known good."""
    if to_outcome not in Outcome.values:
        raise OverrideRefused(
            f"outcome must be one of {', '.join(Outcome.values)}", field="outcome"
        )
    reason = (reason or "").strip()
    if not reason:
        raise OverrideRefused("say why the verdict is changed", field="reason")
    if len(reason) > REASON_MAX_CHARS:
        raise OverrideRefused(f"the reason is over {REASON_MAX_CHARS} characters", field="reason")
    return reason


def verdicts_override_many(
    *, claim_ids: list[int], editor: User, to_outcome: str, reason: str
) -> BulkResult:
    """Override each claim to one outcome with one reason, each through `verdict_override` (its
    own override row and timeline event). A bad outcome or reason changes nothing; a claim that
    has no verdict yet, or has that outcome already, is skipped and counted."""
    reason = _override_input(to_outcome=to_outcome, reason=reason)
    ids = list(dict.fromkeys(claim_ids))[:BULK_MAX]
    done = 0
    for claim in Claim.objects.filter(pk__in=ids).order_by("pk"):
        try:
            verdict_override(claim=claim, editor=editor, to_outcome=to_outcome, reason=reason)
        except OverrideRefused:
            continue  # counted as skipped below
        done += 1
    return BulkResult(done=done, skipped=len(ids) - done)


@transaction.atomic
def verdict_override(*, claim: Claim, editor: User, to_outcome: str, reason: str) -> Override:
    """An editor changes the outcome, with a reason. The verdict itself is never edited: the
    override row is the audit trail and the claim shows the latest one."""
    reason = _override_input(to_outcome=to_outcome, reason=reason)
    locked = Claim.objects.select_for_update().get(pk=claim.pk)
    verdict = current_verdict(locked)
    if verdict is None or locked.status != ClaimStatus.DECIDED:
        raise OverrideRefused("the claim has no verdict to override yet", field="status")
    current = locked.outcome or verdict.outcome
    if to_outcome == current:
        raise OverrideRefused(
            f"the outcome is already {Outcome(current).label}: choose another, or mark the "
            "claim reviewed to keep it",
            field="outcome",
            conflict=True,
        )
    override = Override.objects.create(
        verdict=verdict,
        editor=editor,
        from_outcome=locked.outcome or verdict.outcome,
        to_outcome=to_outcome,
        reason=reason,
    )
    claim_override(
        claim=locked,
        editor=editor,
        to_outcome=to_outcome,
        proposed=verdict.outcome,
        payload={"override_id": override.pk, "reason": reason},
    )
    return override
