"""The errors a search run raises: the application's family, each with its HTTP status."""

from __future__ import annotations

from typing import Any

from claimcheck.errors import INVALID, ApplicationError, field_details


class HarvestError(ApplicationError):
    status = 500
    error = "search failed"

    def __init__(self, details: str = "") -> None:
        super().__init__(details)
        self.details = details

    def payload(self) -> dict[str, Any]:
        return {"error": self.error, "details": self.details}


class RewriteInvalid(HarvestError):
    """The query, the rewrite (e.g. the LLM's JSON) or a placeholder failed validation.
    Raised before any provider is called. The client's own query at fault (`field="query"`) is
    input that does not validate (422); a rewrite that does not validate is 400."""

    status = 400
    error = "invalid schema"

    def __init__(self, details: str = "", *, field: str = "") -> None:
        super().__init__(details)
        self.field = field
        if field:
            self.status = 422
            self.error = INVALID

    def payload(self) -> dict[str, Any]:
        if self.field:
            return {"error": self.error, "details": field_details(self.field, self.details)}
        return super().payload()


class InvalidSearchRequest(HarvestError):
    """A request the service cannot serve as asked (an empty query, an unknown forced provider,
    an option out of range): input at fault, named by `field`."""

    status = 422
    error = INVALID

    def __init__(self, details: str, *, field: str) -> None:
        super().__init__(details)
        self.field = field

    def payload(self) -> dict[str, Any]:
        return {"error": self.error, "details": field_details(self.field, self.details)}


class RewriteFailed(HarvestError):
    """The configured LLM could not be reached or refused; there is no silent fallback."""

    status = 502
    error = "LLM call failed"


class AllProvidersFailed(HarvestError):
    """No provider answered. The run is stored (status failed) before this is raised, so that
    metrics see the failure; `run_id` names it."""

    status = 502
    error = "providers failed"

    def __init__(self, reasons: dict[str, str], *, run_id: int | None = None) -> None:
        self.reasons = dict(reasons)
        self.run_id = run_id
        details = "; ".join(f"{name}: {reason}" for name, reason in reasons.items())
        super().__init__(details or "no provider is enabled")

    def payload(self) -> dict[str, Any]:
        return {
            "error": self.error,
            "details": self.details,
            "providers": self.reasons,
            "run_id": self.run_id,
        }
