"""The reading done on this machine, with no LLM: each candidate sentence (a sentence, a question
with its Yes/No answer, a rumour with its debunk) is read by the fine-tuned model and by the
lexical rules (scorer.py), and the two readings are combined. Quotes are always page text."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime

from evidence.dates import find_text_dates
from evidence.models import CONFIDENCE_RANK, Confidence, Method, Stance
from evidence.rerank import ScoredChunk, cosine_to_first
from evidence.stance.attribution import attributed, debunk_cues
from evidence.stance.model import Reading, read_where_it_decides
from evidence.stance.model import deciding as deciding_model
from evidence.stance.model import get as loaded_stance_model
from evidence.stance.scorer import (
    RELEVANT,
    Answered,
    ClaimSignals,
    Judgement,
    answered,
    event_mention,
    is_question,
    judge,
    judge_answer,
    placed_inside,
)
from evidence.stance.signals import names_all_in, next_sentence, sentence_spans
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
    rules kept over it (`_combined`)."""
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
            _combined(
                j,
                _from_model(signals, passage, reading, reference),
                leans_refute=_leans_refute(signals, passage, reading),
            ),
        )
        for c, j, passage, reading in zip(candidates, lexical, texts, readings, strict=True)
    ]


# How sure the model must be that a sentence is about the claim (1 - P(neutral)) for its lean
# to a refutation to be read at all where its likeliest label is "neutral".
LEAN_ABOUT = 0.5


def _leans_refute(signals: ClaimSignals, passage: str, reading: Reading) -> float:
    """P(refute) where the model's likeliest label is "neutral" but the sentence is about the
    claim (neutral under LEAN_ABOUT) and names all the claim's names, and a refutation is its
    likelier side: the model half-reads a contradiction ("draws 17 million viewers" against
    "128.4 million viewers"; "does not combine" against "began to combine"). Else 0."""
    p = reading.probabilities
    if reading.stance != Stance.NEUTRAL or p.get(Stance.NEUTRAL, 1.0) >= LEAN_ABOUT:
        return 0.0
    if p.get(Stance.REFUTE, 0.0) <= p.get(Stance.SUPPORT, 0.0) or is_question(passage):
        return 0.0
    return p[Stance.REFUTE] if names_all_in(signals.names, passage) else 0.0


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


def _combined(lexical: Judgement, modelled: Judgement, *, leans_refute: float = 0.0) -> Judgement:
    """The model reads paraphrase far better than word overlap can, but a small model is
    unreliable with numbers, negation scope, opposite verbs and reported speech, where the
    lexical rules are exact. So the rules veto and never invent: a contradiction they find
    (another number or share, a negation of the claim's own words, an antonym, a count of
    nothing, a debunk, an event outside the timeframe) stops a support from counting, and a
    refutation stands only where the model itself reads one, in a sentence about the claim. A
    rumour repeated without a debunk asserts nothing; the negated rest of a whole agrees, and so
    does the claim's number written otherwise; and a reading either way needs a sentence that
    is about the claim at all (its words or its meaning), not one about a like event of other
    parties. Everything else is the model's reading, and a support the model only leans to
    counts when the lexical scorer is sure of it too. Where the model's likeliest label is
    "neutral" but it leans to a refutation over a support (`leans_refute`) and a rule finds the
    contradiction, in a sentence about the claim, the two agree on a refutation too weak to
    count alone: a low-confidence one, as sure as the model was."""
    if lexical.stance == Stance.REFUTE and modelled.stance != Stance.REFUTE:
        vetoes = [r for r in lexical.reasons if r in _VETOES]
        contradictions = [r for r in vetoes if r != "date_outside"]
        if (
            leans_refute > 0
            and contradictions
            and "date_outside" not in lexical.reasons
            and "attributed" not in lexical.reasons
            and lexical.relevance >= RELEVANT
        ):
            return replace(
                modelled,
                stance=Stance.REFUTE,
                score=round(leans_refute, 4),
                confidence=Confidence.LOW,
                reasons=[*modelled.reasons, "lean", *contradictions],
            )
        return replace(
            modelled,
            stance=Stance.NEUTRAL,
            confidence=Confidence.LOW,
            reasons=[*modelled.reasons, "veto", *vetoes],
        )
    if "attributed" in lexical.reasons or (
        modelled.stance != Stance.NEUTRAL and lexical.relevance < RELEVANT
    ):
        return replace(
            modelled,
            stance=Stance.NEUTRAL,
            confidence=Confidence.LOW,
            reasons=[
                *modelled.reasons,
                "attributed" if "attributed" in lexical.reasons else "off_topic",
            ],
        )
    if modelled.stance == Stance.REFUTE:
        agreeing = [r for r in lexical.reasons if r in _VETOES and r not in modelled.reasons]
        if (
            lexical.stance == Stance.REFUTE
            and modelled.confidence == Confidence.LOW
            and modelled.score >= MODEL_AGREE
            and (agreeing or "date_outside" not in modelled.reasons)
        ):
            # The model leans to a refutation and a rule finds the contradiction it reads
            # (another number, a negated event, an opposite verb): two readers that fail in
            # different ways agreeing. A refutation the date rule made of the model's reading
            # is that one rule, not a second reader: it agrees only with another rule.
            return replace(
                modelled,
                confidence=Confidence.MEDIUM,
                reasons=[*modelled.reasons, *agreeing, "agree"],
            )
        return replace(modelled, reasons=[*modelled.reasons, *agreeing])
    if lexical.stance == Stance.SUPPORT and "complement" in lexical.reasons:
        return replace(lexical, reasons=[*lexical.reasons, "rule"])
    if (
        modelled.stance != Stance.SUPPORT
        and "number_rounded" in lexical.reasons
        and "another_event" not in modelled.reasons
    ):
        # "6.96 million" against "approximately 7 million": a model reads a number written
        # otherwise as another number, or as saying nothing of the claim's; the lexical scorer
        # compares the values.
        return replace(lexical, reasons=[*lexical.reasons, "rule"])
    if (
        modelled.stance == lexical.stance == Stance.SUPPORT
        and modelled.confidence == Confidence.LOW
        and lexical.confidence == Confidence.HIGH
        and modelled.score >= MODEL_AGREE
    ):
        return replace(modelled, confidence=Confidence.MEDIUM, reasons=[*modelled.reasons, "agree"])
    return modelled


