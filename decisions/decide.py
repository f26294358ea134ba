"""The decision module: from a claim and the evidence gathered so far, either a final verdict or
"search again".

`decide_from_history` is the single boundary the claim loop (and anything else) calls. Everything
it needs is plain data: the question (claim text and timeframe), the history (weighted evidence,
queries and pages used) and the attempt counters. Weights, the threshold and outcomes may change
inside this module without changing that boundary.

The rule, in full:
- Only evidence that was read counts: a page's own text, or a search snippet once a check found
  it on its live page (`EvidenceHit.read`). Everything else is a lead.
- The claim loop hands it each statement once and only each side's best rows
  (`retention.max_per_side`, ranked by `decisions.ranking`); what counts is judged here
  (`hit_counts`).
- An evidence hit counts for its side with its publisher's weight (official 1.0, wire 0.8, trade
  0.6, other 0.4, social 0.0: social never counts). One publisher counts once per side, with
  its best hit: two pages of one site, or a wire story reprinted by several outlets
  (`syndicated_from`), are not independent sources.
- When the claim has a timeframe, a supporting hit counts only if its event date falls inside it
  (`in_window is True`); with only an end to the timeframe, an undated hit counts too. A
  refuting hit counts wherever its date falls: a dated account that contradicts the claim is
  exactly what refutes a claim about a time window.
- A side is *sufficient* when its total reaches the agreement score (1.6 by default) from at least
  two independent publishers.
- True when support is sufficient and refute is not; False when refute is sufficient and support is
  not; Invalid (conflicting) when both are, or when the losing side holds more than
  `max_opposition` of the winner's weight. With neither sufficient, search again while attempts
  remain, then Invalid.
- An Invalid verdict may carry a *lean*: the side that holds at least the lean score and the
  lean ratio times the other side's weight. It is a hint for the editor ("leans False: 0.4 from
  1 source"), shown with the verdict, and never the outcome.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from claims.models import Outcome
from decisions.models import VerdictReason
from decisions.types import (
    REFUTE,
    SIDES,
    SUPPORT,
    AgentResult,
    ClaimQuestion,
    Decision,
    EvidenceHit,
    Final,
    Lean,
    LeanHint,
    NeedMoreSearch,
    SearchHistory,
    SideTotal,
    Source,
    Totals,
)
from evidence.models import CONFIDENCE_RANK

_TIER_NAMES = {
    "official": "official source",
    "wire": "wire service",
    "trade": "trade outlet",
    "other": "other site",
    "social": "social post",
}


def _describe(side: SideTotal) -> str:
    if len(side.hits) == 1:
        hit = side.hits[0]
        return f"one {_TIER_NAMES.get(hit.tier, hit.tier)} ({hit.publisher})"
    return f"{len(side.hits)} sources ({', '.join(side.domains[:3])})"


def lean_hint(*, totals: Totals, lean: Lean | None) -> LeanHint | None:
    """The lean of evidence that decided nothing, or None when it leans nowhere."""
    side = lean.side(totals) if lean is not None else None
    if side is None:
        return None
    counted = totals.support if side == SUPPORT else totals.refute
    outcome = Outcome.TRUE if side == SUPPORT else Outcome.FALSE
    return LeanHint(
        outcome=outcome.value,
        weight=round(counted.total, 3),
        sources=counted.domains,
        text=f"leans {outcome.label}: {counted.total:.1f} from {_describe(counted)}",
    )


def _side(hits: list[EvidenceHit]) -> SideTotal:
    best: dict[str, EvidenceHit] = {}
    for hit in hits:
        current = best.get(hit.publisher)
        better = current is None or (hit.weight, hit.stance_score) > (
            current.weight,
            current.stance_score,
        )
        if better:
            best[hit.publisher] = hit
    counted = sorted(best.values(), key=lambda h: (-h.weight, -h.stance_score, h.publisher))
    return SideTotal(
        total=round(sum(h.weight for h in counted), 6),
        domains=tuple(h.publisher for h in counted),
        hits=tuple(counted),
    )


def _dated_inside(question: ClaimQuestion, hit: EvidenceHit) -> bool:
    """Whether a supporting hit fits the claim's timeframe. A window with a start needs the
    event dated inside it. A timeframe with only an end ("by the end of 2023") asks whether
    something was so by then: a hit that gives no date for it cannot place it after the end
    and counts, while one dated after the end does not."""
    if hit.in_window is not None:
        return hit.in_window
    return question.timeframe_start is None


def _weighed(hit: EvidenceHit, min_confidence: str) -> bool:
    """Read where it was published, from a publisher with a weight, as sure as asked."""
    sure = CONFIDENCE_RANK.get(hit.confidence, 0) >= CONFIDENCE_RANK[min_confidence]
    return hit.weight > 0 and bool(hit.domain) and hit.read and sure


def hit_counts(*, hit: EvidenceHit, question: ClaimQuestion, min_confidence: str = "low") -> bool:
    """Whether a hit counts toward its side: read, weighed, at least `min_confidence` sure,
    and, when it supports a claim with a timeframe, dated inside it."""
    if hit.stance not in SIDES or not _weighed(hit, min_confidence):
        return False
    return hit.stance == REFUTE or not question.has_timeframe or _dated_inside(question, hit)


def compute_totals(
    *,
    question: ClaimQuestion,
    history: SearchHistory,
    threshold: float,
    min_confidence: str = "low",
) -> Totals:
    """Each side's counted weight. Hits the stance reader was less sure of than
    `min_confidence` are left out."""
    support: list[EvidenceHit] = []
    refute: list[EvidenceHit] = []
    outside: list[EvidenceHit] = []
    for hit in history.evidence:
        if hit_counts(hit=hit, question=question, min_confidence=min_confidence):
            (support if hit.stance == SUPPORT else refute).append(hit)
        elif hit.stance == SUPPORT and hit.in_window is False and _weighed(hit, min_confidence):
            outside.append(hit)
    return Totals(
        support=_side(support),
        refute=_side(refute),
        threshold=threshold,
        outside_window=tuple(outside),
    )


def decide_from_history(
    *,
    question: ClaimQuestion,
    history: SearchHistory,
    attempts: int,
    max_attempts: int,
    threshold: float,
    lean: Lean | None = None,
    max_opposition: float | None = None,
    min_confidence: str = "low",
    final: bool = False,
) -> Decision:
    """The single decision boundary: a final AgentResult, or a request for another search.
    `max_opposition` (a share of the winning side's weight) turns a sufficient side with too
    much counted evidence against it into a conflict; None allows any opposition short of
    sufficiency. Only readings at least `min_confidence` sure count toward a verdict; all
    readings count toward the lean hint, which `lean` sets. `final` ends the search now (it
    stopped paying), whatever attempts remain."""
    totals = compute_totals(
        question=question, history=history, threshold=threshold, min_confidence=min_confidence
    )
    support_ok = totals.support.sufficient(threshold)
    refute_ok = totals.refute.sufficient(threshold)
    every = compute_totals(question=question, history=history, threshold=threshold)
    if support_ok and refute_ok:
        return _final(
            question, history, totals, Outcome.INVALID, VerdictReason.CONFLICTING, lean, every
        )
    if support_ok or refute_ok:
        winner, loser = (
            (totals.support, every.refute) if support_ok else (totals.refute, every.support)
        )
        if max_opposition is not None and loser.total > max_opposition * winner.total + 1e-9:
            return _final(
                question, history, totals, Outcome.INVALID, VerdictReason.CONFLICTING, lean, every
            )
        outcome = Outcome.TRUE if support_ok else Outcome.FALSE
        return _final(question, history, totals, outcome, VerdictReason.SUFFICIENT, lean, every)
    if attempts < max_attempts and not final:
        return NeedMoreSearch(totals=totals)
    usable = [h for h in history.evidence if h.weight > 0 and h.read and h.stance in SIDES]
    reason = VerdictReason.INSUFFICIENT if usable else VerdictReason.NO_SOURCES
    return _final(question, history, totals, Outcome.INVALID, reason, lean, every)


def _final(
    question: ClaimQuestion,
    history: SearchHistory,
    totals: Totals,
    outcome: Outcome,
    reason: VerdictReason,
    lean: Lean | None,
    every: Totals,
) -> Final:
    """The verdict. `totals` is what counted toward it; `every` also holds the readings too
    unsure to count, which the lean hint and an Invalid verdict's sources show."""
    from decisions.proof import write_proof

    hint = lean_hint(totals=every, lean=lean) if outcome == Outcome.INVALID else None
    sources = select_sources(
        totals=totals if outcome != Outcome.INVALID else every, outcome=outcome
    )
    result = AgentResult(
        outcome=outcome.value,
        reason=reason.value,
        proof="",
        sources=sources,
        unsided=select_unsided(history=history, sources=sources),
        lean=hint,
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
    proof = write_proof(question=question, result=result, totals=totals)
    return Final(result=replace(result, proof=proof), totals=totals)


def _date(value: datetime | None) -> str | None:
    return value.date().isoformat() if value else None


def _source(hit: EvidenceHit, *, stance: str | None = None) -> Source:
    return Source(
        url=hit.url,
        title=hit.title or hit.domain,
        pub_date=_date(hit.published_at),
        excerpt=hit.quote[:500],
        tier=hit.tier,
        stance=stance or hit.stance,
        weight=hit.weight,
        event_date=_date(hit.event_at),
        publisher=hit.domain,
        syndicated_from=hit.syndicated_from,
    )


def select_sources(*, totals: Totals, outcome: Outcome) -> list[Source]:
    """The counted evidence behind the outcome: the side that decided it; both sides when
    they conflict or when nothing was decided (what was weighed), heavier side first."""
    if outcome == Outcome.TRUE:
        sides = [totals.support]
    elif outcome == Outcome.FALSE:
        sides = [totals.refute]
    else:
        sides = sorted((totals.support, totals.refute), key=lambda side: -side.total)
    return [_source(hit) for side in sides for hit in side.hits]


def select_unsided(
    *, history: SearchHistory, sources: list[Source], limit: int = 6
) -> list[Source]:
    """Pages read that are not among the sources: they took no side, or their side did not
    count (dated outside the timeframe, or a weaker page of a publisher already counted).
    One entry per page."""
    shown = {s.url for s in sources}
    by_url: dict[str, EvidenceHit] = {}
    for hit in history.evidence:
        if not hit.read or hit.url in shown or not hit.domain:
            continue
        current = by_url.get(hit.url)
        if current is None or (current.stance == "neutral" and hit.stance != "neutral"):
            by_url[hit.url] = hit
    ordered = sorted(by_url.values(), key=lambda h: (-h.weight, -h.stance_score, h.url))
    return [
        _source(hit, stance=hit.stance if hit.stance != "neutral" else "no side")
        for hit in ordered[:limit]
    ]
