"""Query refinement: one deterministic tweak a turn, never a query sent before."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from decisions.query import CORE_TERMS, compose_initial_query, refine_query
from decisions.types import ClaimQuestion
from harvester.schema import MAX_KEYWORDS

pytestmark = pytest.mark.django_db

TASK = ClaimQuestion(
    text=(
        "People who do not vote for the Bharatiya Janata Party in the state elections will not "
        "get the COVID vaccine free of cost."
    )
)


def test_the_first_query_asks_for_all_of_a_few_core_terms() -> None:
    base = compose_initial_query(question=TASK)

    assert base.boolean == "AND"
    assert len(base.keywords) == CORE_TERMS


def test_broadening_asks_for_any_of_the_claims_words_one_by_one_names_first() -> None:
    base = compose_initial_query(question=TASK)

    broadened = refine_query(base=base, attempt=2, question=TASK, snippets=[], sent=set())

    assert broadened is not None
    assert broadened.schema.boolean == "OR"
    keywords = broadened.schema.keywords
    assert all(" " not in k for k in keywords)
    assert keywords[:5] == ["People", "Bharatiya", "Janata", "Party", "COVID"]
    assert {"vaccine", "elections", "free", "cost"} <= set(keywords)
    assert len(keywords) <= MAX_KEYWORDS


def test_a_claim_dated_in_a_window_is_also_searched_at_any_date() -> None:
    question = ClaimQuestion(
        text="The Borealis Space Agency launched the Aurora-3 weather satellite in March 2023",
        timeframe_start=datetime(2023, 3, 1, tzinfo=UTC),
        timeframe_end=datetime(2023, 3, 31, tzinfo=UTC),
    )
    base = compose_initial_query(question=question)
    assert (base.filters.date_after, base.filters.date_before) == ("2023-01-30", "2023-06-29")
    sent = {base.compile()}
    tweaks = []
    for attempt in (2, 3, 4):
        composed = refine_query(
            base=base, attempt=attempt, question=question, snippets=[], sent=sent
        )
        assert composed is not None
        sent.add(composed.schema.compile())
        tweaks.append(composed)

    assert [t.tweak for t in tweaks[:2]] == [
        "any of the claim's words",
        "the claimed event at any date",
    ]
    beyond = tweaks[1].schema
    assert beyond.keywords == base.keywords
    assert (beyond.filters.date_after, beyond.filters.date_before) == (None, None)
    names = tweaks[2].schema
    assert names.keywords == ["Borealis", "Space", "Agency", "Aurora-3"]
    assert names.boolean == "AND" and names.filters.date_after is None


def test_a_claim_without_a_window_goes_from_its_words_to_its_names_and_numbers_not_dates() -> None:
    question = ClaimQuestion(text="Donald Trump paid $750 in federal income taxes in 2016 and 2017")
    base = compose_initial_query(question=question)

    third = refine_query(
        base=base,
        attempt=3,
        question=question,
        snippets=[],
        sent={base.compile()},
    )

    assert third is not None
    assert third.tweak == "the claim's names and numbers, any date"
    assert third.schema.keywords == ["Donald", "Trump", "750"]
    assert third.schema.boolean == "AND"


def test_a_tweak_that_would_repeat_a_sent_query_is_skipped() -> None:
    base = compose_initial_query(question=TASK)
    broadened = refine_query(base=base, attempt=2, question=TASK, snippets=[], sent=set())
    assert broadened is not None

    again = refine_query(
        base=base, attempt=2, question=TASK, snippets=[], sent={broadened.schema.compile()}
    )

    assert again is not None
    assert again.schema.compile() != broadened.schema.compile()


def _tweaks_sent(question: ClaimQuestion, snippets: list[str], empty: frozenset[str]) -> list[str]:
    base = compose_initial_query(question=question)
    sent = {base.compile()}
    names = []
    for attempt in (2, 3, 4):
        composed = refine_query(
            base=base,
            attempt=attempt,
            question=question,
            snippets=snippets,
            sent=sent,
            empty=empty,
        )
        assert composed is not None
        sent.add(composed.schema.compile())
        names.append(composed.tweak)
    return names


def test_a_tweak_that_only_narrows_a_query_which_found_nothing_is_skipped() -> None:
    question = ClaimQuestion(text="Donald Trump paid $750 in federal income taxes in 2016 and 2017")
    base = compose_initial_query(question=question)
    snippets = ["Melania Trump at the gala", "Melania Trump spoke"]

    # The first query found something: a name seen in its results narrows it usefully.
    assert _tweaks_sent(question, snippets, frozenset())[-1] == "add a name seen in results"

    # It found nothing: all of its words and one more cannot find more; the next tweak that
    # widens the search is sent instead.
    fourth = _tweaks_sent(question, snippets, frozenset({base.compile()}))[-1]
    assert fourth == "official sites only"
