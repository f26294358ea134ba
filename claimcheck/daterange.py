"""The range of dates ClaimCheck accepts from anyone: claim timeframes, filters, search-run dates.

A date far outside it is a typo or an attack, never a claim about the world. Refusing it at every
door matters beyond tidiness: PostgreSQL stores timestamps up to the year 294276, while Python reads
only up to 9999, so one "9999-12-31T23:00:00-05:00" once stored made every page that listed it fail.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Annotated, TypeVar

from django.core.exceptions import ValidationError
from pydantic import AfterValidator, BeforeValidator

from claimcheck.schemas import BlankIsNone

DATE_MIN = date(1900, 1, 1)
DATE_MAX = date(2100, 12, 31)
_D = TypeVar("_D", bound=date)

RANGE_MESSAGE = f"dates must fall between {DATE_MIN.isoformat()} and {DATE_MAX.isoformat()}"


def date_in_range(value: date | datetime) -> bool:
    """The calendar date as written (in its own offset) lies in the accepted range. Checking
    it before any conversion to UTC keeps the conversion itself from overflowing."""
    day = value.date() if isinstance(value, datetime) else value
    return DATE_MIN <= day <= DATE_MAX


def _sane(value: _D) -> _D:
    if not date_in_range(value):
        raise ValueError(RANGE_MESSAGE)
    return value


NUMBER_MESSAGE = "must be a date written like 2024-06-01 or 2024-06-01T12:00:00Z, not a number"


def _written_as_date(value: object) -> object:
    """Pydantic would read a number (or a string of digits) as seconds, or milliseconds, since
    1970, so 99999999999 became a day in 1973. Nobody gives a claim's dates that way; refused."""
    if isinstance(value, int | float):
        raise ValueError(NUMBER_MESSAGE)
    if isinstance(value, str):
        try:
            float(value)
        except ValueError:
            return value
        raise ValueError(NUMBER_MESSAGE)
    return value


# Pydantic (ninja) types: a number or a value outside the range fails validation (422).
SaneDate = Annotated[date, BeforeValidator(_written_as_date), AfterValidator(_sane)]
SaneDateTime = Annotated[datetime, BeforeValidator(_written_as_date), AfterValidator(_sane)]


# A list filter's date: left empty (`?from=&to=`, as a form sends it) it filters nothing.
FilterDate = Annotated[SaneDate | None, BlankIsNone]


def validate_date_range(value: date | datetime | None) -> None:
    """A Django form field validator with the same rule."""
    if value is not None and not date_in_range(value):
        raise ValidationError(RANGE_MESSAGE[0].upper() + RANGE_MESSAGE[1:] + ".", code="range")


# What a stored timestamp may hold at most once accepted input is converted to UTC (a date at
# the edge of the range, written with any offset). Anything beyond came in before the range was
# enforced; `manage.py repair_dates` clears it.
STORED_MIN = datetime.combine(DATE_MIN - timedelta(days=1), time.min, tzinfo=UTC)
STORED_MAX = datetime.combine(DATE_MAX + timedelta(days=2), time.min, tzinfo=UTC)
