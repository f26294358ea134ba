"""An editor's word on whether two claims say the same thing: kept, and followed by the
similar-claims matcher from then on (`decisions.similar`), whatever its own reading."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from claims.models import Claim, EventKind
from claims.services import event_record
from decisions.errors import ClaimError
from decisions.models import ClaimSameness


@transaction.atomic
def claims_mark_same(*, claim: Claim, other_id: int, same: bool, editor: User) -> ClaimSameness:
    """Mark `claim` and claim `other_id` as the same assertion (`same`) or not. A later mark of
    the same pair replaces the earlier one; each is said on both claims' timelines."""
    if other_id == claim.pk:
        raise ClaimError("a claim is always the same as itself", field="other")
    other = Claim.objects.filter(pk=other_id).first()
    if other is None:
        raise ClaimError(f"there is no claim {other_id}", field="other")
    first, second = sorted((claim.pk, other.pk))
    mark, _ = ClaimSameness.objects.update_or_create(
        claim_id=first,
        other_id=second,
        defaults={"same": same, "editor": editor, "at": timezone.now()},
    )
    words = "the same claim as" if same else "not the same claim as"
    for one, two in ((claim, other), (other, claim)):
        event_record(
            claim=one,
            kind=EventKind.REVIEW,
            message=f"{editor.get_username()} marked it {words} claim #{two.pk}",
            payload={"other": two.pk, "same": same, "by": editor.get_username()},
        )
    return mark
