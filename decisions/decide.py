"""The decision module: from a claim and the evidence gathered so far, either a final verdict or
"search again".

`decide_from_history` is the single boundary the claim loop (and anything else) calls. Everything
it needs is plain data: the task (claim text and timeframe), the history (weighted evidence, queries
and pages used) and the attempt counters. Weights, the threshold and outcomes may change inside
this module without changing that boundary.

The rule, in full:
- An evidence hit counts for its side with its domain's weight (official 1.0, wire 0.8, trade 0.6,
  other 0.4, social 0.0: social never counts). One registrable domain counts once per side, with
  its best hit: two pages of one site are not two independent sources.
- When the claim has a timeframe, a supporting hit counts only if its event date falls inside it
  (`in_window is True`); with only an end to the timeframe, an undated hit counts too. A
  refuting hit counts wherever its date falls: a dated account that contradicts the claim is
  exactly what refutes a claim about a time window.
- A side is *sufficient* when its total reaches the agreement score (1.6 by default) from at least
  two independent registrable domains.
- True when support is sufficient and refute is not; False when refute is sufficient and support is
  not; Invalid (conflicting) when both are. With neither sufficient, search again while attempts
  remain.
- When the search is over with neither side sufficient, the evidence may still *lean*: a side
  that holds at least the lean score (0.4 by default: one counted source) and at least twice the
  other side's weight gives True or False with the reason "leaning", a verdict below the
  agreement score that says so in its proof and waits for an editor like any other. Otherwise
  Invalid (insufficient, or no sources when nothing usable was found at all).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from claimcheck.models import Outcome
from decisions.models import VerdictReason

SUPPORT = "support"
REFUTE = "refute"


@dataclass(frozen=True)
class SearchTask:
    text: str
    timeframe_start: datetime | None = None
    timeframe_end: datetime | None = None
    claim_id: int | None = None

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


@dataclass
class SearchHistory:
    evidence: list[EvidenceHit] = field(default_factory=list)
    queries: list[str] = field(default_factory=list)
    pages_visited: int = 0


@dataclass(frozen=True)
class SideTotal:
    total: float
    domains: tuple[str, ...]
    hits: tuple[EvidenceHit, ...]
    """The counted hits: one per domain, best first."""

    def sufficient(self, threshold: float) -> bool:
        return self.total >= threshold - 1e-9 and len(self.domains) >= 2


@dataclass(frozen=True)
class Totals:
    support: SideTotal
    refute: SideTotal
    threshold: float
    outside_window: tuple[EvidenceHit, ...]
    """Supporting hits dated outside the claim's timeframe: reported, never counted."""


@dataclass(frozen=True)
class Lean:
    """When search is over, how much weight a side needs, and by how many times the other
    side's, for a leaning verdict."""

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
class Source:
    url: str
    title: str
    pub_date: str | None
    excerpt: str
    tier: str = ""
    stance: str = ""
    weight: float = 0.0
    event_date: str | None = None


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

    @property
    def outcome_label(self) -> str:
        return Outcome(self.outcome).label


@dataclass(frozen=True)
class Final:
    result: AgentResult
    totals: Totals
    status: Literal["final"] = "final"


@dataclass(frozen=True)
class NeedMoreSearch:
    totals: Totals
    status: Literal["need_more_search"] = "need_more_search"


Decision = Final | NeedMoreSearch


def _side(hits: list[EvidenceHit]) -> SideTotal:
    best: dict[str, EvidenceHit] = {}
    for hit in hits:
        current = best.get(hit.domain)
        better = current is None or (hit.weight, hit.stance_score) > (
            current.weight,
            current.stance_score,
        )
        if better:
            best[hit.domain] = hit
    counted = sorted(best.values(), key=lambda h: (-h.weight, -h.stance_score, h.domain))
    return SideTotal(
        total=round(sum(h.weight for h in counted), 6),
        domains=tuple(h.domain for h in counted),
        hits=tuple(counted),
    )


def _dated_inside(task: SearchTask, hit: EvidenceHit) -> bool:
    """Whether a supporting hit fits the claim's timeframe. A window with a start needs the
    event dated inside it. A timeframe with only an end ("by the end of 2023") asks whether
    something was so by then: a hit that gives no date for it cannot place it after the end
    and counts, while one dated after the end does not."""
    if hit.in_window is not None:
        return hit.in_window
    return task.timeframe_start is None


