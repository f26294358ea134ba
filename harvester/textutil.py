"""Small text helpers shared by the deterministic rewriter and the local index."""

from __future__ import annotations

import re

_STOPWORDS_TEXT = """
    a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is it
    its itself just latest me more most my myself new news no nor not now of off on once only or
    other our ours ourselves out over own recent recently same she should so some such than that
    the their theirs them themselves then there these they this those through to too under until
    up update updates very was we were what when where which while who whom why will with would
    you your yours yourself yourselves find show tell search look regarding"""
STOPWORDS = frozenset(_STOPWORDS_TEXT.split())
_WORD = re.compile(r"[\w][\w'\u2019.%-]*[\w%]|[\w]", re.UNICODE)


def words(text: str) -> list[str]:
    """Word tokens; keeps inner dots, hyphens and apostrophes (e.g. `U.S.`, `AI-Act`, `3.5%`)."""
    return _WORD.findall(text)


def make_snippet(text: str, terms: list[str], *, width: int = 240) -> str:
    """A short window of `text` around the first place any of `terms` occurs (case-folded,
    matched on a word-start prefix so that stemmed matches like regulation/regulations hit)."""
    flat = " ".join(text.split())
    if not flat:
        return ""
    lowered = flat.lower()
    position = -1
    for term in terms:
        needle = term.lower().strip()
        if not needle:
            continue
        if " " not in needle and len(needle) > 5:
            needle = needle[: max(5, len(needle) - 3)]
        match = re.search(rf"(?<!\w){re.escape(needle)}", lowered)
        if match and (position < 0 or match.start() < position):
            position = match.start()
    if position < 0:
        position = 0
    start = max(0, position - width // 3)
    end = min(len(flat), start + width)
    if start > 0:
        space = flat.rfind(" ", 0, start + 1)
        start = space + 1 if space >= 0 and position - space < width // 2 else start
    if end < len(flat):
        space = flat.find(" ", end)
        end = space if 0 <= space - end < 30 else end
    snippet = flat[start:end].strip()
    return ("…" if start > 0 else "") + snippet + ("…" if end < len(flat) else "")
