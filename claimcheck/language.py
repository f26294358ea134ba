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


def detect_language(text: str) -> LanguageGuess:
    """The language of `text` with the detector's confidence; UNKNOWN for text with almost
    no letters (a number, a URL fragment, an empty snippet)."""
    sample = " ".join(text[:MAX_CHARS].split())
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
