"""The review desk's actions: take a claim, release it, comment, mark it reviewed, and those on
many claims at once. Taking, releasing and reviewing change the claim's state, so they are the
claims app's (`claims.services`); a comment is the desk's own."""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib.auth.models import User
from django.db import transaction

from claims.errors import StaleClaim
from claims.models import Claim, ClaimStatus, EventKind
from claims.services import (
    claim_mark_reviewed,
    claim_release,
    claim_state,
    claim_take,
    event_record,
)
from decisions.errors import ClaimError
from decisions.models import COMMENT_MAX_CHARS, Comment
from decisions.services.claims import BulkResult, bulk_run

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


def claims_review_many(
    *, claim_ids: list[int], editor: User, versions: Mapping[int, int] | None = None
) -> BulkResult:
    """Mark each decided, unreviewed claim reviewed; the others are skipped and counted, and
    one that changed since its version in `versions` is left alone and named."""

    def keep(claim: Claim, version: int | None) -> None:
        if claim.status != ClaimStatus.DECIDED or claim.reviewed_at is not None:
            if version is not None and claim.version != version:
                raise StaleClaim(claim_state(claim_id=claim.pk))
            raise ClaimError("not decided yet, or reviewed already", field="status")
        claim_mark_reviewed(claim=claim, editor=editor, expected_version=version)

    return bulk_run(claim_ids, keep, versions or {})
