"""A page that repeats a rumour in order to debunk it refutes the rumour; a sentence that only
hands the claim to a post or a rumour does not support it."""

from __future__ import annotations

import pytest

from evidence.chunking import chunk_text
from evidence.models import Stance
from evidence.rerank import rerank
from evidence.stance import ClaimContext, Finding, assess_page, assess_snippet

# These cases hold the lexical scorer, the reader when no stance model loads; the rules
# that stay in force over the model are held in test_stance_model.py.
pytestmark = pytest.mark.usefixtures("lexical_stance")

MICROCHIPS = "The Covalin vaccine contains microchips."


def _read(claim: str, body: str) -> Finding:
    page = (
        "Fact check, updated Thursday. "
        + body
        + " The vaccine's ingredients are listed in full on the regulator's website."
    )
    chunks = rerank(claim_text=claim, chunks=chunk_text(text=page), top_k=1)
    [finding] = assess_page(
        claim=ClaimContext(text=claim),
        page_text=page,
        title="Fact check",
        chunks=chunks,
        published_at=None,
    )
    assert finding.quote in page
    return finding


def test_a_rumour_followed_by_this_is_false_refutes_with_both_sentences_quoted() -> None:
    body = (
        "A viral post shared thousands of times claims that the Covalin vaccine contains "
        "microchips. This is false."
    )

    finding = _read(MICROCHIPS, body)

    assert finding.stance == Stance.REFUTE
    assert finding.quote == body


@pytest.mark.parametrize(
    "body",
    [
        "Posts shared on Facebook claimed that the Covalin vaccine contains microchips, but "
        "health officials said there is no evidence for this.",
        "The claim that the Covalin vaccine contains microchips is baseless, the regulator said.",
        "It has been claimed that the Covalin vaccine contains microchips; the manufacturer "
        "called the rumour a hoax.",
        "A rumour that the Covalin vaccine contains microchips has spread online. Doctors say it "
        "is not true.",
    ],
)
def test_a_rumour_with_a_debunk_cue_refutes_it(body: str) -> None:
    assert _read(MICROCHIPS, body).stance == Stance.REFUTE


@pytest.mark.parametrize(
    "body",
    [
        "A viral post claims that the Covalin vaccine contains microchips. The post had been "
        "shared 40,000 times by Wednesday evening.",
        # Hearsay handed to the crowd: the page passes it on without asserting it.
        "Everyone is sharing that the Covalin vaccine contains microchips. If true, it would "
        "be a scandal.",
        "People are saying that the Covalin vaccine contains microchips.",
    ],
)
def test_a_rumour_repeated_without_a_debunk_is_not_support(body: str) -> None:
    assert _read(MICROCHIPS, body).stance == Stance.NEUTRAL


def test_a_page_that_says_it_shares_that_data_asserts_what_it_says() -> None:
    body = "The regulator said that the Covalin vaccine contains microchips, sharing that data."

    assert _read(MICROCHIPS, body).stance == Stance.SUPPORT


def test_debunking_the_opposite_of_the_claim_says_nothing_clear() -> None:
    body = (
        "A viral post claims that the Covalin vaccine does not contain microchips. This is false."
    )

    assert _read(MICROCHIPS, body).stance == Stance.NEUTRAL


def test_a_claim_that_itself_calls_something_fake_is_not_debunked_by_its_own_word() -> None:
    claim = "The Dunmore election results were fabricated."
    rumour = "A viral post claims that the Dunmore election results were fabricated."

    assert _read(claim, rumour + " It was shared widely on Sunday.").stance == Stance.NEUTRAL
    assert _read(claim, rumour + " This is false.").stance == Stance.REFUTE


def test_what_officials_say_is_still_read_as_support() -> None:
    claim = "The Covalin vaccine contains an aluminium adjuvant."
    body = "Health officials said the Covalin vaccine contains an aluminium adjuvant."

    assert _read(claim, body).stance == Stance.SUPPORT


def test_a_snippet_that_quotes_a_rumour_and_debunks_it_refutes() -> None:
    finding = assess_snippet(
        claim=ClaimContext(text=MICROCHIPS),
        title="Fact check",
        snippet="A viral post claims that the Covalin vaccine contains microchips. This is false.",
        published=None,
    )

    assert finding is not None
    assert finding.stance == Stance.REFUTE
