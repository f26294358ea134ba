"""Listing and hub pages: many links, little prose ("News", "Statistical releases", a search
page). Such a page is never evidence: what it says of a story is a headline pointing at the
story. It leads to one click-down instead, to the link most about the claim (seed 000).

The signals come from the page's main region (`<main>`, `<article>`, else `<body>` without its
navigation, header, footer and asides): how many links it holds, what share of its text is
link text, and how many sentences of prose stand outside the links.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

import lxml.html
from lxml import etree

# A sentence of prose has at least this many words.
PROSE_WORDS = 12
# Hub: at least this many links in the main region, this share of its text in links, and at
# most this many sentences of prose outside them ...
HUB_LINKS = 2
HUB_LINK_SHARE = 0.3
HUB_PROSE_SENTENCES = 2
# ... or a region that is mostly links, whatever prose it has.
DENSE_LINKS = 10
DENSE_LINK_SHARE = 0.5
# Links kept for a click-down.
LINKS_KEPT = 100

_CHROME = ("nav", "header", "footer", "aside", "script", "style", "noscript", "form")
_SENTENCE = re.compile(r"[^.!?]+[.!?]?")


@dataclass(frozen=True)
class HubSignals:
    links: int
    link_share: float
    prose_sentences: int
    targets: list[tuple[str, str]] = field(default_factory=list)
    """(absolute URL, anchor text) of the region's links, in page order."""

    @property
    def is_hub(self) -> bool:
        listing = (
            self.links >= HUB_LINKS
            and self.link_share >= HUB_LINK_SHARE
            and self.prose_sentences <= HUB_PROSE_SENTENCES
        )
        dense = self.links >= DENSE_LINKS and self.link_share >= DENSE_LINK_SHARE
        return listing or dense


def _text(node: etree._Element) -> str:
    return " ".join("".join(node.itertext()).split())


def _main_region(root: etree._Element) -> etree._Element | None:
    for path in ("//main", "//*[@role='main']", "//article"):
        found = root.xpath(path)
        if found:
            return found[0]
    body = root.find("body")
    if body is None:
        return None
    for tag in _CHROME:
        for node in body.iter(tag):
            node.drop_tree()
    return body


def hub_signals(html: str, *, base_url: str) -> HubSignals | None:
    """The hub signals of an HTML page, or None when it cannot be parsed."""
    try:
        root = lxml.html.fromstring(html)
    except (etree.ParserError, ValueError):
        return None
    for node in root.iter("script", "style", "noscript"):
        node.drop_tree()
    region = _main_region(root)
    if region is None:
        return None
    for tag in ("nav", "form"):
        for node in list(region.iter(tag)):
            node.drop_tree()
    total = _text(region)
    if not total:
        return HubSignals(links=0, link_share=0.0, prose_sentences=0)
    targets: list[tuple[str, str]] = []
    link_chars = 0
    for anchor in region.iter("a"):
        href = (anchor.get("href") or "").strip()
        label = _text(anchor)
        if not href or href.startswith(("#", "mailto:", "javascript:", "tel:")):
            continue
        link_chars += len(label)
        url = urljoin(base_url, href)
        if urlsplit(url).scheme in ("http", "https"):
            targets.append((url, label))
    for anchor in list(region.iter("a")):
        anchor.drop_tree()
    prose = sum(
        1 for sentence in _SENTENCE.findall(_text(region)) if len(sentence.split()) >= PROSE_WORDS
    )
    return HubSignals(
        links=len(targets),
        link_share=round(link_chars / len(total), 3),
        prose_sentences=prose,
        targets=targets[:LINKS_KEPT],
    )
