"""The plain data the decision module works on and answers with: the question a claim asks, the
evidence hits it weighs, each side's totals, and the verdict (`AgentResult`). Kept apart from the
rules (`decisions.decide`) so that the proof writer and the claim loop share them without
importing each other."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

SUPPORT = "support"
REFUTE = "refute"
SIDES = (SUPPORT, REFUTE)


@dataclass(frozen=True)
class ClaimQuestion:
    """What a claim asks the search: its text and the timeframe it is about."""

    text: str
    timeframe_start: datetime | None = None
    timeframe_end: datetime | None = None
    claim_id: int | None = None
    language: str = ""
    """ISO 639-1, as detected; "" when unknown."""
    language_confidence: float = 1.0

    @property
    def has_timeframe(self) -> bool:
        return self.timeframe_start is not None or self.timeframe_end is not None


@dataclass(frozen=True)
class EvidenceHit:
    url: str
    domain: str
    tier: str
    weight: float
    stance: str
    title: str = ""
    quote: str = ""
    stance_score: float = 0.0
    event_at: datetime | None = None
    published_at: datetime | None = None
    in_window: bool | None = None
    date_source: str = ""
    method: str = ""
    content_depth: str = ""
    read: bool = True
    """Whether the hit's text was read on its page (a page read, or a verified snippet)."""
    confidence: str = "high"
    """How sure the stance reader was: "high", "medium" or "low"."""
    syndicated_from: str = ""
    """The original publisher when this page reprints another's story."""
    entity_overlap: float | None = None
    """How far the quote names the claim's entities (0-1); None when the claim names none."""
    about: bool = True
    """Whether it is about the claim at all (`Evidence.about_claim`): a row about another
    event, party or product never counts and is not listed among the pages read."""

    @property
    def publisher(self) -> str:
        return self.syndicated_from or self.domain


def dated_inside(question: ClaimQuestion, hit: EvidenceHit) -> bool:
    """Whether a supporting hit fits the claim's timeframe. A window with a start needs the
    event dated inside it. A timeframe with only an end ("by the end of 2023") asks whether
    something was so by then: a hit that gives no date for it cannot place it after the end
    and counts, while one dated after the end does not."""
    if hit.in_window is not None:
        return hit.in_window
    return question.timeframe_start is None


@dataclass
class SearchHistory:
    evidence: list[EvidenceHit] = field(default_factory=list)
    queries: list[str] = field(default_factory=list)
    pages_visited: int = 0


@dataclass(frozen=True)
class SideTotal:
    total: float
    domains: tuple[str, ...]
    """The counted publishers, best first."""
    hits: tuple[EvidenceHit, ...]
    """The counted hits: one per publisher, best first."""

    def sufficient(self, threshold: float) -> bool:
        return self.total >= threshold - 1e-9 and len(self.domains) >= 2


@dataclass(frozen=True)
class Totals:
    support: SideTotal
    refute: SideTotal
    threshold: float
    outside_window: tuple[EvidenceHit, ...]
    """Supporting hits dated outside the claim's timeframe: reported, never counted."""


class NotCounted(StrEnum):
    """Why a hit, or a stored evidence row, did not count toward its side. The first five are
    the decision's own rule (`decisions.decide.hit_fails`), in the order it asks them; then
    the best-per-publisher rule; the last three are the claim loop's (`decisions.counting`)."""

    NO_SIDE = "no_side"
    LEAD = "lead"
    NO_WEIGHT = "no_weight"
    UNSURE = "unsure"
    OUTSIDE = "outside_window"
    WEAKER = "weaker"
    """A weaker hit of a publisher that counted with another."""
    REPRINT = "reprint"
    """A syndicated copy of a story whose publisher counted with another row."""
    PAGE_STANDS = "page_stands"
    """A snippet whose page was read: the page's reading stands (`decisions.publishers`)."""
    OTHER_SIDE = "other_side"
    """A reading whose publisher counts on the other side, with a surer reading."""
    BEYOND_TOP = "beyond_top"
    COPY = "copy"
    """A stored copy of another row's statement (`Evidence.duplicate_of`)."""
    OLDER_RUN = "older_run"


