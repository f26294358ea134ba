"""The claim loop: search, gate, crawl, collect evidence, decide.

Every step persists before the next, so a task killed at any point and run again continues from
what the database holds: search runs are reused by (claim, attempt) and never sent twice, pages
come from the page cache, evidence is collected idempotently, and events are written once per key.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass, replace
from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from claimcheck.config import BudgetConfig, PipelineConfig, get_config
from claimcheck.language import LanguageGuess, detect_language
from claims.models import Claim, ClaimStatus, EventKind
from decisions.confidence import fact_check_confidence
from decisions.decide import (
    AgentResult,
    ClaimQuestion,
    Decision,
    EvidenceHit,
    Final,
    Lean,
    SearchHistory,
    Totals,
    compute_totals,
    decide_from_history,
)
from decisions.gate import (
    AUTHORITATIVE,
    MIN_CRAWL_RELEVANCE,
    RELATIVE_CRAWL_RELEVANCE,
    GateDecision,
    ScoredLead,
    reading_order,
    score_leads,
    snippet_gate,
)
from decisions.lease import ClaimLeaseLost, claim_lease, lease_checkpoint, lease_expired_before
from decisions.models import Verdict
from decisions.query import ComposedQuery, compose_initial_query, english_query, refine_query
from decisions.ranking import top_per_side
from decisions.step_events import (
    crawl_event,
    decision_event,
    dry_event,
    english_query_event,
    evidence_event,
    factcheck_event,
    failure_event,
    first_query_event,
    gate_event,
    out_of_time_event,
    search_event,
    step_record,
    verdict_event,
    verify_event,
)
from evidence.factcheck import factcheck_lookup
from evidence.fetching.pages import cached_page
from evidence.models import Evidence, Method, Page, Stance, VerificationStatus
from evidence.rerank import tokens
from evidence.services import (
    Lead,
    collect_evidence,
    factcheck_evidence_record,
    snippet_evidence,
    snippet_verify,
)
from evidence.services.collect import is_hub
from harvester.canonical import canonicalize_url
from harvester.errors import HarvestError
from harvester.models import ProcessedResult, SearchRun
from harvester.schema import QuerySchema
from harvester.services import search_run_execute
from integrations import llm
from registry.hosts import publisher_of
from registry.weighing import weigh_source

logger = logging.getLogger(__name__)

# The share of the claim's words a hub page's link must show to be followed.
CLICKDOWN_RELEVANCE = 0.25

# The working-time clock of the claim deadline (a seam for tests that cannot wait 45 s).
_clock = time.monotonic


class ClaimNotRunnable(Exception):
    """The claim is decided, failed, or being run by another live worker."""


def claim_start(*, claim_id: int) -> Claim:
    """Take the claim with a conditional UPDATE: queued, or running with a lease that ran out
    (its worker died). Anything else means someone else has it, or it is done."""
    now = timezone.now()
    taken = Claim.objects.filter(
        Q(status=ClaimStatus.QUEUED)
        | Q(status=ClaimStatus.RUNNING, updated_at__lt=lease_expired_before()),
        pk=claim_id,
    ).update(status=ClaimStatus.RUNNING, started_at=now, updated_at=now)
    if taken != 1:
        raise ClaimNotRunnable(f"claim {claim_id} is not waiting to run")
    return Claim.objects.get(pk=claim_id)


@dataclass
class _Run:
    """What the loop knows about the current run of one claim, rebuilt from the database."""

    claim: Claim
    question: ClaimQuestion
    config: PipelineConfig

    @property
    def number(self) -> int:
        return self.claim.run_number

    def global_attempt(self, attempt: int) -> int:
        return self.claim.attempt_offset + attempt

    def key(self, *parts: object) -> str:
        return ":".join(str(p) for p in (self.number, *parts))

    def runs(self) -> list[SearchRun]:
        return list(
            SearchRun.objects.filter(
                claim=self.claim, attempt__gt=self.claim.attempt_offset
            ).order_by("attempt")
        )

    def evidence(self) -> list[Evidence]:
        """This run's evidence, each statement once (a copy of a kept row is left out)."""
        return list(
            Evidence.objects.filter(
                claim=self.claim,
                attempt__gt=self.claim.attempt_offset,
                duplicate_of__isnull=True,
            )
            .select_related("page")
            .order_by("id")
        )

    def crawled(self) -> set[str]:
        events = self.claim.events.filter(kind=EventKind.CRAWL, payload__run=self.number)
        return {str(e.payload.get("url")) for e in events}

    def verified(self) -> set[str]:
        """Pages fetched to check a snippet (not counted against the crawl budget)."""
        events = self.claim.events.filter(kind=EventKind.VERIFY, payload__run=self.number)
        return {str(e.payload.get("url")) for e in events}


