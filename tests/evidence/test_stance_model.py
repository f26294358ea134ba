"""The stance model: the shipped cross-encoder reading real sentences, the two rules kept beside
it, batching, loading once, and the lexical fallback when the model is missing or broken."""

from __future__ import annotations

import json
import logging
import shutil
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from evidence.chunking import chunk_text
from evidence.models import Confidence, Method, Stance
from evidence.rerank import rerank
from evidence.stance import (
    ClaimContext,
    assess_page,
    assess_snippet,
    combine,
    judge_sentences,
    model_confidence,
)
from evidence.stance import model as stance_model
from evidence.stance.combine import model_bars
from evidence.stance.local import _better
from evidence.stance.scorer import Judgement

SHIPPED = Path(__file__).resolve().parents[2] / "evidence" / "stance" / "model"
CLAIM = ClaimContext(text="The city council approved the new library budget in March 2024.")


def _page(claim: ClaimContext, sentence: str) -> Any:
    page = "City hall news. " + sentence + " Residents can read the minutes online."
    chunks = rerank(claim_text=claim.text, chunks=chunk_text(text=page), top_k=1)
    [finding] = assess_page(
        claim=claim,
        page_text=page,
        title="News",
        chunks=chunks,
        published_at=datetime(2024, 3, 20, tzinfo=UTC),
    )
    return finding


def test_the_model_ships_and_loads_once_per_process() -> None:
    assert (SHIPPED / "stance.onnx").is_file()
    first = stance_model.get()

    assert first is not None
    assert stance_model.get() is first


@pytest.mark.parametrize(
    ("sentence", "stance"),
    [
        ("On 12 March 2024 the city council voted to approve the new library budget.", "support"),
        ("The new football stadium will open to the public next summer.", "neutral"),
    ],
)
def test_the_model_reads_which_way_a_sentence_bears(sentence: str, stance: str) -> None:
    """Alone, the model misses an opposite verb ("rejected" against "approved"); the antonym
    rule kept over it covers that (the next test)."""
    [reading] = stance_model.get().read(CLAIM.text, [sentence])  # type: ignore[union-attr]

    assert reading.stance == stance
    assert reading.probability == max(reading.probabilities.values())
    assert sum(reading.probabilities.values()) == pytest.approx(1.0, abs=1e-4)


def test_a_page_is_read_by_the_model_with_its_exact_quote() -> None:
    sentence = "The city council rejected the new library budget when it met in March 2024."
    finding = _page(CLAIM, sentence)

    assert finding.method == Method.MODEL
    assert finding.stance == Stance.REFUTE
    assert finding.quote == sentence


@pytest.mark.parametrize(
    ("claim", "sentence", "stance"),
    [
        (
            "The Senate approved the budget bill by 60 votes in March 2024.",
            "The Senate approved the budget bill by 45 votes on 5 March 2024.",
            Stance.REFUTE,
        ),
        (
            "Five people died in the Halvik ferry fire.",
            "No deaths were reported after the Halvik ferry fire, the coastguard said on Sunday.",
            Stance.REFUTE,
        ),
        (
            "The minister announced a tax cut on Monday.",
            "The minister did not announce a tax cut on Monday, aides said.",
            Stance.REFUTE,
        ),
        (
            "The minister announced a tax cut on Monday.",
            "A viral post claims that the minister announced a tax cut on Monday.",
            Stance.NEUTRAL,
        ),
    ],
)
def test_the_lexical_rules_stay_in_force_over_the_model(
    claim: str, sentence: str, stance: str
) -> None:
    """Another number, a count of nothing, a negation of the claim's own words refute; a rumour
    repeated without a debunk asserts nothing, whatever the model reads."""
    finding = _page(ClaimContext(text=claim), sentence)

    assert finding.stance == stance
    if stance == Stance.REFUTE:
        assert finding.quote == sentence


@pytest.mark.parametrize(
    ("probability", "stance", "confidence"),
    [
        (0.92, Stance.SUPPORT, Confidence.MEDIUM),
        (0.92, Stance.REFUTE, Confidence.LOW),
        (0.96, Stance.REFUTE, Confidence.HIGH),
        (0.96, Stance.SUPPORT, Confidence.HIGH),
        (0.8, Stance.SUPPORT, Confidence.LOW),
    ],
)
def test_a_readings_confidence_follows_how_often_the_model_is_right_for_its_class(
    probability: float, stance: str, confidence: str
) -> None:
    """Refutations need more certainty than supports to count: held out, the model's
    refutations between 0.9 and 0.95 are right too rarely to tip a verdict."""
    assert model_confidence(probability, stance) == confidence


def _judgement(stance: str, score: float, confidence: str, reasons: list[str]) -> Judgement:
    return Judgement(stance, score, confidence, relevance=0.8, reasons=reasons)