@dataclass(frozen=True)
class HitCount:
    """How the decision treated one hit: counted for its side with its weight, or why not."""

    hit: EvidenceHit
    why: NotCounted | None
    """None when it counted."""
    counted_with: EvidenceHit | None = None
    """For a weaker hit or a reprint: the publisher's hit that counted instead."""
    against: bool = False
    """Weighed against a side that reached the agreement score (`Opposition`)."""

    @property
    def counted(self) -> bool:
        return self.why is None


@dataclass(frozen=True)
class Opposition:
    """The conflict rule's view of a side that reached the agreement score on its own: the
    weight against it, counting every reading read (readings too unsure to count toward a
    total included), and the most a verdict allows (`share` of the side's counted weight)."""

    side: str
    weight: float
    against: SideTotal
    share: float

    @property
    def allowed(self) -> float:
        return self.share * self.weight

    @property
    def conflicts(self) -> bool:
        return self.against.total > self.allowed + 1e-9


@dataclass(frozen=True)
class Weighing:
    """Everything the decision weighed, hit by hit: the counted totals, the totals of every
    reading read (for the lean hint and the conflict rule), and each hit's count."""

    totals: Totals
    every: Totals
    counts: tuple[HitCount, ...]
    opposition: Opposition | None
    min_confidence: str

    @property
    def both_sufficient(self) -> bool:
        threshold = self.totals.threshold
        return self.totals.support.sufficient(threshold) and self.totals.refute.sufficient(
            threshold
        )

    @property
    def conflicting(self) -> bool:
        return self.both_sufficient or (self.opposition is not None and self.opposition.conflicts)


@dataclass(frozen=True)
class Lean:
    """How much weight a side needs, and by how many times the other side's, for an Invalid
    verdict to carry a lean hint."""

    score: float
    ratio: float = 2.0

    def side(self, totals: Totals) -> str | None:
        support, refute = totals.support.total, totals.refute.total
        if support >= self.score - 1e-9 and support > refute and support >= self.ratio * refute:
            return SUPPORT
        if refute >= self.score - 1e-9 and refute > support and refute >= self.ratio * support:
            return REFUTE
        return None


@dataclass(frozen=True)
class LeanHint:
    """Where the evidence of an Invalid verdict leans: for the editor, never the outcome."""

    outcome: str  # Outcome value the evidence leans to: "true" | "false"
    weight: float
    sources: tuple[str, ...]
    """The publishers on the leaning side, best first."""
    text: str

    def as_json(self) -> dict[str, object]:
        return {
            "outcome": self.outcome,
            "weight": self.weight,
            "sources": list(self.sources),
            "text": self.text,
        }


@dataclass(frozen=True)
class Source:
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


@dataclass(frozen=True)
class AgentResult:
    """The verdict contract the API answers with."""

    outcome: str  # Outcome value: "true" | "false" | "invalid"
    reason: str  # VerdictReason value
    proof: str  # markdown
    sources: list[Source]
    debug: dict[str, object]
    support_total: float = 0.0
    refute_total: float = 0.0
    lean: LeanHint | None = None
    unsided: list[Source] = field(default_factory=list)
    """Pages read that took no side (or whose side did not count): listed apart."""
    proposal: dict[str, Any] | None = None
    """The weighed proposal (`decisions.weighing.proposal_for`): P(True), P(False), P(not
    decidable), the lean and what moved it most."""


@dataclass(frozen=True)
class Final:
    result: AgentResult
    totals: Totals
    weighing: Weighing | None = None
    status: Literal["final"] = "final"


@dataclass(frozen=True)
class NeedMoreSearch:
    totals: Totals
    weighing: Weighing | None = None
    status: Literal["need_more_search"] = "need_more_search"


Decision = Final | NeedMoreSearch
