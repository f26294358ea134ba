"""The one family of errors a service raises when what was asked cannot be done.

Each error knows its HTTP status and its short API label; the message is written for the person
who asked. They are mapped to HTTP in two places only: the API root (`config.api`), which
answers `{"error", "details"}`, and `ApplicationErrorMiddleware` for pages. A view catches one
only to show it beside the form field it names (`form_error`)."""

from __future__ import annotations

from typing import Any

from django import forms


class ApplicationError(Exception):
    """`field` names the input at fault, when there is one; the API then answers its details as
    `{"field", "message"}` instead of the bare message."""

    status: int = 400
    error: str = "invalid request"

    def __init__(self, message: str = "", *, field: str = "") -> None:
        self.message = message or self.error
        self.field = field
        super().__init__(self.message)

    def payload(self) -> dict[str, Any]:
        """What the API answers."""
        if self.field:
            return {"error": self.error, "details": {"field": self.field, "message": self.message}}
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


def form_error(form: forms.BaseForm, exc: ApplicationError) -> None:
    """Shows a service's refusal on the form: beside the field it names, or above the form when
    the field is not one of the form's."""
    form.add_error(exc.field if exc.field in form.fields else None, exc.message)
