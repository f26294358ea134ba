"""A claim the desk has answered before: the best earlier claim that says the same (the engine's
`similar_claims`) and whose verdict an editor confirmed, kept or overridden, with the editor's
word. The new claim is still checked; its page shows the two side by side and says when they
disagree. A related claim, or one only ClaimCheck decided, is never shown as an answer."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from claims.models import Claim
from decisions.models import Override
from decisions.selectors import SimilarClaim, similar_claims
from desk.selectors.verdict_card import verdict_card


@dataclass(frozen=True)
class CheckedBefore:
    claim_id: int
    text: str
    outcome: str
    editor: str
    at: datetime | None
    reason: str
    score: float
    disagrees: bool
    """This claim's own proposal (once there is one) differs from the editor's outcome then."""


def similar_to(claim: Claim) -> list[SimilarClaim]:
    """The other stored claims that say the same as `claim` or are related to it, best first."""
    return similar_claims(text=claim.text, language=claim.language, exclude=claim.pk)


def checked_before(
    *, claim: Claim, proposed: str | None, similar: list[SimilarClaim] | None = None
) -> CheckedBefore | None:
    """The earlier same claim an editor confirmed, if any. `proposed`: ClaimCheck's outcome for
    this claim so far (None while it is checked); `similar`: `similar_to(claim)`, when at hand."""
    for match in similar_to(claim) if similar is None else similar:
        if match.relation != "same" or match.decided_by != "editor" or match.id > claim.pk:
            continue
        earlier = Claim.objects.get(pk=match.id)
        verdict = earlier.verdicts.filter(run_number=earlier.run_number).first()
        if verdict is None:
            continue
        overrides = list(
            Override.objects.filter(verdict__claim=earlier)
            .select_related("editor", "verdict")
            .order_by("-at", "-id")
        )
        events = list(earlier.events.order_by("sequence"))
        card = verdict_card(claim=earlier, verdict=verdict, overrides=overrides, events=events)
        word = card.override or card.kept
        if word is None:
            continue
        return CheckedBefore(
            claim_id=earlier.pk,
            text=earlier.text,
            outcome=word.outcome,
            editor=word.editor,
            at=word.at or earlier.reviewed_at,
            reason=word.reason,
            score=match.score,
            disagrees=proposed is not None and proposed != word.outcome,
        )
    return None
