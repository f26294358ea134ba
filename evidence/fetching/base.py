"""The fetcher interface: one method that turns a URL into a `RawFetch`, never raising for
network trouble. Fetchers register under the name `fetcher.kind` uses in the config."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from django.core.exceptions import ImproperlyConfigured

from claimcheck.config import FetcherConfig, get_config
from integrations.http import ConnectFailed, HttpError


class FetcherUnavailable(ImproperlyConfigured):
    """The configured fetcher cannot run (a missing key, an unknown kind)."""


@dataclass(frozen=True)
class RawFetch:
    """What came back for one URL, before any reading.

    `status` is None when no HTTP answer arrived; `error` then names why ("dns", "timeout",
    "blocked", ...). Fetchers that read pages themselves (Firecrawl) put the page's text in
    `text` and what they know about it in `title` and `metadata`.
    """

    url: str
    final_url: str
    status: int | None
    content_type: str = ""
    content: bytes = b""
    encoding: str | None = None
    error: str = ""
    elapsed_ms: int = 0
    text: str = ""
    title: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def failure(cls, url: str, error: str, *, elapsed_ms: int = 0) -> RawFetch:
        return cls(url=url, final_url=url, status=None, error=error, elapsed_ms=elapsed_ms)


def error_kind(exc: HttpError) -> str:
    """The short, stable name recorded on the page for a transport failure."""
    if isinstance(exc, ConnectFailed) and exc.dns:
        return "dns"
    return exc.kind


class Fetcher(ABC):
    name: ClassVar[str]

    def __init__(self, config: FetcherConfig) -> None:
        self.config = config

    @abstractmethod
    def fetch(self, url: str) -> RawFetch:
        """Fetch `url`. Transport failures come back as a RawFetch with `error` set."""


class StoredFetcher(Fetcher):
    """Serves bodies already in hand (a shipped corpus, an evaluation's offline web) as a web
    server would: status 200, the given type, the bytes. They then go through the same reading
    and storage as fetched pages. Not registered: it cannot be chosen in the config."""

    def __init__(self, bodies: Mapping[str, tuple[str, bytes]], *, name: str) -> None:
        super().__init__(get_config().fetcher)
        self.name = name  # type: ignore[misc]  # each source of stored pages labels its own
        self._bodies = bodies

    def fetch(self, url: str) -> RawFetch:
        if url not in self._bodies:
            return RawFetch.failure(url, f"not among the {self.name} pages")
        content_type, content = self._bodies[url]
        return RawFetch(
            url=url,
            final_url=url,
            status=200,
            content_type=content_type,
            content=content,
            encoding="utf-8" if content_type.startswith("text/") else None,
        )


FETCHERS: dict[str, type[Fetcher]] = {}

F = TypeVar("F", bound=type[Fetcher])


def register(name: str) -> Callable[[F], F]:
    def add(cls: F) -> F:
        cls.name = name
        FETCHERS[name] = cls
        return cls

    return add


def fetcher_for(config: FetcherConfig) -> Fetcher:
    """The fetcher `config.kind` names. Raises FetcherUnavailable when it cannot run."""
    try:
        cls = FETCHERS[config.kind]
    except KeyError:
        raise FetcherUnavailable(
            f"fetcher.kind {config.kind!r} is not one of {sorted(FETCHERS)}"
        ) from None
    return cls(config)
