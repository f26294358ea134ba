"""What each pipeline step writes on the claim's timeline: its kind, the line an editor reads and
the payload the claim page and the API show. Built here, from the step's own results, so that
`decisions.pipeline` only runs the steps and `decisions.selectors` reads these same keys back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from claims.models import Claim, EventKind, Outcome, PipelineEvent
from claims.services import event_record
from decisions.counting import own_why
from decisions.gate import GateDecision, ScoredLead
from decisions.models import Verdict
from decisions.query import FirstQuery
from decisions.types import ClaimQuestion, Decision, Final, SideTotal, Totals
from decisions.uncounted import conflict_words, left_out
from evidence.models import Evidence, Page
from evidence.services import SnippetCheck
from harvester.services import QuerySchema, SearchRun

# How many of an attempt's scored results the gate event keeps.
GATE_SCORED_SHOWN = 8


@dataclass(frozen=True)
class StepEvent:
    kind: str
    message: str
    payload: dict[str, Any] = field(default_factory=dict)


def step_record(*, claim: Claim, event: StepEvent, key: str | None = None) -> PipelineEvent:
    """Append the step's event to the claim's timeline (once per `key`)."""
    return event_record(
        claim=claim, kind=event.kind, message=event.message, payload=event.payload, key=key
    )


def factcheck_event(*, run: int, matches: int, counted: int) -> StepEvent:
    return StepEvent(
        EventKind.FACTCHECK,
        f"Fact-check lookup: {matches} match(es), {counted} from known publishers",
        {"run": run, "matches": matches, "counted": counted},
    )


def first_query_event(*, run: int, query: FirstQuery) -> StepEvent:
    """The first query, and what wrote it: the model server's model, or this machine's
    rewriter and, when a model server is configured, why it wrote it instead."""
    instead = (
        f"; the model server could not write it ({query.llm_error})" if query.llm_error else ""
    )
    return StepEvent(
        EventKind.QUERY,
        f"First query, written by {query.written_by}{instead}: {query.schema.compile()[:200]}",
        {
            "run": run,
            "query": query.schema.compile(),
            "schema": query.schema.model_dump(),
            "written_by": query.written_by,
            **({"llm_error": query.llm_error} if query.llm_error else {}),
        },
    )


def english_query_event(*, run: int, schema: QuerySchema, why: str, language: str) -> StepEvent:
    return StepEvent(
        EventKind.QUERY,
        f"Also searching in English, as {why}: {schema.compile()[:200]}",
        {
            "run": run,
            "query": schema.compile(),
            "schema": schema.model_dump(),
            "language": language,
            "why": why,
        },
    )


def search_event(*, run: int, attempt: int, search_run: SearchRun, tweak: str) -> StepEvent:
    return StepEvent(
        EventKind.SEARCH,
        f"Search {attempt}: {search_run.rewritten_template[:200]}",
        {
            "run": run,
            "attempt": attempt,
            "search_run_id": search_run.pk,
            "tweak": tweak,
            "query": search_run.rewritten_template,
            "providers": search_run.provider_metrics,
            "results": search_run.processed_results.count(),
            "status": search_run.status,
        },
    )


def gate_event(
    *, run: int, attempt: int, gate: GateDecision, scored: list[ScoredLead]
) -> StepEvent:
    return StepEvent(
        EventKind.GATE,
        f"Gate: {gate.status} ({gate.why})",
        {
            "run": run,
            "attempt": attempt,
            "status": gate.status,
            "why": gate.why,
            "picks": [p.lead.url for p in gate.picks],
            "scored": [
                {
                    "url": s.lead.url,
                    "tier": s.tier,
                    "score": s.score,
                    "cues": list(s.cues),
                    "rank": s.rank,
                    "relevance": s.relevance,
                    "searches": s.searches,
                }
                for s in scored[:GATE_SCORED_SHOWN]
            ],
        },
    )


def verify_event(*, run: int, attempt: int, check: SnippetCheck) -> StepEvent:
    return StepEvent(
        EventKind.VERIFY,
        f"Checked the snippet of {check.url}: "
        + ("found on the live page" if check.verified else check.why),
        {
            "run": run,
            "attempt": attempt,
            "url": check.url,
            "verified": check.verified,
            "why": check.why,
            "cached": check.cached,
        },
    )


def crawl_event(
    *,
    run: int,
    attempt: int,
    url: str,
    tier: str,
    page: Page | None,
    hub: bool,
    cached: bool | None,
    via: str,
    evidence: int,
) -> StepEvent:
    if page is None:
        summary = "no page"
    elif hub:
        summary = f"{page.http_status} {page.title[:80]!r}, a listing page: not evidence"
    else:
        summary = f"{page.http_status} {page.title[:80]!r}, {page.content_depth}"
    lead_in = f"Followed {url} from {via}" if via else f"Read {url}"
    return StepEvent(
        EventKind.CRAWL,
        f"{lead_in}: {summary}",
        {
            "run": run,
            "attempt": attempt,
            "url": url,
            "tier": tier,
            "http_status": page.http_status if page else None,
            "title": page.title[:200] if page else "",
            "content_depth": page.content_depth if page else "",
            "verification": page.verification_status if page else "",
            "published": page.published_at.isoformat() if page and page.published_at else None,
            "error": page.error if page else "",
            "hub": hub,
            "cached": cached,
            "via": via,
            "evidence": evidence,
        },
    )


def evidence_event(
    *, run: int, row: Evidence, question: ClaimQuestion, min_confidence: str
) -> StepEvent:
    """A row read. When its own reading cannot count (a lead, too unsure, outside the
    timeframe, no weight), its line says so and why, beside the weight it shows."""
    why = own_why(row, question=question, min_confidence=min_confidence)
    counted = f", not counted: {why}" if why else ""
    syndicated = f", syndicated from {row.syndicated_from}" if row.syndicated_from else ""
    return StepEvent(
        EventKind.EVIDENCE,
        f"{row.get_stance_display()}: {row.domain} ({row.tier}, {row.weight:.1f}"
        f"{syndicated}{counted})",
        {
            "run": run,
            "evidence_id": row.pk,
            "url": row.url,
            "domain": row.domain,
            "tier": row.tier,
            "weight": row.weight,
            "stance": row.stance,
            "quote": row.source_quote[:300],
            "event_at": row.event_at.isoformat() if row.event_at else None,
            "in_window": row.in_window,
            "syndicated_from": row.syndicated_from,
            "not_counted": why,
            "read_by": row.reader_words,
        },
    )


def dry_event(*, run: int, attempt: int, dry: int) -> StepEvent:
    return StepEvent(
        EventKind.DECISION,
        "Search stopped paying: "
        + (
            "the last refinement found nothing new worth reading"
            if dry == 1
            else f"the last {dry} refinements found nothing new worth reading"
        ),
        {"run": run, "attempt": attempt, "dry": dry},
    )


def out_of_time_event(*, run: int, attempt: int, why: str) -> StepEvent:
    return StepEvent(
        EventKind.DECISION,
        f"Out of time: {why}; deciding with the evidence read so far",
        {"run": run, "attempt": attempt, "out_of_time": why},
    )


def totals_payload(totals: Totals) -> dict[str, Any]:
    """The decision's weights as the claim page's bars read them back."""
    return {
        "support": totals.support.total,
        "refute": totals.refute.total,
        "support_domains": list(totals.support.domains),
        "refute_domains": list(totals.refute.domains),
        "threshold": totals.threshold,
    }


def _counted(side: SideTotal) -> str:
    """The publishers a side counted, each with its weight: " (a.example 1.0, b.example 0.8)"."""
    if not side.hits:
        return ""
    return " (" + ", ".join(f"{hit.publisher} {hit.weight:.1f}" for hit in side.hits) + ")"


def decision_event(*, run: int, attempt: int, decision: Decision, threshold: float) -> StepEvent:
    """The decision's totals and what it did. From its weighing, the line also names the
    readings that took a side but count toward neither total, and why the sides conflict."""
    totals, weighing = decision.totals, decision.weighing
    missing = left_out(weighing) if weighing is not None else ""
    conflict = conflict_words(weighing) if weighing is not None else ""
    return StepEvent(
        EventKind.DECISION,
        f"Support {totals.support.total:.1f}{_counted(totals.support)}"
        f" / refute {totals.refute.total:.1f}{_counted(totals.refute)} of {threshold:.1f}: "
        + ("final" if isinstance(decision, Final) else "search again")
        + (f" (not counted: {missing})" if missing else "")
        + (f". The sides conflict: {conflict}" if conflict else ""),
        {
            "run": run,
            "attempt": attempt,
            "status": decision.status,
            **totals_payload(totals),
            "left_out": missing,
            "conflict": conflict,
        },
    )


def verdict_event(*, run: int, verdict: Verdict) -> StepEvent:
    debug = verdict.debug if isinstance(verdict.debug, dict) else {}
    llm_error = debug.get("proof_llm_error")
    proof_by = str(debug.get("proof_by") or "")
    return StepEvent(
        EventKind.VERDICT,
        f"Verdict: {Outcome(verdict.outcome).label} ({verdict.get_reason_display()})"
        + (f". Proof written by {proof_by}" if proof_by else "")
        + (f". The LLM proof failed ({llm_error}): the plain proof stands" if llm_error else ""),
        {
            "run": run,
            "verdict_id": verdict.pk,
            "outcome": verdict.outcome,
            "reason": verdict.reason,
            **({"proof_by": proof_by} if proof_by else {}),
            **({"proof_llm_error": llm_error} if llm_error else {}),
        },
    )


def failure_event(*, run: int, error: str) -> StepEvent:
    return StepEvent(EventKind.ERROR, f"Failed: {error[:300]}", {"run": run})
