"""The pick: which sentences of a page the strong stance reader reads."""

from __future__ import annotations

import pytest

from evidence.stance import model as stance_model
from evidence.stance import pick as pick_module


def _reading(neutral: float) -> stance_model.Reading:
    rest = (1.0 - neutral) / 2
    return stance_model.Reading(
        "neutral", neutral, {"support": rest, "refute": rest, "neutral": neutral}
    )


def test_the_pick_is_the_sentences_that_bear_most_on_the_claim_in_page_order() -> None:
    claim = "The council approved the library budget in March 2024."
    sentences = [
        "The weather was mild for the season.",
        "The council approved the library budget on 12 March 2024.",
        "Parking near the town hall is free on Sundays.",
        "A new bakery opened on the high street.",
        "The library budget was approved by the council.",
    ]
    # The fast reader cannot tell them apart here: the claim's words and meaning decide.
    readings = [_reading(0.9)] * len(sentences)

    picked = stance_model.pick(claim, sentences, readings, 3)

    assert picked == sorted(picked)  # in page order
    assert {1, 4} <= set(picked)
    assert stance_model.pick(claim, sentences, readings, 9) == [0, 1, 2, 3, 4]


def test_the_fast_readers_sense_of_what_is_about_the_claim_counts_in_the_pick() -> None:
    claim = "The city opened a new bridge over the river."
    # The same words twice: only the fast reader tells the two apart.
    sentences = [
        "The new bridge opened on Saturday.",
        "Tickets for the fireworks are sold out.",
        "The new bridge opened on Saturday.",
    ]
    sure_of_last = [_reading(0.9), _reading(0.9), _reading(0.05)]
    sure_of_first = [_reading(0.05), _reading(0.9), _reading(0.9)]

    assert stance_model.pick(claim, sentences, sure_of_last, 1) == [2]
    assert stance_model.pick(claim, sentences, sure_of_first, 1) == [0]


def test_a_sentence_next_to_one_that_bears_on_the_claim_gains_from_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    claim = "Acme Corporation was founded in Ohio in 1921."
    sentences = [
        "Acme Corporation is an anvil maker based in Ohio.",
        "It was set up by two brothers after the war.",  # the fact, about "it"
        "Rockets are sold in many shops.",
        "Tickets are cheap on Sundays.",
        "The shops close at six.",
    ]
    about = [0.5] * len(sentences)
    with_neighbours = pick_module.bearing(claim, sentences, about)
    monkeypatch.setattr(pick_module, "NEIGHBOUR_SHARE", 0.0)
    alone = pick_module.bearing(claim, sentences, about)
    gain = with_neighbours - alone

    assert alone.argmax() == 0
    assert gain[1] > gain[3]
    assert gain[1] == pytest.approx(0.25 * alone[0])
