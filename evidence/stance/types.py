"""What the stance reading works on and gives back: the claim as the reader sees it, and a
finding (a quote from the page, its stance and the date of the event it reports)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime


@dataclass(frozen=True)
class ClaimContext:
    text: str
    timeframe_start: datetime | None = None
    timeframe_end: datetime | None = None


@dataclass(frozen=True)
class Finding:
    quote: str
    stance: str
    score: float
    confidence: str
    event_at: date | None
    date_source: str
    method: str
    # "month" when the text only gives a month ("in March 2024"); event_at is then its 1st.
    event_precision: str = "day"
