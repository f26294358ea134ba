"""Counts of nothing ("no deaths", "zero cases", "none of the passengers") against a claim that
counts the same thing, and the sentences that only look like them."""

from __future__ import annotations

import pytest

from evidence.chunking import chunk_text
from evidence.models import Stance
from evidence.rerank import rerank
from evidence.stance import ClaimContext, Finding, assess_page
from evidence.stance.scorer import ClaimSignals, judge

# These cases hold the lexical scorer, the reader when no stance model loads; the rules
# that stay in force over the model are held in test_stance_model.py.
pytestmark = pytest.mark.usefixtures("lexical_stance")

FERRY = "Five people died in the Halvik ferry fire."
MEASLES = "The regional health office recorded 300 cases of measles in Dunmore last year."


def _read(claim: str, sentence: str) -> Finding:
    page = (
        "Regional news in brief. "
        + sentence
        + " The harbour authority will publish its own report in the spring."
    )
    chunks = rerank(claim_text=claim, chunks=chunk_text(text=page), top_k=1)
    [finding] = assess_page(
        claim=ClaimContext(text=claim),
        page_text=page,
        title="News",
        chunks=chunks,
        published_at=None,
    )
    return finding


@pytest.mark.parametrize(
    "sentence",
    [
        "No deaths were reported after the Halvik ferry fire, the coastguard said on Sunday.",
        "There were no deaths, the coastguard said of Sunday's fire on the Halvik ferry.",
        "The Halvik ferry fire caused zero deaths and two minor injuries, the coastguard said.",
        "None of the passengers died in the Halvik ferry fire, according to the operator.",
    ],
)
def test_a_count_of_nothing_refutes_a_count_of_the_same_thing(sentence: str) -> None:
    assert _read(FERRY, sentence).stance == Stance.REFUTE


def test_zero_cases_against_300_cases_is_a_number_mismatch() -> None:
    sentence = "The regional health office recorded zero cases of measles in Dunmore last year."

    verdict = judge(ClaimSignals.of(MEASLES, None, None), sentence, cosine=None)

    assert verdict.stance == Stance.REFUTE
    assert "number_mismatch" in verdict.reasons
    assert _read(MEASLES, sentence).stance == Stance.REFUTE


@pytest.mark.parametrize(
    ("claim", "sentence"),
    [
        (
            MEASLES,
            "No one expected 300 cases of measles in Dunmore last year, the regional health "
            "office said.",
        ),
        (
            MEASLES,
            "The regional health office recorded 300 cases of measles in Dunmore last year, up "
            "from none the year before.",
        ),
        (
            FERRY,
            "Five people died in the Halvik ferry fire, which caused no damage to the harbour "
            "itself.",
        ),
    ],
)
def test_a_no_that_counts_something_else_does_not_refute(claim: str, sentence: str) -> None:
    assert _read(claim, sentence).stance == Stance.SUPPORT


def test_a_claim_of_no_deaths_is_refuted_by_a_count_of_the_dead() -> None:
    claim = "There were no deaths in the Halvik ferry fire."
    sentence = "Three people were killed in the Halvik ferry fire on Sunday, the coastguard said."

    assert _read(claim, sentence).stance == Stance.REFUTE
