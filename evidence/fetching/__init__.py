"""Safe page fetching: one interface over several fetchers, verification, and the page cache.

    page = page_fetch(url="https://www.example.org/report", snippet="...", title_hint="...")
    pages = pages_fetch(urls=[...])

Fetchers (`http`, `firecrawl`) are chosen by `fetcher.kind` in the pipeline config.
"""

from evidence.fetching import firecrawl, http  # noqa: F401  (registers the fetchers)
from evidence.fetching.base import (
    FETCHERS,
    Fetcher,
    FetcherUnavailable,
    RawFetch,
    fetcher_for,
)
from evidence.fetching.pages import (
    DeniedDomain,
    cached_page,
    corpus_page_store,
    page_fetch,
    page_store,
    pages_fetch,
)
from evidence.fetching.reading import FetchOutcome, fetch_outcome, read_raw

__all__ = [
    "FETCHERS",
    "DeniedDomain",
    "FetchOutcome",
    "Fetcher",
    "FetcherUnavailable",
    "RawFetch",
    "cached_page",
    "corpus_page_store",
    "fetch_outcome",
    "fetcher_for",
    "page_fetch",
    "page_store",
    "pages_fetch",
    "read_raw",
]
