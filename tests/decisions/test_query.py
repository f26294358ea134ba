"""Query refinement: one deterministic tweak a turn, never a query sent before."""

from __future__ import annotations

import pytest

from decisions.decide import ClaimQuestion
from decisions.query import CORE_TERMS, compose_initial_query, refine_query

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


def test_broadening_asks_for_any_of_every_term_of_the_claim() -> None:
    base = compose_initial_query(question=TASK)

    broadened = refine_query(base=base, attempt=2, question=TASK, snippets=[], sent=set())

    assert broadened is not None
    assert broadened.schema.boolean == "OR"
    assert broadened.schema.keywords[: len(base.keywords)] == base.keywords
    assert {"vaccine", "free", "cost"} <= {k.lower() for k in broadened.schema.keywords}


def test_a_tweak_that_would_repeat_a_sent_query_is_skipped() -> None:
    base = compose_initial_query(question=TASK)
    broadened = refine_query(base=base, attempt=2, question=TASK, snippets=[], sent=set())
    assert broadened is not None

    again = refine_query(
        base=base, attempt=2, question=TASK, snippets=[], sent={broadened.schema.compile()}
    )

    assert again is not None
    assert again.schema.compile() != broadened.schema.compile()