def test_a_support_the_model_only_leans_to_counts_when_the_lexical_scorer_is_sure_of_it() -> None:
    leaning = _judgement(Stance.SUPPORT, 0.7, Confidence.LOW, ["model"])
    sure = _judgement(Stance.SUPPORT, 0.9, Confidence.HIGH, ["coverage"])
    unsure = _judgement(Stance.SUPPORT, 0.6, Confidence.MEDIUM, ["coverage"])
    too_faint = _judgement(Stance.SUPPORT, 0.45, Confidence.LOW, ["model"])
    refuting = _judgement(Stance.REFUTE, 0.7, Confidence.LOW, ["model"])

    agreed = combine.combined(sure, leaning)
    assert (agreed.stance, agreed.confidence) == (Stance.SUPPORT, Confidence.MEDIUM)
    assert "agree" in agreed.reasons
    assert combine.combined(unsure, leaning).confidence == Confidence.LOW
    assert combine.combined(sure, too_faint).confidence == Confidence.LOW
    refuted = combine.combined(sure, refuting)
    assert (refuted.stance, refuted.confidence) == (Stance.REFUTE, Confidence.LOW)


def test_a_refutation_the_date_rule_made_agrees_only_with_another_rule() -> None:
    """A later report of the event, dated by its dateline: the date rule moves the model's
    support to a refutation, and the lexical scorer's same date rule is no second reader."""
    moved = _judgement(Stance.REFUTE, 0.53, Confidence.LOW, ["model", "date_outside"])
    dated = _judgement(Stance.REFUTE, 0.8, Confidence.MEDIUM, ["date_outside"])
    dated_and_negated = _judgement(
        Stance.REFUTE, 0.8, Confidence.MEDIUM, ["date_outside", "polarity"]
    )
    leaning = _judgement(Stance.REFUTE, 0.53, Confidence.LOW, ["model"])

    assert combine.combined(dated, moved).confidence == Confidence.LOW
    assert combine.combined(dated_and_negated, moved).confidence == Confidence.MEDIUM
    assert "polarity" in combine.combined(dated_and_negated, moved).reasons
    assert combine.combined(dated, leaning).confidence == Confidence.MEDIUM


def test_the_claims_number_written_otherwise_is_not_read_as_another_number() -> None:
    """The model alone reads "6.96 million" against "approximately 7 million" as a refutation;
    the lexical scorer compares the values, and its reading stands. The same value exactly,
    with another word swapped, stays the model's (or a rule's) to refute."""
    claim = ClaimContext(
        text="Nigeria's urban population at independence was approximately 7 million."
    )
    [rounded] = judge_sentences(
        claim, ["The report estimates Nigeria's 1960 urban population at 6.96 million."]
    )
    assert rounded.stance == Stance.SUPPORT
    assert {"number_rounded", "rule"} <= set(rounded.reasons)

    model = stance_model.get()
    assert model is not None
    model_alone = model.read(
        claim.text, ["The report estimates Nigeria's 1960 urban population at 6.96 million."]
    )
    assert model_alone[0].stance == Stance.REFUTE

    swapped = ClaimContext(text="The vaccine reduced infections by 50 percent.")
    [antonym] = judge_sentences(swapped, ["The vaccine increased infections by 50 percent."])
    assert antonym.stance == Stance.REFUTE
    assert "number_rounded" not in antonym.reasons


def test_in_a_chunk_the_reading_the_reader_is_sure_of_is_the_one_kept() -> None:
    """A headline the model only guesses at must not hide the dated sentence below it that a
    rule refutes for sure, even though the headline is closer to the claim's words."""
    headline = Judgement(Stance.REFUTE, 0.8, Confidence.LOW, relevance=1.0)
    dated = Judgement(Stance.REFUTE, 0.9, Confidence.HIGH, relevance=0.7)
    unsure_support = Judgement(Stance.SUPPORT, 0.8, Confidence.LOW, relevance=0.9)
    neutral = Judgement(Stance.NEUTRAL, 0.9, Confidence.LOW, relevance=0.9)

    assert _better(dated, headline) and not _better(headline, dated)
    assert _better(dated, unsure_support)
    assert _better(unsure_support, neutral)


