"""Timeframes written in a claim's text ("in March 2024", "before 1 Jan 2025", "by the end of
2023", "between 2024-07-01 and 2024-08-31"), used when none is given explicitly."""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

_MONTHS = {name.lower(): number for number, name in enumerate(calendar.month_name) if name} | {
    name.lower(): number for number, name in enumerate(calendar.month_abbr) if name
}
_MONTHS["sept"] = 9

_MONTH = r"(?P<{g}>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<{g}>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<{g}>(?:19|20)\d\d)"


def _date_pattern(suffix: str) -> str:
    """One date in any common written form; groups are suffixed so two can sit in one regex."""
    iso = rf"(?P<iso{suffix}>(?:19|20)\d\d-[01]\d-[0-3]\d)"
    dmy = (
        _DAY.format(g=f"d1{suffix}")
        + r"\s+"
        + _MONTH.format(g=f"m1{suffix}")
        + r",?\s+"
        + _YEAR.format(g=f"y1{suffix}")
    )
    mdy = (
        _MONTH.format(g=f"m2{suffix}")
        + r"\s+"
        + _DAY.format(g=f"d2{suffix}")
        + r",?\s+"
        + _YEAR.format(g=f"y2{suffix}")
    )
    my = _MONTH.format(g=f"m3{suffix}") + r",?\s+" + _YEAR.format(g=f"y3{suffix}")
    y = _YEAR.format(g=f"y4{suffix}")
    return rf"(?:{iso}|{dmy}|{mdy}|{my}|{y})"


@dataclass(frozen=True)
class _Span:
    start: date
    end: date


def _span(match: re.Match[str], suffix: str) -> _Span | None:
    groups = match.groupdict()
    try:
        if groups.get(f"iso{suffix}"):
            day = date.fromisoformat(groups[f"iso{suffix}"])
            return _Span(day, day)
        for form in ("1", "2"):
            if groups.get(f"d{form}{suffix}"):
                month = _MONTHS[groups[f"m{form}{suffix}"].lower()]
                day = date(int(groups[f"y{form}{suffix}"]), month, int(groups[f"d{form}{suffix}"]))
                return _Span(day, day)
        if groups.get(f"m3{suffix}"):
            year, month = int(groups[f"y3{suffix}"]), _MONTHS[groups[f"m3{suffix}"].lower()]
            last = calendar.monthrange(year, month)[1]
            return _Span(date(year, month, 1), date(year, month, last))
        if groups.get(f"y4{suffix}"):
            year = int(groups[f"y4{suffix}"])
            return _Span(date(year, 1, 1), date(year, 12, 31))
    except ValueError:
        return None
    return None


_A = _date_pattern("a")
_B = _date_pattern("b")
_BETWEEN = re.compile(rf"\b(?:between|from)\s+{_A}\s+(?:and|to|until|through)\s+{_B}", re.I)
_BEFORE = re.compile(rf"\b(?:before|until|by(?:\s+the\s+end\s+of)?|no\s+later\s+than)\s+{_A}", re.I)
_AFTER = re.compile(rf"\b(?:after|since|from)\s+{_A}", re.I)
_IN = re.compile(rf"\b(?:in|on|during|throughout)\s+(?:early\s+|late\s+|mid-?)?{_A}", re.I)


def _start(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


def _end(day: date) -> datetime:
    return datetime.combine(day, time.max, tzinfo=UTC)


def parse_timeframe(text: str) -> tuple[datetime | None, datetime | None] | None:
    """The timeframe a claim's text states, or None. "before X" ends just before X starts;
    "by (the end of) X" includes X."""
    if match := _BETWEEN.search(text):
        first, second = _span(match, "a"), _span(match, "b")
        if first and second and first.start <= second.end:
            return _start(first.start), _end(second.end)
    if match := _BEFORE.search(text):
        span = _span(match, "a")
        if span:
            word = match.group(0).split()[0].lower()
            if word in ("before", "until"):
                return None, _start(span.start) - timedelta(seconds=1)
            return None, _end(span.end)
    if match := _AFTER.search(text):
        span = _span(match, "a")
        if span:
            word = match.group(0).split()[0].lower()
            return (
                _start(span.end + timedelta(days=1)) if word == "after" else _start(span.start)
            ), None
    if match := _IN.search(text):
        span = _span(match, "a")
        if span:
            return _start(span.start), _end(span.end)
    return None
