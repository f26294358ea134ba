"""The claim loop's steps: each runs one piece of work, stores it, and writes its line on the
claim's timeline once (by its key), so that a resumed run passes a done step without redoing it."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from claimcheck.words import tokens
from claims.services import RunFigures, claim_figures_set
from decisions.decide import compute_totals, decide_from_history
from decisions.gate import GateDecision, ScoredLead, snippet_gate
from decisions.outcome_versions import outcome_model_in_force
from decisions.pipeline.run import Run, canonical, lean_rule, run_history, run_sufficient
from decisions.step_events import (
    crawl_event,
    decision_event,
    evidence_event,
    factcheck_event,
    gate_event,
    search_event,
    step_record,
    verify_event,
)
from decisions.types import ClaimQuestion, Decision, SearchHistory, Totals
from evidence.models import Evidence, Method, Page, Stance, VerificationStatus
from evidence.selectors import cached_page, is_hub, page_hub_links
from evidence.services import (
    Lead,
    collect_evidence,
    factcheck_evidence_record,
    factcheck_lookup,
    snippet_verify,
)
from harvester.services import QuerySchema, SearchRun, search_run_execute
from registry.hosts import publisher_of
from registry.weighing import weigh_source

# The share of the claim's words a hub page's link must show to be followed.
CLICKDOWN_RELEVANCE = 0.25


def factcheck_step(run: Run) -> None:
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


def search_step(run: Run, attempt: int, composed_schema: QuerySchema, tweak: str) -> SearchRun:
    search_run = search_run_execute(
        schema=composed_schema, claim=run.claim, attempt=run.global_attempt(attempt)
    )
    step_record(
        claim=run.claim,
        key=run.key("search", attempt),
        event=search_event(run=run.number, attempt=attempt, search_run=search_run, tweak=tweak),
    )
    return search_run


def gate_step(
    run: Run, attempt: int, scored: list[ScoredLead], *, key: str = "gate"
) -> GateDecision:
    """The gate for this attempt's results. Under the first key, snippets that would decide
    the claim once checked make it "verify"; under another (after a check), it only crawls or
    refines."""
    budgets = run.config.budgets
    would_decide = (
        key == "gate"
        and run_sufficient(run, leads_as_read=True)
        and not run_sufficient(run, leads_as_read=False)
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


def verify_step(run: Run, attempt: int, leads: list[Lead]) -> None:
    """Check the snippets that would decide the claim on their pages, before they count."""
    budgets = run.config.budgets
    totals = compute_totals(
        question=run.question,
        history=run_history(run, leads_as_read=True),
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
        by_url.setdefault(canonical(lead.url), lead)
    for check in snippet_verify(claim=run.claim, rows=rows, leads=by_url):
        step_record(
            claim=run.claim,
            key=run.key("verify", check.row_id),
            event=verify_event(run=run.number, attempt=attempt, check=check),
        )


def clickdown_link(
    *, page: Page, question: ClaimQuestion, skip: set[str]
) -> tuple[str, str] | None:
    """The one link of a hub page worth following: on the hub's own publisher, not read yet,
    and the most about the claim by its anchor text and address (at least the crawl floor)."""
    home = publisher_of(page.final_url or page.url)
    claim_words = set(tokens(question.text))
    if not claim_words or home is None:
        return None
    best: tuple[float, str, str] | None = None
    for url, label in page_hub_links(page):
        if publisher_of(url) != home or canonical(url) in skip or canonical(url) == page.url:
            continue
        share = len(claim_words & set(tokens(f"{label} {url}"))) / len(claim_words)
        if share >= CLICKDOWN_RELEVANCE and (best is None or share > best[0]):
            best = (share, url, label)
    return (best[1], best[2]) if best else None


def crawl_step(run: Run, attempt: int, picks: tuple[ScoredLead, ...]) -> None:
    budgets = run.config.budgets
    leads = [p.lead for p in picks]
    asked = timezone.now()
    rows = collect_evidence(claim=run.claim, leads=leads, attempt=run.global_attempt(attempt))
    for pick in picks:
        url = canonical(pick.lead.url)
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
        _crawl_record(run, attempt, canonical(link[0]), tier, child, asked=asked, via=url)


def _crawl_record(
    run: Run,
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
            event=evidence_event(
                run=run.number,
                row=row,
                question=run.question,
                min_confidence=run.config.budgets.min_confidence,
            ),
        )
    return page


def _figures_store(run: Run, history: SearchHistory, totals: Totals) -> None:
    # Claim.cost_usd holds LLM spend only; search spend stays on the runs (the budget sums both).
    claim_figures_set(
        claim=run.claim,
        figures=RunFigures(
            queries=len(history.queries),
            crawls=history.pages_visited,
            evidence=len(history.evidence),
            support=totals.support.total,
            refute=totals.refute.total,
        ),
    )


def decide_step(run: Run, attempt: int, *, last: bool) -> Decision:
    budgets = run.config.budgets
    history = run_history(run)
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
        # An outcome model an admin accepted from a refit on the reviews, else the shipped one.
        model=outcome_model_in_force(),
    )
    _figures_store(run, history, decision.totals)
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
