"""What the decisions services raise when an action cannot be done: the application's error
family (`claimcheck.errors`), so that the API root and the page middleware map them to HTTP.
A claim's own refusals (`ClaimError`) come from the claims app and are named here too, for the
desk's views and API."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from claimcheck.errors import ApplicationError
from claims.errors import UNSEARCHABLE, ClaimError, StaleClaim

__all__ = [
    "UNSEARCHABLE",
    "BatchError",
    "BatchProblem",
    "ClaimError",
    "OverrideRefused",
    "QueueUnavailableError",
    "StaleClaim",
]


class OverrideRefused(ClaimError):
    """An override that cannot be stored: a bad outcome or reason (422), or one the claim's
    state refuses (409 "cannot override"): no verdict yet, or the outcome it has already."""

    def __init__(self, message: str, *, field: str, conflict: bool = False) -> None:
        super().__init__(message, field=field)
        if conflict or field == "status":
            self.status = 409
            self.error = "cannot override"


class QueueUnavailableError(ClaimError):
    """The task queue cannot take work. Raised before anything is stored, so a client may
    simply try again later."""

    status = 503
    error = "queue unavailable"

    def __init__(self) -> None:
        super().__init__(
            "the task queue is unreachable, so nothing was stored; try again shortly",
            field="queue",
        )

    def payload(self) -> dict[str, Any]:
        return {"error": self.error, "details": self.message}


@dataclass(frozen=True)
class BatchProblem:
    line: int
    text: str
    message: str
    code: str = "invalid"
    field: str = "text"


class BatchError(ApplicationError):
    """Some items of an all-or-nothing batch cannot be checked; nothing was stored. Each problem
    names its item (its line, for a pasted batch; its index, for a list sent to the API, where
    the field is named as the schema names it: `1.text`)."""

    def __init__(self, problems: list[BatchProblem]) -> None:
        super().__init__(f"{len(problems)} line(s) cannot be checked")
        self.problems = problems

    def payload(self) -> dict[str, Any]:
        details = [
            {"field": ".".join(filter(None, (str(p.line), p.field))), "message": p.message}
            for p in self.problems
        ]
        return {"error": self.error, "details": details}
