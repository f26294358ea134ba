"""What the claim loop knows about the current run of one claim, rebuilt from the database at
every step: its question, its searches, the evidence it holds, and what it has read."""

from __future__ import annotations

from dataclasses import dataclass, replace

from claimcheck.config import BudgetConfig, PipelineConfig, get_config
from claimcheck.language import LanguageGuess, detect_language
from claims.models import Claim, EventKind
from claims.services import claim_language_set
from decisions.decide import compute_totals
from decisions.hits import evidence_hit
from decisions.ranking import top_per_side
from decisions.types import ClaimQuestion, Lean, SearchHistory
from evidence.models import Evidence, VerificationStatus
from evidence.services import Lead
from harvester.selectors import processed_results, search_runs_of_claim
from harvester.services import SearchRun
from integrations.http.canonical import canonicalize_url


@dataclass
class Run:
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
        return search_runs_of_claim(claim=self.claim, after_attempt=self.claim.attempt_offset)

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


def run_history(run: Run, *, leads_as_read: bool = False) -> SearchHistory:
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


def leads_of(search_run: SearchRun, top_k: int) -> list[Lead]:
    rows = processed_results(run=search_run, limit=top_k)
    return [
        Lead(
            url=row.url,
            title=row.title,
            snippet=row.snippet,
            published=row.published,
            providers=list(row.providers),
        )
        for row in rows
    ]


def run_sufficient(run: Run, *, leads_as_read: bool) -> bool:
    budgets = run.config.budgets
    threshold = budgets.agreement_score
    history = run_history(run, leads_as_read=leads_as_read)
    totals = compute_totals(
        question=run.question,
        history=history,
        threshold=threshold,
        min_confidence=budgets.min_confidence,
    )
    return totals.support.sufficient(threshold) or totals.refute.sufficient(threshold)


def canonical(url: str) -> str:
    try:
        return canonicalize_url(url)
    except ValueError:
        return url


def claim_language(*, claim: Claim) -> LanguageGuess:
    """The claim's language as stored at submission, detected and stored now for a claim that
    came in another way (an evaluation, an older row)."""
    if claim.language:
        return LanguageGuess(claim.language, claim.language_confidence or 0.0)
    guess = detect_language(claim.text)
    if guess.known:
        claim_language_set(claim=claim, code=guess.code, confidence=guess.confidence)
    return guess


def run_for(claim: Claim) -> Run:
    language = claim_language(claim=claim)
    return Run(
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


def lean_rule(budgets: BudgetConfig) -> Lean | None:
    """The configured lean hint rule, or None when hints are switched off."""
    if budgets.lean_score is None:
        return None
    return Lean(score=budgets.lean_score, ratio=budgets.lean_ratio)
