"""Date placeholders, expanded from the system clock at run time (never by the LLM), so that a
cached rewrite stays fresh. Which placeholders exist and where they may stand is the schema's
business (`harvester.schema.PLACEHOLDERS`); this module only gives them their dates."""

from __future__ import annotations

from datetime import date, timedelta
from typing import overload

from harvester.schema import QuerySchema, SchemaError, placeholder_problem, validate_schema


def placeholder_dates(today: date) -> dict[str, date]:
    return {
        "{TODAY}": today,
        "{YESTERDAY}": today - timedelta(days=1),
        "{LAST_WEEK_START}": today - timedelta(days=7),
        "{LAST_WEEK_END}": today,
        "{LAST_MONTH_START}": today - timedelta(days=30),
        "{LAST_MONTH_END}": today,
    }


def _expand_text(text: str, today: date) -> str:
    problem = placeholder_problem(text)
    if problem:
        raise SchemaError(problem)
    for token, value in placeholder_dates(today).items():
        text = text.replace(token, value.isoformat())
    left = placeholder_problem(text, allowed=False)
    if left:
        raise SchemaError(f"placeholder left after expansion: {left}")
    return text


@overload
def expand(value: str, *, today: date) -> str: ...


@overload
def expand(value: QuerySchema, *, today: date) -> QuerySchema: ...


def expand(value: str | QuerySchema, *, today: date) -> str | QuerySchema:
    """Replace every placeholder by its date relative to `today`.

    A template string comes back as a string, a schema as a new schema with literal dates.
    Unknown placeholders, stray braces, or anything left unexpanded raise SchemaError."""
    if isinstance(value, str):
        return _expand_text(value, today)
    filters = value.filters
    updates: dict[str, str | None] = {}
    for field in ("date_after", "date_before"):
        current = getattr(filters, field)
        if current is not None:
            try:
                updates[field] = _expand_text(current, today)
            except ValueError as exc:
                raise SchemaError(f"filters.{field}: {exc}") from exc
    data = value.model_dump()
    data["filters"].update(updates)
    return validate_schema(data)
