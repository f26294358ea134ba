"""What the decisions services raise when an action cannot be done: the application's error
family (`claimcheck.errors`), so that the API root and the page middleware map them to HTTP."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from claimcheck.errors import ApplicationError

# A claim made only of short or common words gives the search nothing to look for.
UNSEARCHABLE = "unsearchable"


class ClaimError(ApplicationError):
    """Bad input for a claim action, or a claim whose state refuses it. `field` names what is
    wrong; a claim with nothing to search for is a 422 (the input is well formed but useless)."""

    error = "invalid claim"

    def __init__(self, message: str, *, field: str = "text", code: str = "invalid") -> None:
        super().__init__(message, field=field)
        self.code = code
        if code == UNSEARCHABLE:
            self.status = 422


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
