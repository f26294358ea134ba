"""Findings: what a page (or a search snippet) says about the claim, with a quote to show it.

With an LLM configured, one JSON call per page reads the kept chunks (reader.py); without one,
the page is read on this machine by the fine-tuned model and the lexical rules (local.py).
Either way every quote is text that occurs in the page, and the event date it gives is kept
apart from the page's own date. The types are in types.py.
"""

from __future__ import annotations

from datetime import date, datetime

from evidence.rerank import ScoredChunk
from evidence.stance import reader
from evidence.stance.local import assess_snippet, judge_sentences, model_confidence, score_page
from evidence.stance.types import ClaimContext, Finding
from integrations import llm

__all__ = [
    "ClaimContext",
    "Finding",
    "assess_page",
    "assess_snippet",
    "judge_sentences",
    "model_confidence",
]


def assess_page(
    *,
    claim: ClaimContext,
    page_text: str,
    title: str,
    chunks: list[ScoredChunk],
    published_at: datetime | date | None,
) -> list[Finding]:
    """One finding per kept chunk (fewer when chunks share their best sentence)."""
    if not chunks or not page_text:
        return []
    if llm.is_enabled():
        return reader.read_page(
            claim=claim, page_text=page_text, title=title, chunks=chunks, published_at=published_at
        )
    return score_page(claim=claim, page_text=page_text, chunks=chunks, published_at=published_at)
