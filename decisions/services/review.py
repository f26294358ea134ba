"""The review desk's actions: take a claim, release it, comment, mark it reviewed, and those on
many claims at once. Taking, releasing and reviewing change the claim's state, so they are the
claims app's (`claims.services`); a comment is the desk's own."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from claims.models import Claim, ClaimStatus, EventKind
from claims.services import claim_mark_reviewed, claim_release, claim_take, event_record
from decisions.errors import ClaimError
from decisions.models import COMMENT_MAX_CHARS, Comment
from decisions.services.claims import BULK_MAX, BulkResult

__all__ = [
    "claim_mark_reviewed",
    "claim_release",
    "claim_take",
    "claims_review_many",
    "comment_add",
]


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
