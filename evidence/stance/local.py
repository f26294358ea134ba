"""The reading done on this machine, with no LLM: each candidate sentence (a sentence, a question
with its Yes/No answer, a rumour with its debunk) is read by the fine-tuned model and by the
lexical rules (scorer.py), and the two readings are combined. Quotes are always page text."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from evidence.dates import find_text_dates
from evidence.models import CONFIDENCE_RANK, Confidence, Method, Stance
from evidence.rerank import ScoredChunk, cosine_to_first
from evidence.stance.attribution import attributed, debunk_cues
from evidence.stance.combine import combined, from_model, leans_refute, leans_support
from evidence.stance.model import get as loaded_stance_model
from evidence.stance.model import read_where_it_decides
from evidence.stance.scorer import (
    Answered,
    ClaimSignals,
    Judgement,
    answered,
    judge,
    judge_answer,
)
from evidence.stance.signals import next_sentence, sentence_spans
from evidence.stance.types import ClaimContext, Finding

_STANCE_ORDER = {Stance.REFUTE: 0, Stance.SUPPORT: 0, Stance.NEUTRAL: 1}


def _reference(published: datetime | date | None) -> date | None:
    if isinstance(published, datetime):
        return published.date()
    return published


def score_page(
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
    candidates = [_candidates(page_text, span, signals) for spans in per_chunk for span in spans]
    judged = iter(_judge(signals, page_text, [c for group in candidates for c in group], reference))
    by_span = {group[0].span: [next(judged) for _ in group] for group in candidates}

    method = Method.MODEL if loaded_stance_model() is not None else Method.RERANK

    findings: list[Finding] = []
    seen: set[str] = set()
    for scored, spans in zip(chunks, per_chunk, strict=True):
        best: tuple[tuple[int, int], Judgement] | None = None
        for span in spans:
            for candidate in by_span[span]:
                if candidate is None:
                    continue
                if best is None or _better(candidate[1], best[1]):
                    best = candidate
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
                method=method,
                event_precision=precision,
            )
        )
    return findings


@dataclass(frozen=True)
class _Candidate:
    """A stretch of text to judge: a sentence, a question with the "Yes"/"No" that answers it,
    or a repeated rumour with the sentence that debunks it."""

    span: tuple[int, int]
    kind: str  # "sentence", "answer" or "debunk"
    answer: Answered | None = None


def _candidates(text: str, span: tuple[int, int], signals: ClaimSignals) -> list[_Candidate]:
    found = [_Candidate(span, "sentence")]
    answer = _answered_question(text, span)
    if answer is not None:
        found.append(_Candidate(answer[0], "answer", answer[1]))
    debunk = _debunk_span(text, span, signals)
    if debunk is not None:
        found.append(_Candidate(debunk, "debunk"))
    return found


def _judge(
    signals: ClaimSignals, text: str, candidates: list[_Candidate], reference: date | None
) -> list[tuple[tuple[int, int], Judgement] | None]:
    """Each candidate judged, in order (None for one that is not read at all): by the lexical
    scorer, and, when the stance model loads, by the model with the lexical scorer's precise
    rules kept over it (`combine.combined`)."""
    if not candidates:
        return []
    texts = [text[c.span[0] : c.span[1]] for c in candidates]
    lexical = _lexical(signals, candidates, texts, reference)
    model = loaded_stance_model()
    if model is None:
        return [
            None if c.kind == "debunk" and j.stance != Stance.REFUTE else (c.span, j)
            for c, j in zip(candidates, lexical, strict=True)
        ]  # read lexically, a debunk counts only as a refutation
    readings = read_where_it_decides(signals.undated or signals.text, texts) or []
    return [
        (
            c.span,
            combined(
                j,
                from_model(signals, passage, reading, reference),
                refute_lean=leans_refute(signals, passage, reading),
                support_lean=leans_support(signals, passage, reading),
                second=reading.fast,
            ),
        )
        for c, j, passage, reading in zip(candidates, lexical, texts, readings, strict=True)
    ]


def judge_sentences(claim: ClaimContext, sentences: list[str]) -> list[Judgement]:
    """Each sentence judged on its own as a page's sentence is (the benchmark reads this way)."""
    signals = ClaimSignals.of(claim.text, claim.timeframe_start, claim.timeframe_end)
    text = "\n".join(sentences)
    candidates, start = [], 0
    for sentence in sentences:
        candidates.append(_Candidate((start, start + len(sentence)), "sentence"))
        start += len(sentence) + 1
    return [judged[1] for judged in _judge(signals, text, candidates, None) if judged]


def _lexical(
    signals: ClaimSignals, candidates: list[_Candidate], texts: list[str], reference: date | None
) -> list[Judgement]:
    # This machine's reader uses this machine's embedder, even with an LLM embedding model
    # configured: it reads snippets, and the pages the LLM failed on, and must not depend on
    # (or pay again) the server that failed.
    cosines = cosine_to_first([signals.text, *texts], offline=True)
    judged = []
    for index, candidate in enumerate(candidates):
        if candidate.kind == "answer" and candidate.answer is not None:
            question_cosines = cosine_to_first(
                [signals.text, candidate.answer.question], offline=True
            )
            judged.append(
                judge_answer(
                    signals,
                    candidate.answer,
                    cosine=question_cosines[0] if question_cosines else None,
                    reference=reference,
                )
            )
        else:
            cosine = cosines[index] if cosines is not None else None
            judged.append(judge(signals, texts[index], cosine=cosine, reference=reference))
    return judged


_BARE_ANSWER = len("Yes, indeed.")


def _answered_question(
    page_text: str, span: tuple[int, int]
) -> tuple[tuple[int, int], Answered] | None:
    """A sentence that answers "Yes" or "No" to the question on the line just above it; the
    span runs from the question to the answer, which together make one statement."""
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
    line = page_text[line_start:line_end]
    return (line_start + len(line) - len(line.lstrip()), end), answer


def _debunk_span(text: str, span: tuple[int, int], signals: ClaimSignals) -> tuple[int, int] | None:
    """A sentence that repeats a rumour ("A viral post claims that ...") followed by one that
    debunks it ("This is false."): the span runs over both."""
    start, end = span
    if not attributed(text[start:end]):
        return None
    following = next_sentence(text, end)
    if following is None:
        return None
    if not debunk_cues(text[following[0] : following[1]]) - signals.debunk_cues:
        return None
    return start, following[1]


def _better(candidate: Judgement, current: Judgement) -> bool:
    """A decided sentence beats a neutral one; among decided ones the reading the reader is
    surer of wins (only a sure one counts toward a verdict), then the sentence more about the
    claim (a refutation scores below a support of the same relevance, so the score alone would
    let a loosely related support hide a closely related refutation); then the score."""

    def rank(judgement: Judgement) -> tuple[int, int, float, float]:
        return (
            _STANCE_ORDER[Stance(judgement.stance)],
            -CONFIDENCE_RANK[judgement.confidence],
            -judgement.relevance,
            -judgement.score,
        )

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
    candidates = [
        c for span in spans for c in _candidates(text, span, signals) if c.kind != "answer"
    ]
    best: tuple[tuple[int, int], Judgement] | None = None
    for candidate in _judge(signals, text, candidates, _reference(published)):
        if candidate is None:
            continue
        if best is None or _better(candidate[1], best[1]):
            best = candidate
    if best is None:
        return None
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
