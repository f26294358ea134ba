"""Shares of a whole: a different share of the same thing refutes, and a negated share that is
the rest of the whole ("a third could not be attributed") agrees with the claim."""

from __future__ import annotations

import pytest

from evidence.chunking import chunk_text
from evidence.models import Stance
from evidence.rerank import rerank
from evidence.stance import ClaimContext, Finding, assess_page
from evidence.stance.signals import quantities

# These cases hold the lexical scorer, the reader when no stance model loads; the rules
# that stay in force over the model are held in test_stance_model.py.
pytestmark = pytest.mark.usefixtures("lexical_stance")

OUTBREAKS = "Two-thirds of the outbreaks were attributed to imported food."


def _read(claim: str, sentence: str) -> Finding:
    page = (
        "Food safety agency annual report, summary. "
        + sentence
        + " The agency will publish a breakdown by region in the autumn."
    )
    chunks = rerank(claim_text=claim, chunks=chunk_text(text=page), top_k=1)
    [finding] = assess_page(
        claim=ClaimContext(text=claim),
        page_text=page,
        title="Report",
        chunks=chunks,
        published_at=None,
    )
    return finding


@pytest.mark.parametrize(
    "sentence",
    [
        "Only a third of the outbreaks could be attributed to imported food, the agency said.",
        "Half of the outbreaks were attributed to imported food, the agency said in its report.",
        "The agency attributed 40 percent of the outbreaks to imported food last year.",
        "One in five outbreaks was attributed to imported food, according to the agency.",
    ],
)
def test_a_different_share_of_the_same_thing_refutes(sentence: str) -> None:
    assert _read(OUTBREAKS, sentence).stance == Stance.REFUTE


@pytest.mark.parametrize(
    "sentence",
    [
        "A third of the outbreaks could not be attributed to imported food, the agency said.",
        "Some 65 percent of the outbreaks were attributed to imported food, the agency said.",
        "Two-thirds of the outbreaks were attributed to imported food, the agency said.",
    ],
)
def test_the_same_share_or_the_negated_rest_of_the_whole_supports(sentence: str) -> None:
    assert _read(OUTBREAKS, sentence).stance == Stance.SUPPORT


def test_the_same_share_negated_refutes() -> None:
    sentence = "Two-thirds of the outbreaks could not be attributed to imported food, it said."

    assert _read(OUTBREAKS, sentence).stance == Stance.REFUTE


def test_a_percentage_and_the_negated_rest_of_it_agree() -> None:
    claim = "Forty percent of voters in Dunmore supported the harbour plan."
    sentence = "In Dunmore, 60 percent of voters did not support the harbour plan, the poll found."

    assert _read(claim, sentence).stance == Stance.SUPPORT


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Two-thirds of the outbreaks", [66.7]),
        ("three quarters of residents", [75.0]),
        ("a third were traced", [33.3]),
        ("nearly half the outbreaks", [50.0]),
        ("one in four outbreaks", [25.0]),
        ("Forty percent of voters", [40.0]),
        ("She won a third term in office.", []),
        ("Profits fell in the third quarter.", []),
    ],
)
def test_fraction_words_are_read_as_percentages_only_when_they_are_shares(
    text: str, expected: list[float]
) -> None:
    shares = [round(q.value, 1) for q in quantities(text) if q.share]

    assert shares == expected
    assert all(q.value not in (2.0, 3.0) for q in quantities(text) if not q.share)
