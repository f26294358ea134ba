"""Chunking a page and ranking its chunks against the claim."""

from __future__ import annotations

import functools
import itertools
from pathlib import Path
from typing import Any

import pytest

from evidence.chunking import Chunk, chunk_text
from evidence.rerank import rerank
from integrations import llm
from tests.evidence.factories import use_config

FILLER = "The weather stayed mild and the markets were calm for most of the week. " * 18
VOTE = "The Senate approved the budget bill on 1 March 2024 by 60 votes to 38. "
PAGE = (
    "Week in review\n\n"
    + FILLER
    + "\n\nThe budget vote\n\n"
    + VOTE * 2
    + "\n\nSport\n\n"
    + "The home team lost again on Saturday, its fourth defeat in a row. " * 15
)


def test_chunks_are_offsets_into_the_page_text() -> None:
    chunks = chunk_text(text=PAGE)

    assert len(chunks) > 2
    for chunk in chunks:
        assert PAGE[chunk.start : chunk.end] == chunk.text
        assert len(chunk.text) <= 1000


def test_consecutive_chunks_overlap_and_cover_the_whole_text() -> None:
    chunks = chunk_text(text=PAGE, size=400, overlap=100)

    assert chunks[0].start == 0
    assert chunks[-1].end == len(PAGE.rstrip())
    for before, after in itertools.pairwise(chunks):
        assert after.start < before.end  # overlap
        assert after.start > before.start


def test_chunks_end_at_sentence_or_paragraph_breaks_when_they_can() -> None:
    chunks = chunk_text(text=PAGE, size=400, overlap=100)

    assert all(c.text.endswith((".", "review", "vote", "Sport")) for c in chunks[:-1])


def test_each_chunk_carries_the_heading_path_above_it() -> None:
    chunks = chunk_text(
        text=PAGE,
        headings=["Week in review", "The budget vote", "Sport"],
        heading_levels=[1, 2, 2],
        size=300,
        overlap=50,
    )

    vote = [c for c in chunks if c.text.count("Senate approved") == 2]
    assert [c.heading_path for c in vote] == [["Week in review", "The budget vote"]]
    assert chunks[0].heading_path == ["Week in review"]
    last = chunks[-1]
    assert last.heading_path == ["Week in review", "Sport"]  # a sibling replaces the section


def test_bad_sizes_are_refused() -> None:
    with pytest.raises(ValueError):
        chunk_text(text=PAGE, size=100, overlap=100)


def test_the_chunk_about_the_claim_ranks_first() -> None:
    chunks = chunk_text(text=PAGE, size=300, overlap=50)

    ranked = rerank(claim_text="Senate approves budget bill in March 2024", chunks=chunks, top_k=2)

    assert len(ranked) == 2
    assert "Senate approved the budget bill" in ranked[0].chunk.text
    assert ranked[0].score > ranked[1].score
    assert ranked[0].cosine is not None  # the offline embedder is in play


def test_rerank_of_nothing_is_nothing() -> None:
    assert rerank(claim_text="anything", chunks=[], top_k=3) == []


def test_a_configured_embedding_model_is_used_through_the_gateway(
    settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_config(settings, tmp_path, "llm:\n  embedding_model: openai/text-embedding-3-small\n")
    chunks = [
        Chunk("Completely unrelated words about gardening.", 0, 43),
        Chunk("More words about cooking pasta at home.", 44, 83),
    ]
    # Vectors chosen so that the embedder, not BM25 (which scores both chunks 0), decides.
    vectors = [[1.0, 0.0], [0.0, 1.0], [1.0, 0.1]]
    monkeypatch.setattr(llm, "embed", functools.partial(llm.embed, mock_response=vectors))

    ranked = rerank(claim_text="claim", chunks=chunks, top_k=2)

    assert ranked[0].chunk.text.startswith("More words")
    assert ranked[0].cosine == pytest.approx(0.995, abs=0.001)


def test_a_failing_embedding_model_is_an_error_not_a_silent_fallback(
    settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_config(settings, tmp_path, "llm:\n  embedding_model: openai/text-embedding-3-small\n")
    monkeypatch.setattr(llm, "embed", functools.partial(llm.embed, mock_response=[[1.0]]))

    with pytest.raises(llm.LLMError) as caught:
        rerank(claim_text="claim", chunks=[Chunk("text here", 0, 9)], top_k=1)
    assert caught.value.kind == "bad_output"
