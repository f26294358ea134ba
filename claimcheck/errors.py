"""The one family of errors a service raises when what was asked cannot be done.

Each error knows its HTTP status and its short API label; the message is written for the person
who asked. They are mapped to HTTP in two places only: the API root (`config.api`), which
answers `{"error", "details"}`, and `ApplicationErrorMiddleware` for pages. A view catches one
only to show it beside the form field it names (`form_error`).

The statuses, the same wherever the refusal is found (the request's schema or a service): 422
`"invalid request"` for input that does not validate, 409 for a request the current state
refuses (a claim being checked, an outcome it has already, a name already taken), 403 and 404.
`details` is a list of `{"field", "message"}` whenever a field is at fault (and on every 422,
`""` naming the whole body), otherwise one sentence."""

from __future__ import annotations

from typing import Any

from django import forms

INVALID = "invalid request"


def field_details(field: str, message: str) -> list[dict[str, str]]:
    """The API's details for input at fault: one `{"field", "message"}` a field."""
    return [{"field": field, "message": message}]


class ApplicationError(Exception):
    """`field` names the input at fault, when there is one; the API then answers its details as
    a list of `{"field", "message"}` instead of the bare message."""

    status: int = 422
    error: str = INVALID

    def __init__(self, message: str = "", *, field: str = "") -> None:
        self.message = message or self.error
        self.field = field
        super().__init__(self.message)

    def headers(self) -> dict[str, str]:
        """Headers the answer carries besides its body (none unless a refusal says more)."""
        return {}

    def payload(self) -> dict[str, Any]:
        """What the API answers."""
        if self.field or self.status == 422:
            return {"error": self.error, "details": field_details(self.field, self.message)}
        return {"error": self.error, "details": self.message}


class Forbidden(ApplicationError):
    """The signed-in user lacks the role. `page_message` is what a page says: the role it needs
    and how to get it; the API answers the shorter `message`."""

    status = 403
    error = "forbidden"

    def __init__(self, message: str, *, page_message: str = "") -> None:
        super().__init__(message)
        self.page_message = page_message or message


class NotFound(ApplicationError):
    status = 404
    error = "not found"


class DatabaseUnavailable(ApplicationError):
    """The database cannot be reached (down, restarting, a connection it dropped): nothing is
    wrong with the request, which succeeds once it is back."""

    status = 503
    error = "service unavailable"
    # A restart of the database takes seconds, and every process reconnects at its next query.
    retry_after_seconds = 5

    def __init__(self) -> None:
        super().__init__("the database cannot be reached; try again in a few seconds")

    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after_seconds)}


def form_error(form: forms.BaseForm, exc: ApplicationError) -> None:
    """Shows a service's refusal on the form: beside the field it names, or above the form when
    the field is not one of the form's."""
    form.add_error(exc.field if exc.field in form.fields else None, exc.message)