# The lexical contradictions that veto a support (and that a model's refutation may share).
_VETOES = frozenset(
    ("polarity", "refutation_word", "antonym", "number_mismatch", "date_outside", "debunked",
     "answered_no")
)  # fmt: skip


def _from_model(
    signals: ClaimSignals, passage: str, reading: Reading, reference: date | None
) -> Judgement:
    """The model's reading as a judgement. The model sees only the two texts, so two rules
    stay: a question asserts nothing, and an event dated outside the claim's timeframe is the
    claimed event at another time (a refutation) only where the sentence names everything the
    claim names; otherwise it is another event, and says nothing of the claim."""
    mention = event_mention(passage, reference)
    when, source = (mention.when, mention.source) if mention else (None, "")
    precision = mention.precision if mention else "day"
    relevance = 1.0 - reading.probabilities.get(Stance.NEUTRAL, 0.0)
    stance, reasons = reading.stance, ["model"]
    if stance != Stance.NEUTRAL and is_question(passage):
        stance = Stance.NEUTRAL
        reasons.append("question")
    if stance != Stance.NEUTRAL and any(signals.timeframe):
        inside = placed_inside(passage, mention, signals.timeframe, reference)
        if inside is not None:
            when, source, precision = inside.when, inside.source, inside.precision
            reasons.append("date_inside")
        elif mention is not None and names_all_in(signals.names, passage):
            stance = Stance.REFUTE
            reasons.append("date_outside")
        elif mention is not None:
            stance = Stance.NEUTRAL
            reasons.append("another_event")
    if stance == Stance.NEUTRAL:
        return Judgement(
            Stance.NEUTRAL, round(relevance, 4), Confidence.LOW, relevance, when, source, reasons,
            precision,
        )  # fmt: skip
    # A support moved to a refutation by its date is as sure as the model was that the
    # sentence states the claimed event.
    sure = reading.probabilities.get(reading.stance, reading.probability)
    return Judgement(
        stance,
        round(sure, 4),
        model_confidence(sure, reading.stance, model_bars()),
        relevance,
        when,
        source,
        reasons,
        precision,
    )


# How sure the model must be of a reading for it to count toward a verdict (medium) and to be
# high confidence. A model whose card carries bars (chosen on its calibration split: the lowest
# calibrated probability at which its readings on real text were right at least 85% of the time
# for supports, 90% for refutations) uses those; these are the bars of a card without them.
MODEL_MEDIUM: dict[str, float] = {Stance.SUPPORT: 0.9, Stance.REFUTE: 0.95}
MODEL_HIGH = 0.95
# A support the model leans to (at least this sure) that the lexical scorer also reads as a
# high-confidence support: two readers that fail in different ways agreeing.
MODEL_AGREE = 0.5


def model_bars() -> dict[str, float]:
    """The counting bar of each label: the loaded model's own, else MODEL_MEDIUM."""
    model = deciding_model()
    bars: dict[str, float] = dict(MODEL_MEDIUM)
    if model is not None and model.bars:
        bars.update({Stance(label): float(bar) for label, bar in model.bars.items()})
    return bars


def model_confidence(
    probability: float, stance: str = Stance.SUPPORT, bars: dict[str, float] | None = None
) -> str:
    medium = (bars or MODEL_MEDIUM)[Stance(stance)]
    if probability >= max(MODEL_HIGH, medium):
        return Confidence.HIGH
    if probability >= medium:
        return Confidence.MEDIUM
    return Confidence.LOW


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
