"""The plain fetcher: one GET through integrations.http (SSRF guard, caps, charset detection)."""

from __future__ import annotations

import time

from evidence.fetching.base import Fetcher, RawFetch, error_kind, register
from integrations import http

_ACCEPT = "text/html,application/xhtml+xml;q=0.9,application/pdf;q=0.9,text/plain;q=0.8,*/*;q=0.1"


@register("http")
class HttpFetcher(Fetcher):
    def fetch(self, url: str) -> RawFetch:
        started = time.monotonic()
        try:
            response = http.get(
                url,
                headers={"Accept": _ACCEPT, "Accept-Language": "en;q=1.0, *;q=0.5"},
                timeout=self.config.timeout_s,
                connect_timeout=min(5.0, self.config.timeout_s),
                max_bytes=self.config.max_bytes,
            )
        except http.HttpError as exc:
            elapsed = int((time.monotonic() - started) * 1000)
            return RawFetch.failure(url, error_kind(exc), elapsed_ms=elapsed)
        return RawFetch(
            url=url,
            final_url=response.final_url,
            status=response.status,
            content_type=response.content_type,
            content=response.content,
            encoding=response.encoding,
            elapsed_ms=response.elapsed_ms,
            metadata={"redirects": response.redirects} if response.redirects else {},
        )
