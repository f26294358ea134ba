"""The deciding sentence of a joined pair: the one the teacher reads as likeliest on the pair's
gold side, kept only when the teacher leans there enough, and only from training pairs."""

from __future__ import annotations

import pytest

from training.stance.decisive import FLOOR, KIND, decisive_pairs, sentences
from training.stance.records import HELD_OUT, NEUTRAL, REFUTE, SUPPORT, TRAIN, Pair

RULING = (
    "The post says the mayor closed every park in May. "
    "Parks in the city stayed open all spring, the parks department said. "
    "Two shut."
)


def teacher_reading(probabilities: dict[str, list[float]]):
    """A teacher that reads each sentence as `probabilities` says (support, refute, neutral),
    and records what it was asked."""
    asked: list[tuple[str, str]] = []

    def read(pairs: list[tuple[str, str]]) -> list[list[float]]:
        asked.extend(pairs)
        return [probabilities.get(sentence, [0.1, 0.1, 0.8]) for _, sentence in pairs]

    return read, asked


def test_the_sentence_read_likeliest_on_the_gold_side_becomes_a_pair_of_its_own() -> None:
    refuting = "Parks in the city stayed open all spring, the parks department said."
    read, asked = teacher_reading(
        {
            "The post says the mayor closed every park in May.": [0.5, 0.45, 0.05],
            refuting: [0.1, 0.8, 0.1],
        }
    )
    claim = "The mayor closed every park in May."
    pair = Pair(claim, RULING, REFUTE, "liar-plus", TRAIN)

    out = decisive_pairs([pair], read, ["liar-plus"])

    assert out == [Pair(claim, refuting, REFUTE, "liar-plus", TRAIN, KIND)]
    # Every sentence of five words or more was read; the fragment was not.
    assert [sentence for _, sentence in asked] == sentences(RULING)
    assert "Two shut." not in sentences(RULING)


def test_no_pair_when_the_teacher_does_not_lean_to_the_gold_side_anywhere() -> None:
    below = round(FLOOR - 0.05, 2)
    read, _ = teacher_reading(
        {"Parks in the city stayed open all spring, the parks department said.": [below, 0.1, 0.5]}
    )
    pair = Pair("The mayor kept every park open.", RULING, SUPPORT, "liar-plus", TRAIN)

    assert decisive_pairs([pair], read, ["liar-plus"]) == []


def test_only_training_pairs_of_the_named_sets_that_take_a_side_and_join_sentences_are_cut() -> (
    None
):
    read, asked = teacher_reading({})
    pairs = [
        Pair("claim one is here", RULING, REFUTE, "liar-plus", HELD_OUT),
        Pair("claim two is here", RULING, REFUTE, "healthver", TRAIN),
        Pair("claim three is here", RULING, NEUTRAL, "liar-plus", TRAIN),
        Pair("claim four is here", "One sentence alone says it all.", REFUTE, "liar-plus", TRAIN),
    ]

    assert decisive_pairs(pairs, read, ["liar-plus"]) == []
    assert asked == []


def test_each_pairs_sentences_are_scored_against_that_pairs_own_label() -> None:
    supporting = "Parks in the city stayed open all spring, the parks department said."
    read, _ = teacher_reading({supporting: [0.9, 0.05, 0.05]})
    kept = Pair("Parks stayed open all spring.", RULING, SUPPORT, "covid-fact", TRAIN, "real")
    dropped = Pair("Parks shut all spring.", RULING, REFUTE, "covid-fact", TRAIN, "counter")

    out = decisive_pairs([dropped, kept], read, ["covid-fact"])

    assert [(p.claim, p.evidence, p.label, p.kind) for p in out] == [
        ("Parks stayed open all spring.", supporting, SUPPORT, KIND)
    ]


def test_a_named_set_with_no_pairs_is_an_error_not_a_silent_run_without_it() -> None:
    read, asked = teacher_reading({})
    pairs = [Pair("The mayor closed every park.", RULING, REFUTE, "liar-plus", TRAIN)]

    with pytest.raises(ValueError, match="liar_plus"):
        decisive_pairs(pairs, read, ["liar_plus"])
    assert asked == []


def test_with_specific_a_sentence_that_takes_the_side_against_a_like_claim_too_is_passed_over() -> (
    None
):
    subject = "Hunter Biden is a lawyer by training and a businessman."
    deciding = "He is still alive and well today, his lawyer said."
    ruling = f"{subject} {deciding}"
    claim = "Hunter Biden has died."
    foil = "Hunter Biden was paid by a gas company."
    asked: list[tuple[str, str]] = []

    def read(pairs: list[tuple[str, str]]) -> list[list[float]]:
        asked.extend(pairs)
        table = {
            (claim, subject): [0.02, 0.94, 0.04],
            (claim, deciding): [0.06, 0.84, 0.10],
            (foil, subject): [0.05, 0.90, 0.05],
            (foil, deciding): [0.05, 0.15, 0.80],
        }
        return [table.get(pair, [0.1, 0.1, 0.8]) for pair in pairs]

    pairs = [
        Pair(claim, ruling, REFUTE, "liar-plus", TRAIN),
        Pair(
            foil,
            "The company paid him a fee each month, filings show.",
            SUPPORT,
            "liar-plus",
            TRAIN,
        ),
        # Shares more words, but has the pair's own evidence: a twin of the claim, not a foil.
        Pair("Hunter Biden has not died.", ruling, SUPPORT, "liar-plus", TRAIN),
    ]

    assert decisive_pairs(pairs, read, ["liar-plus"])[0].evidence == subject
    asked.clear()
    out = decisive_pairs(pairs, read, ["liar-plus"], specific=True)

    assert out == [Pair(claim, deciding, REFUTE, "liar-plus", TRAIN, KIND)]
    # Had the twin been the foil (the teacher reads both sentences against it as neither), the
    # subject sentence would still have stood highest: the foil is the claim with other evidence.
    assert (foil, deciding) in asked


def test_with_specific_a_claim_with_no_foil_keeps_the_plain_pick() -> None:
    refuting = "Parks in the city stayed open all spring, the parks department said."
    read, asked = teacher_reading({refuting: [0.1, 0.8, 0.1]})
    claim = "The mayor closed every park in May."
    pairs = [
        Pair(claim, RULING, REFUTE, "liar-plus", TRAIN),
        # Shares no content word with the claim: no foil.
        Pair(
            "Tuition rose by half at state colleges.", "Fees went up.", SUPPORT, "liar-plus", TRAIN
        ),
    ]

    out = decisive_pairs(pairs, read, ["liar-plus"], specific=True)

    assert out == [Pair(claim, refuting, REFUTE, "liar-plus", TRAIN, KIND)]
    assert all(asked_claim == claim for asked_claim, _ in asked)
