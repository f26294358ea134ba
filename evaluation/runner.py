"""Run labelled claims through the claim pipeline, one after another, and keep what happened.

Each claim is submitted like any other (not queued: run here, in the foreground) and the real
pipeline decides it. Nothing of the dataset's label reaches the pipeline; the label is only
compared with the verdict afterwards.
"""

from __future__ import annotations

import logging
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml
from django.test.utils import override_settings

from claimcheck.config import get_config, reload_config
from claims.models import Claim, ClaimStatus, EventKind, Outcome
from decisions.decide import decide_from_history, hit_counts
from decisions.errors import ClaimError
from decisions.hits import evidence_hit
from decisions.models import Verdict
from decisions.pipeline import claim_pipeline_run, lean_rule
from decisions.services import claim_submit
from decisions.types import ClaimQuestion, EvidenceHit, Final, SearchHistory
from decisions.weighing import readings_of
from evaluation.dataset import Dataset, LabelledClaim
from evidence.models import Evidence, Method
from harvester.selectors import result_urls_of_claim
from integrations.http.canonical import canonicalize_url

logger = logging.getLogger(__name__)

QUOTE_CHARS = 300


@dataclass
class EvidenceSeen:
    url: str
    domain: str
    tier: str
    weight: float
    stance: str
    stance_score: float
    in_window: bool | None
    event_at: str | None
    published_at: str | None
    method: str
    quote: str
    read: bool = True
    """Whether it was read where it was published (a page, or a snippet found on its page)."""
    syndicated_from: str = ""
    own: bool = False
    """Whether it came from one of the claim's own evidence pages."""
    counts: bool = False
    """Whether it clears the bar to count toward its side (read, weighed, sure enough, and
    for support dated in the timeframe), whatever the rest of the evidence says."""


@dataclass
class ClaimResult:
    key: str
    text: str
    gold: str
    gold_label: str
    predicted: str
    """An Outcome value; a claim the pipeline could not decide counts as Invalid."""
    status: str
    reason: str = ""
    error: str = ""
    support_total: float = 0.0
    refute_total: float = 0.0
    queries: int = 0
    crawls: int = 0
    evidence: int = 0
    counted_sources: int = 0
    seconds: float = 0.0
    llm_calls: int = 0
    llm_tokens: int = 0
    """Prompt and completion tokens of the LLM calls the claim made (0 with no LLM)."""
    llm_cost_usd: float = 0.0
    page_independent: str = ""
    """What the same decision rule says when every page counts as its own source (a
    diagnostic of stance apart from source independence; see report)."""
    own_pages: str = ""
    """What the decision rule says over the evidence read from the claim's own evidence pages
    alone (the ceiling's answer for a claim labelled Invalid)."""
    tags: list[str] = field(default_factory=list)
    page_urls: list[str] = field(default_factory=list)
    found_urls: list[str] = field(default_factory=list)
    """Canonical URLs of the results the claim's searches returned."""
    read_urls: list[str] = field(default_factory=list)
    """Canonical URLs of the pages the pipeline read (crawled, or fetched to check a snippet
    that was then found on it)."""
    lean: str = ""
    evidence_rows: list[EvidenceSeen] = field(default_factory=list)
    readings: list[dict[str, Any]] = field(default_factory=list)
    """What the verdict's weighed proposal read (`decisions.weighing.Reading`, as dicts): the
    figures the claim outcome model is fitted on."""

    @property
    def correct(self) -> bool:
        return self.predicted == self.gold

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def _seen(row: Evidence, *, question: ClaimQuestion, own: set[str]) -> EvidenceSeen:
    counts = hit_counts(
        hit=evidence_hit(row),
        question=question,
        min_confidence=get_config().budgets.min_confidence,
    )
    return EvidenceSeen(
        url=row.url,
        domain=row.domain,
        tier=row.tier,
        weight=row.weight,
        stance=row.stance,
        stance_score=round(row.stance_score, 4),
        in_window=row.in_window,
        event_at=row.event_at.date().isoformat() if row.event_at else None,
        published_at=row.published_at.date().isoformat() if row.published_at else None,
        method=row.method,
        quote=row.source_quote[:QUOTE_CHARS],
        read=row.was_read,
        syndicated_from=row.syndicated_from,
        own=_canonical(row.url) in own,
        counts=counts,
    )


def _question(claim: Claim) -> ClaimQuestion:
    return ClaimQuestion(
        text=claim.text,
        timeframe_start=claim.timeframe_start,
        timeframe_end=claim.timeframe_end,
    )


@contextmanager
def _without_llm() -> Iterator[None]:
    """The configuration in force with no LLM. The diagnostics ask the decision rule only for
    its outcome: with an LLM configured, each would have it write a proof nobody reads, paid
    for and counted in the claim's seconds and tokens."""
    config = get_config()
    if not config.llm.model:
        yield
        return
    data = config.model_dump(mode="json")
    data["llm"].update(model=None, embedding_model=None)
    with tempfile.TemporaryDirectory(prefix="claimcheck-eval-rule-") as directory:
        path = Path(directory) / "no-llm.yaml"
        path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
        try:
            with override_settings(CLAIMCHECK_CONFIG=str(path)):
                reload_config()
                yield
        finally:
            reload_config()


