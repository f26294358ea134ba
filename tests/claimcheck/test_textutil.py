"""Snippets of the local index show the passage that matches the query best, as a search
engine's do, not merely the first place one of its words occurs."""

from __future__ import annotations

from claimcheck.textutil import make_snippet

FILLER = "Other news of the week filled the columns of the paper. " * 12


def test_the_snippet_shows_the_passage_with_the_most_query_terms() -> None:
    text = (
        "The satellite programme began years ago. "
        + FILLER
        + "The agency launched the Aurora-3 weather satellite on 5 November 2024 from Kiruna. "
        + FILLER
    )
    snippet = make_snippet(text, ["satellite", "Aurora-3", "launched", "November"])
    assert "Aurora-3" in snippet and "launched" in snippet and "November 2024" in snippet
    assert len(snippet) < 300


def test_with_one_match_the_snippet_starts_near_it_and_without_any_at_the_top() -> None:
    text = FILLER + "Only here is the merger mentioned. " + FILLER
    assert "merger" in make_snippet(text, ["merger"])
    assert make_snippet(text, ["absent"]).startswith("Other news")
    assert make_snippet("", ["merger"]) == ""


def test_a_stemmed_form_still_matches() -> None:
    text = FILLER + "New regulations were adopted in March. " + FILLER
    assert "regulations were adopted" in make_snippet(text, ["regulation", "adopted"])
