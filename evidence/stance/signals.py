"""Small readers of meaning the deterministic stance scorer relies on: numbers, negation,
refutation words, antonyms and hedges. General English, not tuned to any data set's wording."""

from __future__ import annotations

import re
from dataclasses import dataclass

from claimcheck.words import STOPWORDS, fold, stem, tokens
from evidence.stance.clauses import family, negated_after

_NUMBER = re.compile(
    r"(?<![\w.])(?P<value>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*"
    r"(?P<unit>%|percent\b|per cent\b|[a-zA-Z°]+)?"
)
_SCALE = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20, "thirty": 30, "forty": 40,
    "fifty": 50, "hundred": 100, "dozen": 12, "half": 0.5, "double": 2, "twice": 2,
}  # fmt: skip


# "no deaths", "zero cases", "none of the passengers": a count of nothing. "No one" and
# "nobody" are not counts of anything ("No one expected 300 cases"); the negation check reads
# them.
_ZERO = re.compile(
    r"\b(?:zero|no|not\s+a\s+single|none\s+of(?:\s+(?:the|its|their|these|those))?)(?=\s+[a-z])",
    re.IGNORECASE,
)
_NOT_COUNTED = frozenset("one longer doubt matter less fewer sooner way".split())
_FOLLOWING_WORD = re.compile(r"\s+([a-z][a-z'-]*)", re.IGNORECASE)
_COUNTED_REACH = 3
# Words that describe a count without saying what is counted ("no new funding" is not "300 new
# cases").
_GENERIC = frozenset(
    stem(word)
    for word in "new more other further additional total confirmed reported known".split()
)


# Shares of a whole in words: "half of", "a third of", "two-thirds", "three quarters", "one
# in five". A singular fraction must be followed by "of" or a verb, or be hyphenated, so "a
# third term" and "the third quarter" stay ordinals.
_FRACTION = re.compile(
    r"\b(?:(?P<numerator>a|an|one|two|three|four)(?P<joint>[\s-]+))?"
    r"(?P<denominator>half|thirds?|quarters?|fifths?|tenths?)\b",
    re.IGNORECASE,
)
_ONE_IN = re.compile(
    r"\b(?P<numerator>one|two|three|four)\s+(?:in|out\s+of)\s+"
    r"(?P<denominator>two|three|four|five|six|seven|eight|nine|ten)\b",
    re.IGNORECASE,
)
_NUMERATORS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4}
_DENOMINATORS = {"half": 2, "third": 3, "quarter": 4, "fifth": 5, "tenth": 10}
# After a share, the words that show it is the subject of a count ("a third were ...").
_SHARE_FOLLOWERS = frozenset(
    "of the were was are is could can had have did do would will may might remain remained".split()
)
_PERCENT_WORD = re.compile(r"\s+(?:percent|per\s+cent)\b", re.IGNORECASE)
# Fractions in words are rounded ("about a third"), so they agree with a percentage this close.
_ROUNDING_POINTS = 4.0


@dataclass(frozen=True)
class Quantity:
    value: float
    unit: str  # "%", a following word (stemmed), or "" when bare
    is_year: bool
    # What is counted: the words right after the number, by word family ("people died").
    counted: frozenset[str] = frozenset()
    # A share of a whole ("60 percent of", "two-thirds"), in percent.
    share: bool = False
    # A share said in words, and so rounded.
    approximate: bool = False
    # The share's clause is negated after it ("a third could not be attributed"): what is
    # asserted is of the rest of the whole.
    negated: bool = False


def _counted(text: str, position: int) -> frozenset[str]:
    """The content words that run on from `position` up to a stop word or punctuation."""
    found: set[str] = set()
    for _ in range(_COUNTED_REACH):
        match = _FOLLOWING_WORD.match(text, position)
        if match is None or match[1].lower() in STOPWORDS:
            break
        found.add(family(stem(match[1].lower())))
        position = match.end()
    return frozenset(found)


def _next_word(text: str, position: int) -> str:
    match = _FOLLOWING_WORD.match(text, position)
    return match[1].lower() if match else ""


