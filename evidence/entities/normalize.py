"""Entity names to comparable keys: case, whitespace, accents and Cyrillic-Latin spelling.

"Zelensky", "Zelenskyy", "Зеленський" and "Зеленский" are one person to a reader; their keys
must be one string too. A key is the Latin spelling (Cyrillic transliterated: Ukrainian by
the national system, Russian by BGN/PCGN), lower-cased, without accents, with the letters
that transliterations disagree on folded together (y / j / i, doubled letters, apostrophes).
It is a matching key, never shown to anyone: the alias table and the gazetteer say how a name
is written.

Slavic names are inflected ("у Києві", "в Киеве", "Зеленського"), so a Cyrillic word also
offers the nominative forms it may stand for (`lemma_candidates`), for the alias table and the
gazetteer to recognise.
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

# Case endings of Slavic nouns and adjectives, longest first, and the nominative endings a
# stripped stem may take back.
_ENDINGS = (
    "ого", "ому", "ими", "ами", "ями", "ові", "еві", "ою", "ею", "ом", "ем", "ам", "ям", "ах",
    "ях", "ів", "ей", "ий", "ій", "ый", "ой", "ої", "ої", "ая", "а", "я", "у", "ю", "і", "е",
    "и", "ї", "ы", "ь",
)  # fmt: skip
_NOMINATIVE = ("", "а", "я", "ий", "ій", "ь", "о", "ия", "ія")
_ADJECTIVE_SUFFIXES = ("ськ", "цьк", "ск", "цк")
# Ukrainian alternates a vowel in the last syllable: Київ / Києва, Харків / Харкова.
_ALTERNATION = {"є": "ї", "о": "і", "е": "і"}


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
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def entity_key(name: str, *, language: str = "") -> str:
    """The matching key of a name: Latin, lower case, accents and spelling variants folded."""
    latin = _strip_accents(transliterate(" ".join(name.split()), language=language)).lower()
    folded = latin.translate(_FOLD)
    collapsed = re.sub(r"(.)\1+", r"\1", folded)
    return " ".join(collapsed.split())


def case_stem(word: str) -> str:
    """A Cyrillic word without its case ending ("Зеленського" → "Зеленськ"); other words
    as they are."""
    if not is_cyrillic(word):
        return word
    lowered = word.lower()
    for ending in _ENDINGS:
        if lowered.endswith(ending) and len(lowered) - len(ending) >= 3:
            return word[: len(word) - len(ending)]
    return word


def lemma_candidates(word: str) -> list[str]:
    """Forms a Cyrillic word may be the inflection of, the word itself first ("Києві" →
    "Києві", "Київ", ...). A Latin word is only itself."""
    if not is_cyrillic(word) or len(word) < 4:
        return [word]
    candidates = [word]
    lowered = word.lower()
    stems: list[str] = []
    for ending in _ENDINGS:
        if lowered.endswith(ending) and len(lowered) - len(ending) >= 3:
            stems.append(word[: len(word) - len(ending)])
    stems.append(word)
    # An adjective of a place ("Київська", "Московский") names the place itself first.
    places = [
        stem[: len(stem) - len(suffix)]
        for stem in stems
        for suffix in _ADJECTIVE_SUFFIXES
        if stem.lower().endswith(suffix) and len(stem) - len(suffix) >= 3
    ]
    stems = places + stems
    for stem in stems:
        vowel = next(
            (i for i in range(len(stem) - 1, 0, -1) if stem[i].lower() in _ALTERNATION), None
        )
        variants = [stem]
        if vowel is not None and vowel >= len(stem) - 2:
            swapped = _ALTERNATION[stem[vowel].lower()]
            variants.append(stem[:vowel] + swapped + stem[vowel + 1 :])
        for variant in variants:
            for ending in _NOMINATIVE:
                form = variant + ending
                if form not in candidates:
                    candidates.append(form)
    return candidates
