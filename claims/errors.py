"""What a change of a claim's state raises when the claim refuses it: the application's error
family (`claimcheck.errors`), so that the API root and the page middleware map it to HTTP."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone

from claimcheck.errors import ApplicationError

# A claim made only of short or common words gives the search nothing to look for.
UNSEARCHABLE = "unsearchable"


# Fields that name the claim's state, not the request's input: a refusal there is a conflict.
STATE_FIELDS = frozenset({"status", "assigned_to"})


class ClaimError(ApplicationError):
    """Bad input for a claim action (422), or a claim whose state refuses it (409, `field` is
    one of STATE_FIELDS). `field` names what is wrong; `code` tells a claim with nothing to
    search for (well formed but useless) from the rest."""

    def __init__(self, message: str, *, field: str = "text", code: str = "invalid") -> None:
        super().__init__(message, field=field)
        self.code = code
        if field in STATE_FIELDS:
            self.status = 409
            self.error = "conflict"


@dataclass(frozen=True)
class ClaimState:
    """What a claim is now, as a refused write answers it: its version, status and outcome, and
    who made its last change, when, and what it was ("editor2 changed the outcome from False to
    Invalid")."""

    claim_id: int
    version: int
    status: str
    outcome: str
    set_by: str
    set_at: datetime | None
    change: str

    @property
    def etag(self) -> str:
        return f'"{self.claim_id}.{self.version}"'

    def as_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "etag": self.etag,
            "status": self.status,
            "outcome": self.outcome or None,
            "set_by": self.set_by,
            "set_at": self.set_at.isoformat() if self.set_at else None,
            "change": self.change,
        }

    def words(self) -> str:
        """The change in a sentence for an editor: "editor2 changed the outcome from False to
        Invalid 6 seconds ago"."""
        change = self.change or f"{self.set_by} changed it"
        if self.set_at is None:
            return change
        return f"{change} {ago(self.set_at)}"


def ago(moment: datetime) -> str:
    """How long ago, short: "6 s ago", "3 min ago", "2 h ago", "4 days ago"."""
    seconds = max(0, int((timezone.now() - moment).total_seconds()))
    if seconds < 60:
        return f"{seconds} s ago"
    if seconds < 3600:
        return f"{seconds // 60} min ago"
    if seconds < 86400:
        return f"{seconds // 3600} h ago"
    days = seconds // 86400
    return f"{days} day{'s' if days != 1 else ''} ago"


class StaleClaim(ClaimError):
    """A write made on a version of the claim that is not its current one: someone changed it
    since it was read. Nothing was changed; `current` says what it is now (412)."""

    def __init__(self, current: ClaimState) -> None:
        super().__init__(f"the claim changed since you read it: {current.words()}", field="version")
        self.status = 412
        self.error = "stale"
        self.current = current

    def headers(self) -> dict[str, str]:
        return {"ETag": self.current.etag}

    def payload(self) -> dict[str, Any]:
        return {"error": self.error, "details": self.message, "current": self.current.as_json()}


class ClaimNotRunnable(Exception):
    """The claim is decided, failed, or being run by another live worker."""
