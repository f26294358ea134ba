"""Which reader reads a page: the LLM when one is configured, otherwise this machine's model and
lexical rules."""

from __future__ import annotations

from datetime import date, datetime

from evidence.rerank import ScoredChunk
from evidence.stance.local import score_page
from evidence.stance.reader import read_page
from evidence.stance.types import ClaimContext, Finding
from integrations import llm


def assess_page(
    *,
    claim: ClaimContext,
    page_text: str,
    title: str,
    chunks: list[ScoredChunk],
    published_at: datetime | date | None,
    offline: bool = False,
    tally: llm.ReplyTally | None = None,
) -> list[Finding]:
    """One finding per kept chunk (fewer when chunks share their best sentence). `offline`
    reads on this machine even with an LLM configured (after the LLM failed on this page).
    `tally` counts the LLM's findings clipped into range or refused, for the caller to record."""
    if not chunks or not page_text:
        return []
    if llm.is_enabled() and not offline:
        return read_page(
            claim=claim,
            page_text=page_text,
            title=title,
            chunks=chunks,
            published_at=published_at,
            tally=tally,
        )
    return score_page(claim=claim, page_text=page_text, chunks=chunks, published_at=published_at)
