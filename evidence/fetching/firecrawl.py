"""Fetching through Firecrawl (the hosted API, or a self-hosted instance at `api_url`).

Firecrawl renders the page on its side and returns HTML, Markdown and what it read about the
page. The SDK talks to Firecrawl with `requests`, not through integrations.http; what goes
through our guard is the target URL, checked before it is handed over, so that a self-hosted
Firecrawl inside the network is never asked to fetch an internal address.
"""

from __future__ import annotations

import logging
import os
import time
from typing import Any

import requests
from pydantic import ValidationError

from claimcheck.config import FetcherConfig
from evidence.fetching.base import (
    Fetcher,
    FetcherUnavailable,
    RawFetch,
    error_kind,
    register,
)
from integrations import http

logger = logging.getLogger(__name__)

_HOSTED_API = "https://api.firecrawl.dev"
# Firecrawl's metadata keys kept on the page (dates are read again by our own extraction).
_KEPT_METADATA = ("language", "published_time", "modified_time", "description", "site_name")


@register("firecrawl")
class FirecrawlFetcher(Fetcher):
    def __init__(self, config: FetcherConfig) -> None:
        super().__init__(config)
        settings = config.firecrawl
        api_key = os.environ.get(settings.api_key_env, "").strip()
        if not api_key and not settings.api_url:
            raise FetcherUnavailable(
                "fetcher.kind is firecrawl, but there is neither an API key in the environment"
                f" variable {settings.api_key_env} nor a self-hosted fetcher.firecrawl.api_url"
            )
        # Imported here: the SDK takes most of a second to load, and only this fetcher needs it.
        from firecrawl import Firecrawl

        # An empty key, not None: the SDK would otherwise read FIRECRAWL_API_KEY on its own.
        self.client = Firecrawl(
            api_key=api_key,
            api_url=settings.api_url or _HOSTED_API,
            timeout=config.timeout_s + 10,  # Firecrawl's own deadline (below) comes first
            max_retries=1,
        )

    def fetch(self, url: str) -> RawFetch:
        from firecrawl.v2.utils.error_handler import FirecrawlError

        started = time.monotonic()

        def failed(error: str) -> RawFetch:
            return RawFetch.failure(url, error, elapsed_ms=int((time.monotonic() - started) * 1000))

        try:
            http.check_url(url)
        except http.HttpError as exc:
            return failed(error_kind(exc))
        try:
            document = self.client.scrape(
                url,
                formats=["html", "markdown"],
                timeout=int(self.config.timeout_s * 1000),
                only_main_content=False,
            )
        except requests.Timeout:
            return failed("timeout")
        except requests.ConnectionError:
            return failed("firecrawl unreachable")
        except requests.RequestException as exc:
            return failed(f"firecrawl: {type(exc).__name__}")
        except FirecrawlError as exc:
            return failed(_firecrawl_error(exc))
        except ValidationError:
            return failed("firecrawl: malformed answer")
        elapsed = int((time.monotonic() - started) * 1000)
        meta = document.metadata_typed
        html = getattr(document, "html", None) or ""
        content = html.encode("utf-8")
        markdown = getattr(document, "markdown", None) or ""
        if len(content) > self.config.max_bytes or len(markdown) > self.config.max_bytes:
            return failed("too_large")
        if meta.error and not meta.status_code:
            return failed(f"firecrawl: {meta.error[:200]}")
        final_url = meta.url or meta.source_url or url
        try:
            # Firecrawl follows redirects on its own machines: where it ended up is vetted here
            # like any redirect we follow, or a page on a private address would pass as evidence.
            http.check_url(final_url)
        except http.HttpError as exc:
            logger.warning("firecrawl ended on a refused URL", extra={"url": url})
            return failed(error_kind(exc))
        content_type = (meta.content_type or "text/html").split(";", 1)[0].strip().lower()
        kept: dict[str, Any] = {
            key: getattr(meta, key) for key in _KEPT_METADATA if getattr(meta, key, None)
        }
        return RawFetch(
            url=url,
            final_url=final_url,
            status=meta.status_code or 200,
            content_type=content_type,
            content=content,
            encoding="utf-8",
            elapsed_ms=elapsed,
            text=markdown,
            title=meta.title or "",
            metadata={"firecrawl": kept} if kept else {},
        )


def _firecrawl_error(exc: Exception) -> str:
    from firecrawl.v2.utils.error_handler import (
        DNSResolutionError,
        RateLimitError,
        RequestTimeoutError,
        UnauthorizedError,
        WebsiteNotSupportedError,
    )

    if isinstance(exc, RequestTimeoutError):
        return "timeout"
    if isinstance(exc, DNSResolutionError):
        return "dns"
    if isinstance(exc, WebsiteNotSupportedError):
        return "blocked"
    if isinstance(exc, RateLimitError):
        return "firecrawl rate limited"
    if isinstance(exc, UnauthorizedError):
        logger.error("firecrawl refused the API key")
        return "firecrawl unauthorized"
    status = getattr(exc, "status_code", None)
    return f"firecrawl error {status}" if status else "firecrawl error"
