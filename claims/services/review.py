"""An editor's changes of a claim: take it (`claim_take`), let it go (`claim_release`), keep its
verdict (`claim_mark_reviewed`) or change its outcome (`claim_override`), each against the
version the editor saw."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from claimcheck.roles import is_admin
from claims.errors import ClaimError
from claims.models import Claim, ClaimStatus, EventKind, Outcome
from claims.services.events import event_record
from claims.services.versions import claim_locked, locked_update, outcome_fields, version_check


def claim_override(
    *, claim: Claim, editor: User, to_outcome: str, proposed: str, payload: dict[str, Any]
) -> None:
    """An editor's outcome over the machine's `proposed` one: the claim is reviewed and
    released. Call it inside the transaction that locked the claim (`claim_locked`) and stored
    the override: it is written only if the claim is still at the version locked."""
    from_outcome = claim.outcome or proposed
    message = (
        f"{editor.get_username()} changed the outcome from "
        f"{Outcome(from_outcome).label} to {Outcome(to_outcome).label}"
    )
    fields = outcome_fields(
        outcome=to_outcome,
        proposed=proposed,
        reviewed_at=timezone.now(),
        assigned_to=None,
        assigned_at=None,
    )
    locked_update(claim, by=editor, note=message, **fields)
    event_record(claim=claim, kind=EventKind.OVERRIDE, message=message, payload=payload)


@transaction.atomic
def claim_mark_reviewed(*, claim: Claim, editor: User, expected_version: int | None = None) -> None:
    """The editor read the verdict and keeps it. One atomic action: the claim is marked reviewed
    and released, and its review row names the editor, or neither happens."""
    locked = claim_locked(claim_id=claim.pk, expected_version=expected_version)
    if locked.status != ClaimStatus.DECIDED:
        raise ClaimError("only a decided claim can be reviewed", field="status")
    kept = Outcome(locked.outcome).label if locked.outcome in Outcome.values else "its outcome"
    # Reviewing releases the claim: nobody needs to hold it any more.
    locked_update(
        locked,
        by=editor,
        note=f"{editor.get_username()} kept the verdict ({kept})",
        reviewed_at=timezone.now(),
        assigned_to=None,
        assigned_at=None,
    )
    event_record(
        claim=locked,
        kind=EventKind.REVIEW,
        message=f"{editor.get_username()} reviewed the verdict and kept it",
        payload={"kept_by": editor.get_username()},
    )


@transaction.atomic
def claim_take(*, claim: Claim, editor: User, expected_version: int | None = None) -> Claim:
    """Assign the claim to `editor` for review. A claim another editor holds stays theirs."""
    # Lock the claim row only (PostgreSQL cannot lock the nullable side of the join).
    locked = (
        Claim.objects.select_for_update(of=("self",)).select_related("assigned_to").get(pk=claim.pk)
    )
    version_check(locked, expected_version)
    if locked.assigned_to_id == editor.pk:
        return locked
    if locked.assigned_to is not None:
        raise ClaimError(
            f"{locked.assigned_to.get_username()} has taken this claim already",
            field="assigned_to",
        )
    if locked.reviewed_at is not None:
        raise ClaimError("this claim has been reviewed already", field="assigned_to")
    now = timezone.now()
    locked_update(
        locked,
        by=editor,
        note=f"{editor.get_username()} took the claim",
        assigned_to=editor,
        assigned_at=now,
    )
    event_record(
        claim=locked, kind=EventKind.REVIEW, message=f"{editor.get_username()} took the claim"
    )
    locked.refresh_from_db()
    return locked


@transaction.atomic
def claim_release(*, claim: Claim, editor: User, expected_version: int | None = None) -> None:
    """Give the claim back to the pool: its holder can, and so can an admin."""
    locked = claim_locked(claim_id=claim.pk, expected_version=expected_version)
    if locked.assigned_to_id is None:
        return
    if locked.assigned_to_id != editor.pk and not is_admin(editor):
        raise ClaimError("only the editor who took the claim can release it", field="assigned_to")
    locked_update(
        locked,
        by=editor,
        note=f"{editor.get_username()} released the claim",
        assigned_to=None,
        assigned_at=None,
    )
    event_record(
        claim=locked, kind=EventKind.REVIEW, message=f"{editor.get_username()} released the claim"
    )
