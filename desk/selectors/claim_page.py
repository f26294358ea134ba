"""The claim page's reads: what changed since the last run, the verdict's sources and proof as
shown (the live timeline is in `timeline`, a quote in the page text it was read from in
`quotes`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.safestring import SafeString, mark_safe

from claimcheck.config import get_config
from claims.models import Claim, EventKind
from decisions.models import Comment, Override, Verdict
from decisions.selectors import (
    Counting,
    RowCount,
    SimilarClaim,
    claim_counting,
    proof_as_shown,
    render_proof,
    verdict_summary,
)
from desk.selectors.checked_before import CheckedBefore, checked_before, similar_to
from desk.selectors.claims import also_reported_by
from desk.selectors.progress import Progress, progress_of, reporting_steps
from desk.selectors.timeline import (
    AgreementBars,
    TimelineEntry,
    TimelineRun,
    latest_totals,
    timeline,
)
from desk.selectors.verdict_card import VerdictCard, proposed_proof, verdict_card
from desk.selectors.weighed_rows import weighed_words
from evidence.entities import Entity, extract_entities
from evidence.models import Evidence, FactCheckMatch


@dataclass(frozen=True)
class RunChanges:
    """What a re-run changed against the run before it: the outcome and the counted sources."""

    previous_run: int
    outcome_before: str
    outcome_after: str
    added: list[dict[str, Any]]
    removed: list[dict[str, Any]]
    kept: int

    @property
    def outcome_changed(self) -> bool:
        return self.outcome_before != self.outcome_after

    @property
    def anything(self) -> bool:
        return self.outcome_changed or bool(self.added or self.removed)


def run_changes(*, current: Verdict, previous: Verdict) -> RunChanges:
    def keyed(sources: Any) -> dict[str, dict[str, Any]]:
        return {str(s.get("url")): s for s in (sources or []) if isinstance(s, dict)}

    now, before = keyed(current.sources), keyed(previous.sources)
    return RunChanges(
        previous_run=previous.run_number,
        outcome_before=previous.outcome,
        outcome_after=current.outcome,
        added=[now[url] for url in now if url not in before],
        removed=[before[url] for url in before if url not in now],
        kept=len(now.keys() & before.keys()),
    )


@dataclass(frozen=True)
class SourceBullet:
    """A source as the verdict card lists it. Its quote is shown once on the page: in its row of
    the evidence table when that row is shown (`evidence_id`), else here (`excerpt`)."""

    publisher: str
    url: str
    title: str
    stance: str
    excerpt: str
    evidence_id: int | None


def _bullets(sources: Any, *, shown: list[Evidence], limit: int) -> list[SourceBullet]:
    """Each source with the shown row it was read from: the row of its address and stance,
    else the first row of its address."""
    by_url: dict[str, int] = {}
    by_url_stance: dict[tuple[str, str], int] = {}
    for row in shown:
        by_url.setdefault(row.url, row.pk)
        by_url_stance.setdefault((row.url, row.stance), row.pk)
    bullets = []
    for source in (sources or [])[:limit]:
        if not isinstance(source, dict):
            continue
        url, stance = str(source.get("url") or ""), str(source.get("stance") or "")
        bullets.append(
            SourceBullet(
                publisher=str(source.get("publisher") or ""),
                url=url,
                title=str(source.get("title") or ""),
                stance=stance,
                excerpt=str(source.get("excerpt") or ""),
                evidence_id=by_url_stance.get((url, stance), by_url.get(url)),
            )
        )
    return bullets


def _point_at_table(runs: list[TimelineRun], shown: set[int]) -> None:
    """An evidence step whose row the table shows points at that row, not repeating its quote."""
    for run in runs:
        for entry in run.entries:
            if entry.kind == EventKind.EVIDENCE:
                entry.data["in_table"] = entry.data.get("evidence_id") in shown


@dataclass(frozen=True)
class ClaimPage:
    """Everything the claim page shows, loaded with a fixed number of queries."""

    claim: Claim
    runs: list[TimelineRun]
    last_sequence: int
    totals: AgreementBars
    evidence: list[Evidence]
    """The evidence shown: each statement once, each side's best rows, every row with no side."""
    verdict: Verdict | None
    proof_html: SafeString
    earlier_verdicts: list[Verdict]
    overrides: list[Override]
    fact_checks: list[FactCheckMatch]
    also_reported_by: list[Claim]
    summary: str = ""
    comments: list[Comment] = field(default_factory=list)
    changes: RunChanges | None = None
    copies: int = 0
    """Rows of the run that repeat a statement shown (kept, not shown)."""
    beyond_top: int = 0
    """Rows of a side below its best `max_per_side` (kept, neither shown nor weighed)."""
    max_per_side: int = 0
    entities: list[Entity] = field(default_factory=list)
    """Who and what the claim names, as searched and compared."""
    progress: Progress | None = None
    """While the claim is being checked: its step and what it is doing."""
    support_bullets: list[SourceBullet] = field(default_factory=list)
    """The verdict's counted sources, as its card lists them."""
    background_bullets: list[SourceBullet] = field(default_factory=list)
    """Pages read that took no side, as the verdict card lists them."""
    card: VerdictCard | None = None
    """Whose outcome the verdict card leads with: ClaimCheck's proposal or an editor's."""
    counting: Counting | None = None
    """The shown rows as the decision weighs them: whether and why each counted."""

    weighed_rows: dict[int, str] = field(default_factory=dict)
    """Rows the verdict's weighed proposal read, with how (`weighed_rows.weighed_words`)."""
    row_steps: dict[int, int] = field(default_factory=dict)
    """Each evidence row against the sequence of the step that reports it."""
    checked_before: CheckedBefore | None = None
    """An earlier claim saying the same, with an editor's confirmed verdict."""
    similar: list[SimilarClaim] = field(default_factory=list)
    """Other claims that say the same or are related, best first."""

    @property
    def evidence_counts(self) -> list[tuple[Evidence, RowCount, str, int]]:
        """Each shown row with its count, how the proposal weighed it and the step that reports
        it, for the table. While the claim is checked, a row whose step is not on the timeline
        yet waits for it, so that the table never runs ahead of the steps and counts shown."""
        return [row for row in self._rows_with_counts() if row[0].about_claim]

    @property
    def other_event_rows(self) -> list[tuple[Evidence, RowCount, str, int]]:
        """Rows read that are about another event, party or product: listed apart from the
        evidence, collapsed, never counted."""
        return [row for row in self._rows_with_counts() if not row[0].about_claim]

    def _rows_with_counts(self) -> list[tuple[Evidence, RowCount, str, int]]:
        rows = self.counting.shown_with_counts() if self.counting else []
        running = not self.claim.is_terminal
        return [
            (row, count, self.weighed_rows.get(row.pk, ""), self.row_steps.get(row.pk, 0))
            for row, count in rows
            if not running or row.pk in self.row_steps
        ]

    @property
    def last_step(self) -> TimelineEntry | None:
        """The current run's latest step: the status bar shows what it carries."""
        return self.runs[0].entries[-1] if self.runs and self.runs[0].entries else None

    @property
    def counters(self) -> dict[str, int]:
        """The run's queries, pages read and evidence as of its latest step."""
        step = self.last_step
        if step is not None:
            return step.counts
        claim = self.claim
        return (
            {"queries": 0, "pages": 0, "evidence": 0}
            if not claim.is_terminal
            else {
                "queries": claim.queries_used,
                "pages": claim.crawls_used,
                "evidence": claim.evidence_count,
            }
        )

    @property
    def counting_differs(self) -> bool:
        """The rows weighed today do not give the verdict's totals: the registry or the
        settings changed since it was decided."""
        verdict, counting = self.verdict, self.counting
        if verdict is None or counting is None:
            return False
        return not counting.agrees_with(support=verdict.support_total, refute=verdict.refute_total)