def compute_totals(*, task: SearchTask, history: SearchHistory, threshold: float) -> Totals:
    support: list[EvidenceHit] = []
    refute: list[EvidenceHit] = []
    outside: list[EvidenceHit] = []
    for hit in history.evidence:
        if hit.weight <= 0 or not hit.domain:
            continue
        if hit.stance == SUPPORT:
            if task.has_timeframe and not _dated_inside(task, hit):
                if hit.in_window is False:
                    outside.append(hit)
                continue
            support.append(hit)
        elif hit.stance == REFUTE:
            refute.append(hit)
    return Totals(
        support=_side(support),
        refute=_side(refute),
        threshold=threshold,
        outside_window=tuple(outside),
    )


def decide_from_history(
    *,
    task: SearchTask,
    history: SearchHistory,
    attempts: int,
    max_attempts: int,
    threshold: float,
    lean: Lean | None = None,
) -> Decision:
    """The single decision boundary: a final AgentResult, or a request for another search.
    Without `lean`, a search that ends short of the agreement score is always Invalid."""
    totals = compute_totals(task=task, history=history, threshold=threshold)
    support_ok = totals.support.sufficient(threshold)
    refute_ok = totals.refute.sufficient(threshold)

    if support_ok and refute_ok:
        return _final(task, history, totals, Outcome.INVALID, VerdictReason.CONFLICTING)
    if support_ok:
        return _final(task, history, totals, Outcome.TRUE, VerdictReason.SUFFICIENT)
    if refute_ok:
        return _final(task, history, totals, Outcome.FALSE, VerdictReason.SUFFICIENT)
    if attempts < max_attempts:
        return NeedMoreSearch(totals=totals)
    leaning = lean.side(totals) if lean is not None else None
    if leaning is not None:
        outcome = Outcome.TRUE if leaning == SUPPORT else Outcome.FALSE
        return _final(task, history, totals, outcome, VerdictReason.LEANING)
    usable = [h for h in history.evidence if h.weight > 0 and h.stance in (SUPPORT, REFUTE)]
    reason = VerdictReason.INSUFFICIENT if usable else VerdictReason.NO_SOURCES
    return _final(task, history, totals, Outcome.INVALID, reason)


def _final(
    task: SearchTask,
    history: SearchHistory,
    totals: Totals,
    outcome: Outcome,
    reason: VerdictReason,
) -> Final:
    from decisions.proof import write_proof

    sources = select_sources(history=history, totals=totals)
    result = AgentResult(
        outcome=outcome.value,
        reason=reason.value,
        proof="",
        sources=sources,
        debug={
            "total_queries": len(history.queries),
            "total_pages_visited": history.pages_visited,
            "evidence_count": len(history.evidence),
            "support_domains": list(totals.support.domains),
            "refute_domains": list(totals.refute.domains),
            "threshold": totals.threshold,
        },
        support_total=totals.support.total,
        refute_total=totals.refute.total,
    )
    proof = write_proof(task=task, result=result, totals=totals)
    return Final(result=_with_proof(result, proof), totals=totals)


def _with_proof(result: AgentResult, proof: str) -> AgentResult:
    from dataclasses import replace

    return replace(result, proof=proof)


def _date(value: datetime | None) -> str | None:
    return value.date().isoformat() if value else None


def select_sources(*, history: SearchHistory, totals: Totals, limit: int = 6) -> list[Source]:
    """The sources a reader should see: the counted ones first (strongest side first), then
    the best remaining hits so that the proof can say what else was found."""
    ordered: list[EvidenceHit] = []
    sides = sorted((totals.support, totals.refute), key=lambda side: -side.total)
    for side in sides:
        ordered.extend(side.hits)
    rest = sorted(
        (h for h in history.evidence if h not in ordered and h.weight > 0),
        key=lambda h: (-h.weight, -h.stance_score),
    )
    seen: set[str] = set()
    sources: list[Source] = []
    for hit in [*ordered, *rest]:
        if hit.url in seen:
            continue
        seen.add(hit.url)
        sources.append(
            Source(
                url=hit.url,
                title=hit.title or hit.domain,
                pub_date=_date(hit.published_at),
                excerpt=hit.quote[:500],
                tier=hit.tier,
                stance=hit.stance,
                weight=hit.weight,
                event_date=_date(hit.event_at),
            )
        )
        if len(sources) >= limit:
            break
    return sources
