"""Slavic names are inflected ("у Києві", "в Киеве", "Зеленського"), so a Cyrillic word also
offers the nominative forms it may stand for (`lemma_candidates`), for the alias table and the
gazetteer to recognise by their keys (`registry.entity_keys`)."""

from __future__ import annotations

from registry.entity_keys import is_cyrillic

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