def shown_proof(verdict: Verdict, overrides: list[Override]) -> str:
    """The verdict's proof with the latest override of it in its lead."""
    latest = next((o for o in overrides if o.verdict_id == verdict.pk), None)
    return proof_as_shown(markdown_text=verdict.proof_markdown, override=latest)


def _proof_html(verdict: Verdict | None, card: VerdictCard | None) -> SafeString:
    """ClaimCheck's proof, shown under its proposal (the editor's outcome leads the card)."""
    if verdict is None or card is None:
        return SafeString("")
    shown = proposed_proof(markdown_text=verdict.proof_markdown, card=card)
    # render_proof sanitizes (nh3) after escaping raw HTML; its output is the one thing the
    # page marks safe.
    return mark_safe(render_proof(shown))  # noqa: S308


def claim_page(*, claim: Claim, full: bool = True) -> ClaimPage:
    """The claim page's data. `full` is False while the claim is still running: the poll then
    skips the parts that only show once there is a verdict."""
    events = list(claim.events.order_by("sequence"))
    stored = dict(claim.evidence.values_list("pk", "created_at"))
    counting = claim_counting(claim=claim)
    evidence = counting.shown
    verdicts: list[Verdict] = []
    overrides: list[Override] = []
    fact_checks: list[FactCheckMatch] = []
    others: list[Claim] = []
    comments: list[Comment] = []
    similar: list[SimilarClaim] = []
    if full:
        similar = similar_to(claim)
        verdicts = list(claim.verdicts.order_by("-run_number", "-decided_at"))
        overrides = list(
            Override.objects.filter(verdict__claim=claim)
            .select_related("editor", "verdict")
            .order_by("-at", "-id")
        )
        fact_checks = list(claim.fact_checks.all())
        others = also_reported_by(claim=claim)
        comments = list(claim.comments.select_related("author"))
    verdict = verdicts[0] if verdicts and verdicts[0].run_number == claim.run_number else None
    card = (
        None
        if verdict is None
        else verdict_card(claim=claim, verdict=verdict, overrides=overrides, events=events)
    )
    runs = timeline(events=events, stored=stored)
    _point_at_table(runs, {row.pk for row in evidence})
    counted = {row.url for row, count in counting.shown_with_counts() if count.counted}
    sources = (verdict.sources or []) if verdict is not None else []
    # The Evidence bullets are what counted: a counted verdict's sources all did; of a weighed
    # or undecided one's, a source that did not count is background.
    whole = verdict is not None and verdict.reason in ("sufficient", "conflicting")
    sided = [s for s in sources if isinstance(s, dict) and (whole or s.get("url") in counted)]
    aside = [s for s in sources if isinstance(s, dict) and s not in sided]
    return ClaimPage(
        claim=claim,
        runs=runs,
        last_sequence=events[-1].sequence if events else 0,
        totals=latest_totals(claim=claim, events=events),
        evidence=evidence,
        verdict=verdict,
        proof_html=_proof_html(verdict, card),
        earlier_verdicts=[v for v in verdicts if v is not verdict],
        overrides=overrides,
        fact_checks=fact_checks,
        also_reported_by=others,
        summary=""
        if verdict is None
        else verdict_summary(
            outcome=verdict.outcome,
            reason=verdict.reason,
            sources=sources,
            lean=verdict.lean,
            counted_urls=counted,
        ),
        comments=comments,
        changes=_changes(verdict, verdicts),
        copies=counting.copies,
        beyond_top=counting.beyond_top,
        max_per_side=get_config().retention.max_per_side,
        entities=extract_entities(claim.text, language=claim.language) if full else [],
        progress=None if claim.is_terminal else progress_of(kinds=[event.kind for event in events]),
        support_bullets=_bullets(sided, shown=evidence, limit=5),
        background_bullets=[]
        if verdict is None
        else _bullets([*aside, *(verdict.unsided or [])], shown=evidence, limit=5),
        card=card,
        counting=counting,
        weighed_rows={} if verdict is None else weighed_words(verdict.proposal, evidence),
        row_steps=reporting_steps(stored=stored, events=events),
        similar=similar,
        checked_before=checked_before(
            claim=claim, proposed=verdict.outcome if verdict is not None else None, similar=similar
        )
        if full
        else None,
    )


def _changes(verdict: Verdict | None, verdicts: list[Verdict]) -> RunChanges | None:
    """Against the latest earlier run that reached a verdict."""
    if verdict is None:
        return None
    previous = next((v for v in verdicts if v.run_number < verdict.run_number), None)
    return None if previous is None else run_changes(current=verdict, previous=previous)
