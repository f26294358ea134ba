"""Date placeholders: the only relative-time vocabulary a rewrite may use, expanded from the
system clock at run time (never by the LLM), so that a cached rewrite stays fresh."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import TYPE_CHECKING, overload

if TYPE_CHECKING:
    from harvester.schema import QuerySchema

PLACEHOLDERS = (
    "{TODAY}",
    "{YESTERDAY}",
    "{LAST_WEEK_START}",
    "{LAST_WEEK_END}",
    "{LAST_MONTH_START}",
    "{LAST_MONTH_END}",
)
_BRACED = re.compile(r"\{[^{}]*\}")


def placeholder_dates(today: date) -> dict[str, date]:
    return {
        "{TODAY}": today,
        "{YESTERDAY}": today - timedelta(days=1),
        "{LAST_WEEK_START}": today - timedelta(days=7),
        "{LAST_WEEK_END}": today,
        "{LAST_MONTH_START}": today - timedelta(days=30),
        "{LAST_MONTH_END}": today,
    }


def placeholder_problem(text: str, *, allowed: bool = True) -> str | None:
    """Why `text` carries an unacceptable placeholder or brace, or None.

    With `allowed`, whitelisted placeholders are fine; without, any `{...}` is stray."""
    for match in _BRACED.finditer(text):
        token = match.group(0)
        if token in PLACEHOLDERS:
            if not allowed:
                return f"placeholder {token} is only allowed in date_after / date_before"
            continue
        return f"unknown placeholder {token}"
    stripped = _BRACED.sub("", text)
    if "{" in stripped or "}" in stripped:
        return "stray { or } (not a placeholder)"
    return None


def _expand_text(text: str, today: date) -> str:
    from harvester.schema import SchemaError

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
                from harvester.schema import SchemaError

                raise SchemaError(f"filters.{field}: {exc}") from exc
    data = value.model_dump()
    data["filters"].update(updates)
    from harvester.schema import validate_schema

    return validate_schema(data)