def _fractions(text: str) -> list[tuple[int, int, float]]:
    """(start, end, percent) of each share of a whole given in words."""
    found: list[tuple[int, int, float]] = []
    for match in _FRACTION.finditer(text):
        numerator = (match["numerator"] or "").lower()
        denominator = match["denominator"].lower()
        plural = denominator.endswith("s")
        denominator = denominator.removesuffix("s")
        following = _next_word(text, match.end())
        if plural:
            if numerator not in ("two", "three", "four"):
                continue
        elif denominator == "half":
            if numerator not in ("", "one") or following not in _SHARE_FOLLOWERS:
                continue
        elif numerator not in ("a", "an", "one") or (
            "-" not in (match["joint"] or "") and following not in _SHARE_FOLLOWERS - {"the"}
        ):
            continue
        share = _NUMERATORS.get(numerator, 1) / _DENOMINATORS[denominator] * 100
        found.append((match.start(), match.end(), share))
    for match in _ONE_IN.finditer(text):
        share = (
            _NUMBER_WORDS[match["numerator"].lower()] / _NUMBER_WORDS[match["denominator"].lower()]
        )
        found.append((match.start(), match.end(), share * 100))
    return found


def quantities(text: str) -> list[Quantity]:
    found: list[Quantity] = []
    fractions = _fractions(text)
    for start, end, share in fractions:
        found.append(
            Quantity(
                value=share,
                unit="%",
                is_year=False,
                counted=_counted(text, end),
                share=True,
                approximate=True,
                negated=negated_after(text, start),
            )
        )
    for match in _NUMBER.finditer(text):
        raw = match["value"].replace(",", "")
        try:
            value = float(raw)
        except ValueError:
            continue
        unit = match["unit"] or ""
        if unit[:1].isupper() and unit.lower() not in _SCALE:
            unit = ""  # "2028 Continental Games": a name follows, not a unit
        unit = unit.lower()
        if unit in _SCALE:
            value *= _SCALE[unit]
            rest = text[match.end() :].split(None, 1)
            unit = stem(rest[0].lower().strip(".,;:")) if rest else ""
        elif unit in ("percent", "per cent"):
            unit = "%"
        elif unit not in ("%", ""):
            unit = stem(unit)
        is_year = unit in ("", "s") and 1800 <= value <= 2100 and "." not in raw and "," not in raw
        share = unit == "%" and _next_word(text, match.end()) in _SHARE_FOLLOWERS
        found.append(
            Quantity(
                value=value,
                unit=unit if not is_year else "year",
                is_year=is_year,
                counted=_counted(text, match.end("value")),
                share=share,
                negated=share and negated_after(text, match.start()),
            )
        )
    for word in re.finditer(r"[a-z]+", text, re.IGNORECASE):
        if any(start <= word.start() < end for start, end, _ in fractions):
            continue  # the "two" of "two-thirds"
        if word[0].lower() not in _NUMBER_WORDS:
            continue
        value = float(_NUMBER_WORDS[word[0].lower()])
        percent = _PERCENT_WORD.match(text, word.end())
        if percent is None:
            found.append(Quantity(value, "", is_year=False, counted=_counted(text, word.end())))
            continue
        share = _next_word(text, percent.end()) in _SHARE_FOLLOWERS  # "Forty percent of"
        found.append(
            Quantity(
                value,
                "%",
                is_year=False,
                counted=_counted(text, percent.end()),
                share=share,
                negated=share and negated_after(text, word.start()),
            )
        )
    for zero in _ZERO.finditer(text):
        counted = _counted(text, zero.end())
        next_word = _FOLLOWING_WORD.match(text, zero.end())
        if counted and next_word is not None and next_word[1].lower() not in _NOT_COUNTED:
            found.append(Quantity(0.0, "", is_year=False, counted=counted))
    return found


def _close(a: float, b: float, *, rounded: bool = False) -> bool:
    if rounded and abs(a - b) <= _ROUNDING_POINTS:
        return True
    return abs(a - b) <= max(abs(a), abs(b)) * 0.05


def _agrees(wanted: Quantity, found: Quantity) -> bool:
    """The same value, or for two shares of which one is negated ("two-thirds were attributed",
    "a third could not be"), values that make up the whole."""
    rounded = wanted.approximate or found.approximate
    if wanted.share and found.share and wanted.negated != found.negated:
        return _close(wanted.value, 100 - found.value, rounded=rounded)
    return _close(wanted.value, found.value, rounded=rounded)


def _same_thing(a: Quantity, b: Quantity) -> bool:
    return bool((a.counted & b.counted) - _GENERIC)


