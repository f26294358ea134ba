"""What a change of a claim's state raises when the claim refuses it: the application's error
family (`claimcheck.errors`), so that the API root and the page middleware map it to HTTP."""

from __future__ import annotations

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


class ClaimNotRunnable(Exception):
    """The claim is decided, failed, or being run by another live worker."""
