"""Claim questions and evidence hits for the decision tests: a claim with a window, one with no
timeframe, one with an end only, and a hit built from a publisher, its tier and its stance."""

from __future__ import annotations

from datetime import UTC, datetime

from decisions.types import ClaimQuestion, EvidenceHit, Lean
from decisions.weighing import FEATURES, OutcomeModel

WINDOW = ClaimQuestion(
    text="The EU AI Act entered into force between 2024-07-01 and 2024-08-31",
    timeframe_start=datetime(2024, 7, 1, tzinfo=UTC),
    timeframe_end=datetime(2024, 8, 31, tzinfo=UTC),
)
OPEN = ClaimQuestion(text="The EU AI Act entered into force in 2024")
BY_END = ClaimQuestion(
    text="The EU AI Act entered into force by the end of August 2024",
    timeframe_end=datetime(2024, 8, 31, tzinfo=UTC),
)
INSIDE = datetime(2024, 8, 1, tzinfo=UTC)
OUTSIDE = datetime(2024, 12, 1, tzinfo=UTC)

WEIGHTS = {"official": 1.0, "wire": 0.8, "trade": 0.6, "other": 0.4, "social": 0.0}


def hit(
    domain: str, tier: str, stance: str = "support", *, when: datetime | None = INSIDE
) -> EvidenceHit:
    in_window = None if when is None else WINDOW.timeframe_start <= when <= WINDOW.timeframe_end  # type: ignore[operator]
    return EvidenceHit(
        url=f"https://{domain}/{stance}/{tier}",
        domain=domain,
        tier=tier,
        weight=WEIGHTS[tier],
        stance=stance,
        title=f"{domain} report",
        quote=f"{domain} says so",
        stance_score=0.8,
        event_at=when,
        in_window=in_window,
    )


def hit_for(question: ClaimQuestion, domain: str, tier: str, *, when: datetime) -> EvidenceHit:
    """A supporting hit whose in_window is judged against `question`'s own timeframe."""
    inside = (question.timeframe_start is None or when >= question.timeframe_start) and (
        question.timeframe_end is None or when <= question.timeframe_end
    )
    return EvidenceHit(
        url=f"https://{domain}/",
        domain=domain,
        tier=tier,
        weight=WEIGHTS[tier],
        stance="support",
        event_at=when,
        in_window=inside,
    )


LEAN = Lean(score=0.4, ratio=2.0)

# An outcome model that proposes nothing: for the tests of the counting rule alone, whatever
# the shipped model (refitted on new claims) would propose short of the counting bar.
COUNTING_ONLY = OutcomeModel(
    coefficients={outcome: [0.0] * len(FEATURES) for outcome in ("true", "false")},
    thresholds={"true": 1.01, "false": 1.01},
)
