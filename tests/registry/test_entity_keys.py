"""Entity names to matching keys: one key across case, accents, spelling and script."""

from __future__ import annotations

from registry.entity_keys import entity_key, transliterate


def test_transliteration_follows_each_language() -> None:
    assert transliterate("Київ", language="uk") == "Kyiv"
    assert transliterate("Москва") == "Moskva"
    assert transliterate("Харків") == "Kharkiv"
    assert transliterate("Chicago") == "Chicago"


def test_keys_fold_case_whitespace_accents_and_spelling() -> None:
    assert entity_key("  Zelenskyy ") == entity_key("zelensky")
    assert entity_key("Kyïv") == entity_key("KYIV")
    assert entity_key("Зеленский") == entity_key("Zelenskiy")
