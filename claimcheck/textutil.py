"""Plain text helpers for search, reading and the engine: stopwords, word tokens, snippets."""

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


# Matches of one term looked at when placing a snippet (a long page repeats common words).
_SNIPPET_MATCHES = 50


def _term_positions(lowered: str, terms: list[str]) -> list[tuple[int, int]]:
    """(offset, term index) of each place a term starts, matched on a word-start prefix so
    that stemmed matches like regulation/regulations hit."""
    found: list[tuple[int, int]] = []
    for index, term in enumerate(terms):
        needle = term.lower().strip()
        if not needle:
            continue
        if " " not in needle and len(needle) > 5:
            needle = needle[: max(5, len(needle) - 3)]
        pattern = re.compile(rf"(?<!\w){re.escape(needle)}")
        for number, match in enumerate(pattern.finditer(lowered)):
            if number >= _SNIPPET_MATCHES:
                break
            found.append((match.start(), index))
    return sorted(found)


def _best_window(positions: list[tuple[int, int]], width: int) -> int:
    """Where the window of `width` characters that shows the most different terms begins
    (a match a third of the way in), the earliest of equals; 0 with no match. One pass: the
    window only moves forward."""
    best_start, best_count = 0, 0
    counts: dict[int, int] = {}
    left = right = 0
    for offset, _ in positions:
        start = max(0, offset - width // 3)
        while right < len(positions) and positions[right][0] < start + width:
            counts[positions[right][1]] = counts.get(positions[right][1], 0) + 1
            right += 1
        while positions[left][0] < start:
            index = positions[left][1]
            counts[index] -= 1
            if not counts[index]:
                del counts[index]
            left += 1
        if len(counts) > best_count:
            best_start, best_count = start, len(counts)
    return best_start


def make_snippet(text: str, terms: list[str], *, width: int = 240) -> str:
    """A short window of `text` where it shows the most of `terms` (case-folded, matched on a
    word-start prefix), as a search engine shows the passage that matches the query best."""
    flat = " ".join(text.split())
    if not flat:
        return ""
    positions = _term_positions(flat.lower(), terms)
    start = _best_window(positions, width)
    position = start + width // 3 if positions else 0
    end = min(len(flat), start + width)
    if start > 0:
        space = flat.rfind(" ", 0, start + 1)
        start = space + 1 if space >= 0 and position - space < width // 2 else start
    if end < len(flat):
        space = flat.find(" ", end)
        end = space if 0 <= space - end < 30 else end
    snippet = flat[start:end].strip()
    return ("…" if start > 0 else "") + snippet + ("…" if end < len(flat) else "")
