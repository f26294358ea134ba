"""How the strong model's reading of a sentence and the lexical rules' reading of it combine
into one judgement: the model reads paraphrase, the rules are exact with numbers, negation,
opposite verbs and dates, so the rules veto and never invent (`combined`). Also how sure the
model must be for a reading to count (`model_bars`, `model_confidence`)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from evidence.models import Confidence, Stance
from evidence.stance.model import Reading
from evidence.stance.model import deciding as deciding_model
from evidence.stance.scorer import (
    RELEVANT,
    ClaimSignals,
    Judgement,
    event_mention,
    is_question,
    placed_inside,
)
from evidence.stance.signals import names_all_in

# How sure the model must be that a sentence is about the claim (1 - P(neutral)) for its lean
# to a refutation to be read at all where its likeliest label is "neutral".
LEAN_ABOUT = 0.5


def leans_refute(signals: ClaimSignals, passage: str, reading: Reading) -> float:
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


# How sure the model must be of a support, where its likeliest label is "neutral", for its lean
# to be read, and how many times likelier than a refutation that support must be.
SUPPORT_LEAN = 0.4
SUPPORT_OVER_REFUTE = 4.0


def leans_support(signals: ClaimSignals, passage: str, reading: Reading) -> float:
    """P(support) where the model's likeliest label is "neutral" but it all but splits between
    neutral and support (at least SUPPORT_LEAN, and SUPPORT_OVER_REFUTE times a refutation), in
    a sentence naming all the claim's names: the model half-reads a restatement in other words
    ("adopted the Battery Passport Regulation" for "the Battery Passport rules were approved").
    Else 0."""
    p = reading.probabilities
    if reading.stance != Stance.NEUTRAL or is_question(passage):
        return 0.0
    support = p.get(Stance.SUPPORT, 0.0)
    if support < SUPPORT_LEAN or support < SUPPORT_OVER_REFUTE * p.get(Stance.REFUTE, 0.0):
        return 0.0
    return support if names_all_in(signals.names, passage) else 0.0


def combined(
    lexical: Judgement,
    modelled: Judgement,
    *,
    refute_lean: float = 0.0,
    support_lean: float = 0.0,
    second: str | None = None,
) -> Judgement:
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
    "neutral" but it leans to a refutation over a support (`refute_lean`, from `leans_refute`)
    and a rule finds the contradiction, in a sentence about the claim, the two agree on a
    refutation too weak to count alone: a low-confidence one, as sure as the model was. Where it
    all but splits between neutral and a support (`support_lean`, from `leans_support`) and the
    lexical scorer is sure of the support with nothing against it, the two agree on a support.
    A refutation of a sentence that only states part of the claim (every word of it the
    claim's, nothing negated) is the reader taking what the sentence leaves out for a
    contradiction: it says nothing either way. Where a second model, trained apart, read the
    sentence too (`second`: the fast reader's likeliest label) and reads a refutation as well,
    the strong model's refutation counts from SECOND_AGREE, with a rule's agreement or without:
    two readers agreeing. Where it reads none, a refutation counts only as it did without it.
    A support the strong model reads below its bar counts the same way, from SECOND_AGREE, where
    the second model reads a support too and no rule finds a contradiction."""
    if lexical.stance == Stance.REFUTE and modelled.stance != Stance.REFUTE:
        vetoes = [r for r in lexical.reasons if r in VETOES]
        if (
            refute_lean > 0
            and vetoes
            and "date_outside" not in vetoes
            and "attributed" not in lexical.reasons
            and lexical.relevance >= RELEVANT
        ):
            return replace(
                modelled,
                stance=Stance.REFUTE,
                score=round(refute_lean, 4),
                confidence=Confidence.LOW,
                reasons=[*modelled.reasons, "lean", *vetoes],
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
    if modelled.stance == Stance.REFUTE and "part" in lexical.reasons:
        # Every word of the sentence is the claim's and it negates none of them: it states part
        # of the claim, and what it leaves out is not a contradiction.
        return replace(
            modelled,
            stance=Stance.NEUTRAL,
            score=round(lexical.relevance, 4),
            confidence=Confidence.LOW,
            reasons=[*modelled.reasons, "partial"],
        )
    if modelled.stance == Stance.REFUTE:
        agreeing = [r for r in lexical.reasons if r in VETOES and r not in modelled.reasons]
        if second_agrees(modelled, second) and "date_outside" not in modelled.reasons:
            # Both models read a refutation of a sentence about the claim that states more than
            # part of it: two readers trained apart agreeing.
            return replace(
                modelled,
                confidence=Confidence.MEDIUM,
                reasons=[*modelled.reasons, *agreeing, "second", "agree"],
            )
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
    if (
        support_lean > 0
        and lexical.stance == Stance.SUPPORT
        and lexical.confidence == Confidence.HIGH
        and not VETOES & set(lexical.reasons)
    ):
        # The model all but reads a support and the lexical scorer is sure of it, with nothing
        # against it: two readers that fail in different ways agreeing.
        return replace(
            modelled,
            stance=Stance.SUPPORT,
            score=round(support_lean, 4),
            confidence=Confidence.MEDIUM,
            reasons=[*modelled.reasons, "lean", "agree"],
        )
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
    if (
        modelled.stance == Stance.SUPPORT
        and second_agrees(modelled, second)
        and not VETOES & set(lexical.reasons)
    ):
        # Both models read a support and no rule finds a contradiction: two readers trained
        # apart agreeing, as for a refutation.
        return replace(
            modelled, confidence=Confidence.MEDIUM, reasons=[*modelled.reasons, "second", "agree"]
        )
    return modelled


# The lexical contradictions that veto a support (and that a model's refutation may share).
VETOES = frozenset(
    ("polarity", "refutation_word", "antonym", "number_mismatch", "date_outside", "debunked",
     "answered_no", "name_swap")
)  # fmt: skip


def from_model(
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
# How sure the strong model must be of a refutation or a support the fast model also reads for
# the two to agree on one that counts (chosen on the calibration pairs, `bench/counting_bars.py`).
SECOND_AGREE = 0.6


def second_agrees(modelled: Judgement, second: str | None) -> bool:
    """Whether the second reader's likeliest label is the strong model's own, of a reading below
    the strong model's bar that it is at least SECOND_AGREE sure of."""
    return (
        modelled.stance == second
        and modelled.confidence == Confidence.LOW
        and modelled.score >= SECOND_AGREE
    )


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
