"""The review desk's actions: take a claim, release it, comment, mark it reviewed. Each is one
atomic function that locks the claim and writes its review row with the acting editor."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from claimcheck.roles import is_admin
from claims.events import event_record
from claims.models import Claim, ClaimStatus, EventKind
from decisions.errors import ClaimError
from decisions.models import COMMENT_MAX_CHARS, Comment
from decisions.services.claims import BULK_MAX, BulkResult


@transaction.atomic
def claim_mark_reviewed(*, claim: Claim, editor: User) -> None:
    """The editor read the verdict and keeps it. One atomic action: the claim is marked reviewed
    and released, and its review row names the editor, or neither happens."""
    locked = Claim.objects.select_for_update().get(pk=claim.pk)
    if locked.status != ClaimStatus.DECIDED:
        raise ClaimError("only a decided claim can be reviewed", field="status")
    # Reviewing releases the claim: nobody needs to hold it any more.
    Claim.objects.filter(pk=locked.pk).update(
        reviewed_at=timezone.now(), assigned_to=None, assigned_at=None
    )
    event_record(
        claim=locked,
        kind=EventKind.REVIEW,
        message=f"{editor.get_username()} reviewed the verdict and kept it",
    )


@transaction.atomic
def claim_take(*, claim: Claim, editor: User) -> Claim:
    """Assign the claim to `editor` for review. A claim another editor holds stays theirs."""
    # Lock the claim row only (PostgreSQL cannot lock the nullable side of the join).
    locked = (
        Claim.objects.select_for_update(of=("self",)).select_related("assigned_to").get(pk=claim.pk)
    )
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
    Claim.objects.filter(pk=locked.pk).update(assigned_to=editor, assigned_at=now)
    event_record(
        claim=locked, kind=EventKind.REVIEW, message=f"{editor.get_username()} took the claim"
    )
    locked.assigned_to, locked.assigned_at = editor, now
    return locked


@transaction.atomic
def claim_release(*, claim: Claim, editor: User) -> None:
    """Give the claim back to the pool: its holder can, and so can an admin."""
    locked = Claim.objects.select_for_update().get(pk=claim.pk)
    if locked.assigned_to_id is None:
        return
    if locked.assigned_to_id != editor.pk and not is_admin(editor):
        raise ClaimError("only the editor who took the claim can release it", field="assigned_to")
    Claim.objects.filter(pk=locked.pk).update(assigned_to=None, assigned_at=None)
    event_record(
        claim=locked, kind=EventKind.REVIEW, message=f"{editor.get_username()} released the claim"
    )


@transaction.atomic
def comment_add(*, claim: Claim, author: User, text: str) -> Comment:
    """Add a message to the claim's discussion; it stays in the claim's history."""
    cleaned = (text or "").strip()
    if not cleaned:
        raise ClaimError("write something first", field="text")
    if len(cleaned) > COMMENT_MAX_CHARS:
        raise ClaimError(f"a comment is at most {COMMENT_MAX_CHARS} characters", field="text")
    comment = Comment.objects.create(claim=claim, author=author, text=cleaned)
    event_record(
        claim=claim,
        kind=EventKind.REVIEW,
        message=f"{author.get_username()} commented",
        payload={"comment_id": comment.pk},
    )
    return comment


def claims_review_many(*, claim_ids: list[int], editor: User) -> BulkResult:
    """Mark each decided, unreviewed claim reviewed; the others are skipped and counted."""
    ids = list(dict.fromkeys(claim_ids))[:BULK_MAX]
    done = 0
    for claim in Claim.objects.filter(
        pk__in=ids, status=ClaimStatus.DECIDED, reviewed_at__isnull=True
    ):
        claim_mark_reviewed(claim=claim, editor=editor)
        done += 1
    return BulkResult(done=done, skipped=len(ids) - done)
