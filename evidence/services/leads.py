"""What collecting evidence, checking snippets and spotting reprints share: a search lead, which
pages can be read, which rows were read from a page, and the words a text is compared by."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from evidence.models import ContentDepth, Method, Page

# Rows read from a page (as opposed to a search snippet).
PAGE_METHODS = (Method.RERANK, Method.MODEL, Method.LLM, Method.STRUCTURED)
# Content depths with text enough to read for stance, or to find a snippet in.
READABLE = (ContentDepth.FULL, ContentDepth.PARTIAL)
_WORDS = re.compile(r"\w+", re.UNICODE)


@dataclass
class Lead:
    url: str
    title: str = ""
    snippet: str = ""
    published: datetime | None = None
    providers: list[str] = field(default_factory=list)


def is_hub(page: Page | None) -> bool:
    """A listing or hub page (many links, little prose): never evidence itself."""
    return page is not None and isinstance(page.metadata, dict) and bool(page.metadata.get("hub"))


def words(text: str) -> list[str]:
    """The text's words, lower-cased, one-letter words left out."""
    return [w for w in _WORDS.findall(text.lower()) if len(w) > 1]
