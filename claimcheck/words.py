"""Content words, for comparing texts: stemmed, accents folded, stopwords left out. The chunk
ranker, the stance rules and the engine's relevance measures all count words this one way."""

from __future__ import annotations

import re
import unicodedata

STOPWORDS = frozenset(
    (
        "a an and are as at be been being but by can could did do does for from had has have he "
        "her his i if in into is it its itself me my of on or our she so than that the their them "
        "then there these they this those to too us was we were what when where which while who "
        "whom why will with would you your about after again all also any because before between "
        "both during each few further here how just more most other over own same some such "
        "through under until up very"
    ).split()
)
_WORD = re.compile(r"[^\W_]+(?:[.,][0-9]+)*")


def stem(word: str) -> str:
    """A light English suffix strip: enough for "approved" to meet "approves"."""
    if not word.endswith("ss"):
        for suffix, keep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                word = word[: -len(suffix)] + keep
                break
    if word.endswith("e") and len(word) >= 4:
        word = word[:-1]
    return word


def fold(text: str) -> str:
    """Lower case without accents: "Niño" and "Nino" are one word to a reader."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def tokens(text: str) -> list[str]:
    """Content words, stemmed: Latin, Cyrillic or any other letters, accents folded away."""
    return [stem(w) for w in _WORD.findall(fold(text)) if w not in STOPWORDS]
