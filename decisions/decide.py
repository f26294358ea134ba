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
  (`hit_counts`, and `hit_fails` for the part of the rule a hit fails). `weigh` says, hit by
  hit, whether it counted and why not: the proof, the timeline and `decisions.counting` (the
  claim page, the API, `manage.py verify`) show that, never a rule of their own.
- An evidence hit counts for its side with its publisher's weight (official 1.0, wire 0.8, trade
  0.6, other 0.4, social 0.0: social never counts). One publisher counts once per side, with
  its best hit: two pages of one site, or a wire story reprinted by several outlets
  (`syndicated_from`), are not independent sources. A publisher counts on one side only, and a
  snippet whose page was read stands aside for the page's reading (`decisions.publishers`).
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
from typing import Any

from claims.models import Outcome
from decisions.models import VerdictReason
from decisions.publishers import Aside, set_aside
from decisions.types import (
    REFUTE,
    SIDES,
    SUPPORT,
    AgentResult,
    ClaimQuestion,
    Decision,
    EvidenceHit,
    Final,
    HitCount,
    Lean,
    LeanHint,
    NeedMoreSearch,
    NotCounted,
    Opposition,
    SearchHistory,
    SideTotal,
    Source,
    Totals,
    Weighing,
    dated_inside,
)
from decisions.weighing import OutcomeModel, proposal_for
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


def _weighed(hit: EvidenceHit, min_confidence: str) -> bool:
    """Read where it was published, from a publisher with a weight, as sure as asked."""
    sure = CONFIDENCE_RANK.get(hit.confidence, 0) >= CONFIDENCE_RANK[min_confidence]
    return hit.weight > 0 and bool(hit.domain) and hit.read and sure


def hit_fails(
    *, hit: EvidenceHit, question: ClaimQuestion, min_confidence: str = "low"
) -> NotCounted | None:
    """The first part of the rule a hit fails, or None when it counts toward its side: it
    takes a side, was read, from a publisher with a weight, at least `min_confidence` sure,
    and, when it supports a claim with a timeframe, dated inside it."""
    if hit.stance not in SIDES:
        return NotCounted.NO_SIDE
    if not hit.read:
        return NotCounted.LEAD
    if not (hit.weight > 0 and hit.domain):
        return NotCounted.NO_WEIGHT
    if not _weighed(hit, min_confidence):
        return NotCounted.UNSURE
    if hit.stance == REFUTE or not question.has_timeframe or dated_inside(question, hit):
        return None
    return NotCounted.OUTSIDE


def hit_counts(*, hit: EvidenceHit, question: ClaimQuestion, min_confidence: str = "low") -> bool:
    """Whether a hit counts toward its side (`hit_fails` finds nothing)."""
    return hit_fails(hit=hit, question=question, min_confidence=min_confidence) is None


def _aside(
    hits: list[EvidenceHit], *, question: ClaimQuestion, min_confidence: str
) -> dict[int, Aside]:
    return set_aside(
        hits, passes=lambda h: hit_counts(hit=h, question=question, min_confidence=min_confidence)
    )


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
    aside = _aside(history.evidence, question=question, min_confidence=min_confidence)
    for hit in history.evidence:
        if id(hit) in aside:
            continue
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


def _opposition(totals: Totals, every: Totals, max_opposition: float | None) -> Opposition | None:
    """With `max_opposition` set and exactly one side sufficient, that side's counted weight
    against the other side's, every reading read."""
    support_ok = totals.support.sufficient(totals.threshold)
    refute_ok = totals.refute.sufficient(totals.threshold)
    if max_opposition is None or support_ok == refute_ok:
        return None
    winner, against = (
        (totals.support, every.refute) if support_ok else (totals.refute, every.support)
    )
    return Opposition(
        side=SUPPORT if support_ok else REFUTE,
        weight=winner.total,
        against=against,
        share=max_opposition,
    )


def _hit_count(
    hit: EvidenceHit,
    *,
    question: ClaimQuestion,
    min_confidence: str,
    totals: Totals,
    opposition: Opposition | None,
    aside: dict[int, Aside],
) -> HitCount:
    against = (
        opposition is not None
        and hit.stance != opposition.side
        and any(h is hit for h in opposition.against.hits)
    )
    if id(hit) in aside:
        away = aside[id(hit)]
        return HitCount(hit=hit, why=away.why, counted_with=away.stands, against=against)
    why = hit_fails(hit=hit, question=question, min_confidence=min_confidence)
    if why is not None:
        return HitCount(hit=hit, why=why, against=against)
    side = totals.support if hit.stance == SUPPORT else totals.refute
    if any(h is hit for h in side.hits):
        return HitCount(hit=hit, why=None, against=against)
    # It passed the rule, so its publisher counted on this side, with a better hit.
    best = next(h for h in side.hits if h.publisher == hit.publisher)
    why = NotCounted.REPRINT if hit.syndicated_from else NotCounted.WEAKER
    return HitCount(hit=hit, why=why, counted_with=best, against=against)


