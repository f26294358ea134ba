"""What a change of a claim's state raises when the claim refuses it: the application's error
family (`claimcheck.errors`), so that the API root and the page middleware map it to HTTP."""

from __future__ import annotations

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


class ClaimNotRunnable(Exception):
    """The claim is decided, failed, or being run by another live worker."""
