"""Whose outcome a claim shows: ClaimCheck's proposal, an editor's outcome over it, or the proposal
kept by an editor. The claim page's verdict card and the API read it here, so that ClaimCheck's
confidence is only ever shown beside ClaimCheck's own proposal, never beside an editor's outcome."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from claims.models import Claim, EventKind, Outcome, PipelineEvent
from decisions.models import Override, Verdict


@dataclass(frozen=True)
class EditorWord:
    """An editor's word on the current verdict: the outcome they set or kept, who, when and why.
    `editor`, `at` and `reason` are empty when no row records them (a review without an
    override gives no reason)."""

    outcome: str
    editor: str
    at: datetime | None
    reason: str
    # The outcome this word replaced and whose it was ("" for ClaimCheck's own proposal): an
    # editor may override another editor's outcome, not only ClaimCheck's.
    replaced: str = ""
    replaced_by: str = ""

    @property
    def outcome_label(self) -> str:
        return Outcome(self.outcome).label

    @property
    def replaced_label(self) -> str:
        return Outcome(self.replaced).label if self.replaced in Outcome.values else ""


@dataclass(frozen=True)
class VerdictCard:
    """The current verdict as its card shows it: `proposed` is ClaimCheck's outcome; `override`
    the editor's outcome the claim shows instead (None unless the claim is overridden); `kept`
    the editor who reviewed the proposal and let it stand."""

    proposed: str
    override: EditorWord | None = None
    kept: EditorWord | None = None

    @property
    def proposed_label(self) -> str:
        return Outcome(self.proposed).label


# `claims.services.claim_mark_reviewed` writes this step with the editor in its payload
# (`kept_by`); steps stored before it did name the editor only in this line.
_KEPT = re.compile(r"^(?P<editor>\S+) reviewed the verdict and kept it$")


def _word(override: Override, earlier: list[Override] | None = None) -> EditorWord:
    """The override as the card says it; `earlier` are the overrides of the same verdict before
    it, newest first, which tell whose outcome it replaced."""
    before = next(iter(earlier or []), None)
    by_editor = before is not None and before.to_outcome == override.from_outcome
    return EditorWord(
        outcome=override.to_outcome,
        editor=override.editor.get_username(),
        at=override.at,
        reason=override.reason,
        replaced=override.from_outcome,
        replaced_by=before.editor.get_username() if by_editor and before is not None else "",
    )


def _kept_by_review(verdict: Verdict, events: list[PipelineEvent]) -> EditorWord | None:
    """The latest "reviewed the verdict and kept it" step of this verdict's run."""
    for event in reversed(events):
        if event.kind != EventKind.REVIEW or event.created_at < verdict.decided_at:
            continue
        payload = event.payload if isinstance(event.payload, dict) else {}
        match = _KEPT.match(event.message)
        editor = str(payload.get("kept_by") or (match["editor"] if match else ""))
        if editor:
            return EditorWord(
                outcome=verdict.outcome, editor=editor, at=event.created_at, reason=""
            )
    return None


def verdict_card(
    *, claim: Claim, verdict: Verdict, overrides: list[Override], events: list[PipelineEvent]
) -> VerdictCard:
    """`overrides` are the claim's, newest first (with their editor); `events` its steps in
    order. Reads nothing from the database."""
    own = [o for o in overrides if o.verdict_id == verdict.pk]
    latest = own[0] if own else None
    if claim.overridden:
        if latest is not None and latest.to_outcome == claim.outcome:
            return VerdictCard(proposed=verdict.outcome, override=_word(latest, own[1:]))
        return VerdictCard(
            proposed=verdict.outcome,
            override=EditorWord(outcome=claim.outcome, editor="", at=None, reason=""),
        )
    if claim.reviewed_at is None:
        return VerdictCard(proposed=verdict.outcome)
    # Kept: by a review, or by an override back to ClaimCheck's outcome; the later one counts.
    restored = latest if latest is not None and latest.to_outcome == verdict.outcome else None
    words = [_kept_by_review(verdict, events), None if restored is None else _word(restored)]
    known = [word for word in words if word is not None]
    if known:
        kept = max(known, key=lambda word: word.at.timestamp() if word.at else 0.0)
    else:
        kept = EditorWord(outcome=verdict.outcome, editor="", at=claim.reviewed_at, reason="")
    return VerdictCard(proposed=verdict.outcome, kept=kept)


_VERDICT_LINE = re.compile(r"^\*\*Verdict: (?P<outcome>[^*]+)\*\*", re.MULTILINE)


def proposed_proof(*, markdown_text: str, card: VerdictCard) -> str:
    """ClaimCheck's proof as its proposal. Once an editor has changed the outcome, its verdict
    line reads "Pipeline verdict: X" (as in the API's proof), so that no bold "Verdict" on the
    page contradicts the editor's outcome; the editor's own words lead the card instead."""
    if card.override is None:
        return markdown_text
    return _VERDICT_LINE.sub(r"Pipeline verdict: \g<outcome>", markdown_text, count=1)
