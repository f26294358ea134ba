"""The deterministic stance scorer: how far one sentence bears on the claim, and which way.

Relevance is token coverage of the claim blended with embedding cosine. A relevant sentence
refutes when it contradicts the claim: a polarity flip (a negation that governs the claim's
words, not one in a clause about something else, or a refutation word), an antonym of a claim
word, a different number for the same unit, or an event date outside the claim's timeframe.
A sentence that hands the claim to a rumour or a post ("A viral post claims that ...") asserts
nothing unless it, or the sentence after it, debunks it; then it refutes. Otherwise a
sufficiently relevant sentence supports. Hedged sentences lose confidence. The thresholds were
set on half of CLIMATE-FEVER and checked on the other half (bench/stance_bench.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta

from claimcheck.words import tokens
from evidence.dates import DatedMention, find_text_dates
from evidence.models import Confidence, Stance
from evidence.stance.attribution import attributed, debunk_cues, without_debunk_phrases
from evidence.stance.clauses import content_words, governing_negation
from evidence.stance.details import states_part, swapped_name
from evidence.stance.signals import (
    Quantity,
    antonym_clash,
    claim_names,
    hedged,
    number_agreement,
    quantities,
    refutation_words,
)

# Below this relevance a sentence is about something else.
RELEVANT = 0.38
# A sentence this relevant, with nothing against the claim, supports it.
SUPPORTING = 0.42
# Refute signals needed (in the weights below) to call a relevant sentence a refutation.
REFUTING = 0.5
_COVERAGE_SHARE = 0.5

_WEIGHTS = {
    "polarity": 0.6,
    "refutation_word": 0.6,
    "antonym": 0.5,
    "number_mismatch": 0.6,
    "date_outside": 0.6,
    "debunked": 0.6,
    "name_swap": 0.5,
}


@dataclass(frozen=True)
class ClaimSignals:
    text: str
    tokens: frozenset[str]
    # The claim's tokens grouped by word family, as the negation-scope checks compare them.
    words: frozenset[str]
    quantities: list[Quantity]
    negated: bool
    refutation_words: frozenset[str]
    debunk_cues: frozenset[str]
    timeframe: tuple[date | None, date | None]
    names: frozenset[str] = frozenset()
    """The names the claim turns on (`signals.claim_names`)."""
    undated: str = ""
    """The claim without the dates of its timeframe, as a model reads it: the timeframe is
    checked against the sentence's own dates by rule, and a model asked whether "prohibited
    the merger" entails "prohibited the merger on 9 July 2024" answers that it cannot tell."""

    @classmethod
    def of(cls, text: str, start: datetime | None, end: datetime | None) -> ClaimSignals:
        words = frozenset(content_words(text))
        return cls(
            text=text,
            tokens=frozenset(tokens(text)),
            words=words,
            quantities=quantities(text),
            negated=governing_negation(text, words),
            refutation_words=frozenset(refutation_words(text)),
            debunk_cues=frozenset(debunk_cues(text)),
            timeframe=(start.date() if start else None, end.date() if end else None),
            names=claim_names(text),
            undated=undated_claim(text) if (start or end) else text,
        )


_LEAD_IN = re.compile(r"(?:\b(?:on|in|during|by|since|at|as\s+of)\s+)?$", re.IGNORECASE)
_BARE_YEAR = re.compile(r"\s*\b(?:in|during|by|since)\s+(?:the\s+year\s+)?(?:19|20)\d{2}\b", re.I)


def undated_claim(text: str) -> str:
    """The claim with its date phrases and the preposition before each left out ("... was
    prohibited on 9 July 2024" reads "... was prohibited")."""
    kept, end = [], 0
    for mention in sorted(find_text_dates(text, reference=None), key=lambda m: m.start):
        if mention.start < end or text.find(mention.phrase, mention.start) != mention.start:
            continue
        before = text[end : mention.start]
        kept.append(before[: _LEAD_IN.search(before).start()].rstrip())  # type: ignore[union-attr]
        end = mention.start + len(mention.phrase)
    kept.append(text[end:])
    undated = _BARE_YEAR.sub("", " ".join(part for part in kept if part)).strip()
    undated = re.sub(r"\s+([.,;:!?])", r"\1", re.sub(r"\s{2,}", " ", undated))
    return undated.lstrip(" ,;:") or text


