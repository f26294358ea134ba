"""Claims a page repeats in order to debunk them.

Fact-check and health pages quote a rumour before they knock it down: "A viral post claims that
the vaccine contains microchips. This is false." The first sentence carries every word of the
claim, but the page does not assert it; it hands it to a post, a rumour or "claims that". Such a
sentence is not support by itself, and with a debunk cue in it or in the sentence after it
(false, hoax, no evidence, not true...) it refutes what it repeats.
"""

from __future__ import annotations

import re

from evidence.stance.signals import refutation_words

_SAYING = (
    r"(?:claim(?:s|ed|ing)?|alleg(?:e|es|ed|ing)|purport(?:s|ed|ing)?|assert(?:s|ed|ing)?|"
    r"say(?:s|ing)?|said|suggest(?:s|ed|ing)?)"
)
_RUMOUR_SOURCES = (
    r"(?:posts?|messages?|tweets?|memes?|videos?|rumou?rs?|chain\s+letters?|social\s+media|"
    r"viral\s+\w+)"
)
_ATTRIBUTION = re.compile(
    "|".join(
        (
            # "A viral post claims that ...", "officials claimed that ..."
            r"\b(?:claim(?:s|ed|ing)?|alleg(?:e|es|ed|ing)|purport(?:s|ed|ing)?)\s+that\b",
            # "It has been claimed that ...", "it was rumoured ..."
            r"\bit\s+(?:has\s+been|had\s+been|is\s+being|is|was)\s+"
            r"(?:claimed|alleged|rumou?red|suggested)\b",
            # "the claim that ...", "a rumour that ...", "the myth that ..."
            r"\b(?:claims?|rumou?rs?|allegations?|myths?|hoax(?:es)?|conspiracy\s+theor(?:y|ies))"
            r"\s+(?:that|about|claiming|saying)\b",
            # "Posts shared on Facebook claimed ...": the source, a few words, then its saying
            # verb, all within one stretch of the sentence (no punctuation between).
            rf"\b{_RUMOUR_SOURCES}(?:[^\S\n]+[\w'-]+){{0,5}}?[^\S\n]+{_SAYING}\b",
            # "Everyone is sharing that ...", "people are saying that ...": hearsay handed to
            # the crowd, which the page passes on without asserting.
            r"\b(?:everyone|everybody|people|users|lots\s+of\s+people)\s+"
            r"(?:is\s+|are\s+|were\s+|was\s+|have\s+been\s+|has\s+been\s+)?"
            r"(?:shar|spread|repost|post|say|said|claim|tweet)\w*\s+(?:online\s+)?that\b",
            # "Claims circulating online ...", "according to a viral post ..."
            r"\b(?:claims?|rumou?rs?|posts?|messages?)\s+(?:circulating|shared|spreading)\b",
            rf"\baccording\s+to\s+(?:an?\s+|the\s+|some\s+)?{_RUMOUR_SOURCES}",
        )
    ),
    re.IGNORECASE,
)
# What fact-checkers and officials say of a claim they reject, beyond the refutation words.
_DEBUNK_PHRASES = re.compile(
    r"\bno\s+(?:evidence|proof|truth|basis)\b|\bnot\s+(?:true|the\s+case|accurate|correct)\b|"
    r"\bnever\s+happened\b|\bconspiracy\s+theor(?:y|ies)\b|\bunsubstantiated\b|\bunproven\b|"
    r"\bbogus\b|\bgroundless\b|\bdoctored\b",
    re.IGNORECASE,
)


def attributed(text: str) -> bool:
    """Whether the text hands what it says to a rumour, a post or "claims that" rather than
    asserting it."""
    return _ATTRIBUTION.search(text) is not None


def debunk_cues(text: str) -> set[str]:
    """The words and phrases in `text` that call a claim false or unfounded."""
    phrases = {" ".join(m.group().lower().split()) for m in _DEBUNK_PHRASES.finditer(text)}
    return refutation_words(text) | phrases


def without_debunk_phrases(text: str) -> str:
    """The text with its debunk phrases blanked out, so that the "no" of "there is no evidence"
    is not read as a negation of the claim it is said of."""
    return _DEBUNK_PHRASES.sub(lambda m: " " * len(m.group()), text)
