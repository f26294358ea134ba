"""Which clause of a sentence a negation belongs to, and whether that clause is the one that
carries the claim's words.

"The minister, who did not attend the summit, announced the tax cut" negates attending, not
announcing: the negation sits in a relative clause about something else. Without a parser the
sentence is cut at punctuation and at the words that open a new clause (relative pronouns,
"but", "although"...), and a negation is taken to govern the claim when its clause holds at
least as many of the claim's words as any other clause of the sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from claimcheck.words import stem, tokens

NEGATIONS = frozenset(
    (
        "not no never cannot neither nor none nothing nobody nowhere without lack lacks lacking "
        "fail fails failed unable refuse refuses refused refusing"
    ).split()
)
# Contractions written without their apostrophe, as web addresses, headlines made from them and
# hurried posts write them ("iphone-12-wont-come-with-a-charger"). "Cant" and "wont" are also
# rare nouns ("as was his wont"); read as negations they cost less than a headline read as the
# claim's opposite.
_BARE_CONTRACTIONS = frozenset(
    (
        "dont doesnt didnt isnt arent wasnt werent wont wouldnt cant couldnt shouldnt hasnt "
        "havent hadnt mustnt neednt aint"
    ).split()
)
# These negate the phrase that follows them ("approved without amendments"), not the clause.
_PHRASE_NEGATIONS = frozenset("without lack lacks lacking".split())
# Phrases that contain a negator but deny nothing.
_NOT_NEGATING = re.compile(
    r"\bnot only\b|\bnot just\b|\bno doubt\b|\bnot least\b|\bwhether or not\b", re.IGNORECASE
)
# A negated expectation ("No one expected 300 cases") denies the forecast, not the event.
_EXPECTING = frozenset(
    stem(word)
    for word in (
        "expect expects expected anticipate anticipates anticipated predict predicts predicted "
        "foresee foresees foresaw foreseen forecast forecasts forecasted imagine imagined"
    ).split()
)
_EXPECTATION_REACH = 4  # words after the negator: "could not have predicted"

_CLAUSE_PUNCTUATION = re.compile(r"[;:()\[\]\u2014\u2013]|,(?!\d)|\s-\s")
_CLAUSE_OPENERS = frozenset("but although though whereas who whom whose which that".split())
_WORD = re.compile(r"[a-z]+(?:['\u2019]t)?", re.IGNORECASE)
_THAT = re.compile(r"that\b", re.IGNORECASE)

# Words of one meaning that the light stemmer leaves apart: a report of "no deaths" speaks to a
# claim that people "died", and counts of casualties are what news most often states.
_FAMILIES = {
    "death": "die dies died dying dead death deaths kill kills killed fatality fatalities",
    "injury": "injure injures injured injury injuries wound wounded hurt",
}
_FAMILY_OF = {stem(word): name for name, members in _FAMILIES.items() for word in members.split()}


def family(word_stem: str) -> str:
    """The shared name of a stem's word family ("died" and "deaths" are both "death")."""
    return _FAMILY_OF.get(word_stem, word_stem)


def content_words(text: str) -> set[str]:
    """The text's tokens as the scope checks compare them: stemmed, then by word family."""
    return {family(token) for token in tokens(text)}


def is_negator(word: str) -> bool:
    lowered = word.lower().replace("\u2019", "'")
    return lowered in NEGATIONS or lowered in _BARE_CONTRACTIONS or lowered.endswith("n't")


def clause_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each clause: pieces between clause punctuation, cut again before a word
    that opens a clause. Empty pieces are dropped."""
    spans: list[tuple[int, int]] = []
    start = 0
    for boundary in [*_CLAUSE_PUNCTUATION.finditer(text), None]:
        end = boundary.start() if boundary is not None else len(text)
        piece_start = start
        for word in _WORD.finditer(text, start, end):
            if word.group().lower() in _CLAUSE_OPENERS and word.start() > piece_start:
                spans.append((piece_start, word.start()))
                piece_start = word.start()
        spans.append((piece_start, end))
        if boundary is not None:
            start = boundary.end()
    return [(s, e) for s, e in spans if text[s:e].strip()]


def negators(text: str, start: int = 0, end: int | None = None) -> Iterable[re.Match[str]]:
    """The negating words of text[start:end], leaving out "not only", "no doubt" and negated
    expectations."""
    end = len(text) if end is None else end
    masked = _NOT_NEGATING.sub(lambda m: " " * len(m.group()), text)
    found = list(_WORD.finditer(masked, start, end))
    for index, word in enumerate(found):
        if not is_negator(word.group()):
            continue
        following = found[index + 1 : index + 1 + _EXPECTATION_REACH]
        if any(stem(w.group().lower()) in _EXPECTING for w in following):
            continue
        yield word


def governing_negation(text: str, claim_words: set[str] | frozenset[str]) -> bool:
    """Whether some negation in `text` governs the claim's words (`claim_words` as
    content_words gives them). A clause negator counts when its clause holds at least one of
    those words and no other clause holds more; a "that" clause right after it is its
    complement ("did not say that ...", "no evidence that ...") and counts with it. "Without"
    and its like count when the phrase they open holds one of the words."""
    clauses = clause_spans(text)
    shared = [len(content_words(text[s:e]) & claim_words) for s, e in clauses]
    most = max(shared, default=0)
    for index, (start, end) in enumerate(clauses):
        governed = clauses[index][1]
        for following in clauses[index + 1 :]:
            if _THAT.match(text, following[0]) is None:
                break  # not cut before "that", or cut at punctuation
            governed = following[1]
        held = len(content_words(text[start:governed]) & claim_words)
        for word in negators(text, start, end):
            if word.group().lower() in _PHRASE_NEGATIONS:
                if content_words(text[word.end() : end]) & claim_words:
                    return True
            elif held and held >= most:
                return True
    return False


def negated_after(text: str, position: int) -> bool:
    """Whether the clause holding `position` is negated after it ("a third of the outbreaks
    could not be attributed"): the subject at `position` is what the negation is said of."""
    for start, end in clause_spans(text):
        if start <= position < end:
            return any(w.start() > position for w in negators(text, start, end))
    return False