@dataclass(frozen=True)
class Agreement:
    matches: int
    mismatches: int
    # Matches that are a share against the negated rest of the whole: they account for a
    # negation that is not a contradiction.
    complements: int
    # Matches by a value written otherwise, within rounding ("6.96 million" for "approximately
    # 7 million"), with no passage quantity of the claim's exact value.
    rounded: int = 0


def number_agreement(claim: list[Quantity], passage: list[Quantity]) -> Agreement:
    """How the claim's quantities meet the passage's. A mismatch is a passage quantity of the
    same unit as a claim quantity, with a different value, when no passage quantity has the
    claim's value. A count of nothing ("no deaths") against a count of the same thing ("five
    people died") is a mismatch too. Years are left to the date checks."""
    matches = mismatches = complements = rounded = 0
    counts = [q for q in passage if not q.is_year]
    for wanted in (q for q in claim if not q.is_year):
        zeros = [q for q in counts if q.value == 0 and _same_thing(q, wanted)]
        if wanted.value == 0:
            if zeros:
                matches += 1
            elif any(q.value > 0 and _same_thing(q, wanted) for q in counts):
                mismatches += 1
            continue
        same_unit = [q for q in counts if q.unit == wanted.unit]
        agreeing = [q for q in counts if _agrees(wanted, q)]
        if agreeing:
            matches += 1
            if all(q.share and q.negated != wanted.negated for q in agreeing):
                complements += 1
            elif all(q.value != wanted.value for q in agreeing):
                rounded += 1
        elif (same_unit and wanted.unit) or zeros:
            mismatches += 1
    return Agreement(matches, mismatches, complements, rounded)


# Words that call a statement false or doubtful rather than negating a clause.
REFUTATIONS = frozenset(
    stem(word)
    for word in (
        "false myth myths hoax debunked debunk incorrect untrue misleading wrong "
        "unfounded baseless refuted refute refutes disproved disprove denied deny denies "
        "contrary fabricated fake misinformation disinformation erroneous mistaken "
        "inaccurate contradicts contradicted discredited"
        # The adverbs a report uses to say a claim was false ("wrongly claimed").
        " wrongly falsely mistakenly incorrectly erroneously"
    ).split()
)
HEDGES = frozenset(
    (
        "may might could possibly perhaps likely unlikely suggest suggests suggested uncertain "
        "unclear debated controversial speculate speculated hypothesis hypothesized potential "
        "potentially allegedly reportedly claim claims claimed"
    ).split()
)
_ANTONYM_PAIRS = [
    ("increase", "decrease"), ("increase", "reduce"), ("rise", "fall"), ("rise", "decline"),
    ("grow", "shrink"), ("grow", "decline"), ("gain", "loss"), ("gain", "lose"),
    ("expand", "contract"), ("expand", "shrink"), ("accelerate", "slow"), ("more", "less"),
    ("more", "fewer"), ("higher", "lower"), ("high", "low"), ("above", "below"),
    ("warm", "cool"), ("warming", "cooling"), ("hot", "cold"), ("melt", "freeze"),
    ("thick", "thin"), ("advance", "retreat"), ("positive", "negative"), ("strong", "weak"),
    ("stronger", "weaker"), ("major", "minor"), ("majority", "minority"), ("most", "least"),
    ("largest", "smallest"), ("large", "small"), ("best", "worst"), ("true", "false"),
    ("safe", "dangerous"), ("legal", "illegal"), ("approve", "reject"), ("accept", "reject"),
    ("win", "lose"), ("won", "lost"), ("pass", "fail"), ("support", "oppose"),
    ("allow", "ban"), ("allow", "prohibit"), ("open", "close"), ("start", "stop"),
    ("begin", "end"), ("alive", "dead"), ("always", "never"), ("all", "none"),
    ("benefit", "harm"), ("improve", "worsen"), ("success", "failure"), ("cause", "prevent"),
    ("natural", "man-made"), ("natural", "human"), ("up", "down"), ("heavier", "lighter"),
    ("earlier", "later"), ("before", "after"), ("faster", "slower"), ("wetter", "drier"),
    ("approve", "prohibit"), ("approve", "block"), ("clear", "block"), ("adopt", "reject"),
    ("confirm", "deny"), ("accept", "decline"), ("elect", "defeat"), ("open", "shut"),
    # The verbs reporters use for a change in a figure pair with both senses of it.
    ("increase", "decline"), ("increase", "drop"), ("increase", "fall"), ("rise", "drop"),
]  # fmt: skip
ANTONYMS: dict[str, set[str]] = {}
for _left, _right in _ANTONYM_PAIRS:
    ANTONYMS.setdefault(stem(_left), set()).add(stem(_right))
    ANTONYMS.setdefault(stem(_right), set()).add(stem(_left))