def evidence_hit(row: Evidence) -> EvidenceHit:
    """A stored Evidence row as the decision module sees it. A reprint of another publisher's
    story weighs what its original publisher weighs."""
    weight = weigh_source(row.syndicated_from).weight if row.syndicated_from else row.weight
    return EvidenceHit(
        url=row.url,
        domain=row.domain,
        tier=row.tier,
        weight=weight,
        stance=row.stance,
        title=row.title or (row.page.title if row.page else ""),
        quote=row.source_quote,
        stance_score=row.stance_score,
        event_at=row.event_at,
        published_at=row.published_at,
        in_window=row.in_window,
        date_source=row.date_source,
        method=row.method,
        content_depth=row.content_depth,
        read=row.was_read,
        confidence=row.confidence,
        syndicated_from=row.syndicated_from,
        entity_overlap=row.entity_overlap,
    )


def _history(run: _Run, *, leads_as_read: bool = False) -> SearchHistory:
    """What the decision module sees: each side's best rows (`decisions.ranking`), every row
    that took no side. `leads_as_read` also counts snippets not checked yet, to ask whether
    checking them could be enough."""
    runs = run.runs()
    hits = []
    for row in run.evidence():
        hit = evidence_hit(row)
        if leads_as_read and row.verification_status == VerificationStatus.UNVERIFIED:
            hit = replace(hit, read=True)
        hits.append(hit)
    return SearchHistory(
        evidence=top_per_side(
            items=hits,
            hit_of=lambda hit: hit,
            question=run.question,
            min_confidence=run.config.budgets.min_confidence,
            limit=run.config.retention.max_per_side,
        ),
        queries=[r.rewritten_template for r in runs],
        pages_visited=len(run.crawled()) + len(run.verified()),
    )


def _leads(search_run: SearchRun, top_k: int) -> list[Lead]:
    rows = ProcessedResult.objects.filter(run=search_run).order_by("-confidence", "best_rank", "id")
    return [
        Lead(
            url=row.url,
            title=row.title,
            snippet=row.snippet,
            published=row.published,
            providers=list(row.providers),
        )
        for row in rows[:top_k]
    ]


def _update_counters(run: _Run, history: SearchHistory, totals: Totals) -> None:
    # Claim.cost_usd holds LLM spend only; search spend stays on the runs (the budget sums both).
    Claim.objects.filter(pk=run.claim.pk).update(
        queries_used=len(history.queries),
        crawls_used=history.pages_visited,
        evidence_count=len(history.evidence),
        support_total=totals.support.total,
        refute_total=totals.refute.total,
        updated_at=timezone.now(),
    )


def _factcheck_step(run: _Run) -> None:
    """Published fact-checks are shown on the claim; one counts as evidence only when its
    publisher's domain is in the registry (a known, weighted source)."""
    key = run.key("factcheck")
    if run.claim.events.filter(payload__key=key).exists():
        return
    matches = factcheck_lookup(claim=run.claim)
    counted = factcheck_evidence_record(
        claim=run.claim, matches=matches, attempt=run.global_attempt(1)
    )
    step_record(
        claim=run.claim,
        key=key,
        event=factcheck_event(run=run.number, matches=len(matches), counted=counted),
    )


