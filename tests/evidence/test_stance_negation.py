"""A negation refutes a claim only when it governs the claim's own words: not when it sits in a
relative or subordinate clause about something else."""

from __future__ import annotations

import pytest

from evidence.chunking import chunk_text
from evidence.models import Stance
from evidence.rerank import rerank
from evidence.stance import ClaimContext, Finding, assess_page

# These cases hold the lexical scorer, the reader when no stance model loads; the rules
# that stay in force over the model are held in test_stance_model.py.
pytestmark = pytest.mark.usefixtures("lexical_stance")

TAX_CUT = "The minister announced a tax cut."


def _read(claim: str, sentence: str) -> Finding:
    page = (
        "Politics live, Tuesday edition. "
        + sentence
        + " Opposition parties are due to respond in parliament later this week."
    )
    context = ClaimContext(text=claim)
    chunks = rerank(claim_text=claim, chunks=chunk_text(text=page), top_k=1)
    [finding] = assess_page(
        claim=context, page_text=page, title="Politics", chunks=chunks, published_at=None
    )
    return finding


@pytest.mark.parametrize(
    "sentence",
    [
        "The minister, who did not attend the summit in Brussels, announced the tax cut on Monday.",
        "Although the talks did not produce an agreement, the minister announced a tax cut for "
        "small firms.",
        "The minister announced the tax cut at a press conference that was not open to the "
        "public; critics said it came too late.",
    ],
)
def test_a_negation_in_a_clause_about_something_else_does_not_refute(sentence: str) -> None:
    finding = _read(TAX_CUT, sentence)

    assert finding.stance == Stance.SUPPORT
    assert finding.quote.startswith(sentence.split(";")[0][:40])


@pytest.mark.parametrize(
    "sentence",
    [
        "The minister did not announce a tax cut on Monday, aides said.",
        "The minister, who attended the summit in Brussels, did not announce a tax cut.",
        "Contrary to reports, no tax cut was announced by the minister on Monday.",
    ],
)
def test_a_negation_of_the_claims_own_words_still_refutes(sentence: str) -> None:
    assert _read(TAX_CUT, sentence).stance == Stance.REFUTE


def test_a_negated_claim_is_refuted_by_a_page_whose_only_negation_is_elsewhere() -> None:
    finding = _read(
        "The minister did not announce a tax cut.",
        "The minister, who did not attend the summit in Brussels, announced the tax cut on Monday.",
    )

    assert finding.stance == Stance.REFUTE


def test_without_negates_only_the_phrase_it_opens() -> None:
    claim = "The council approved the harbour plan."

    assert (
        _read(claim, "The council approved the harbour plan without amendments on Monday.").stance
        == Stance.SUPPORT
    )
    assert (
        _read(claim, "The council voted on Monday without approving the harbour plan.").stance
        == Stance.REFUTE
    )


@pytest.mark.parametrize(
    ("claim", "sentence", "stance"),
    [
        # A headline made from a web address drops the apostrophe: "wont" is "won't".
        (
            "The iPhone 12 won\u2019t come with a charger.",
            "Apple iPhone 12 wont come with a charger in the box",
            Stance.SUPPORT,
        ),
        (
            "The iPhone 12 will come with a charger.",
            "Apple iPhone 12 wont come with a charger in the box",
            Stance.REFUTE,
        ),
        (
            "The minister did not announce a tax cut.",
            "Minister didnt announce tax cut after all",
            Stance.SUPPORT,
        ),
    ],
)
def test_a_contraction_written_without_its_apostrophe_negates(
    claim: str, sentence: str, stance: str
) -> None:
    assert _read(claim, sentence).stance == stance
