"""The gateway's one error, and how a provider's exception becomes it: a kind that says what went
wrong and short details with no API key in them."""

from __future__ import annotations

import re
from typing import Literal

from integrations.llm.provider import litellm_module

ErrorKind = Literal[
    "not_configured", "timeout", "auth", "rate_limit", "unavailable", "bad_output", "failed"
]

_DETAILS_MAX = 300
# Provider error texts sometimes echo part of a key back ("Incorrect API key provided: sk-...").
_KEY_LIKE = re.compile(r"\b(?:sk|pk|rk|key)-[A-Za-z0-9_\-*]{6,}")


class LLMError(Exception):
    """The only error the gateway raises for a model call. `details` is short and key-free."""

    def __init__(self, kind: ErrorKind, details: str = "", *, raw_text: str | None = None) -> None:
        self.kind: ErrorKind = kind
        self.details = details
        # Kept for the caller to audit a bad output; deliberately left out of str() and logs.
        self.raw_text = raw_text
        super().__init__(f"{kind}: {details}" if details else kind)


def scrub(text: str, api_key: str | None) -> str:
    """Error text fit for details and logs: no key, one line, at most _DETAILS_MAX characters."""
    if api_key:
        text = text.replace(api_key, "***")
    text = _KEY_LIKE.sub("***", text)
    text = " ".join(text.split())
    return text if len(text) <= _DETAILS_MAX else text[: _DETAILS_MAX - 1] + "…"


def error_kind(exc: BaseException) -> ErrorKind:
    """Map litellm's (OpenAI-shaped) exceptions onto our kinds. Order matters: Timeout is a
    subclass of APIConnectionError, and ContextWindowExceededError of BadRequestError.

    Measured against a real llama.cpp server with litellm 1.106: a server killed mid-request, or
    none on the port, gives InternalServerError ("Connection error"), not APIConnectionError;
    embeddings from a server started without them give a generic APIError with status 501."""
    litellm = litellm_module()
    if isinstance(exc, litellm.Timeout):
        return "timeout"
    if isinstance(exc, litellm.AuthenticationError | litellm.PermissionDeniedError):
        return "auth"
    if isinstance(exc, litellm.RateLimitError):
        return "rate_limit"
    if isinstance(
        exc,
        litellm.ServiceUnavailableError
        | litellm.APIConnectionError
        | litellm.InternalServerError
        | litellm.BadGatewayError,
    ):
        return "unavailable"
    if isinstance(exc, litellm.APIResponseValidationError):
        return "bad_output"
    if isinstance(
        exc,
        litellm.BadRequestError | litellm.NotFoundError | litellm.UnprocessableEntityError,
    ):
        # The provider refused this request (bad parameter, unknown model, context too long,
        # content policy): retrying the same call will not help.
        return "failed"
    # Generic APIError / MockException: fall back on the HTTP status when there is one.
    status = getattr(exc, "status_code", None)
    if isinstance(status, int):
        if status in (401, 403):
            return "auth"
        if status == 408:
            return "timeout"
        if status == 429:
            return "rate_limit"
        if status == 501:
            # Not implemented by this server (embeddings from a server started without them):
            # asking again will not help.
            return "failed"
        if status >= 500:
            return "unavailable"
    return "failed"