@dataclass(frozen=True)
class Judgement:
    stance: str
    score: float
    confidence: str
    relevance: float
    event_at: date | None = None
    date_source: str = ""
    reasons: list[str] = field(default_factory=list)
    event_precision: str = "day"


def coverage(claim: ClaimSignals, passage: str) -> float:
    if not claim.tokens:
        return 0.0
    return len(claim.tokens & set(tokens(passage))) / len(claim.tokens)


def relevance(claim: ClaimSignals, passage: str, cosine: float | None) -> float:
    share = coverage(claim, passage)
    if cosine is None:
        return share
    return _COVERAGE_SHARE * share + (1 - _COVERAGE_SHARE) * max(cosine, 0.0)


def _in_timeframe(mention: DatedMention, timeframe: tuple[date | None, date | None]) -> bool:
    return overlaps(mention.when, mention.precision, timeframe)


def overlaps(when: date, precision: str, timeframe: tuple[date | None, date | None]) -> bool:
    """A day must fall inside the timeframe; a month ("in March 2024") need only overlap it."""
    start, end = timeframe
    last = when
    if precision == "month":
        following = date(when.year + when.month // 12, when.month % 12 + 1, 1)
        last = following - timedelta(days=1)
    return (start is None or last >= start) and (end is None or when <= end)


def event_mention(passage: str, reference: date | None) -> DatedMention | None:
    """The date the passage gives for something happening: an event-phrase date first, else
    the only day-precise date it names, else the only date it names at all (a month)."""
    mentions = find_text_dates(passage, reference=reference)
    events = [m for m in mentions if m.is_event]
    if events:
        return events[0]
    days = [m for m in mentions if m.precision == "day"]
    if len({m.when for m in days}) == 1:
        return days[0]
    if not days and len({m.when for m in mentions}) == 1:
        return mentions[0]  # the only date named, a month ("handled 3.1 Mt in March 2024")
    return None


def placed_inside(
    passage: str,
    mention: DatedMention | None,
    timeframe: tuple[date | None, date | None],
    reference: date | None,
) -> DatedMention | None:
    """The date that places the passage's event inside the claim's timeframe, or None. An
    event phrase's date ("approved the levy on 17 September 2024") is the event's, whatever
    else the passage names ("after a vote scheduled for May was pulled"). Any other date may
    not be: a dateline ("November 4, 2024") or the day a figure was reported ("data showed on
    Wednesday") stands beside the period it is about ("rose 4% in May"), so there any date the
    passage names inside the timeframe places it there."""
    if mention is not None and _in_timeframe(mention, timeframe):
        return mention
    if mention is not None and mention.is_event:
        return None
    found = [*find_text_dates(passage, reference=reference), *_bare_months(passage, reference)]
    return next((m for m in found if _in_timeframe(m, timeframe)), None)


_MONTH_NAMES = (
    "January February March April May June July August September October November December"
).split()
_BARE_MONTH = re.compile(
    r"\b(?:in|during|for|since|of)\s+(" + "|".join(_MONTH_NAMES) + r")\b(?!\s*,?\s*\d)"
)


def _bare_months(passage: str, reference: date | None) -> list[DatedMention]:
    """ "rose 4% in May" in a page published in June: the latest such month up to the page's
    own date (a page names past months this way); nothing without a date to count from."""
    if reference is None:
        return []
    found = []
    for match in _BARE_MONTH.finditer(passage):
        month = _MONTH_NAMES.index(match[1]) + 1
        year = reference.year if month <= reference.month else reference.year - 1
        found.append(
            DatedMention(
                when=date(year, month, 1),
                phrase=match[0],
                sentence=passage,
                source="text:month",
                is_event=False,
                precision="month",
                start=match.start(),
            )
        )
    return found


def judge(
    claim: ClaimSignals,
    passage: str,
    *,
    cosine: float | None,
    reference: date | None = None,
    asserted: bool = False,
) -> Judgement:
    """How `passage` bears on the claim. A question asserts nothing and stays neutral, unless
    `asserted` says its proposition was affirmed (a question answered "Yes")."""
    rel = relevance(claim, passage, cosine)
    mention = event_mention(passage, reference)
    when, source = (mention.when, mention.source) if mention else (None, "")
    precision = mention.precision if mention else "day"
    reasons: list[str] = []
    against = 0.0
    support_bonus = 0.0

    # A rumour repeated to be knocked down: its content is read without the debunk phrases, whose
    # "no" or "not" speak of the rumour rather than negate the claim.
    reported = attributed(passage)
    content = without_debunk_phrases(passage) if reported else passage
    agreement = number_agreement(claim.quantities, quantities(content))
    flipped = governing_negation(content, claim.words) != claim.negated
    opposite = bool(antonym_clash(claim.text, content))
    if flipped and opposite:
        # "Did not approve" against "prohibited": the negation of the claim word's opposite
        # says what the claim says.
        reasons.append("negated_opposite")
    elif flipped:
        # "A third could not be attributed" against "two-thirds were": the negation is of the
        # rest of the whole, which agrees with the claim.
        reasons.append("complement" if agreement.complements else "polarity")
    refuting = refutation_words(passage) - claim.refutation_words
    if refuting and not reported:
        reasons.append("refutation_word")
    if opposite and not flipped:
        reasons.append("antonym")
    if agreement.mismatches and not agreement.matches:
        reasons.append("number_mismatch")
    elif agreement.matches:
        support_bonus += 0.1
        reasons.append("number_match")
        if agreement.rounded:
            reasons.append("number_rounded")
    inside = (
        placed_inside(passage, mention, claim.timeframe, reference)
        if any(claim.timeframe)
        else None
    )
    if inside is not None:
        when, source, precision = inside.when, inside.source, inside.precision
        support_bonus += 0.1
        reasons.append("date_inside")
    elif mention is not None and any(claim.timeframe):
        reasons.append("date_outside")
    if swapped_name(claim, content):
        reasons.append("name_swap")
    elif not (_CONTRADICTIONS | {"refutation_word"}) & set(reasons) and states_part(claim, content):
        reasons.append("part")
    if reported:
        reasons = _reported(claim, passage, reasons)
    against = sum(_WEIGHTS.get(reason, 0.0) for reason in reasons)
    is_hedged = hedged(passage)

    if rel < RELEVANT or (is_question(passage) and not asserted) or "attributed" in reasons:
        # A question ("Did the council approve it?") repeats the claim's words while asserting
        # nothing, so however relevant it is, it neither supports nor refutes; nor does a
        # sentence that only reports what a rumour or a post says.
        return Judgement(
            Stance.NEUTRAL, round(rel, 4), Confidence.LOW, rel, when, source, reasons, precision
        )
    if against >= REFUTING:
        score = min(1.0, rel * (0.5 + against / 2))
        stance = Stance.REFUTE
    elif rel + support_bonus >= SUPPORTING:
        score = min(1.0, rel + support_bonus)
        stance = Stance.SUPPORT
    else:
        return Judgement(
            Stance.NEUTRAL, round(rel, 4), Confidence.LOW, rel, when, source, reasons, precision
        )
    confidence = _confidence(score, is_hedged, reasons)
    return Judgement(stance, round(score, 4), confidence, rel, when, source, reasons, precision)


_CONTRADICTIONS = frozenset(("polarity", "antonym", "number_mismatch", "date_outside", "name_swap"))


def _reported(claim: ClaimSignals, passage: str, reasons: list[str]) -> list[str]:
    """The reasons for a passage that hands its content to a rumour or a post. Debunked, it
    refutes the claim it repeats; otherwise it asserts nothing. A debunked version that
    itself contradicts the claim (another number, the opposite polarity) says nothing clear."""
    debunked = bool(debunk_cues(passage) - claim.debunk_cues)
    if debunked and not _CONTRADICTIONS & set(reasons):
        return [*reasons, "debunked"]
    return [*(r for r in reasons if r not in _CONTRADICTIONS), "attributed"]


# English asks a yes / no question by putting the auxiliary first ("Did the council ...",
# "Was the jet shot down"), and an open one with a wh-word followed by an auxiliary ("How much
# has ...", "Who dissolved ...?"). Written questions often lose their question mark (headings,
# search snippets), so the word order counts as well as the mark.
_AUXILIARIES = frozenset(
    "is are was were am do does did has have had can could will would shall should may might "
    "must isn't aren't wasn't weren't don't doesn't didn't hasn't haven't can't won't".split()
)
_WH_WORDS = frozenset("who whom whose what which when where why how".split())


_ANSWER = re.compile(
    r"^(?P<word>yes|no)\b(?!\s+(?:one|longer|doubt|matter|less|more)\b)", re.IGNORECASE
)


@dataclass(frozen=True)
class Answered:
    """A yes / no question and the sentence that answers it, as FAQ and Q&A pages set them out."""

    question: str
    affirmed: bool


def answered(question: str, answer: str) -> Answered | None:
    """The question a sentence answers when it opens with "Yes" or "No" (not "No one", "no
    longer"...) right under a line that asks a yes / no question."""
    match = _ANSWER.match(answer.strip())
    if match is None or not _is_yes_no_question(question):
        return None
    return Answered(question=question.strip(), affirmed=match["word"].lower() == "yes")


def judge_answer(
    claim: ClaimSignals,
    answer: Answered,
    *,
    cosine: float | None,
    reference: date | None = None,
) -> Judgement:
    """An answered question read as the statement it makes: "Yes" asserts the question's
    proposition, so the question is judged as if stated; "No" denies it, so a question that
    would support the claim refutes it. A "No" to a question that already contradicts the
    claim says nothing clear (a double negative) and stays neutral."""
    question = answer.question.rstrip(" ?")
    stated = judge(claim, question, cosine=cosine, reference=reference, asserted=True)
    if answer.affirmed or stated.stance == Stance.NEUTRAL:
        return stated
    if stated.stance == Stance.REFUTE:
        return replace(stated, stance=Stance.NEUTRAL, confidence=Confidence.LOW)
    return replace(stated, stance=Stance.REFUTE, reasons=[*stated.reasons, "answered_no"])


def _is_yes_no_question(text: str) -> bool:
    """A question that opens with its auxiliary ("Did ...", "Is ..."): one "Yes" or "No" answers."""
    words = text.split(None, 1)
    return (
        bool(words)
        and words[0].strip("\"'\u201c\u2018(").lower() in _AUXILIARIES
        and is_question(text)
    )


def is_question(passage: str) -> bool:
    text = passage.strip()
    if text.rstrip(" \"'\u201d)]").endswith("?"):
        return True
    words = [w.strip("\"'\u201c\u2018(").lower() for w in text.split()[:4]]
    if len(words) < 3:
        return False
    if words[0] in _AUXILIARIES:
        return True
    return words[0] in _WH_WORDS and any(w in _AUXILIARIES for w in words[1:4])


def _confidence(score: float, is_hedged: bool, reasons: list[str]) -> str:
    concrete = any(r in reasons for r in ("number_match", "number_mismatch", "date_inside",
                                          "date_outside"))  # fmt: skip
    if is_hedged:
        return Confidence.LOW if score < 0.75 else Confidence.MEDIUM
    if score >= 0.7 and concrete:
        return Confidence.HIGH
    if score >= 0.6:
        return Confidence.MEDIUM
    return Confidence.LOW
