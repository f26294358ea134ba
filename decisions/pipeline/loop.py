"""The claim loop: search, gate, crawl, collect evidence, decide.

Every step persists before the next, so a task killed at any point and run again continues from
what the database holds: search runs are reused by (claim, attempt) and never sent twice, pages
come from the page cache, evidence is collected idempotently, and events are written once per key.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import replace

from django.db import DatabaseError, transaction
from django.utils import timezone

from claimcheck.config import get_config
from claims.errors import ClaimNotRunnable
from claims.lease import ClaimLeaseLost, claim_lease, database_lost, lease_checkpoint
from claims.models import Claim, EventKind
from claims.services import ClaimEvent, Confidence, claim_decide, claim_start
from claims.services import claim_fail as claims_fail
from decisions.confidence import fact_check_confidence
from decisions.gate import (
    AUTHORITATIVE,
    MIN_CRAWL_RELEVANCE,
    RELATIVE_CRAWL_RELEVANCE,
    ScoredLead,
    reading_order,
    score_leads,
)
from decisions.models import Verdict
from decisions.pipeline.run import Run, canonical, leads_of, run_for, run_sufficient
from decisions.pipeline.steps import (
    crawl_step,
    decide_step,
    factcheck_step,
    gate_step,
    search_step,
    verify_step,
)
from decisions.query import ComposedQuery, english_query, first_query, refine_query
from decisions.step_events import (
    dry_event,
    english_query_event,
    failure_event,
    first_query_event,
    out_of_time_event,
    step_record,
    verdict_event,
)
from decisions.types import AgentResult, Final
from evidence.services import snippet_evidence
from harvester.models import RunStatus
from harvester.services import HarvestError
from integrations import llm

logger = logging.getLogger(__name__)

# The working-time clock of the claim deadline (a seam for tests that cannot wait 45 s).
_clock = time.monotonic


@transaction.atomic
def verdict_store(*, claim: Claim, result: AgentResult) -> Verdict:
    verdict, _ = Verdict.objects.get_or_create(
        claim=claim,
        run_number=claim.run_number,
        defaults={
            "outcome": result.outcome,
            "reason": result.reason,
            "proof_markdown": result.proof,
            "support_total": result.support_total,
            "refute_total": result.refute_total,
            "sources": [vars(s) for s in result.sources],
            "unsided": [vars(s) for s in result.unsided],
            "lean": result.lean.as_json() if result.lean else None,
            "proposal": result.proposal,
            "debug": result.debug,
        },
    )
    confidence = fact_check_confidence(
        outcome=verdict.outcome,
        reason=verdict.reason,
        support=verdict.support_total,
        refute=verdict.refute_total,
        threshold=get_config().budgets.agreement_score,
        sources=result.sources,
        proposal=verdict.proposal,
    )
    event = verdict_event(run=claim.run_number, verdict=verdict)
    claim_decide(
        claim=claim,
        outcome=verdict.outcome,
        support=verdict.support_total,
        refute=verdict.refute_total,
        confidence=Confidence(score=confidence.score, tier=confidence.tier, note=confidence.note),
        event=ClaimEvent(
            event.kind, event.message, event.payload, key=f"{claim.run_number}:verdict"
        ),
    )
    return verdict


def claim_fail(*, claim: Claim, error: str) -> None:
    event = failure_event(run=claim.run_number, error=error)
    claims_fail(
        claim=claim, error=error, event=ClaimEvent(event.kind, event.message, event.payload)
    )


def claim_pipeline_run(*, claim_id: int) -> Verdict | None:
    """Run (or resume) the loop for one claim until it has a verdict. Provider and LLM failures
    fail the claim with their reason; anything unexpected fails it and is raised. A database
    that went away under the run fails nothing: the claim is queued again when it answers
    (DatabaseWentAway, from `claim_lease`)."""
    try:
        claim = claim_start(claim_id=claim_id)
    except ClaimNotRunnable:
        logger.info("claim not runnable", extra={"claim_id": claim_id})
        return None
    # Each take of a claim is logged from its start to its end, by worker process.
    pk = claim.pk
    logger.info("claim run started", extra={"claim_id": pk, "pid": os.getpid()})
    started = time.monotonic()
    try:
        with claim_lease(claim=claim):
            run = run_for(claim)
            try:
                verdict = _loop(run)
            except ClaimLeaseLost:
                logger.error(
                    "claim run stopped: another worker has it", extra={"claim_id": claim.pk}
                )
                return None
            except (HarvestError, llm.LLMError) as exc:
                claim_fail(claim=claim, error=f"{type(exc).__name__}: {exc}")
                return None
            except DatabaseError as exc:
                if database_lost(exc):
                    raise  # not the claim's fault: the lease hands it back once it answers
                claim_fail(claim=claim, error=f"unexpected {type(exc).__name__}: {exc}")
                raise
            except Exception as exc:
                claim_fail(claim=claim, error=f"unexpected {type(exc).__name__}: {exc}")
                raise
    finally:
        logger.info("claim run ended", extra={"claim_id": pk, "pid": os.getpid()})
    logger.info(
        "claim decided",
        extra={
            "claim_id": claim.pk,
            "outcome": verdict.outcome,
            "queries_used": verdict.debug.get("total_queries"),
            "latency_ms": int((time.monotonic() - started) * 1000),
        },
    )
    return verdict


def _worth_reading(scored: list[ScoredLead], best: float) -> set[str]:
    """The results of one search that could be read and are above the relevance floor: the
    gate's own floor, relative to the best relevance seen so far in this claim's searches."""
    floor = max(MIN_CRAWL_RELEVANCE, RELATIVE_CRAWL_RELEVANCE * best)
    return {canonical(s.lead.url) for s in scored if s.usable and s.relevance >= floor}


def _pooled(pool: dict[str, ScoredLead], scored: list[ScoredLead]) -> list[ScoredLead]:
    """Every result the claim's searches have returned so far, each page once at its best
    place: a page found by an earlier search and not read yet can still be read now."""
    for item in scored:
        url = canonical(item.lead.url)
        current = pool.get(url)
        if current is None:
            pool[url] = item
            continue
        better = item if reading_order(item) < reading_order(current) else current
        pool[url] = replace(better, searches=current.searches + 1)
    return sorted(pool.values(), key=reading_order)


def _read_enough(run: Run) -> bool:
    """Whether the claim has read enough pages to stop when searching stops paying: as many as
    `min_crawls`, or its whole crawl budget."""
    budgets = run.config.budgets
    read = len(run.crawled())
    return read >= budgets.min_crawls or read >= budgets.total_crawls


def _out_of_time(run: Run, started: float) -> str | None:
    """Why the run must be decided now, or None: this process has worked past the claim's
    deadline, or the run's first step is older than the cap (a resumed run keeps its clock)."""
    budgets = run.config.budgets
    if _clock() - started >= budgets.claim_deadline_s:
        return f"the claim's time budget of {budgets.claim_deadline_s:g} s is spent"
    first = (
        run.claim.events.filter(payload__run=run.number)
        .exclude(kind=EventKind.QUEUED)
        .order_by("sequence")
        .values_list("created_at", flat=True)
        .first()
    )
    if first is not None and (timezone.now() - first).total_seconds() >= budgets.claim_cap_s:
        return f"the run started over {budgets.claim_cap_s:g} s ago"
    return None