def _search_step(run: _Run, attempt: int, composed_schema: QuerySchema, tweak: str) -> SearchRun:
    search_run = search_run_execute(
        schema=composed_schema, claim=run.claim, attempt=run.global_attempt(attempt)
    )
    step_record(
        claim=run.claim,
        key=run.key("search", attempt),
        event=search_event(run=run.number, attempt=attempt, search_run=search_run, tweak=tweak),
    )
    return search_run


def _sufficient(run: _Run, *, leads_as_read: bool) -> bool:
    budgets = run.config.budgets
    threshold = budgets.agreement_score
    history = _history(run, leads_as_read=leads_as_read)
    totals = compute_totals(
        question=run.question,
        history=history,
        threshold=threshold,
        min_confidence=budgets.min_confidence,
    )
    return totals.support.sufficient(threshold) or totals.refute.sufficient(threshold)


def _gate_step(
    run: _Run, attempt: int, scored: list[ScoredLead], *, key: str = "gate"
) -> GateDecision:
    """The gate for this attempt's results. Under the first key, snippets that would decide
    the claim once checked make it "verify"; under another (after a check), it only crawls or
    refines."""
    budgets = run.config.budgets
    would_decide = (
        key == "gate"
        and _sufficient(run, leads_as_read=True)
        and not _sufficient(run, leads_as_read=False)
    )
    crawled = run.crawled()
    gate = snippet_gate(
        scored=scored,
        snippets_sufficient=would_decide,
        crawled=crawled,
        crawls_left=budgets.total_crawls - len(crawled),
        per_turn=budgets.crawls_per_turn,
        # "Other" sources are leads only; read them once a refinement has found nothing better.
        allow_other=attempt >= 2,
    )
    step_record(
        claim=run.claim,
        key=run.key(key, attempt),
        event=gate_event(run=run.number, attempt=attempt, gate=gate, scored=scored),
    )
    return gate


def _verify_step(run: _Run, attempt: int, leads: list[Lead]) -> None:
    """Check the snippets that would decide the claim on their pages, before they count."""
    budgets = run.config.budgets
    totals = compute_totals(
        question=run.question,
        history=_history(run, leads_as_read=True),
        threshold=budgets.agreement_score,
    )
    # The counted hits of either side, as if the snippets were read; the unchecked ones are
    # what to check.
    urls = {hit.url for side in (totals.support, totals.refute) for hit in side.hits}
    rows = [
        row
        for row in run.evidence()
        if row.url in urls
        and row.method == Method.SNIPPET
        and row.verification_status == VerificationStatus.UNVERIFIED
    ]
    by_url: dict[str, Lead] = {}
    for lead in leads:
        by_url.setdefault(_canonical(lead.url), lead)
    for check in snippet_verify(claim=run.claim, rows=rows, leads=by_url):
        step_record(
            claim=run.claim,
            key=run.key("verify", check.row_id),
            event=verify_event(run=run.number, attempt=attempt, check=check),
        )


def _canonical(url: str) -> str:
    try:
        return canonicalize_url(url)
    except ValueError:
        return url


def clickdown_link(
    *, page: Page, question: ClaimQuestion, skip: set[str]
) -> tuple[str, str] | None:
    """The one link of a hub page worth following: on the hub's own publisher, not read yet,
    and the most about the claim by its anchor text and address (at least the crawl floor)."""
    links = page.metadata.get("hub_links", []) if isinstance(page.metadata, dict) else []
    home = publisher_of(page.final_url or page.url)
    claim_words = set(tokens(question.text))
    if not claim_words or home is None:
        return None
    best: tuple[float, str, str] | None = None
    for item in links:
        if not isinstance(item, list | tuple) or len(item) != 2:
            continue
        url, label = str(item[0]), str(item[1])
        if publisher_of(url) != home or _canonical(url) in skip or _canonical(url) == page.url:
            continue
        share = len(claim_words & set(tokens(f"{label} {url}"))) / len(claim_words)
        if share >= CLICKDOWN_RELEVANCE and (best is None or share > best[0]):
            best = (share, url, label)
    return (best[1], best[2]) if best else None