def test_a_headline_that_restates_part_of_the_claim_does_not_count_against_it() -> None:
    """The model reads a fragment of the claim (a headline, a name) as a refutation more often
    than it should; below the refutation bar such a reading stays low confidence."""
    claim = ClaimContext(
        "The Union Medicines Agency authorised the nasal flu vaccine Nasoflu in October 2024.",
        timeframe_start=datetime(2024, 10, 1, tzinfo=UTC),
        timeframe_end=datetime(2024, 10, 31, tzinfo=UTC),
    )
    [headline, statement] = judge_sentences(
        claim,
        [
            "Nasoflu nasal flu vaccine authorised",
            "The Union Medicines Agency authorised the nasal flu vaccine Nasoflu on 24 October"
            " 2024 for children aged two to seventeen.",
        ],
    )

    assert headline.stance == Stance.NEUTRAL or headline.confidence == Confidence.LOW
    assert statement.stance == Stance.SUPPORT
    assert statement.confidence in (Confidence.MEDIUM, Confidence.HIGH)


def test_readings_in_one_batch_match_readings_one_at_a_time() -> None:
    model = stance_model.get()
    assert model is not None
    sentences = [
        "The council approved the budget." + " It met for hours." * (i % 7) for i in range(45)
    ]
    together = model.read(CLAIM.text, sentences)
    alone = [model.read(CLAIM.text, [s])[0] for s in sentences[:6]]

    assert len(together) == 45
    for batched, single in zip(together, alone, strict=False):
        assert batched.stance == single.stance
        assert batched.probability == pytest.approx(single.probability, abs=1e-3)
    assert model.read(CLAIM.text, []) == []


def test_a_question_asserts_nothing_whatever_the_model_reads() -> None:
    finding = _page(CLAIM, "Did the city council approve the new library budget in March 2024?")

    assert finding.stance == Stance.NEUTRAL


def test_an_event_dated_outside_the_timeframe_is_not_the_claimed_event() -> None:
    claim = ClaimContext(
        text=CLAIM.text,
        timeframe_start=datetime(2024, 3, 1, tzinfo=UTC),
        timeframe_end=datetime(2024, 3, 31, tzinfo=UTC),
    )
    finding = _page(claim, "On 12 June 2019 the city council approved a new library budget.")

    assert finding.stance == Stance.REFUTE
    assert finding.event_at == date(2019, 6, 12)


def test_a_snippet_is_read_by_the_model_and_stays_a_snippet() -> None:
    finding = assess_snippet(
        claim=CLAIM,
        title="Council news",
        snippet="The city council rejected the new library budget in March 2024 ...",
        published=None,
    )

    assert finding is not None
    assert finding.method == Method.SNIPPET
    assert finding.stance == Stance.REFUTE
    assert finding.confidence != "high"


