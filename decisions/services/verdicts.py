"""A verdict's outcome changed by an editor: one atomic action that keeps the verdict and writes
the override row, the audit trail a claim shows."""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib.auth.models import User
from django.db import transaction

from claims.models import Claim, ClaimStatus, Outcome
from claims.services import claim_locked, claim_override
from decisions.errors import OverrideRefused
from decisions.models import Override, Verdict
from decisions.services.claims import BulkResult, bulk_run

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
    *,
    claim_ids: list[int],
    editor: User,
    to_outcome: str,
    reason: str,
    versions: Mapping[int, int] | None = None,
) -> BulkResult:
    """Override each claim to one outcome with one reason, each through `verdict_override` (its
    own override row and timeline event). A bad outcome or reason changes nothing; a claim that
    has no verdict yet, or has that outcome already, is skipped and counted, and one that
    changed since its version in `versions` is left alone and named."""
    reason = _override_input(to_outcome=to_outcome, reason=reason)
    return bulk_run(
        claim_ids,
        lambda claim, version: verdict_override(
            claim=claim,
            editor=editor,
            to_outcome=to_outcome,
            reason=reason,
            expected_version=version,
        ),
        versions or {},
    )


@transaction.atomic
def verdict_override(
    *,
    claim: Claim,
    editor: User,
    to_outcome: str,
    reason: str,
    expected_version: int | None = None,
) -> Override:
    """An editor changes the outcome, with a reason. The verdict itself is never edited: the
    override row is the audit trail and the claim shows the latest one. With
    `expected_version`, only if the claim is still at the version the editor saw; the row
    records the outcome the claim had when it was replaced."""
    reason = _override_input(to_outcome=to_outcome, reason=reason)
    locked = claim_locked(claim_id=claim.pk, expected_version=expected_version)
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