_WORDS = re.compile(r"[a-z]+(?:'t)?")


def words(text: str) -> list[str]:
    return _WORDS.findall(text.lower())


def refutation_words(text: str) -> set[str]:
    return {stem(w) for w in words(text)} & REFUTATIONS


def hedged(text: str) -> bool:
    return any(w in HEDGES for w in words(text))


# Irregular forms the light stemmer cannot bring to their verb ("fell" is "fall"), for the verbs
# of the antonym pairs.
_IRREGULAR = {
    "rose": "rise", "risen": "rise", "fell": "fall", "fallen": "fall", "grew": "grow",
    "grown": "grow", "shrank": "shrink", "shrunk": "shrink", "began": "begin",
    "begun": "begin", "froze": "freeze", "frozen": "freeze",
}  # fmt: skip


def _stems(text: str) -> set[str]:
    return {stem(_IRREGULAR.get(w, w)) for w in words(text)}


def antonym_clash(claim_text: str, passage: str) -> set[str]:
    """Claim words whose opposite the passage uses while not using the word itself."""
    claim_stems = set(tokens(claim_text)) | _stems(claim_text)
    passage_stems = _stems(passage)
    clashes = set()
    for word in claim_stems:
        opposite = ANTONYMS.get(word, set())
        if opposite & passage_stems and word not in passage_stems:
            clashes.add(word)
    return clashes


_SENTENCE_BREAK = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])|\s*\n+\s*")
_MIN_SENTENCE = 20


def sentence_spans(text: str, *, max_chars: int = 600) -> list[tuple[int, int]]:
    """(start, end) of each sentence of `text`, trimmed of white space; very long runs
    without punctuation are cut at max_chars so a quote stays a quote."""
    spans: list[tuple[int, int]] = []
    start = 0
    for boundary in [*_SENTENCE_BREAK.finditer(text), None]:
        end = boundary.start() if boundary is not None else len(text)
        piece = text[start:end]
        left = start + (len(piece) - len(piece.lstrip()))
        right = start + len(piece.rstrip())
        while right - left > max_chars:
            cut = text.rfind(" ", left, left + max_chars)
            cut = cut if cut > left else left + max_chars
            spans.append((left, cut))
            left = cut + 1
        if right - left >= _MIN_SENTENCE or (right > left and not spans and boundary is None):
            spans.append((left, right))
        if boundary is not None:
            start = boundary.end()
    return spans


def next_sentence(text: str, position: int, *, max_chars: int = 300) -> tuple[int, int] | None:
    """(start, end) of the sentence that follows `position`, however short ("This is false.");
    None at the end of the text or when no sentence ends within max_chars."""
    start = len(text) - len(text[position:].lstrip())
    if start >= len(text):
        return None
    boundary = _SENTENCE_BREAK.search(text, start, start + max_chars)
    end = boundary.start() if boundary is not None else len(text)
    if end - start > max_chars or end <= start:
        return None
    return start, len(text[:end].rstrip())


_NAME_WORD = re.compile(r"[^\W\d_][\w]*(?:-\w+)*")
_CALENDAR = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday january february march april may "
    "june july august september october november december".split()
)


def _name_key(word: str) -> str:
    return stem(fold(word))


def claim_names(text: str) -> frozenset[str]:
    """The names a claim turns on: its capitalised words after the first ("the Digital
    Services Levy", "Skyline Air"), and a first word that carries a number or a hyphen
    ("Aurora-2"); months, weekdays and function words are not names."""
    names = set()
    for index, match in enumerate(_NAME_WORD.finditer(text)):
        word = match.group()
        if not word[0].isupper() or fold(word) in STOPWORDS:
            continue
        if fold(word) in _CALENDAR:
            continue
        if index == 0 and not any(ch.isdigit() or ch == "-" for ch in word):
            continue
        names.add(_name_key(word))
    return frozenset(names)


def names_all_in(names: frozenset[str], passage: str) -> bool:
    """Whether the passage names every one of the claim's names (in any case)."""
    return names <= {_name_key(m.group()) for m in _NAME_WORD.finditer(passage)}
