"""How alike two evidence quotes are: the text similarity behind keeping one statement once.

Quotes are exact page text, so two rows that hold the same statement hold nearly the same
characters: the sentence read once from a search snippet and once on its page, the same page
under two addresses, a headline repeated as the first line, typographic quotes or spacing that
differ. The measure is `difflib`'s ratio over the quotes' characters once case, spacing and
punctuation are set aside (1.0: the same words in the same order).

Numbers are what a claim turns on, and a character measure weighs a changed digit like any
other character ("rose 4.1%" and "rose 4.7%" are 0.99 alike in a long sentence). Two quotes
whose numbers differ, in value or in order, are never the same statement, however alike the
rest. (An embedding similarity would be worse here: it ranks such pairs as near-identical by
design, and it is blind to what the figures say.)
"""

from __future__ import annotations

import re
import unicodedata
from difflib import SequenceMatcher

_NOT_WORD = re.compile(r"[\W_]+", re.UNICODE)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _plain(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def quote_key(text: str) -> str:
    """The quote as compared: case folded, punctuation and runs of spacing as one space."""
    return _NOT_WORD.sub(" ", _plain(text).casefold()).strip()


def quote_numbers(text: str) -> tuple[str, ...]:
    """The quote's numbers in order, with thousands and decimal marks as written."""
    return tuple(_NUMBER.findall(_plain(text)))


def quote_similarity(first: str, second: str) -> float:
    """From 0 (nothing alike) to 1 (the same once case, spacing and punctuation are set
    aside); 0 when either quote is empty or their numbers differ."""
    a, b = quote_key(first), quote_key(second)
    if not a or not b or quote_numbers(first) != quote_numbers(second):
        return 0.0
    if a == b:
        return 1.0
    return SequenceMatcher(None, a, b, autojunk=False).ratio()


def same_statement(first: str, second: str, *, threshold: float) -> bool:
    """Whether two quotes are at least `threshold` alike. Cheap bounds rule most pairs out
    before the full comparison: two quotes whose lengths differ by more than the threshold
    allows cannot reach it."""
    a, b = quote_key(first), quote_key(second)
    if not a or not b:
        return False
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    if matcher.real_quick_ratio() < threshold or matcher.quick_ratio() < threshold:
        return False
    return quote_similarity(first, second) >= threshold
