"""Which language a text is in, offline: py3langid's model, which ships inside its wheel.

Every claim, search snippet and page gets a language code (ISO 639-1) and the detector's
confidence, 0.5 to 1: how much likelier the language is than the next likeliest (its share of
the two). The pipeline uses them to decide which languages to search in: English and Russian
are read as they are; a claim in any other language, or one the detector is unsure of (a mix of
two languages), is also searched in English.

Why not the model's own probability: spread over all its languages, it stays low for a short
plain sentence ("Inflation rose to 5%" is English at 0.21, the rest shared among dozens of
languages, none near), which read as "unsure" for nearly every claim. What matters is whether
another language comes close; a text in two languages has two close ones. Only languages with a
two-letter code (the codes stored) compete, so that an English sentence is not unsure because
Nigerian Pidgin, an English creole, comes close.

Names are not a language: in a short claim ("Angela Merkel visited Kyiv in 2024") the letters
of the names outweigh the few words around them, and the detector reads the names' spelling
(Danish, Dutch). A short text is therefore read without what looks like a name: a capitalised
word after the first, and the first word when a capitalised word follows it (it starts a name).
Numbers stay but do not count as words. German nouns are capitalised too; the words left
(articles, verbs, prepositions) are the language's own, which is what tells languages apart.
When fewer than two words or a handful of letters would be left, the whole text is read.
"""

from __future__ import annotations

import logging
import re
import threading
from dataclasses import dataclass
from typing import Any

logger = logging.getLogger(__name__)

# The languages the product searches and reads in without translating the query.
NATIVE_LANGUAGES = frozenset({"en", "ru"})
# Below this confidence a claim counts as mixed-language and is searched in both.
MIXED_CONFIDENCE = 0.7
# Fewer letters than this say nothing reliable about a language.
MIN_LETTERS = 3
# The detector reads at most this much of a page: enough to tell, and fast.
MAX_CHARS = 4000

_LETTER = re.compile(r"[^\W\d_]", re.UNICODE)
_EDGES = re.compile(r"^[\W_]+|[\W_]+$", re.UNICODE)
# Texts up to this long (a claim, a search result's title and snippet) are read without names.
MAX_NAMED_CHARS = 400
# What must be left once names are set aside for the rest to be read alone.
MIN_COMMON_WORDS = 2
MIN_COMMON_LETTERS = 6


@dataclass(frozen=True)
class LanguageGuess:
    code: str
    """ISO 639-1 code, or "" when the text has too few letters to tell."""
    confidence: float

    @property
    def known(self) -> bool:
        return bool(self.code)

    @property
    def mixed(self) -> bool:
        """Too unsure to be one language: the claim may mix two."""
        return self.known and self.confidence < MIXED_CONFIDENCE

    def needs_english_search(self) -> bool:
        """Whether a claim in this language is also searched in English."""
        return self.known and (self.code not in NATIVE_LANGUAGES or self.mixed)


UNKNOWN = LanguageGuess("", 0.0)


class _Identifier:
    """One py3langid identifier per process, loaded on first use (about half a second)."""

    _lock = threading.Lock()
    _model: Any = None

    @classmethod
    def get(cls) -> Any:
        if cls._model is None:
            with cls._lock:
                if cls._model is None:
                    from py3langid.langid import MODEL_FILE, LanguageIdentifier

                    cls._model = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
        return cls._model


def _looks_like_a_name(word: str, *, first: bool, next_word: str) -> bool:
    if not word[0].isupper():
        return False
    return not first or next_word[:1].isupper()


def common_words(text: str) -> str:
    """`text` without the words that look like names or numbers, when enough is left to tell a
    language by; otherwise `text` itself."""
    tokens = text.split()
    words = [_EDGES.sub("", token) for token in tokens]
    kept: list[str] = []
    counted = 0
    for i, (token, word) in enumerate(zip(tokens, words, strict=True)):
        if any(char.isdigit() for char in token):
            kept.append(token)  # a number reads as no language in particular: kept, not counted
            continue
        following = words[i + 1] if i + 1 < len(words) else ""
        if not word or _looks_like_a_name(word, first=i == 0, next_word=following):
            continue
        kept.append(word)
        counted += 1
    letters = sum(len(_LETTER.findall(word)) for word in kept)
    if counted < MIN_COMMON_WORDS or letters < MIN_COMMON_LETTERS:
        return text
    return " ".join(kept)


def detect_language(text: str) -> LanguageGuess:
    """The language of `text` with the detector's confidence; UNKNOWN for text with almost
    no letters (a number, a URL fragment, an empty snippet). A short text is read without its
    names (`common_words`)."""
    sample = " ".join(text[:MAX_CHARS].split())
    if len(sample) <= MAX_NAMED_CHARS:
        sample = common_words(sample)
    if len(_LETTER.findall(sample)) < MIN_LETTERS:
        return UNKNOWN
    ranked = (pair for pair in _Identifier.get().rank(sample) if len(pair[0]) == 2)
    (code, first), (_, second) = next(ranked), next(ranked)
    share = float(first) / (float(first) + float(second)) if first + second > 0 else 0.0
    return LanguageGuess(str(code), round(share, 3))


def language_name(code: str) -> str:
    """The English name of a language code ("uk" → "Ukrainian"), or the code itself."""
    import pycountry

    found = pycountry.languages.get(alpha_2=code) if code else None
    return str(found.name) if found is not None else code
