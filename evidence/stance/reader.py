"""The LLM reading of one page: one JSON call, each finding checked on its own, quotes checked
against the page.

The reply must be JSON with a findings list; anything less is an LLM error, raised to the caller,
which decides what reads the page instead (and says so). Within the list each finding stands
alone (`integrations.llm.replies`): a score out of [0, 1] is clipped into it, and a finding that
cannot be repaired (a stance not asked for, a missing field, a wrong type) is refused without
costing the others. So is a finding whose quote does not occur in the page text (allowing only
for differences in white space): a quote an editor cannot find on the page is not evidence.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from evidence.dates import find_text_dates
from evidence.models import Method
from evidence.rerank import ScoredChunk
from evidence.stance.types import ClaimContext, Finding
from integrations import llm

MAX_FINDINGS = 4
# The longest quote a constrained reply may hold (a sentence): four findings then fit well
# within max_tokens.
MAX_QUOTE_CHARS = 200


class LLMFinding(BaseModel):
    quote: str = Field(min_length=1)
    stance: Literal["support", "refute", "neutral"]
    score: float = Field(ge=0.0, le=1.0)
    event_date: date | None = None
    confidence: Literal["high", "medium", "low"] = "low"


class LLMStance(BaseModel):
    """The reply asked for, as the schema sent to the server says it."""

    findings: list[LLMFinding] = Field(max_length=12)


class LLMReply(BaseModel):
    """The reply as it is validated: the findings list is required (a reply without one, other
    keys, is not the answer asked for) but its items are judged one by one, after the call."""

    findings: list[Any]


# The numbers a finding may hold a little outside their range: clipped, not refused.
FINDING_RANGES = {"score": (0.0, 1.0)}


def reply_schema() -> dict[str, Any]:
    """The JSON schema sent to a server that constrains replies to one: `LLMStance` with the
    findings we keep (MAX_FINDINGS) and quotes of sentence length, so that a constrained model
    stops where a reading ends instead of quoting on to max_tokens."""
    schema = LLMStance.model_json_schema()
    schema["properties"]["findings"]["maxItems"] = MAX_FINDINGS
    schema["$defs"]["LLMFinding"]["properties"]["quote"]["maxLength"] = MAX_QUOTE_CHARS
    return schema


def locate_quote(page_text: str, quote: str) -> str | None:
    """The exact page text a quote stands for: the quote itself, or the same words with the
    page's own white space; None when it is not there."""
    quote = quote.strip()
    if not quote:
        return None
    if quote in page_text:
        return quote
    words = quote.split()
    pattern = r"\s+".join(re.escape(word) for word in words)
    match = re.search(pattern, page_text)
    return match.group(0) if match else None


def _user_message(
    claim: ClaimContext,
    title: str,
    chunks: list[ScoredChunk],
    published_at: datetime | date | None,
) -> str:
    start = claim.timeframe_start.date().isoformat() if claim.timeframe_start else "none"
    end = claim.timeframe_end.date().isoformat() if claim.timeframe_end else "none"
    published = published_at.isoformat() if published_at else "unknown"
    passages = "\n\n".join(
        f"[passage {n}{' — ' + ' > '.join(s.chunk.heading_path) if s.chunk.heading_path else ''}]"
        f"\n{s.chunk.text}"
        for n, s in enumerate(chunks, start=1)
    )
    return (
        f"Claim: {claim.text}\nClaim timeframe: {start} to {end}\n"
        f"Page title: {title}\nPage published: {published}\n\nPage text passages:\n\n{passages}"
    )


def read_page(
    *,
    claim: ClaimContext,
    page_text: str,
    title: str,
    chunks: list[ScoredChunk],
    published_at: datetime | date | None,
    tally: llm.ReplyTally | None = None,
) -> list[Finding]:
    """The page's findings by the LLM. `tally` counts the findings clipped and refused; the
    caller records it (this may run in a worker thread, which keeps off the database)."""
    tally = tally if tally is not None else llm.ReplyTally("stance")
    system, _ = llm.load_prompt("stance")
    result = llm.complete_json(
        system=system,
        user=_user_message(claim, title, chunks, published_at),
        schema=LLMReply,
        purpose="stance",
        response_schema=reply_schema(),
    )
    items = llm.items_check(
        result.value.findings,
        model=LLMFinding,
        ranges=FINDING_RANGES,
        tally=tally,
        check=lambda item: (
            None if locate_quote(page_text, item.quote) is not None else "quote not on the page"
        ),
    )
    reference = published_at.date() if isinstance(published_at, datetime) else published_at
    findings: list[Finding] = []
    quoted: set[str] = set()
    for item in items:
        quote = locate_quote(page_text, item.quote)
        if quote is None:  # checked above; kept for the type checker
            continue
        said = " ".join(quote.split()).strip(" .,;:!?\"'").casefold()
        if said in quoted:
            # A small model may give one sentence as several findings: the first stands.
            continue
        quoted.add(said)
        event_at, source, precision = item.event_date, "llm" if item.event_date else "", "day"
        if event_at is None:
            events = [m for m in find_text_dates(quote, reference=reference) if m.is_event]
            if events:
                event_at, source, precision = events[0].when, events[0].source, events[0].precision
        findings.append(
            Finding(
                quote=quote,
                stance=item.stance,
                score=item.score,
                confidence=item.confidence,
                event_at=event_at,
                date_source=source,
                method=Method.LLM,
                event_precision=precision,
            )
        )
        if len(findings) >= MAX_FINDINGS:
            break
    return findings
