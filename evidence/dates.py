"""Dates written in running text, and whether they sit next to an event phrase.

A page's publication date and the date of the event it reports are different things: a page
published on 3 March that says "the law was approved on March 1" reports an event on 1 March.
This module finds the second kind. It is deliberately conservative: explicit dates always,
a month-and-day without a year, a weekday ("on Tuesday"), "yesterday" or "today" only when a
reference date (the page's publication date) lets us place it, and nothing ambiguous such as
03/04/2024.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta

MIN_YEAR = 1900
MAX_YEAR = 2100

_MONTHS = {
    "january": 1,
    "february": 2,
    "march": 3,
    "april": 4,
    "may": 5,
    "june": 6,
    "july": 7,
    "august": 8,
    "september": 9,
    "october": 10,
    "november": 11,
    "december": 12,
}
_ABBREVIATIONS = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "sept": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

# Month names must be capitalised (or all caps): "may" in lower case is a verb far more often.
_MONTH_WORDS = sorted(
    [name.capitalize() for name in _MONTHS]
    + [name.upper() for name in _MONTHS]
    + [abbr.capitalize() + r"\.?" for abbr in _ABBREVIATIONS],
    key=len,
    reverse=True,
)
_MONTH = "(?P<month>" + "|".join(_MONTH_WORDS) + ")"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:19|20|21)\d\d)"

# Order matters: full dates first, then partial ones, so that a span is claimed once.
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("iso", re.compile(r"\b" + _YEAR + r"-(?P<mon>[01]\d)-(?P<day>[0-3]\d)(?![\d-])")),
    ("dmy", re.compile(r"\b" + _DAY + r"\s+(?:of\s+)?" + _MONTH + r",?\s+" + _YEAR + r"\b")),
    ("mdy", re.compile(r"\b" + _MONTH + r"\s+" + _DAY + r",?\s+" + _YEAR + r"\b")),
    ("my", re.compile(r"\b" + _MONTH + r",?\s+" + _YEAR + r"\b")),
    ("dm", re.compile(r"\b" + _DAY + r"\s+(?:of\s+)?" + _MONTH + r"(?![\w.])")),
    ("md", re.compile(r"\b" + _MONTH + r"\s+" + _DAY + r"\b(?!\s*[,:]?\s*\d)")),
    (
        "weekday",
        re.compile(
            r"\b(?:on|last)\s+(?P<weekday>" + "|".join(w.capitalize() for w in _WEEKDAYS) + r")\b"
        ),
    ),
    ("yesterday", re.compile(r"\b[Yy]esterday\b")),
    # "The council today approved the budget": a news page's "today" is the day it was published.
    ("today", re.compile(r"\b[Tt]oday\b")),
]

# Verbs and phrases that say something happened (or will happen) at a point in time.
EVENT_PHRASES = re.compile(
    r"\b(?:"
    r"approv(?:ed|es|al)|sign(?:ed|s|ing)|enter(?:ed|s)? into force|c[ao]me into force|"
    r"launch(?:ed|es)?|announc(?:ed|es|ement)|w[oi]ns?|won|rul(?:ed|es|ing)|pass(?:ed|es)|"
    r"releas(?:ed|es)|t(?:ook|akes?) effect|went into effect|(?:becomes?|became) effective|"
    r"effective (?:from|on|as of)|enact(?:ed|s)|adopt(?:ed|s)|ratif(?:ied|ies)|elected|"
    r"appointed|resign(?:ed|s)|died|founded|open(?:ed|s)|clos(?:ed|es)|complet(?:ed|es)|"
    r"acquir(?:ed|es)|merg(?:ed|es)|filed|sentenced|convicted|arrested|declared|unveil(?:ed|s)|"
    r"beg(?:an|ins)|start(?:ed|s)|end(?:ed|s)|occurred|happened|held|vot(?:ed|es)|confirmed|"
    r"issued|ban(?:ned|s)|defeat(?:ed|s)|beat|scored|reached|hit|crossed|surpassed|"
    r"introduc(?:ed|es)|implement(?:ed|s)|rejected|denied|vetoed|overturned|blocked|"
    r"struck down|debuted|premiered|went live|shipped|became|"
    r"deadline|scheduled|expected|due|will"
    r")\b",
    re.IGNORECASE,
)
# A date right after these words is the page's own dateline, not an event it reports.
_DATELINE = re.compile(
    r"\b(?:published|updated|posted|modified|last (?:updated|modified|reviewed)|copyright|©)"
    r"\s*(?:on|at)?\s*:?\s*$",
    re.IGNORECASE,
)
_EVENT_WINDOW = 120  # characters between the date and the event phrase, within one sentence

_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])|\n+")
_ABBREVIATION_TAIL = re.compile(
    r"\b(?:[A-Z]|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|Mr|Mrs|Ms|Dr|St|No|vs|U\.S)\.$"
)


@dataclass(frozen=True)
class DatedMention:
    when: date
    phrase: str
    sentence: str
    source: str
    is_event: bool
    # "day" or "month": "March 2024" becomes 2024-03-01 with month precision.
    precision: str = "day"
    event_phrase: str = ""
    start: int = 0

    def as_json(self) -> dict[str, str | bool | int]:
        return {
            "when": self.when.isoformat(),
            "phrase": self.phrase,
            "sentence": self.sentence,
            "source": self.source,
            "is_event": self.is_event,
            "precision": self.precision,
            "event_phrase": self.event_phrase,
            "start": self.start,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> DatedMention | None:
        """The inverse of as_json; None for an entry that does not parse (stored by an older
        version or edited by hand) rather than an error, because it is only a hint."""
        try:
            when = date.fromisoformat(str(data["when"]))
        except (KeyError, ValueError):
            return None
        start = data.get("start", 0)
        return cls(
            when=when,
            phrase=str(data.get("phrase", "")),
            sentence=str(data.get("sentence", "")),
            source=str(data.get("source", "text")),
            is_event=bool(data.get("is_event", False)),
            precision=str(data.get("precision", "day")),
            event_phrase=str(data.get("event_phrase", "")),
            start=start if isinstance(start, int) else 0,
        )


def month_number(word: str) -> int | None:
    word = word.rstrip(".").lower()
    return _MONTHS.get(word) or _ABBREVIATIONS.get(word)


def _safe_date(year: int, month: int, day: int) -> date | None:
    if not MIN_YEAR <= year <= MAX_YEAR:
        return None
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _nearest_year(month: int, day: int, reference: date) -> date | None:
    """A month-and-day with no year: the candidate year that lands closest to the reference."""
    candidates = [_safe_date(reference.year + shift, month, day) for shift in (-1, 0, 1)]
    valid = [c for c in candidates if c is not None]
    if not valid:
        return None
    return min(valid, key=lambda c: abs((c - reference).days))


def _resolve(kind: str, match: re.Match[str], reference: date | None) -> tuple[date, str] | None:
    groups = match.groupdict()
    if kind == "iso":
        found = _safe_date(int(groups["year"]), int(groups["mon"]), int(groups["day"]))
        return (found, "day") if found else None
    if kind == "weekday":
        if reference is None:
            return None
        target = _WEEKDAYS.index(groups["weekday"].lower())
        back = (reference.weekday() - target) % 7
        return reference - timedelta(days=back), "day"
    if kind == "yesterday":
        return (reference - timedelta(days=1), "day") if reference else None
    if kind == "today":
        return (reference, "day") if reference else None
    month = month_number(groups["month"])
    if month is None:
        return None
    if kind == "my":
        found = _safe_date(int(groups["year"]), month, 1)
        return (found, "month") if found else None
    day = int(groups["day"])
    if kind in ("dmy", "mdy"):
        found = _safe_date(int(groups["year"]), month, day)
        return (found, "day") if found else None
    if reference is None:
        return None
    found = _nearest_year(month, day, reference)
    return (found, "day") if found else None


def sentence_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence around text[start:end]: from the previous sentence end to the next one."""
    left = 0
    for boundary in _SENTENCE_END.finditer(text, 0, start):
        if not _ABBREVIATION_TAIL.search(text[max(0, boundary.start() - 6) : boundary.start()]):
            left = boundary.end()
    right = len(text)
    for boundary in _SENTENCE_END.finditer(text, end):
        if not _ABBREVIATION_TAIL.search(text[max(0, boundary.start() - 6) : boundary.start()]):
            right = boundary.start()
            break
    return left, right


