"""Transport problems, each an `HttpError` subclass with a stable `kind` that callers log and
map (a page that could not be read, a provider that did not answer)."""

from __future__ import annotations


class HttpError(Exception):
    """A request that produced no usable response. Messages name the host, never the query."""

    kind: str = "error"

    def __init__(self, message: str = "", *, url: str = "", kind: str | None = None) -> None:
        if kind is not None:
            self.kind = kind
        super().__init__(message or self.kind)
        self.url = url


class BlockedURL(HttpError):
    kind = "blocked"


class FetchTimeout(HttpError):
    kind = "timeout"


class TooLarge(HttpError):
    kind = "too_large"


class TooManyRedirects(HttpError):
    kind = "too_many_redirects"


class ConnectFailed(HttpError):
    kind = "connect"

    def __init__(self, message: str = "", *, url: str = "", dns: bool = False) -> None:
        super().__init__(message, url=url)
        self.dns = dns


class InvalidURL(HttpError):
    kind = "invalid_url"


class Offline(HttpError):
    """Outbound connections are switched off (see `offline()`): nothing was contacted."""

    kind = "offline"


class TransferFailed(HttpError):
    """The connection broke or the peer spoke broken HTTP after the request went out."""

    kind = "transfer"


class BadJSON(HttpError):
    kind = "bad_json"
