"""The language detector's confidence: plain English reads as sure, a text in two close
languages as unsure."""

from __future__ import annotations

import pytest

from claimcheck.language import MIXED_CONFIDENCE, detect_language
from demo.loader import demo_claims

PLAIN_ENGLISH = [
    "Inflation rose to 5%",
    "Kyiv opened a new metro line in 2024",
    *(claim.text for claim in demo_claims() if claim.text.isascii()),
]


@pytest.mark.parametrize("text", PLAIN_ENGLISH, ids=lambda text: text[:40])
def test_plain_english_is_english_and_sure(text: str) -> None:
    guess = detect_language(text)
    assert guess.code == "en"
    assert guess.confidence >= MIXED_CONFIDENCE
    assert not guess.mixed and not guess.needs_english_search()


def test_a_sentence_half_russian_half_ukrainian_is_unsure_and_searched_in_english_too() -> None:
    guess = detect_language("Мэр Киева заявил, що бюджет затверджено")
    assert guess.code in {"uk", "ru"}
    assert guess.mixed and guess.needs_english_search()


def test_the_codes_are_two_letter_codes_and_the_confidence_a_share_of_two() -> None:
    for text in ("Київська міська рада затвердила бюджет Києва на 2025 рік.", "Halden Rail"):
        guess = detect_language(text)
        assert len(guess.code) == 2
        assert 0.5 <= guess.confidence <= 1.0
