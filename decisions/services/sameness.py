"""An editor's word on whether two claims say the same thing: kept, and followed by the
similar-claims matcher from then on (`decisions.similar`), whatever its own reading."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from claims.models import Claim, EventKind
from claims.services import event_record
from decisions.errors import ClaimError
from decisions.models import ClaimRestatement, ClaimSameness
from decisions.similar import group_of


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
    _regroup(first, second, same=same)
    words = "the same claim as" if same else "not the same claim as"
    for one, two in ((claim, other), (other, claim)):
        event_record(
            claim=one,
            kind=EventKind.REVIEW,
            message=f"{editor.get_username()} marked it {words} claim #{two.pk}",
            payload={"other": two.pk, "same": same, "by": editor.get_username()},
        )
    return mark


def _regroup(first: int, second: int, *, same: bool) -> None:
    """The queue's groups after an editor's word on a pair: the newer claim joins the older
    one's group, or leaves it."""
    if same:
        ClaimRestatement.objects.update_or_create(
            claim_id=second, defaults={"of_id": group_of(first), "by_editor": True}
        )
        # The newer claim's own restatements follow it into the older group.
        ClaimRestatement.objects.filter(of_id=second).update(of_id=group_of(first))
    else:
        ClaimRestatement.objects.filter(
            claim_id=second, of_id__in=(first, group_of(first))
        ).delete()
        ClaimRestatement.objects.filter(claim_id=first, of_id=second).delete()
