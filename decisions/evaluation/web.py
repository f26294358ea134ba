"""The offline web of an evaluation run: pages built from a dataset's evidence, stored in the
page cache and the local index the way a real fetch stores them, and nothing else.

`offline_web()` is the other half: for the run, no host name resolves (so a URL that is not in
the page cache fails at once, as a dead link would), the only search provider is the local
index, and published fact-check lookups are off (they would be the outside web, and a dataset's
answer key). The claim pipeline itself is untouched: it searches, fetches, reads and decides as
it always does, and finds the pages only by searching.
"""

from __future__ import annotations

import html
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from django.db import transaction
from django.test.utils import override_settings

from claimcheck import http
from claimcheck.config import get_config, reload_config
from decisions.evaluation.dataset import Dataset, WebPage
from evidence.domains import CSV_HEADER
from evidence.fetching import corpus_page_store
from evidence.fetching.base import StoredFetcher
from evidence.fetching.reading import fetch_outcome
from evidence.services import domains_import

FETCHER_NAME = "offline-web"
_BATCH = 200


def render_page(page: WebPage) -> bytes:
    """Small, plain HTML: the title, the date as news sites mark it, one section per question."""
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{html.escape(page.title)}</title>",
    ]
    if page.published is not None:
        stamp = html.escape(page.published.isoformat())
        parts.append(f"<meta property='article:published_time' content='{stamp}'>")
    parts.append("</head><body><article>")
    for index, section in enumerate(page.sections):
        tag = "h1" if index == 0 else "h2"
        parts.append(f"<{tag}>{html.escape(section.heading)}</{tag}>")
        parts.extend(f"<p>{html.escape(paragraph)}</p>" for paragraph in section.paragraphs)
    parts.append("</article></body></html>")
    return "\n".join(parts).encode("utf-8")


@dataclass(frozen=True)
class WebSummary:
    pages_stored: int
    pages_denied: int
    pages_unreadable: int
    denied_domains: int


def _denied_csv(names: list[str]) -> str:
    lines = [",".join(CSV_HEADER)]
    lines.extend(
        f"{name},other,,true,misinformation list of the evaluated dataset" for name in names
    )
    return "\n".join(lines) + "\n"


def web_load(*, dataset: Dataset, progress: Any = None) -> WebSummary:
    """Load the dataset's denied domains and pages. Pages on denied domains are indexed only
    (search finds them, as on the web; the fetcher would refuse them)."""
    if dataset.denied_domains:
        domains_import(text=_denied_csv(dataset.denied_domains))
    served = {page.url: render_page(page) for page in dataset.pages.values()}
    fetcher = StoredFetcher(
        {url: ("text/html", body) for url, body in served.items()}, name=FETCHER_NAME
    )
    stored = denied = unreadable = 0
    items = list(dataset.pages.items())
    for start in range(0, len(items), _BATCH):
        with transaction.atomic():
            for canonical, page in items[start : start + _BATCH]:
                outcome = fetch_outcome(fetcher, page.url)
                if outcome.failed:
                    unreadable += 1
                    continue
                if corpus_page_store(url=page.url, canonical=canonical, outcome=outcome) is None:
                    denied += 1
                    continue
                stored += 1
        if progress is not None:
            progress(min(start + _BATCH, len(items)), len(items))
    return WebSummary(
        pages_stored=stored,
        pages_denied=denied,
        pages_unreadable=unreadable,
        denied_domains=len(dataset.denied_domains),
    )


def _offline_config(directory: Path) -> Path:
    """The active pipeline config with the outside web taken away: search through the local
    index only, fetching through the page cache (a miss fails offline), no fact-check lookups.
    Budgets, weights and the LLM stay as configured: they are what is being measured."""
    data = get_config().model_dump(mode="json")
    data["search"]["provider"] = "auto"
    data["search"]["cascade_order"] = ["local"]
    data["search"]["providers"] = {"local": {}}
    data["fetcher"]["kind"] = "http"
    data["factcheck"]["enabled"] = False
    path = directory / "evaluation.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


@contextmanager
def offline_web() -> Iterator[None]:
    """Run the block cut off from the real internet (see the module docstring)."""
    try:
        with tempfile.TemporaryDirectory(prefix="claimcheck-eval-config-") as directory:
            config_path = _offline_config(Path(directory))
            with (
                override_settings(CLAIMCHECK_CONFIG=str(config_path)),
                http.offline(),
            ):
                reload_config()
                yield
    finally:
        reload_config()