def weigh(
    *,
    question: ClaimQuestion,
    history: SearchHistory,
    threshold: float,
    min_confidence: str = "low",
    max_opposition: float | None = None,
) -> Weighing:
    """What the decision weighs, hit by hit: the totals counted (`min_confidence` sure), the
    totals of every reading read, the opposition to a side that reached the agreement score
    alone, and whether and why each hit counted."""
    totals = compute_totals(
        question=question, history=history, threshold=threshold, min_confidence=min_confidence
    )
    every = compute_totals(question=question, history=history, threshold=threshold)
    opposition = _opposition(totals, every, max_opposition)
    aside = _aside(history.evidence, question=question, min_confidence=min_confidence)
    counts = tuple(
        _hit_count(
            hit,
            question=question,
            min_confidence=min_confidence,
            totals=totals,
            opposition=opposition,
            aside=aside,
        )
        for hit in history.evidence
    )
    return Weighing(
        totals=totals,
        every=every,
        counts=counts,
        opposition=opposition,
        min_confidence=min_confidence,
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
    model: OutcomeModel | None = None,
) -> Decision:
    """The single decision boundary: a final AgentResult, or a request for another search.
    `max_opposition` (a share of the winning side's weight) turns a sufficient side with too
    much counted evidence against it into a conflict; None allows any opposition short of
    sufficiency. Only readings at least `min_confidence` sure count toward a verdict; all
    readings count toward the lean hint, which `lean` sets. `final` ends the search now (it
    stopped paying), whatever attempts remain. `model`: the outcome model in force (the shipped
    one when not given)."""
    weighing = weigh(
        question=question,
        history=history,
        threshold=threshold,
        min_confidence=min_confidence,
        max_opposition=max_opposition,
    )
    totals = weighing.totals
    support_ok = totals.support.sufficient(threshold)
    refute_ok = totals.refute.sufficient(threshold)
    if weighing.conflicting:
        # Both sides sufficient, or one with too much weighed against it.
        return _final(
            question,
            history,
            weighing,
            Outcome.INVALID,
            VerdictReason.CONFLICTING,
            lean,
            model=model,
        )
    if support_ok or refute_ok:
        outcome = Outcome.TRUE if support_ok else Outcome.FALSE
        return _final(
            question, history, weighing, outcome, VerdictReason.SUFFICIENT, lean, model=model
        )
    if attempts < max_attempts and not final:
        return NeedMoreSearch(totals=totals, weighing=weighing)
    proposal = proposal_for(history.evidence, question=question, model=model)
    if proposal["proposed"] in (Outcome.TRUE, Outcome.FALSE):
        # Short of the counting bar, the weighed readings make one outcome as likely as its
        # threshold asks (chosen for precision on labelled real claims): that is the verdict.
        outcome = Outcome(proposal["proposed"])
        return _final(
            question,
            history,
            weighing,
            outcome,
            VerdictReason.WEIGHED,
            lean,
            proposal=proposal,
            model=model,
        )
    usable = [h for h in history.evidence if h.weight > 0 and h.read and h.stance in SIDES]
    reason = VerdictReason.INSUFFICIENT if usable else VerdictReason.NO_SOURCES
    return _final(
        question, history, weighing, Outcome.INVALID, reason, lean, proposal=proposal, model=model
    )


def _final(
    question: ClaimQuestion,
    history: SearchHistory,
    weighing: Weighing,
    outcome: Outcome,
    reason: VerdictReason,
    lean: Lean | None,
    *,
    proposal: dict[str, Any] | None = None,
    model: OutcomeModel | None = None,
) -> Final:
    """The verdict. `weighing.totals` is what counted toward it; `weighing.every` also holds
    the readings too unsure to count, which the lean hint and an Invalid verdict's sources
    show (each marked with why it did not count)."""
    from decisions.proof import write_proof

    totals, every = weighing.totals, weighing.every
    hint = lean_hint(totals=every, lean=lean) if outcome == Outcome.INVALID else None
    # A counted verdict lists what counted; a weighed or undecided one what was weighed.
    counted = reason in (VerdictReason.SUFFICIENT, VerdictReason.CONFLICTING)
    sources = select_sources(totals=totals if counted else every, outcome=outcome)
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
        proposal=proposal or proposal_for(history.evidence, question=question, model=model),
    )
    proof = write_proof(question=question, result=result, totals=totals, weighing=weighing)
    debug = result.debug
    debug = {**debug, "proof_by": proof.written_by}
    if proof.llm_error is not None:
        debug = {**debug, "proof_llm_error": proof.llm_error}
    return Final(
        result=replace(result, proof=proof.markdown, debug=debug), totals=totals, weighing=weighing
    )


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
    One entry per page; a page read about another event is not one of them."""
    shown = {s.url for s in sources}
    by_url: dict[str, EvidenceHit] = {}
    for hit in history.evidence:
        if not hit.read or hit.url in shown or not hit.domain or not hit.about:
            continue
        current = by_url.get(hit.url)
        if current is None or (current.stance == "neutral" and hit.stance != "neutral"):
            by_url[hit.url] = hit
    ordered = sorted(by_url.values(), key=lambda h: (-h.weight, -h.stance_score, h.url))
    return [
        _source(hit, stance=hit.stance if hit.stance != "neutral" else "no side")
        for hit in ordered[:limit]
    ]