def _loop(run: Run) -> Verdict:
    budgets = run.config.budgets
    started = _clock()
    if run.config.factcheck.enabled:
        factcheck_step(run)
    written = first_query(question=run.question)
    base = written.schema
    step_record(
        claim=run.claim,
        key=run.key("compose"),
        event=first_query_event(run=run.number, query=written),
    )
    # The first searches: the claim's own query, and for a claim in another language its
    # search in English. Refinements come after both.
    first = [ComposedQuery(base, "first query")]
    english = english_query(question=run.question, base=base)
    if english is not None:
        first.append(english)
        step_record(
            claim=run.claim,
            key=run.key("compose-en"),
            event=english_query_event(
                run=run.number,
                schema=english.schema,
                why=english.tweak,
                language=run.question.language,
            ),
        )
    sent: set[str] = set()
    empty: set[str] = set()
    snippets: list[str] = []
    seen: set[str] = set()
    pool: dict[str, ScoredLead] = {}
    best = 0.0
    dry = 0
    for attempt in range(1, budgets.max_queries + 1):
        # Between steps, each one's work stored: where a stopping worker hands the claim back.
        lease_checkpoint(claim=run.claim)
        if attempt <= len(first):
            schema, tweak = first[attempt - 1].schema, first[attempt - 1].tweak
        else:
            composed = refine_query(
                base=base,
                attempt=attempt - len(first) + 1,
                question=run.question,
                snippets=snippets,
                sent=sent,
                empty=frozenset(empty),
            )
            if composed is None:
                break  # every tweak has been tried: decide with what there is
            schema, tweak = composed.schema, composed.tweak
        search_run = search_step(run, attempt, schema, tweak)
        sent.add(schema.compile())
        leads = leads_of(search_run, budgets.top_k_results)
        if not leads and search_run.status == RunStatus.OK:
            # Every provider answered, with nothing: a narrower query would find nothing too.
            empty.add(schema.compile())
        snippets.extend(f"{lead.title} {lead.snippet}" for lead in leads)
        scored = score_leads(leads=leads, question=run.question)
        authoritative = [s.lead for s in scored if s.usable and s.tier in AUTHORITATIVE]
        snippet_evidence(claim=run.claim, leads=authoritative, attempt=run.global_attempt(attempt))
        best = max([best, *(s.relevance for s in scored if s.usable)])
        new = _worth_reading(scored, best) - seen
        seen |= new
        # A refinement pays when it finds something new worth reading; the first searches
        # (in the claim's language and in English) have nothing to be compared with.
        dry = 0 if new or attempt <= len(first) else dry + 1
        late = _out_of_time(run, started)
        if late is None:
            lease_checkpoint(claim=run.claim)
            # This search's results and the unread ones of the searches before it.
            candidates = _pooled(pool, scored)
            gate = gate_step(run, attempt, candidates)
            if gate.status == "verify":
                verify_step(run, attempt, leads)
                lease_checkpoint(claim=run.claim)
                if not run_sufficient(run, leads_as_read=False):
                    gate = gate_step(run, attempt, candidates, key="gate-after-check")
            if gate.status == "crawl":
                crawl_step(run, attempt, gate.picks)
        # A search that stops paying still goes on while the claim has read too little.
        stop = late is not None or (dry >= budgets.dry_attempts and _read_enough(run))
        if late is not None:
            step_record(
                claim=run.claim,
                key=run.key("time", attempt),
                event=out_of_time_event(run=run.number, attempt=attempt, why=late),
            )
        elif stop:
            step_record(
                claim=run.claim,
                key=run.key("dry", attempt),
                event=dry_event(run=run.number, attempt=attempt, dry=dry),
            )
        decision = decide_step(run, attempt, last=attempt == budgets.max_queries or stop)
        if isinstance(decision, Final):
            return verdict_store(claim=run.claim, result=decision.result)
    decision = decide_step(run, budgets.max_queries, last=True)
    if not isinstance(decision, Final):
        raise RuntimeError("the decision module asked for more search with no attempts left")
    return verdict_store(claim=run.claim, result=decision.result)
