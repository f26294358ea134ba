"""Schemas shared by every app's API routes."""

from typing import Any

from ninja import Schema

FORBIDDEN_EDITORS = {"error": "forbidden", "details": "this needs the editors group"}
FORBIDDEN_ADMINS = {"error": "forbidden", "details": "this needs the admins group"}


class ErrorOut(Schema):
    """Every error answers with this shape."""

    error: str
    details: Any = ""


# Far past any real list, and small enough for every database's OFFSET (a larger number used to
# overflow inside the driver and answer 500).
OFFSET_MAX = 1_000_000_000