def _crawl_step(run: _Run, attempt: int, picks: tuple[ScoredLead, ...]) -> None:
    budgets = run.config.budgets
    leads = [p.lead for p in picks]
    asked = timezone.now()
    rows = collect_evidence(claim=run.claim, leads=leads, attempt=run.global_attempt(attempt))
    for pick in picks:
        url = _canonical(pick.lead.url)
        page = _crawl_record(run, attempt, url, pick.tier, rows, asked=asked)
        crawled = run.crawled()
        if page is None or not is_hub(page) or len(crawled) >= budgets.total_crawls:
            continue
        link = clickdown_link(page=page, question=run.question, skip=crawled)
        if link is None:
            continue
        asked = timezone.now()
        child = collect_evidence(
            claim=run.claim,
            leads=[Lead(url=link[0], title=link[1])],
            attempt=run.global_attempt(attempt),
        )
        tier = weigh_source(link[0]).tier
        _crawl_record(run, attempt, _canonical(link[0]), tier, child, asked=asked, via=url)


def _crawl_record(
    run: _Run,
    attempt: int,
    url: str,
    tier: str,
    rows: list[Evidence],
    *,
    asked: datetime,
    via: str = "",
) -> Page | None:
    """The crawl event of one page and the evidence events of what it said; returns the page.
    A page stored before it was `asked` for came from the page cache."""
    found = list(
        Evidence.objects.filter(pk__in=[row.pk for row in rows if row.url == url])
        .select_related("page")
        .order_by("id")
    )
    page = found[0].page if found and found[0].page else cached_page(url)
    step_record(
        claim=run.claim,
        key=run.key("crawl", url),
        event=crawl_event(
            run=run.number,
            attempt=attempt,
            url=url,
            tier=tier,
            page=page,
            hub=is_hub(page),
            cached=None if page is None else page.fetched_at < asked,
            via=via,
            evidence=len(found),
        ),
    )
    for row in found:
        # A copy of a statement the run already holds is not news on the timeline.
        if row.stance == Stance.NEUTRAL or row.duplicate_of_id is not None:
            continue
        step_record(
            claim=run.claim,
            key=run.key("evidence", row.pk),
            event=evidence_event(run=run.number, row=row),
        )
    return page


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
            "debug": result.debug,
        },
    )
    now = timezone.now()
    confidence = fact_check_confidence(
        outcome=verdict.outcome,
        reason=verdict.reason,
        support=verdict.support_total,
        refute=verdict.refute_total,
        threshold=get_config().budgets.agreement_score,
        sources=result.sources,
    )
    Claim.objects.filter(pk=claim.pk).update(
        status=ClaimStatus.DECIDED,
        outcome=verdict.outcome,
        overridden=False,
        decided_at=now,
        support_total=verdict.support_total,
        refute_total=verdict.refute_total,
        fact_check_score=confidence.score,
        fact_check_tier=confidence.tier,
        fact_check_note=confidence.note,
        error="",
    )
    step_record(
        claim=claim,
        key=f"{claim.run_number}:verdict",
        event=verdict_event(run=claim.run_number, verdict=verdict),
    )
    return verdict


@transaction.atomic
def claim_fail(*, claim: Claim, error: str) -> None:
    # One transaction: a reader never sees the failed status without the error step.
    Claim.objects.filter(pk=claim.pk).update(status=ClaimStatus.FAILED, error=error[:2000])
    step_record(claim=claim, event=failure_event(run=claim.run_number, error=error))


def claim_language(*, claim: Claim) -> LanguageGuess:
    """The claim's language as stored at submission, detected and stored now for a claim that
    came in another way (an evaluation, an older row)."""
    if claim.language:
        return LanguageGuess(claim.language, claim.language_confidence or 0.0)
    guess = detect_language(claim.text)
    if guess.known:
        Claim.objects.filter(pk=claim.pk).update(
            language=guess.code, language_confidence=guess.confidence
        )
    return guess