def _event_phrase_near(sentence: str, phrase_start: int, phrase_end: int) -> str:
    best = ""
    best_gap = _EVENT_WINDOW + 1
    for hit in EVENT_PHRASES.finditer(sentence):
        gap = max(phrase_start - hit.end(), hit.start() - phrase_end, 0)
        if gap < best_gap:
            best, best_gap = hit.group(0), gap
    return best


def find_text_dates(
    text: str, *, reference: date | None, source: str = "text", limit: int = 200
) -> list[DatedMention]:
    """Every date written in `text`, in reading order, each with its sentence and whether an
    event phrase stands next to it. `reference` (usually the publication date) places
    month-day dates without a year and weekdays; without it those are skipped."""
    taken: list[tuple[int, int]] = []
    found: list[tuple[int, int, date, str, str]] = []
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(start < t_end and end > t_start for t_start, t_end in taken):
                continue
            resolved = _resolve(kind, match, reference)
            if resolved is None:
                continue
            taken.append((start, end))
            relative = kind in ("weekday", "yesterday", "today")
            kind_source = source + ":relative" if relative else source
            found.append((start, end, resolved[0], resolved[1], kind_source))
    found.sort(key=lambda item: item[0])
    mentions: list[DatedMention] = []
    for start, end, when, precision, kind_source in found[:limit]:
        left, right = sentence_bounds(text, start, end)
        raw = text[left:right]
        stripped = raw.strip()
        offset = left + (len(raw) - len(raw.lstrip()))
        dateline = bool(_DATELINE.search(text[max(0, start - 40) : start]))
        event = "" if dateline else _event_phrase_near(stripped, start - offset, end - offset)
        mentions.append(
            DatedMention(
                when=when,
                phrase=text[start:end],
                sentence=stripped,
                source=kind_source,
                is_event=bool(event),
                precision=precision,
                event_phrase=event,
                start=start,
            )
        )
    return mentions
