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

Shorter still ("Yoon Suk Yeol declared martial law", "Nikol Pashinyan met Ilham Aliyev"), the
few words besides the names are too little for the detector, which then reads the names'
letters. Such a claim is English when those words are: an English past tense among them, or
nearly all English news words (`_english_by_its_words`). On 80 such claims, 44 were read as
English by the detector alone and 78 are now; 38 claims of the same shape in seven other
languages are read as English none of the times, before and since (tests/claimcheck).
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
# The confidence given a short claim read as English by its words (sure, not mixed).
ENGLISH_BY_WORDS = 0.9
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


# Lower-case words inside names ("Ursula von der Leyen", "Lula da Silva"): part of the name.
_NAME_PARTICLES = frozenset("von der van den de la le da di del dos das du bin al ibn ter".split())
# Common words of English news claims: its function words and the verbs and nouns claims are
# made of. A short claim whose few words besides its names are these is English whatever its
# names' letters say.
_ENGLISH_WORDS = frozenset(
    (
        "a an the of to and or but by with from for on at as in into onto over under after "
        "before during since until than that this these those which who whom whose what when "
        "where why how not no never its their his her our your it he she they we was were is "
        "are be been being has have had do does did will would could should can may must "
        "said says told met won lost quit left visited opened closed signed sold bought cut "
        "raised called named moved recalled spoke resigned vetoed approved rejected banned "
        "announced launched hosted became returned promised blocked took stepped down up out "
        "joined leads led elected re-elected killed died arrested fined sued attacked invaded "
        "passed increased decreased rose fell grew dropped reached hit expanded built fired "
        "hired ordered allowed refused denied claimed reported confirmed agreed warned ended "
        "started began won't didn't doesn't isn't wasn't aren't hasn't haven't "
        "last first new year years week month day today yesterday prime minister president "
        "government election elections bill law plant rates rate fares cars bridge deal power "
        "nuclear office party court police army war peace talks summit vote votes price prices "
        "tax taxes budget billion million percent people company bank profit loss trade "
        "sanctions aid package treaty border troops city country state report record "
        "inflation growth jobs workers strike flights airport station school hospital"
    ).split()
)
# English words other languages the detector weighs them against also write.
_SHARED_WORDS = frozenset("in a an also so was will man die am be hat war den".split())
# An English past tense ("removed", "jailed", "declared"): no other Latin-script language the
# desk reads ends its words so (Danish "med" and "ved" are too short).
_PAST = re.compile(r"[a-z]{3,}ed")
# A short claim's common words: at most this many, for the English words alone to decide it.
_FEW_WORDS = 5


def _english_by_its_words(words: list[str]) -> bool:
    """Whether a short claim's few words besides its names are English: an English past tense
    among them, or nearly all of them English news words with at least one that only English
    writes, or two or more that all are ("met" and "in" are Dutch too, but a Dutch claim has a
    verb of its own)."""
    lowered = [w.lower() for w in words if w]
    if not lowered or len(lowered) > _FEW_WORDS:
        return False
    past = [w for w in lowered if _PAST.fullmatch(w)]
    english = [w for w in lowered if w in _ENGLISH_WORDS or w in past]
    if past and len(english) >= len(lowered) / 3:
        return True  # "declared martial law": an English past tense, and little else
    if len(english) < 0.75 * len(lowered):
        return False
    return any(w not in _SHARED_WORDS for w in english) or len(english) == len(lowered) >= 2


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
        if _between_names(words, i):
            continue
        kept.append(word)
        counted += 1
    letters = sum(len(_LETTER.findall(word)) for word in kept)
    if counted < MIN_COMMON_WORDS or letters < MIN_COMMON_LETTERS:
        return text
    return " ".join(kept)


def _between_names(words: list[str], i: int) -> bool:
    """A name's particle: "von" and "der" in "Ursula von der Leyen"."""
    if words[i].lower() not in _NAME_PARTICLES:
        return False
    before = next((w for w in reversed(words[:i]) if w.lower() not in _NAME_PARTICLES), "")
    after = next((w for w in words[i + 1 :] if w.lower() not in _NAME_PARTICLES), "")
    return before[:1].isupper() and after[:1].isupper()


def _common(text: str) -> list[str]:
    """The words of a short text that are not names or numbers."""
    tokens = text.split()
    words = [_EDGES.sub("", token) for token in tokens]
    return [
        word
        for i, word in enumerate(words)
        if word
        and not any(char.isdigit() for char in word)
        and not _looks_like_a_name(
            word, first=i == 0, next_word=words[i + 1] if i + 1 < len(words) else ""
        )
        and not _between_names(words, i)
    ]


def detect_language(text: str) -> LanguageGuess:
    """The language of `text` with the detector's confidence; UNKNOWN for text with almost
    no letters (a number, a URL fragment, an empty snippet). A short text is read without its
    names (`common_words`)."""
    sample = " ".join(text[:MAX_CHARS].split())
    if len(sample) <= MAX_NAMED_CHARS:
        if _english_by_its_words(_common(sample)):
            # A few words are too little for the detector, which then reads the names.
            return LanguageGuess("en", ENGLISH_BY_WORDS)
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
