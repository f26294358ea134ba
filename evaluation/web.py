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
import json
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from django.db import transaction
from django.test.utils import override_settings

from claimcheck.config import get_config, reload_config
from evaluation.dataset import Dataset, WebPage
from evidence.fetching import corpus_page_store
from evidence.fetching.base import StoredFetcher
from evidence.fetching.reading import fetch_outcome
from integrations import http
from registry.domain_rows import CSV_HEADER
from registry.services import domains_import

FETCHER_NAME = "offline-web"
_BATCH = 200


def render_page(page: WebPage) -> bytes:
    """Small, plain HTML: the title (as <title> and the first heading, when there is one), the
    date as news sites mark it, and each section's paragraphs under its heading, if any."""
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{html.escape(page.title)}</title>" if page.title else "<title></title>",
    ]
    if page.published is not None:
        stamp = html.escape(page.published.isoformat())
        parts.append(f"<meta property='article:published_time' content='{stamp}'>")
    parts.append("</head><body><article>")
    if page.title:
        parts.append(f"<h1>{html.escape(page.title)}</h1>")
    for section in page.sections:
        if section.heading and section.heading != page.title:
            parts.append(f"<h2>{html.escape(section.heading)}</h2>")
        parts.extend(f"<p>{html.escape(paragraph)}</p>" for paragraph in section.paragraphs)
    parts.append("</article></body></html>")
    return "\n".join(parts).encode("utf-8")


def page_text(page: WebPage) -> str:
    """The page's readable text: its headings and paragraphs, in order."""
    blocks = [page.title] if page.title else []
    for section in page.sections:
        if section.heading and section.heading != page.title:
            blocks.append(section.heading)
        blocks.extend(section.paragraphs)
    return "\n\n".join(blocks)


def web_dump(*, dataset: Dataset, path: Path) -> int:
    """Write every page of the offline web as JSON lines (url, title, text, date): what the
    pipeline could read, for anyone to check. Returns how many pages were written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        for page in dataset.pages.values():
            row = {
                "url": page.url,
                "title": page.title,
                "text": page_text(page),
                "date": page.published.isoformat() if page.published else None,
            }
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    return len(dataset.pages)


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
