"""Findings: what a page (or a search snippet) says about the claim, with a quote to show it.

With an LLM configured, one JSON call per page reads the kept chunks; without one, the
deterministic scorer (scorer.py) judges each chunk's sentences. Either way every quote is text
that occurs in the page, and the event date it gives is kept apart from the page's own date.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date, datetime

from claimcheck import llm
from evidence.dates import find_text_dates
from evidence.models import Confidence, Method, Stance
from evidence.rerank import ScoredChunk, cosine_to_first
from evidence.stance import attribution, reader
from evidence.stance.scorer import ClaimSignals, Judgement, answered, judge, judge_answer
from evidence.stance.signals import next_sentence, sentence_spans

logger = logging.getLogger(__name__)

__all__ = ["ClaimContext", "Finding", "assess_page", "assess_snippet"]

_STANCE_ORDER = {Stance.REFUTE: 0, Stance.SUPPORT: 0, Stance.NEUTRAL: 1}


@dataclass(frozen=True)
class ClaimContext:
    text: str
    timeframe_start: datetime | None = None
    timeframe_end: datetime | None = None


@dataclass(frozen=True)
class Finding:
    quote: str
    stance: str
    score: float
    confidence: str
    event_at: date | None
    date_source: str
    method: str
    # "month" when the text only gives a month ("in March 2024"); event_at is then its 1st.
    event_precision: str = "day"


def _reference(published: datetime | date | None) -> date | None:
    if isinstance(published, datetime):
        return published.date()
    return published


def assess_page(
    *,
    claim: ClaimContext,
    page_text: str,
    title: str,
    chunks: list[ScoredChunk],
    published_at: datetime | date | None,
) -> list[Finding]:
    """One finding per kept chunk (fewer when chunks share their best sentence)."""
    if not chunks or not page_text:
        return []
    if llm.is_enabled():
        return reader.read_page(
            claim=claim, page_text=page_text, title=title, chunks=chunks, published_at=published_at
        )
    return _score_page(claim=claim, page_text=page_text, chunks=chunks, published_at=published_at)


def _score_page(
    *,
    claim: ClaimContext,
    page_text: str,
    chunks: list[ScoredChunk],
    published_at: datetime | date | None,
) -> list[Finding]:
    signals = ClaimSignals.of(claim.text, claim.timeframe_start, claim.timeframe_end)
    reference = _reference(published_at)
    per_chunk: list[list[tuple[int, int]]] = []
    for scored in chunks:
        offset = scored.chunk.start
        spans = sentence_spans(page_text[offset : scored.chunk.end])
        per_chunk.append([(offset + s, offset + e) for s, e in spans])
    flat = [span for spans in per_chunk for span in spans]
    cosines = cosine_to_first([claim.text, *(page_text[s:e] for s, e in flat)])
    cosine_of = dict(zip(flat, cosines, strict=True)) if cosines is not None else {}

    findings: list[Finding] = []
    seen: set[str] = set()
    for scored, spans in zip(chunks, per_chunk, strict=True):
        best: tuple[tuple[int, int], Judgement] | None = None
        for span in spans:
            verdict = judge(
                signals,
                page_text[span[0] : span[1]],
                cosine=cosine_of.get(span),
                reference=reference,
            )
            if best is None or _better(verdict, best[1]):
                best = (span, verdict)
            answer = _answered_question(page_text, span, signals, reference)
            if answer is not None and (best is None or _better(answer[1], best[1])):
                best = answer
            debunk = _debunked(page_text, span, signals, cosine_of.get(span), reference)
            if debunk is not None and _better(debunk[1], best[1]):
                best = debunk
        if best is None:
            continue
        (start, end), verdict = best
        quote = page_text[start:end]
        if quote in seen:
            continue
        seen.add(quote)
        event_at, date_source = verdict.event_at, verdict.date_source
        precision = verdict.event_precision
        if event_at is None:
            event_at, date_source, precision = _nearby_event(page_text, scored, start, reference)
        findings.append(
            Finding(
                quote=quote,
                stance=verdict.stance,
                score=verdict.score,
                confidence=verdict.confidence,
                event_at=event_at,
                date_source=date_source,
                method=Method.RERANK,
                event_precision=precision,
            )
        )
    return findings


_BARE_ANSWER = len("Yes, indeed.")


def _answered_question(
    page_text: str, span: tuple[int, int], signals: ClaimSignals, reference: date | None
) -> tuple[tuple[int, int], Judgement] | None:
    """A sentence that answers "Yes" or "No" to the question on the line just above it, judged
    as the statement the two make together; the quote runs from the question to the answer."""
    start, end = span
    answer_start = page_text.rfind("\n", 0, start) + 1
    if answer_start <= 1 or len(page_text[answer_start:start].strip()) > _BARE_ANSWER:
        return None  # the sentence neither opens its line nor follows a bare "Yes." there
    line_end = answer_start - 1
    line_start = page_text.rfind("\n", 0, line_end) + 1
    question = page_text[line_start:line_end].strip()
    answer = answered(question, page_text[answer_start:end])
    if answer is None:
        return None
    cosines = cosine_to_first([signals.text, answer.question])
    verdict = judge_answer(
        signals, answer, cosine=cosines[0] if cosines else None, reference=reference
    )
    line = page_text[line_start:line_end]
    return (line_start + len(line) - len(line.lstrip()), end), verdict


def _debunked(
    text: str,
    span: tuple[int, int],
    signals: ClaimSignals,
    cosine: float | None,
    reference: date | None,
) -> tuple[tuple[int, int], Judgement] | None:
    """A sentence that repeats a rumour ("A viral post claims that ...") followed by one that
    debunks it ("This is false."), judged together as a refutation; the quote runs over both."""
    start, end = span
    if not attribution.attributed(text[start:end]):
        return None
    following = next_sentence(text, end)
    if following is None:
        return None
    if not attribution.debunk_cues(text[following[0] : following[1]]) - signals.debunk_cues:
        return None
    verdict = judge(signals, text[start : following[1]], cosine=cosine, reference=reference)
    if verdict.stance != Stance.REFUTE:
        return None
    return (start, following[1]), verdict


def _better(candidate: Judgement, current: Judgement) -> bool:
    """A decided sentence beats a neutral one; among decided ones the sentence more about the
    claim wins (a refutation scores below a support of the same relevance, so the score alone
    would let a loosely related support hide a closely related refutation); then the score."""

    def rank(judgement: Judgement) -> tuple[int, float, float]:
        return (_STANCE_ORDER[Stance(judgement.stance)], -judgement.relevance, -judgement.score)

    return rank(candidate) < rank(current)


def _nearby_event(
    page_text: str, scored: ScoredChunk, quote_start: int, reference: date | None
) -> tuple[date | None, str, str]:
    """When the quote names no date, the event-phrase date closest to it in its chunk."""
    chunk_text = page_text[scored.chunk.start : scored.chunk.end]
    events = [m for m in find_text_dates(chunk_text, reference=reference) if m.is_event]
    if not events:
        return None, "", "day"
    nearest = min(events, key=lambda m: abs(scored.chunk.start + m.start - quote_start))
    return nearest.when, nearest.source + ":chunk", nearest.precision


def assess_snippet(
    *, claim: ClaimContext, title: str, snippet: str, published: datetime | date | None
) -> Finding | None:
    """The snippet's best sentence judged against the claim; None for an empty snippet.
    Snippets are short and cut mid-sentence, so their confidence never exceeds medium."""
    text = snippet.strip()
    if not text:
        return None
    signals = ClaimSignals.of(claim.text, claim.timeframe_start, claim.timeframe_end)
    spans = sentence_spans(text) or [(0, len(text))]
    cosines = cosine_to_first([claim.text, *(text[s:e] for s, e in spans)])
    reference = _reference(published)
    best: tuple[tuple[int, int], Judgement] | None = None
    for index, span in enumerate(spans):
        verdict = judge(
            signals,
            text[span[0] : span[1]],
            cosine=cosines[index] if cosines is not None else None,
            reference=reference,
        )
        if best is None or _better(verdict, best[1]):
            best = (span, verdict)
        debunk = _debunked(
            text, span, signals, cosines[index] if cosines is not None else None, reference
        )
        if debunk is not None and _better(debunk[1], best[1]):
            best = debunk
    assert best is not None  # spans is never empty
    (start, end), verdict = best
    confidence = Confidence.MEDIUM if verdict.confidence == Confidence.HIGH else verdict.confidence
    return Finding(
        quote=text[start:end],
        stance=verdict.stance,
        score=verdict.score,
        confidence=confidence,
        event_at=verdict.event_at,
        date_source=verdict.date_source,
        method=Method.SNIPPET,
        event_precision=verdict.event_precision,
    )
