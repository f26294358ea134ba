"""Stance of a page toward a claim: the deterministic scorer on hand-written cases, and the
LLM reading (through litellm's mock) with its quote check."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from evidence.chunking import chunk_text
from evidence.models import Confidence, Method, Stance
from evidence.rerank import rerank
from evidence.stance import ClaimContext, assess_page, assess_snippet
from integrations.llm import LLMError, llm_mock
from tests.evidence.factories import use_config

# These cases hold the lexical scorer, the reader when no stance model loads; the rules
# that stay in force over the model are held in test_stance_model.py.
pytestmark = pytest.mark.usefixtures("lexical_stance")

CLAIM = ClaimContext(
    text="The Senate approved the budget bill by 60 votes in March 2024.",
    timeframe_start=datetime(2024, 3, 1, tzinfo=UTC),
    timeframe_end=datetime(2024, 3, 31, 23, 59, tzinfo=UTC),
)
PUBLISHED = datetime(2024, 3, 6, tzinfo=UTC)


def _one(sentence: str, claim: ClaimContext = CLAIM) -> Any:
    page = "Parliament news. " + sentence + " Reporters covered the session from the gallery."
    chunks = rerank(claim_text=claim.text, chunks=chunk_text(text=page), top_k=1)
    [finding] = assess_page(
        claim=claim, page_text=page, title="News", chunks=chunks, published_at=PUBLISHED
    )
    return finding


def test_a_sentence_that_states_the_claim_supports_it() -> None:
    finding = _one("The Senate approved the budget bill on 5 March 2024 by 60 votes to 38.")

    assert finding.stance == Stance.SUPPORT
    assert finding.quote == "The Senate approved the budget bill on 5 March 2024 by 60 votes to 38."
    assert finding.event_at == date(2024, 3, 5)
    assert finding.confidence == Confidence.HIGH
    assert finding.method == Method.RERANK


def test_a_different_number_for_the_same_count_refutes() -> None:
    finding = _one("The Senate approved the budget bill by 45 votes on 5 March 2024.")

    assert finding.stance == Stance.REFUTE


def test_an_event_date_outside_the_claims_timeframe_refutes() -> None:
    finding = _one("The Senate approved the budget bill by 60 votes on 12 June 2023.")

    assert finding.stance == Stance.REFUTE
    assert finding.event_at == date(2023, 6, 12)


@pytest.mark.parametrize(
    "question",
    [
        "Did the Senate approve the budget bill by 60 votes in March 2024?",
        "Did the Senate approve the budget bill by 60 votes in March 2024",
        "How many votes did the Senate approve the budget bill by in March 2024?",
    ],
)
def test_a_question_that_repeats_the_claim_is_neutral(question: str) -> None:
    assert _one(question).stance == Stance.NEUTRAL


def _faq(question: str, answer: str, claim: ClaimContext = CLAIM) -> Any:
    """A page set out as questions with their answers below them, one per line."""
    page = f"Questions and answers\n{question}\n{answer}\nMore questions follow below."
    chunks = rerank(claim_text=claim.text, chunks=chunk_text(text=page), top_k=1)
    [finding] = assess_page(
        claim=claim, page_text=page, title="FAQ", chunks=chunks, published_at=PUBLISHED
    )
    assert finding.quote in page
    return finding


QUESTION = "Did the Senate approve the budget bill by 60 votes in March 2024?"


def test_a_question_answered_yes_supports_what_it_asks() -> None:
    finding = _faq(QUESTION, "Yes. The vote was held on the fifth.")

    assert finding.stance == Stance.SUPPORT
    assert finding.quote == f"{QUESTION}\nYes. The vote was held on the fifth."


def test_a_question_answered_no_refutes_what_it_asks() -> None:
    finding = _faq(QUESTION, "No: the vote was postponed until the autumn session.")

    assert finding.stance == Stance.REFUTE
    assert finding.quote.startswith(QUESTION)


@pytest.mark.parametrize(
    "answer",
    [
        "No one in the chamber expected a vote that week.",
        "No longer a priority, said the leader of the house.",
    ],
)
def test_a_sentence_that_merely_opens_with_no_is_not_an_answer(answer: str) -> None:
    assert _faq(QUESTION, answer).stance == Stance.NEUTRAL


def test_no_to_a_question_that_already_contradicts_the_claim_says_nothing_clear() -> None:
    question = "Did the Senate reject the budget bill by 60 votes in March 2024?"

    assert _faq(question, "No. It was a different bill.").stance == Stance.NEUTRAL


def test_a_yes_under_a_statement_is_read_as_its_own_sentence() -> None:
    finding = _faq("The Senate met on Tuesday.", "Yes, it was a long day for the clerks.")

    assert finding.stance == Stance.NEUTRAL


def test_a_closely_related_refutation_beats_a_loosely_related_support_in_one_chunk() -> None:
    claim = ClaimContext(
        text="Mayor Ilse Brandt announced that Riverton will host the 2028 Continental Games."
    )
    page = (
        "Mayor Ilse Brandt used her new year reception on 3 January 2025 to say that Riverton "
        "should bid for a major sporting event before the end of the decade. A spokesperson for "
        "the mayor said on Sunday that Riverton has not been chosen to host the 2028 Continental "
        "Games and that any bid would first need a vote of the city council."
    )
    chunks = rerank(claim_text=claim.text, chunks=chunk_text(text=page), top_k=1)

    [finding] = assess_page(
        claim=claim, page_text=page, title="News", chunks=chunks, published_at=PUBLISHED
    )

    assert finding.stance == Stance.REFUTE
    assert finding.quote.startswith("A spokesperson for the mayor said")


def test_a_report_that_the_claim_was_wrongly_made_refutes() -> None:
    finding = _one("Officials wrongly claimed the Senate approved the budget bill by 60 votes.")

    assert finding.stance == Stance.REFUTE


def test_a_negated_statement_refutes() -> None:
    finding = _one("The Senate has not approved the budget bill, and no vote is scheduled.")

    assert finding.stance == Stance.REFUTE


def test_the_opposite_verb_refutes() -> None:
    finding = _one("The Senate rejected the budget bill on 5 March 2024.")

    assert finding.stance == Stance.REFUTE


def test_unrelated_text_is_neutral() -> None:
    finding = _one("The city zoo welcomed two baby pandas, now on display to visitors.")

    assert finding.stance == Stance.NEUTRAL
    assert finding.confidence == Confidence.LOW


def test_a_hedged_statement_is_never_held_with_high_confidence() -> None:
    finding = _one("The Senate may approve the budget bill by 60 votes in March 2024, aides said.")

    assert finding.stance == Stance.SUPPORT
    assert finding.confidence != Confidence.HIGH


def test_every_quote_is_text_of_the_page() -> None:
    page = (
        ("Intro paragraph about the week.\n\n" * 20)
        + ("The Senate approved the budget bill on 5 March 2024 by 60 votes to 38.\n\n")
        + ("Sport results and weather.\n\n" * 30)
    )
    chunks = rerank(claim_text=CLAIM.text, chunks=chunk_text(text=page, size=300), top_k=3)

    findings = assess_page(
        claim=CLAIM, page_text=page, title="t", chunks=chunks, published_at=PUBLISHED
    )

    assert findings
    assert all(f.quote in page for f in findings)
    assert len({f.quote for f in findings}) == len(findings)
    assert findings[0].stance == Stance.SUPPORT


def test_a_yearless_date_in_the_quote_is_placed_by_the_publication_date() -> None:
    claim = ClaimContext(text="The council approved the harbour plan in March 2024.")
    page = "The council approved the harbour plan on March 1 after a long debate."
    chunks = rerank(claim_text=claim.text, chunks=chunk_text(text=page), top_k=1)

    [finding] = assess_page(
        claim=claim, page_text=page, title="t", chunks=chunks, published_at=PUBLISHED
    )

    assert finding.event_at == date(2024, 3, 1)
    assert finding.date_source == "text"


def test_a_snippet_is_judged_but_never_with_high_confidence() -> None:
    finding = assess_snippet(
        claim=CLAIM,
        title="Budget passes",
        snippet="The Senate approved the budget bill on 5 March 2024 by 60 votes to 38 ...",
        published=PUBLISHED,
    )

    assert finding is not None
    assert finding.stance == Stance.SUPPORT
    assert finding.method == Method.SNIPPET
    assert finding.confidence != Confidence.HIGH
    assert finding.event_at == date(2024, 3, 5)


def test_an_empty_snippet_gives_no_finding() -> None:
    assert assess_snippet(claim=CLAIM, title="x", snippet="  ", published=None) is None


# --- with an LLM configured ---------------------------------------------------------------------

LLM_PAGE = (
    "Budget news.\n\nThe Senate approved   the budget bill on 5 March 2024 by 60 votes to 38.\n\n"
    "Critics said the bill cuts rail funding."
)


@pytest.fixture
def with_llm(settings: Any, tmp_path: Path) -> None:
    use_config(settings, tmp_path, "llm:\n  model: openai/gpt-4o-mini\n")


def _llm_findings() -> Any:
    chunks = rerank(claim_text=CLAIM.text, chunks=chunk_text(text=LLM_PAGE), top_k=3)
    return assess_page(
        claim=CLAIM, page_text=LLM_PAGE, title="Budget", chunks=chunks, published_at=PUBLISHED
    )


def test_the_llm_reads_the_page_in_one_call_and_its_quotes_are_checked(with_llm: None) -> None:
    reply = {
        "findings": [
            {
                # White space differs from the page; the finding keeps the page's own text.
                "quote": "The Senate approved the budget bill on 5 March 2024 by 60 votes to 38.",
                "stance": "support",
                "score": 0.9,
                "event_date": "2024-03-05",
                "confidence": "high",
            },
            {
                "quote": "The bill was vetoed by the president.",  # not on the page
                "stance": "refute",
                "score": 0.8,
                "event_date": None,
                "confidence": "high",
            },
        ]
    }
    with llm_mock([json.dumps(reply)]) as mock:
        findings = _llm_findings()

    assert mock.purposes == ["stance"]
    [finding] = findings
    assert (
        finding.quote == "The Senate approved   the budget bill on 5 March 2024 by 60 votes to 38."
    )
    assert finding.quote in LLM_PAGE
    assert finding.stance == Stance.SUPPORT
    assert finding.method == Method.LLM
    assert finding.event_at == date(2024, 3, 5)
    assert finding.date_source == "llm"


def test_an_llm_reply_without_its_findings_list_is_an_error(with_llm: None) -> None:
    # A finding that breaks the schema is refused alone: test_stance_reply_repairs.py.
    bad = json.dumps({"readings": [{"quote": "x", "stance": "maybe", "score": 2}]})
    with llm_mock([bad]), pytest.raises(LLMError) as caught:
        _llm_findings()

    assert caught.value.kind == "bad_output"


def test_a_month_that_overlaps_a_one_day_timeframe_is_not_a_date_mismatch() -> None:
    claim = ClaimContext(
        text="The Senate approved the budget bill by 60 votes.",
        timeframe_start=datetime(2024, 3, 5, tzinfo=UTC),
        timeframe_end=datetime(2024, 3, 5, 23, 59, tzinfo=UTC),
    )

    finding = _one("The Senate approved the budget bill by 60 votes in March 2024.", claim)

    assert finding.stance == Stance.SUPPORT
    assert finding.event_at == date(2024, 3, 1)
    assert finding.event_precision == "month"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Riverton will host the 2028 Continental Games.", [(2028.0, "year")]),
        ("It employs 26 per cent of the workforce.", [(26.0, "%")]),
        ("The plant has 1,200 workers.", [(1200.0, "worker")]),
        ("Sales rose to 3 billion euros.", [(3e9, "euro")]),
    ],
)
def test_a_number_followed_by_a_name_is_not_a_quantity_of_it(
    text: str, expected: list[tuple[float, str]]
) -> None:
    from evidence.stance.signals import quantities

    assert [(q.value, q.unit) for q in quantities(text)] == expected
