"""Schemas shared by every app's API routes."""

from typing import Any

from ninja import Schema
from pydantic import BeforeValidator, ConfigDict

FORBIDDEN_EDITORS = {"error": "forbidden", "details": "this needs the editors group"}
FORBIDDEN_ADMINS = {"error": "forbidden", "details": "this needs the admins group"}


class ErrorOut(Schema):
    """Every error answers with this shape."""

    error: str
    details: Any = ""


class InputSchema(Schema):
    """The base of every body an endpoint writes from: a field it does not know is refused with
    422 naming it, instead of being dropped without a word (a misspelt `timeframe_strat` would
    otherwise store a claim with no timeframe)."""

    model_config = ConfigDict(extra="forbid")


# Far past any real list, and small enough for every database's OFFSET (a larger number used to
# overflow inside the driver and answer 500).
OFFSET_MAX = 1_000_000_000


def blank_is_none(value: Any) -> Any:
    """A filter left empty in a query string (`?status=`) means "any", as on the pages."""
    return None if isinstance(value, str) and not value.strip() else value


BlankIsNone = BeforeValidator(blank_is_none)
"""Use as `Annotated[SomeChoice | None, BlankIsNone]` on a list endpoint's optional filter."""