def _run_for(claim: Claim) -> _Run:
    language = claim_language(claim=claim)
    return _Run(
        claim=claim,
        question=ClaimQuestion(
            text=claim.text,
            timeframe_start=claim.timeframe_start,
            timeframe_end=claim.timeframe_end,
            claim_id=claim.pk,
            language=language.code,
            language_confidence=language.confidence,
        ),
        config=get_config(),
    )


def claim_pipeline_run(*, claim_id: int) -> Verdict | None:
    """Run (or resume) the loop for one claim until it has a verdict. Provider and LLM failures
    fail the claim with their reason; anything unexpected fails it and is raised."""
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
            run = _run_for(claim)
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
    return {_canonical(s.lead.url) for s in scored if s.usable and s.relevance >= floor}


def _pooled(pool: dict[str, ScoredLead], scored: list[ScoredLead]) -> list[ScoredLead]:
    """Every result the claim's searches have returned so far, each page once at its best
    place: a page found by an earlier search and not read yet can still be read now."""
    for item in scored:
        url = _canonical(item.lead.url)
        current = pool.get(url)
        if current is None:
            pool[url] = item
            continue
        better = item if reading_order(item) < reading_order(current) else current
        pool[url] = replace(better, searches=current.searches + 1)
    return sorted(pool.values(), key=reading_order)


def _read_enough(run: _Run) -> bool:
    """Whether the claim has read enough pages to stop when searching stops paying: as many as
    `min_crawls`, or its whole crawl budget."""
    budgets = run.config.budgets
    read = len(run.crawled())
    return read >= budgets.min_crawls or read >= budgets.total_crawls


def _out_of_time(run: _Run, started: float) -> str | None:
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


def _loop(run: _Run) -> Verdict:
    budgets = run.config.budgets
    started = _clock()
    if run.config.factcheck.enabled:
        _factcheck_step(run)
    base = compose_initial_query(question=run.question)
    step_record(
        claim=run.claim,
        key=run.key("compose"),
        event=first_query_event(run=run.number, schema=base),
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
            )
            if composed is None:
                break  # every tweak has been tried: decide with what there is
            schema, tweak = composed.schema, composed.tweak
        search_run = _search_step(run, attempt, schema, tweak)
        sent.add(schema.compile())
        leads = _leads(search_run, budgets.top_k_results)
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
            gate = _gate_step(run, attempt, candidates)
            if gate.status == "verify":
                _verify_step(run, attempt, leads)
                lease_checkpoint(claim=run.claim)
                if not _sufficient(run, leads_as_read=False):
                    gate = _gate_step(run, attempt, candidates, key="gate-after-check")
            if gate.status == "crawl":
                _crawl_step(run, attempt, gate.picks)
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
        decision = _decide(run, attempt, last=attempt == budgets.max_queries or stop)
        if isinstance(decision, Final):
            return verdict_store(claim=run.claim, result=decision.result)
    decision = _decide(run, budgets.max_queries, last=True)
    if not isinstance(decision, Final):
        raise RuntimeError("the decision module asked for more search with no attempts left")
    return verdict_store(claim=run.claim, result=decision.result)


def lean_rule(budgets: BudgetConfig) -> Lean | None:
    """The configured lean hint rule, or None when hints are switched off."""
    if budgets.lean_score is None:
        return None
    return Lean(score=budgets.lean_score, ratio=budgets.lean_ratio)


def _decide(run: _Run, attempt: int, *, last: bool) -> Decision:
    budgets = run.config.budgets
    history = _history(run)
    decision = decide_from_history(
        question=run.question,
        history=history,
        attempts=attempt,
        max_attempts=budgets.max_queries,
        threshold=budgets.agreement_score,
        lean=lean_rule(budgets),
        max_opposition=budgets.max_opposition,
        min_confidence=budgets.min_confidence,
        final=last,
    )
    _update_counters(run, history, decision.totals)
    step_record(
        claim=run.claim,
        key=run.key("decision", attempt, last),
        event=decision_event(
            run=run.number,
            attempt=attempt,
            decision=decision,
            threshold=budgets.agreement_score,
        ),
    )
    return decision
