"""What the claims API answers: the output schemas of `desk.api.claims` and `desk.api.review`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ninja import Schema
from pydantic import Field


class ClaimCreatedOut(Schema):
    id: int
    status: str
    created: bool
    url: str


class ClaimsCreatedOut(Schema):
    ids: list[int]
    claims: list[ClaimCreatedOut]


class SourceOut(Schema):
    url: str
    title: str
    pub_date: str | None
    excerpt: str
    tier: str = ""
    stance: str = ""
    weight: float = 0.0
    event_date: str | None = None
    publisher: str = ""
    syndicated_from: str = ""


class LeanOut(Schema):
    outcome: str
    weight: float
    sources: list[str]
    text: str


class MoverOut(Schema):
    publisher: str
    side: str
    url: str
    weight: float
    probability: float
    change: float = Field(description="how far the moved outcome's probability falls without it")
    text: str


class WeighedOut(Schema):
    """The weighed proposal: the outcome model's probabilities over the claim's readings."""

    probabilities: dict[str, float] = Field(
        description='P(True), P(False) and P(not decidable), keyed "true", "false", "invalid"'
    )
    proposed: str = Field(
        description='"true" or "false" where it reaches its threshold, else "invalid"'
    )
    lean: str = Field(description='the likelier of "true" and "false"')
    text: str
    thresholds: dict[str, float]
    gates: dict[str, str] = Field(
        default={"true": "sure", "false": "sure"},
        description='what each outcome asks of its side besides its threshold: "sure" (a reading'
        ' as sure as counting asks), "sure_or_two" (that, or two publishers on that side) or'
        ' "none"',
    )
    moved: str = Field(description="the outcome the movers moved: the proposed one, or the lean")
    movers: list[MoverOut]


class AgentResultOut(Schema):
    outcome: str
    reason: str
    proof: str
    sources: list[SourceOut]
    unsided: list[SourceOut] = []
    lean: LeanOut | None = None
    weighed: WeighedOut | None = None
    debug: dict[str, Any]
    support_total: float
    refute_total: float
    decided_at: datetime


class OverrideOut(Schema):
    id: int
    editor: str
    from_outcome: str
    to_outcome: str
    reason: str
    at: datetime


class EventOut(Schema):
    sequence: int
    kind: str
    message: str
    payload: dict[str, Any]
    at: datetime


class FactCheckOut(Schema):
    """How far to lean on the verdict: a score from 0 to 1 and a tier (high, medium, low)."""

    score: float
    tier: str
    note: str


class ProposalOut(Schema):
    """What ClaimCheck itself proposed for the claim's current run, and its confidence in that."""

    outcome: str
    fact_check: FactCheckOut | None


class EditorVerdictOut(Schema):
    """The outcome an editor set over ClaimCheck's proposal: who, when and why."""

    outcome: str
    editor: str
    reason: str
    at: datetime | None


class LastChangeOut(Schema):
    """The claim's last change of state: who made it ("ClaimCheck" for the engine), when, and
    what it was."""

    by: str
    at: datetime | None
    change: str


class ClaimOut(Schema):
    id: int
    text: str
    version: int = Field(
        description="Raised by every change of the claim's state. `GET /api/claims/{claim_id}` "
        'sends it as the `ETag` ("ID.VERSION"); send that back as `If-Match` on a write, and '
        "the write is refused (412, with the claim as it is now) if the claim changed since"
    )
    last_change: LastChangeOut
    status: str
    outcome: str | None = Field(
        description="What the claim shows: the editor's outcome when `overridden`, "
        "else ClaimCheck's own (`proposed.outcome`)"
    )
    overridden: bool
    decided_by: str | None = Field(
        None,
        description='Whose `outcome` the top level shows: "editor" once overridden, '
        '"claimcheck" for its own verdict, null until decided',
    )
    timeframe_start: datetime | None
    timeframe_end: datetime | None
    source_channel: str
    origin: str = Field(
        description='"desk" for a claim sent from the pages or the API, "cli" for one checked '
        "with `manage.py verify` (the editors' queue leaves those out unless asked)"
    )
    language: str
    language_confidence: float | None
    created_at: datetime
    decided_at: datetime | None
    error: str
    queries_used: int
    crawls_used: int
    evidence_count: int
    fact_check: FactCheckOut | None = Field(
        description="The confidence in the top-level `outcome`: ClaimCheck's in its own verdict "
        "(the same as `proposed.fact_check`), and null once `overridden`, since it is never "
        "given in an editor's outcome"
    )
    proposed: ProposalOut | None = Field(
        None, description="ClaimCheck's outcome for the current run; null until it is decided"
    )


class EntityOut(Schema):
    text: str
    name: str
    kind: str


class ClaimDetailOut(ClaimOut):
    editor_verdict: EditorVerdictOut | None = Field(
        None, description="When `overridden`: the editor's outcome (`outcome`), who, when, why"
    )
    result: AgentResultOut | None
    override: OverrideOut | None
    overrides: list[OverrideOut]
    events: list[EventOut]
    fact_checks: list[dict[str, Any]]
    also_reported_by: list[dict[str, Any]]
    entities: list[EntityOut]
    evidence: list[dict[str, Any]] = Field(
        [],
        description="The current run's rows as shown, each with whether and why it counted, "
        "and how the weighed proposal read it (`weighed`, empty when it did not)",
    )
    similar: list[dict[str, Any]] = Field(
        [],
        description='Other stored claims that say the same ("relation": "same") or share its '
        'subject ("related"), best first: {"id", "text", "relation", "score", "outcome", '
        '"decided_by"}; "decided_by" is "editor" once an editor kept or overrode it',
    )


class ClaimPageOut(Schema):
    count: int
    limit: int
    offset: int
    items: list[ClaimOut]


class CommentOut(Schema):
    id: int
    author: str
    text: str
    at: datetime


class StaleOut(Schema):
    """A write refused because the claim changed since the version it was made on (412)."""

    error: str
    details: str
    current: dict[str, Any] = Field(
        description="The claim now: `version`, `etag`, `status`, `outcome`, who set it "
        "(`set_by`), when (`set_at`) and what the change was (`change`)"
    )