def _rule(claim: Claim, hits: list[EvidenceHit]) -> str:
    """The decision rule's outcome over these hits, with the search over."""
    budgets = get_config().budgets
    with _without_llm():
        return _outcome(claim, hits, budgets)


def _outcome(claim: Claim, hits: list[EvidenceHit], budgets: Any) -> str:
    decision = decide_from_history(
        question=_question(claim),
        history=SearchHistory(evidence=hits),
        attempts=budgets.max_queries,
        max_attempts=budgets.max_queries,
        threshold=budgets.agreement_score,
        lean=lean_rule(budgets),
        max_opposition=budgets.max_opposition,
        min_confidence=budgets.min_confidence,
    )
    assert isinstance(decision, Final)  # no attempts left: always final
    return decision.result.outcome


def _page_independent(claim: Claim, rows: list[Evidence]) -> str:
    """The decision rule over the same evidence with each page as its own source."""
    return _rule(
        claim, [replace(evidence_hit(row), domain=row.url, syndicated_from="") for row in rows]
    )


def _canonical(url: str) -> str:
    try:
        return canonicalize_url(url)
    except ValueError:
        return url


def _found_urls(claim: Claim) -> list[str]:
    urls = result_urls_of_claim(claim=claim)
    return sorted({_canonical(url) for url in urls})


def _read_urls(claim: Claim, rows: list[Evidence]) -> list[str]:
    crawled = [
        str(event.payload.get("url"))
        for event in claim.events.filter(kind=EventKind.CRAWL)
        if event.payload.get("url")
    ]
    read = [row.url for row in rows if row.was_read and row.method != Method.FACTCHECK]
    return sorted({_canonical(url) for url in [*crawled, *read]})


def verdict_readings(
    verdict: Verdict | None, rows: list[Evidence], *, question: ClaimQuestion
) -> list[dict[str, Any]]:
    """The readings the verdict's own weighed proposal was made from, so that the outcome model
    is fitted and measured on what the product weighs; the claim's rows (ordered as the
    evaluation reads them) for a claim that ended without a proposal."""
    proposal = verdict.proposal if verdict is not None else None
    if isinstance(proposal, dict) and "readings" in proposal:
        return list(proposal["readings"])
    return [
        asdict(reading)
        for reading in readings_of([evidence_hit(row) for row in rows], question=question)
    ]


def run_claim(*, item: LabelledClaim, dataset: str) -> ClaimResult:
    started = time.monotonic()
    result = ClaimResult(
        key=item.key,
        text=item.text,
        gold=item.gold,
        gold_label=item.gold_label,
        predicted=Outcome.INVALID.value,
        status="",
        tags=list(item.tags),
        page_urls=list(item.page_urls),
    )
    try:
        claim, _ = claim_submit(
            text=item.text,
            timeframe_start=item.timeframe_start,
            timeframe_end=item.timeframe_end,
            # One channel per item: two dataset items with the same text are two checks.
            source_channel=f"evaluation {dataset} #{item.key}",
            enqueue=False,
        )
    except ClaimError as exc:
        result.status = "rejected"
        result.error = exc.message
        result.seconds = round(time.monotonic() - started, 3)
        return result
    try:
        verdict = claim_pipeline_run(claim_id=claim.pk)
    except Exception:
        # The pipeline has already failed the claim with the error; one broken claim is
        # reported in the results (and its traceback logged) rather than ending the run.
        logger.exception("evaluation: the pipeline raised", extra={"claim_id": claim.pk})
        verdict = None
    claim.refresh_from_db()
    rows = list(
        Evidence.objects.filter(claim=claim)
        .select_related("page")
        .order_by("-weight", "-stance_score", "id")
    )
    result.status = claim.status
    result.error = claim.error
    result.queries = claim.queries_used
    result.crawls = claim.crawls_used
    result.evidence = claim.evidence_count
    own = set(item.page_urls)
    question = _question(claim)
    result.evidence_rows = [_seen(row, question=question, own=own) for row in rows]
    result.readings = verdict_readings(verdict, rows, question=question)
    result.page_independent = _page_independent(claim, rows)
    result.own_pages = _rule(
        claim, [evidence_hit(row) for row in rows if _canonical(row.url) in own]
    )
    result.read_urls = _read_urls(claim, rows)
    result.found_urls = _found_urls(claim)
    if verdict is not None and claim.status == ClaimStatus.DECIDED:
        result.predicted = verdict.outcome
        result.reason = verdict.reason
        result.support_total = verdict.support_total
        result.refute_total = verdict.refute_total
        result.lean = str(verdict.lean.get("outcome", "")) if isinstance(verdict.lean, dict) else ""
        debug = verdict.debug if isinstance(verdict.debug, dict) else {}
        result.counted_sources = len(debug.get("support_domains", [])) + len(
            debug.get("refute_domains", [])
        )
    result.seconds = round(time.monotonic() - started, 3)
    return result


def run_dataset(
    *, dataset: Dataset, progress: Callable[[int, int, ClaimResult], None] | None = None
) -> list[ClaimResult]:
    results: list[ClaimResult] = []
    for number, item in enumerate(dataset.claims, start=1):
        result = run_claim(item=item, dataset=dataset.name)
        results.append(result)
        if progress is not None:
            progress(number, len(dataset.claims), result)
    return results
