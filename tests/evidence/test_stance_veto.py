"""The lexical rules veto and never invent: a contradiction they find stops a support from
counting, a refutation stands only where the model reads one in a sentence about the claim, and
a sentence dated outside the timeframe refutes only when it names the claim's own event."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from evidence.models import Confidence, Stance
from evidence.stance import combine
from evidence.stance.model import Reading
from evidence.stance.scorer import RELEVANT, ClaimSignals, Judgement, judge, undated_claim
from evidence.stance.signals import claim_names, names_all_in


def _judgement(
    stance: str, score: float, confidence: str, reasons: list[str], relevance: float = 0.8
) -> Judgement:
    return Judgement(stance, score, confidence, relevance=relevance, reasons=reasons)


def test_a_rule_stops_a_support_and_does_not_turn_it_into_a_refutation() -> None:
    rule = _judgement(Stance.REFUTE, 0.7, Confidence.HIGH, ["number_mismatch"])
    model = _judgement(Stance.SUPPORT, 0.95, Confidence.HIGH, ["model"])
    combined = combine.combined(rule, model)
    assert (combined.stance, combined.confidence) == (Stance.NEUTRAL, Confidence.LOW)
    assert {"veto", "number_mismatch"} <= set(combined.reasons)
    neutral = _judgement(Stance.NEUTRAL, 0.3, Confidence.LOW, ["model"])
    assert combine.combined(rule, neutral).stance == Stance.NEUTRAL


def test_a_rule_that_finds_what_the_model_leans_to_makes_the_refutation_count() -> None:
    rule = _judgement(Stance.REFUTE, 0.7, Confidence.HIGH, ["antonym"])
    leaning = _judgement(Stance.REFUTE, 0.6, Confidence.LOW, ["model"])
    combined = combine.combined(rule, leaning)
    assert (combined.stance, combined.confidence) == (Stance.REFUTE, Confidence.MEDIUM)
    assert {"antonym", "agree"} <= set(combined.reasons)
    faint = _judgement(Stance.REFUTE, 0.4, Confidence.LOW, ["model"])
    assert combine.combined(rule, faint).confidence == Confidence.LOW


def test_a_refutation_the_second_reader_does_not_read_counts_only_as_it_did_without_it() -> None:
    nothing = _judgement(Stance.SUPPORT, 0.5, Confidence.LOW, [])
    alone = _judgement(Stance.REFUTE, 0.9, Confidence.LOW, ["model"])
    rule = _judgement(Stance.REFUTE, 0.7, Confidence.HIGH, ["polarity"])
    for second in (None, Stance.SUPPORT, Stance.NEUTRAL):
        # The model alone, below its refute bar, does not count.
        assert combine.combined(nothing, alone, second=second).confidence == Confidence.LOW
        # A rule that finds the contradiction the model reads makes it count, as it did.
        agreed = combine.combined(rule, alone, second=second)
        assert (agreed.stance, agreed.confidence) == (Stance.REFUTE, Confidence.MEDIUM)
        assert "second" not in agreed.reasons


@pytest.mark.parametrize(
    ("label", "lexical"), [(Stance.REFUTE, Stance.SUPPORT), (Stance.SUPPORT, Stance.NEUTRAL)]
)
def test_two_readers_trained_apart_agree_on_a_reading_that_counts(label: str, lexical: str) -> None:
    nothing = _judgement(lexical, 0.5, Confidence.LOW, [])
    sure = _judgement(label, combine.SECOND_AGREE, Confidence.LOW, ["model"])
    combined = combine.combined(nothing, sure, second=label)
    assert (combined.stance, combined.confidence) == (label, Confidence.MEDIUM)
    assert {"second", "agree"} <= set(combined.reasons)
    # Below the bar, or where the second reader reads something else, it does not count.
    faint = _judgement(label, combine.SECOND_AGREE - 0.01, Confidence.LOW, ["model"])
    assert combine.combined(nothing, faint, second=label).confidence == Confidence.LOW
    others: set[str | None] = {None, Stance.SUPPORT, Stance.REFUTE, Stance.NEUTRAL}
    for second in others - {label}:
        assert combine.combined(nothing, sure, second=second).confidence == Confidence.LOW
    # Nor does a reading of a sentence about something else count, whoever reads it.
    off = _judgement(Stance.NEUTRAL, 0.1, Confidence.LOW, [], relevance=RELEVANT - 0.1)
    assert combine.combined(off, sure, second=label).stance == Stance.NEUTRAL


def test_what_states_part_of_the_claim_or_contradicts_it_stops_two_readers_agreeing() -> None:
    # A sentence that states part of the claim is no refutation, whoever reads one.
    part = _judgement(Stance.SUPPORT, 0.5, Confidence.LOW, ["part"])
    refute = _judgement(Stance.REFUTE, combine.SECOND_AGREE, Confidence.LOW, ["model"])
    assert combine.combined(part, refute, second=Stance.REFUTE).stance == Stance.NEUTRAL
    # A contradiction a rule finds stops a support, whoever reads one.
    support = _judgement(Stance.SUPPORT, combine.SECOND_AGREE, Confidence.LOW, ["model"])
    number = _judgement(Stance.REFUTE, 0.7, Confidence.HIGH, ["number_mismatch"])
    assert combine.combined(number, support, second=Stance.SUPPORT).stance == Stance.NEUTRAL
    negated = _judgement(Stance.NEUTRAL, 0.3, Confidence.LOW, ["polarity"])
    assert combine.combined(negated, support, second=Stance.SUPPORT).confidence == Confidence.LOW


def test_the_date_rules_refutation_of_a_support_is_not_the_second_readers_to_stop() -> None:
    nothing = _judgement(Stance.SUPPORT, 0.5, Confidence.LOW, [])
    dated = _judgement(Stance.REFUTE, 0.97, Confidence.HIGH, ["model", "date_outside"])
    combined = combine.combined(nothing, dated, second=Stance.SUPPORT)
    assert (combined.stance, combined.confidence) == (Stance.REFUTE, Confidence.HIGH)
    weak = _judgement(Stance.REFUTE, 0.7, Confidence.LOW, ["model", "date_outside"])
    assert combine.combined(nothing, weak, second=Stance.REFUTE).confidence == Confidence.LOW


def _reading(support: float, refute: float) -> Reading:
    probabilities: dict[str, float] = {Stance.SUPPORT: support, Stance.REFUTE: refute}
    probabilities[Stance.NEUTRAL] = 1.0 - support - refute
    top = max(probabilities, key=lambda k: probabilities[k])
    return Reading(top, probabilities[top], probabilities)


NIGHT = "The first night of the Republican National Convention had 128.4 million viewers."
DRAWS = "First night of 2020 Republican National Convention draws 17 million viewers."


def test_a_rule_and_the_models_lean_agree_on_a_refutation_too_weak_to_count() -> None:
    signals = ClaimSignals.of(NIGHT, None, None)
    rule = judge(signals, DRAWS, cosine=0.8, reference=None)
    assert rule.stance == Stance.REFUTE and "number_mismatch" in rule.reasons
    reading = _reading(support=0.29, refute=0.31)
    lean = combine.leans_refute(signals, DRAWS, reading)
    assert lean == pytest.approx(0.31)
    combined = combine.combined(
        rule, combine.from_model(signals, DRAWS, reading, None), refute_lean=lean
    )
    assert (combined.stance, combined.confidence) == (Stance.REFUTE, Confidence.LOW)
    assert combined.score == pytest.approx(0.31)
    assert {"lean", "number_mismatch"} <= set(combined.reasons)


@pytest.mark.parametrize(
    ("reading", "sentence"),
    [
        # the model leans to a support: the rule alone vetoes it
        (_reading(support=0.31, refute=0.29), DRAWS),
        # the model is more sure the sentence is not about the claim at all
        (_reading(support=0.1, refute=0.3), DRAWS),
        # another party's convention: the sentence does not name the claim's event
        (
            _reading(support=0.29, refute=0.31),
            "The first night of the Democratic National Convention drew 17 million viewers.",
        ),
    ],
)
def test_without_the_models_lean_about_the_claims_own_event_a_rule_invents_nothing(
    reading: Reading, sentence: str
) -> None:
    signals = ClaimSignals.of(NIGHT, None, None)
    rule = judge(signals, sentence, cosine=0.8, reference=None)
    assert rule.stance == Stance.REFUTE
    lean = combine.leans_refute(signals, sentence, reading)
    assert lean == 0.0
    combined = combine.combined(
        rule, combine.from_model(signals, sentence, reading, None), refute_lean=lean
    )
    assert combined.stance == Stance.NEUTRAL


def test_a_refutation_needs_a_sentence_about_the_claim() -> None:
    off_topic = _judgement(Stance.SUPPORT, 0.2, Confidence.LOW, [], relevance=RELEVANT - 0.1)
    model = _judgement(Stance.REFUTE, 0.97, Confidence.HIGH, ["model"])
    combined = combine.combined(off_topic, model)
    assert combined.stance == Stance.NEUTRAL and "off_topic" in combined.reasons


def test_did_not_approve_says_what_prohibited_says() -> None:
    signals = ClaimSignals.of("The Commission prohibited the airline merger.", None, None)
    read = judge(
        signals, "The Commission did not approve the airline merger.", cosine=0.8, reference=None
    )
    assert "negated_opposite" in read.reasons
    assert read.stance == Stance.SUPPORT


@pytest.mark.parametrize(
    ("claim", "sentence", "reason"),
    [
        # an irregular past is the verb's own opposite ("fell" against "rise")
        ("Union car sales fell 4% in May 2024.", "Union car sales rise 4% in May.", "antonym"),
        ("Union car sales rose 4% in May 2024.", "Union car sales fell 4% in May.", "antonym"),
        # "refused to authorise" denies what "authorised" states
        (
            "The Medicines Agency refused to authorise the Nasoflu vaccine.",
            "The Medicines Agency authorised the Nasoflu vaccine on 24 October 2024.",
            "polarity",
        ),
    ],
)
def test_an_opposite_verb_or_a_refusal_is_a_contradiction_a_rule_finds(
    claim: str, sentence: str, reason: str
) -> None:
    read = judge(ClaimSignals.of(claim, None, None), sentence, cosine=0.8, reference=None)
    assert read.stance == Stance.REFUTE
    assert reason in read.reasons


@pytest.mark.parametrize(
    ("claim", "names"),
    [
        ("Aurora-2 retired in January 2024", {"aurora-2"}),
        ("Parliament voted on the Digital Services Levy on 17 September 2024", None),
        ("Odesa port handled 3.1 million tonnes of grain", set()),
    ],
)
def test_the_names_a_claim_turns_on(claim: str, names: set[str] | None) -> None:
    found = claim_names(claim)
    if names is not None:
        assert found == names
    else:
        assert {"digital", "levy"} <= found and "september" not in found
    assert names_all_in(found, claim)
    assert not names_all_in(claim_names("Aurora-2 retired"), "Aurora-3 was launched")


@pytest.mark.parametrize(
    ("claim", "undated"),
    [
        (
            "Skyline Air and Polar Airways merger was prohibited on 9 July 2024",
            "Skyline Air and Polar Airways merger was prohibited",
        ),
        (
            "Veltria Motors opened its Karsfeld battery cell plant in 2022.",
            "Veltria Motors opened its Karsfeld battery cell plant.",
        ),
        ("In March 2024, the council approved the plan.", "the council approved the plan."),
        ("The council approved the plan.", "The council approved the plan."),
    ],
)
def test_the_model_reads_the_claim_without_its_timeframes_dates(claim: str, undated: str) -> None:
    assert undated_claim(claim) == undated


MARCH = (datetime(2024, 3, 1, tzinfo=UTC), datetime(2024, 3, 31, tzinfo=UTC))
SURE = Reading(
    Stance.SUPPORT, 0.97, {Stance.SUPPORT: 0.97, Stance.REFUTE: 0.01, Stance.NEUTRAL: 0.02}
)


def _read(claim: str, passage: str, reference: date | None = None) -> Judgement:
    return combine.from_model(ClaimSignals.of(claim, *MARCH), passage, SURE, reference)


def test_the_claims_own_event_dated_outside_its_timeframe_refutes_as_surely_as_it_was_read() -> (
    None
):
    read = _read(
        "The Valmora City Council approved the Riverside Library budget.",
        "The Valmora City Council approved the Riverside Library budget on 12 June 2019.",
    )
    assert (read.stance, read.confidence) == (Stance.REFUTE, Confidence.HIGH)
    assert "date_outside" in read.reasons


def test_another_event_dated_outside_the_timeframe_takes_no_side() -> None:
    read = _read(
        "The Valmora City Council approved the Riverside Library budget.",
        "The Brevik City Council approved the harbour budget on 12 June 2019.",
    )
    assert read.stance == Stance.NEUTRAL and "another_event" in read.reasons


def test_a_dateline_does_not_date_an_event_the_sentence_places_in_the_timeframe() -> None:
    read = _read(
        "The Valmora port handled 3.1 million tonnes of grain.",
        "April 4, 2024. In March 2024 the Valmora port handled 3.1 million tonnes of grain.",
    )
    assert read.stance == Stance.SUPPORT and read.event_at == date(2024, 3, 1)
    bare = _read(
        "Valmora car sales rose 4%.",
        "Valmora car sales rose 4% in March from a year earlier, data showed on Wednesday.",
        reference=date(2024, 4, 10),
    )
    assert bare.stance == Stance.SUPPORT and "date_inside" in bare.reasons
