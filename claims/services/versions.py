"""A claim's version: every change of its state raises it and records who made the change,
when and what it was (`changed_fields`). An editor's change is made against the version the
editor saw: `claim_locked` and `version_check` refuse another one with `StaleClaim`, and
`locked_update` writes only if the version is still the one read, a conditional UPDATE, so that
two editors writing in the same instant cannot both win, on PostgreSQL (where the row is also
locked first) and on SQLite alike."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import F
from django.utils import timezone

from claims.errors import ClaimState, StaleClaim
from claims.models import Claim


def claim_state(*, claim_id: int) -> ClaimState:
    """The claim as it is now: its version, status, outcome and last change."""
    claim = Claim.objects.select_related("changed_by").get(pk=claim_id)
    return ClaimState(
        claim_id=claim.pk,
        version=claim.version,
        status=claim.status,
        outcome=claim.outcome,
        set_by=claim.changed_by.get_username() if claim.changed_by else "ClaimCheck",
        set_at=claim.changed_at,
        change=claim.change_note,
    )


def changed_fields(by: User | None, note: str) -> dict[str, Any]:
    """The fields every change of state writes beside its own: the next version, when, by whom
    (None for ClaimCheck itself) and what."""
    return {
        "version": F("version") + 1,
        "changed_at": timezone.now(),
        "changed_by": by,
        "change_note": note[:200],
    }


def version_check(locked: Claim, expected_version: int | None) -> None:
    """Refuse a write made on another version than the one the locked row holds."""
    if expected_version is not None and locked.version != expected_version:
        raise StaleClaim(claim_state(claim_id=locked.pk))


def locked_update(locked: Claim, *, by: User | None, note: str, **fields: Any) -> None:
    """An editor's change of the locked claim, written only if its version is still the one
    read: the lock holds it on PostgreSQL, the condition on SQLite (where a lock is not taken)."""
    if not Claim.objects.filter(pk=locked.pk, version=locked.version).update(
        **fields, **changed_fields(by, note)
    ):
        raise StaleClaim(claim_state(claim_id=locked.pk))


def claim_locked(*, claim_id: int, expected_version: int | None = None) -> Claim:
    """The claim's row, locked for a change in the caller's transaction, refused with
    `StaleClaim` when it is not at `expected_version` any more."""
    locked = Claim.objects.select_for_update().get(pk=claim_id)
    version_check(locked, expected_version)
    return locked


def outcome_fields(*, outcome: str, proposed: str, **fields: Any) -> dict[str, Any]:
    """The fields of the one change that sets a claim's outcome, for the caller to write:
    `proposed` is the machine's verdict, `outcome` what the claim shows (the verdict's own, or an
    editor's). The claim is overridden exactly when they differ."""
    return {"outcome": outcome, "overridden": outcome != proposed, **fields}
