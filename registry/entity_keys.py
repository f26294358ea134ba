"""Entity names to comparable keys: case, whitespace, accents and Cyrillic-Latin spelling.

"Zelensky", "Zelenskyy", "Зеленський" and "Зеленский" are one person to a reader; their keys
must be one string too. A key is the Latin spelling (Cyrillic transliterated: Ukrainian by
the national system, Russian by BGN/PCGN), lower-cased, without accents, with the letters
that transliterations disagree on folded together (y / j / i, doubled letters, apostrophes).
It is a matching key, never shown to anyone: the alias table and the gazetteer say how a name
is written. The alias table stores each alias under its key, and names read in text are looked
up in it by theirs.
"""

from __future__ import annotations

import re
import unicodedata

# Ukrainian national transliteration (2010); the first spelling is the word-initial one.
_UKRAINIAN: dict[str, str | tuple[str, str]] = {
    "а": "a", "б": "b", "в": "v", "г": "h", "ґ": "g", "д": "d", "е": "e", "є": ("ye", "ie"),
    "ж": "zh", "з": "z", "и": "y", "і": "i", "ї": ("yi", "i"), "й": ("y", "i"), "к": "k",
    "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t", "у": "u",
    "ф": "f", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "ь": "", "ю": ("yu", "iu"),
    "я": ("ya", "ia"), "'": "", "’": "", "ʼ": "",
}  # fmt: skip
# Russian, BGN/PCGN without its diacritics.
_RUSSIAN: dict[str, str | tuple[str, str]] = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": ("ye", "e"), "ё": ("yo", "yo"),
    "ж": "zh", "з": "z", "и": "i", "й": "y", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o",
    "п": "p", "р": "r", "с": "s", "т": "t", "у": "u", "ф": "f", "х": "kh", "ц": "ts", "ч": "ch",
    "ш": "sh", "щ": "shch", "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "yu", "я": "ya",
}  # fmt: skip
_UKRAINIAN_ONLY = frozenset("іїєґ")
_RUSSIAN_ONLY = frozenset("ыэёъ")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_FOLD = str.maketrans({"y": "i", "j": "i", "'": None, "’": None, "-": " ", ".": None})
_REPEATS = re.compile(r"(.)\1+")


def is_cyrillic(text: str) -> bool:
    return bool(_CYRILLIC.search(text))


def transliterate(text: str, *, language: str = "") -> str:
    """Cyrillic letters to Latin ones; other text is kept. Ukrainian or Russian is told from
    letters only one of them has, then from `language`, then Russian."""
    if not is_cyrillic(text):
        return text
    lowered = set(text.lower())
    if lowered & _UKRAINIAN_ONLY:
        table = _UKRAINIAN
    elif lowered & _RUSSIAN_ONLY or language != "uk":
        table = _RUSSIAN
    else:
        table = _UKRAINIAN
    out: list[str] = []
    for index, char in enumerate(text):
        lower = char.lower()
        spellings = table.get(lower)
        if spellings is None:
            out.append(char)
            continue
        if isinstance(spellings, tuple):
            initial = index == 0 or not text[index - 1].isalpha()
            spelling = spellings[0] if initial else spellings[1]
        else:
            spelling = spellings
        out.append(spelling.capitalize() if char != lower else spelling)
    return "".join(out)


def _strip_accents(text: str) -> str:
    if text.isascii():
        return text  # nothing to strip (most names: the gazetteer keys 136,000 at start-up)
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def entity_key(name: str, *, language: str = "") -> str:
    """The matching key of a name: Latin, lower case, accents and spelling variants folded."""
    latin = _strip_accents(transliterate(" ".join(name.split()), language=language)).lower()
    folded = latin.translate(_FOLD)
    collapsed = _REPEATS.sub(r"\1", folded)
    return " ".join(collapsed.split())
