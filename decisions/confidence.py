"""How far an editor can lean on a decided claim: a fact-check score from 0 to 1 and a tier.

The score is how decisively the counted evidence points one way: the winning side's weight
against the agreement threshold (capped at 1), times its share of all counted weight. The tier
follows the verdict's own reading of that evidence:
- low, "no sources": nothing was counted for or against the claim;
- low, "conflicting sources": both sides were heavy enough that no outcome could be given;
- low, otherwise, for any Invalid verdict (the evidence is short of the agreement score);
- high: True or False, a score of at least HIGH_SCORE, and at least one counted source that is
  not social media (social sources are context, never the ground of high confidence);
- medium: every other True or False, and a weighed one (the outcome model's probability cleared
  its threshold short of the counting bar), whose score is that probability.
It describes the verdict; it never changes it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from claims.models import ConfidenceTier, Outcome
from decisions.models import VerdictReason
from decisions.types import Source

HIGH_SCORE = 0.8


@dataclass(frozen=True)
class FactCheckConfidence:
    score: float
    tier: str
    note: str


def fact_check_confidence(
    *,
    outcome: str,
    reason: str,
    support: float,
    refute: float,
    threshold: float,
    sources: Sequence[Source],
    proposal: Mapping[str, Any] | None = None,
) -> FactCheckConfidence:
    if reason == VerdictReason.WEIGHED and proposal and outcome in proposal["probabilities"]:
        probability = float(proposal["probabilities"][outcome])
        return FactCheckConfidence(
            round(probability, 2), ConfidenceTier.MEDIUM, "weighed, short of the counting bar"
        )
    counted = support + refute
    if counted <= 0 or reason == VerdictReason.NO_SOURCES:
        return FactCheckConfidence(0.0, ConfidenceTier.LOW, "no sources")
    winning = max(support, refute)
    score = round(min(1.0, winning / threshold) * (winning / counted), 2)
    if reason == VerdictReason.CONFLICTING:
        return FactCheckConfidence(score, ConfidenceTier.LOW, "conflicting sources")
    if outcome == Outcome.INVALID:
        return FactCheckConfidence(score, ConfidenceTier.LOW, "below the agreement score")
    if score >= HIGH_SCORE and any(source.tier != "social" for source in sources):
        named = len({source.publisher or source.url for source in sources})
        return FactCheckConfidence(score, ConfidenceTier.HIGH, f"{named} sources agree")
    if refute and support:
        return FactCheckConfidence(score, ConfidenceTier.MEDIUM, "some sources disagree")
    return FactCheckConfidence(score, ConfidenceTier.MEDIUM, "agreement short of high")