def test_a_missing_model_falls_back_to_the_lexical_scorer_with_a_warning(
    settings: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings.STANCE_MODEL_DIR = str(tmp_path / "nowhere")
    with caplog.at_level(logging.WARNING, logger="evidence.stance.model"):
        finding = _page(CLAIM, "On 12 March 2024 the city council approved the new library budget.")

    assert finding.method == Method.RERANK
    assert finding.stance == Stance.SUPPORT
    assert "stance model not found" in caplog.text


def test_a_broken_model_falls_back_to_the_lexical_scorer_with_a_warning(
    settings: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    for name in ("stance.json", "tokenizer.json"):
        shutil.copy(SHIPPED / name, tmp_path / name)
    (tmp_path / "stance.onnx").write_bytes(b"not a model")
    settings.STANCE_MODEL_DIR = str(tmp_path)
    with caplog.at_level(logging.WARNING, logger="evidence.stance.model"):
        finding = _page(CLAIM, "On 12 March 2024 the city council approved the new library budget.")

    assert finding.method == Method.RERANK
    assert "failed to load" in caplog.text
    assert stance_model.get() is None  # tried once, not on every page


def test_the_cards_calibration_and_bars_are_what_a_reading_is_counted_by(
    settings: Any, tmp_path: Path
) -> None:
    """The probabilities the pipeline sees are the card's calibrated ones, and a reading counts
    from the bar the card chose on its calibration split."""
    sentence = "On 12 March 2024 the city council voted to approve the new library budget."
    raw = stance_model.get()
    assert raw is not None
    [before] = raw.read(CLAIM.text, [sentence])
    for name in ("stance.onnx", "tokenizer.json"):
        shutil.copy(SHIPPED / name, tmp_path / name)
    card = json.loads((SHIPPED / "stance.json").read_text())
    # A calibration that halves every logit and favours neither, and bars of its own.
    card["calibration"] = {"scale": [0.5, 0.5, 0.5], "bias": [0.0, 0.0, 3.0]}
    card["bars"] = {"support": 0.6, "refute": 0.7}
    (tmp_path / "stance.json").write_text(json.dumps(card))
    settings.STANCE_MODEL_DIR = str(tmp_path)
    settings.STANCE_STRONG_MODEL_DIR = str(tmp_path / "no-strong-reader")  # the fast one decides
    stance_model.forget()

    [after] = stance_model.get().read(CLAIM.text, [sentence])  # type: ignore[union-attr]

    assert after.probabilities["neutral"] > before.probabilities["neutral"]
    assert after.probabilities["support"] < before.probabilities["support"]
    assert model_bars() == {Stance.SUPPORT: 0.6, Stance.REFUTE: 0.7}
    assert model_confidence(0.65, Stance.SUPPORT, model_bars()) == Confidence.MEDIUM
    assert model_confidence(0.65, Stance.REFUTE, model_bars()) == Confidence.LOW


def _reader_copy(into: Path, **card_changes: Any) -> Path:
    """A copy of the shipped fast model with its card changed, to stand as another reader."""
    into.mkdir(parents=True, exist_ok=True)
    for name in ("stance.onnx", "tokenizer.json"):
        shutil.copy(SHIPPED / name, into / name)
    card = json.loads((SHIPPED / "stance.json").read_text())
    (into / "stance.json").write_text(json.dumps({**card, **card_changes}))
    return into


@pytest.fixture
def refuting_strong_reader(settings: Any, tmp_path: Path) -> None:
    """A strong reader that reads every sentence it is given as a sure refutation, so that
    what it read shows in the readings."""
    strong = _reader_copy(
        tmp_path / "strong", calibration={"scale": [0.0, 0.0, 0.0], "bias": [0.0, 9.0, 0.0]}
    )
    settings.STANCE_STRONG_MODEL_DIR = str(strong)
    settings.STANCE_PICK = 2
    stance_model.forget()


@pytest.mark.usefixtures("refuting_strong_reader")
def test_the_strong_reader_reads_only_the_picked_sentences_and_the_rest_read_as_neither() -> None:
    sentences = [
        "The new football stadium will open to the public next summer.",
        "On 12 March 2024 the city council voted to approve the new library budget.",
        "Residents can read the minutes online.",
        "The council approved the library budget for 2024 in March.",
    ]
    fast = stance_model.get()
    assert fast is not None
    expected = stance_model.pick(CLAIM.text, sentences, fast.read(CLAIM.text, sentences), 2)

    readings = stance_model.read_where_it_decides(CLAIM.text, sentences)

    assert readings is not None
    assert expected == [1, 3]  # the two sentences about the budget
    assert [r.stance for r in readings] == ["neutral", "refute", "neutral", "refute"]
    assert readings[0].probabilities == {"support": 0.0, "refute": 0.0, "neutral": 1.0}
    assert readings[1].probabilities["refute"] > 0.99
    # A sentence the strong reader read carries the fast one's label, its second reader.
    fast_labels = [r.stance for r in fast.read(CLAIM.text, sentences)]
    assert [r.fast for r in readings] == [None, fast_labels[1], None, fast_labels[3]]


@pytest.mark.usefixtures("refuting_strong_reader")
def test_a_page_is_decided_by_the_strong_readers_reading_and_its_bars(settings: Any) -> None:
    strong = Path(settings.STANCE_STRONG_MODEL_DIR) / "stance.json"
    card = json.loads(strong.read_text())
    (strong).write_text(json.dumps({**card, "bars": {"support": 0.8, "refute": 0.75}}))
    stance_model.forget()

    finding = _page(CLAIM, "On 12 March 2024 the city council voted to approve the new budget.")

    assert finding.method == Method.MODEL
    assert finding.stance == Stance.REFUTE  # the strong reader's reading, not the fast one's
    assert model_bars() == {Stance.SUPPORT: 0.8, Stance.REFUTE: 0.75}


def test_without_the_strong_reader_the_fast_one_reads_alone(
    settings: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings.STANCE_STRONG_MODEL_DIR = str(tmp_path / "nowhere")
    stance_model.forget()
    sentences = ["On 12 March 2024 the city council voted to approve the new library budget."]
    fast = stance_model.get()
    assert fast is not None

    with caplog.at_level(logging.WARNING, logger="evidence.stance.model"):
        readings = stance_model.read_where_it_decides(CLAIM.text, sentences)

    assert readings == fast.read(CLAIM.text, sentences)
    assert stance_model.deciding() is fast
    assert "stance model not found" in caplog.text


def test_a_card_may_ask_for_sentences_to_be_read_several_at_a_time(tmp_path: Path) -> None:
    batched = stance_model.StanceModel(_reader_copy(tmp_path / "batched", batch=8))
    one_by_one = stance_model.StanceModel(SHIPPED)

    assert (batched.batch, one_by_one.batch) == (8, 1)
    sentences = [
        "On 12 March 2024 the city council voted to approve the new library budget.",
        "The new football stadium will open to the public next summer.",
    ]
    assert [r.stance for r in batched.read(CLAIM.text, sentences)] == [
        r.stance for r in one_by_one.read(CLAIM.text, sentences)
    ]
