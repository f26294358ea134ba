"""What the decisions services raise when an action cannot be done: the application's error
family (`claimcheck.errors`), so that the API root and the page middleware map them to HTTP.
A claim's own refusals (`ClaimError`) come from the claims app and are named here too, for the
desk's views and API."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from claimcheck.errors import ApplicationError
from claims.errors import UNSEARCHABLE, ClaimError

__all__ = [
    "UNSEARCHABLE",
    "BatchError",
    "BatchProblem",
    "ClaimError",
    "OverrideRefused",
    "QueueUnavailableError",
]


class OverrideRefused(ClaimError):
    """An override that cannot be stored: a bad outcome or reason (400), or a claim with no
    verdict to override yet (409)."""

    error = "cannot override"

    def __init__(self, message: str, *, field: str) -> None:
        super().__init__(message, field=field)
        if field == "status":
            self.status = 409


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


class BatchError(ApplicationError):
    """Some items of an all-or-nothing batch cannot be checked; nothing was stored. Each problem
    names its item (its line, for a pasted batch)."""

    error = "invalid claims"

    def __init__(self, problems: list[BatchProblem]) -> None:
        super().__init__(f"{len(problems)} line(s) cannot be checked")
        self.problems = problems
        if any(problem.code == UNSEARCHABLE for problem in problems):
            self.status = 422

    def payload(self) -> dict[str, Any]:
        details = [{"index": p.line, "message": p.message} for p in self.problems]
        return {"error": self.error, "details": details}
