"""What a claim asserts, as comparable parts: who and where (entity keys, one across scripts and
languages: "Germany", "Германия" and "Tyskland" are one key), its numbers, years and months (which
read the same in any language once written alike), its content words (in its own language), and
its direction and negation.

Two claims are the same assertion only when none of these conflict: a number ("3.1" for "1.3
million tonnes"), a year or month, a party or place swapped for another ("Belgium" for
"Germany"), a direction ("rose" for "fell", "approved" for "rejected") or a negation ("refused
to resign") makes a near miss, however many words they share. The direction and negation words
are short lists in the languages the desk reads most (English, Russian, Ukrainian, Swedish,
German, French, Spanish), matched by their stems.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from claimcheck.words import STOPWORDS, fold, stem
from evidence.entities import extract_entities

# Kinds of entity that are a claim's parties and places: one swapped for another is another claim.
PARTY_KINDS = frozenset({"person", "organization", "place"})

_NUMBER = re.compile(r"(?<![\w.,])\d+(?:[ .,\u00a0\u202f]\d+)*(?![\w])")
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_YEAR = re.compile(r"^(19|20)\d\d$")

# Month names in Latin letters, as whole words (English, Swedish, German, French, Spanish).
_LATIN_MONTHS: dict[str, int] = {}
for _names in (
    "january february march april may june july august september october november december",
    "jan feb mar apr may jun jul aug sep oct nov dec",
    "januari februari mars april maj juni juli augusti september oktober november december",
    "januar februar märz april mai juni juli august september oktober november dezember",
    "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
    "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
):
    for _month, _name in enumerate(_names.split(), 1):
        _LATIN_MONTHS.setdefault(_name, _month)
_LATIN_MONTHS["sept"] = 9
# Cyrillic month names by their stems (their cases share it).
_CYRILLIC_MONTHS: dict[str, int] = {
    "январ": 1, "феврал": 2, "март": 3, "апрел": 4, "мая": 5, "май": 5, "июн": 6, "июл": 7,
    "август": 8, "сентябр": 9, "октябр": 10, "ноябр": 11, "декабр": 12,
    "січ": 1, "лют": 2, "берез": 3, "квіт": 4, "травн": 5, "черв": 6, "липн": 7, "серпн": 8,
    "верес": 9, "жовт": 10, "листопад": 11, "грудн": 12,
}  # fmt: skip
# English words that are months only beside a number ("in May 2024", not "it may").
_ALSO_WORDS = frozenset({"may", "march", "mar", "jan", "sep", "oct", "dec", "aug", "jun", "jul"})

# Direction: each axis has two poles; a claim at one pole and another at the other conflict.
_POLES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "amount": (
        ("rose", "rise", "risen", "rais", "hike", "increas", "grew", "grow", "gain", "climb",
         "jump", "soar", "higher", "вырос", "выросл", "увелич", "повыс", "зрос", "збільш",
         "ökade", "ökat", "steg", "växte", "stieg", "gestiegen", "erhöh", "augment", "hausse",
         "aument", "subió"),
        ("fell", "fall", "fallen", "cut$", "cuts$", "reduc", "slash", "decreas", "declin",
         "drop", "shrank", "shrunk", "lower", "plung", "упал", "упала", "сниз", "сократ",
         "уменьш", "знизи", "зменш", "впав", "minskade", "minskat", "sjönk", "föll", "sank",
         "gesunken", "gesenkt", "baiss", "dismin", "cayó", "bajó"),
    ),
    "permission": (
        ("approv", "authoris", "authoriz", "allow", "permit", "adopt", "passed$", "cleared$",
         "разреш", "одобр", "утверд", "принял", "приня", "дозвол", "схвал", "godkän", "tillät",
         "tillåt", "genehmig", "erlaub", "autoris", "aprob", "permit"),
        ("ban$", "bans$", "banned", "banning", "prohibit", "reject", "block", "veto", "bann",
         "запрет", "отклон", "отверг", "заборон", "відхил", "förbjud", "förbjöd", "avslog",
         "avvisa", "verbot", "verbiet", "abgelehnt", "interdi", "rejet", "prohib", "rechaz"),
    ),
    "contest": (
        ("won$", "win$", "wins$", "winning", "victory$", "выиграл", "победил", "переміг",
         "виграв", "vann", "gewann", "gagn", "ganó"),
        ("lost", "lose", "defeat", "проиграл", "програв", "förlorade", "verlor", "perdu",
         "perdió"),
    ),
    "result": (
        ("gain", "profit", "earn", "заработ", "прибыл", "vinst", "gewinn"),
        ("lost$", "loss", "lose$", "loses$", "убыт", "потерял", "förlust", "verlust"),
    ),
    "opening": (
        ("open", "reopen", "launch", "start", "открыл", "запуст", "відкри", "öppnade", "eröffn",
         "ouvr", "abri", "inaugur"),
        ("close$", "closed$", "closes$", "closing$", "closure", "shut", "закрыл", "закри",
         "stängde", "geschlossen", "schloss", "ferm", "cerr"),
    ),
}  # fmt: skip
_NEGATIONS = frozenset(
    "not no never nor n't cannot refused refuses refuse denied denies deny failed fails "
    "не нет никогда ни отказал отказался отказалась відмовив відмовився ні inte ej aldrig "
    "vägrade vägrar nicht kein keine keinen nie pas jamais nunca".split()
)  # fmt: skip


@dataclass(frozen=True)
class Signature:
    language: str
    parties: frozenset[str]
    """Entity keys of people, organisations and places."""
    names: frozenset[str]
    """Other entity keys (nationalities, products, events)."""
    numbers: frozenset[str]
    years: frozenset[str]
    months: frozenset[int]
    days: frozenset[str]
    words: frozenset[str]
    poles: frozenset[tuple[str, int]]
    negated: bool

    def keys(self) -> list[str]:
        """What the index stores for the claim: each part with its kind. Content words carry
        their language: a word means nothing in another one."""
        return (
            [f"e:{k}" for k in self.parties]
            + [f"o:{k}" for k in self.names]
            + [f"n:{n}" for n in self.numbers]
            + [f"y:{y}" for y in self.years]
            + [f"m:{m}" for m in self.months]
            + [f"d:{d}" for d in self.days]
            + [f"w:{self.language}:{w}" for w in self.words]
        )


def _number(raw: str) -> str:
    """One spelling per number: "3,1" and "3.1" are 3.1, "1,000", "1 000" and "1.000" are
    1000 (a separator before exactly three digits groups thousands)."""
    parts = re.split(r"[ .,\u00a0\u202f]", raw)
    if len(parts) > 1 and all(len(p) == 3 for p in parts[1:]):
        return "".join(parts).lstrip("0") or "0"
    whole = "".join(parts[:-1]) if len(parts) > 1 else parts[0]
    if len(parts) > 1:
        value = f"{whole.lstrip('0') or '0'}.{parts[-1]}".rstrip("0").rstrip(".")
        return value
    return whole.lstrip("0") or "0"


def _months(text: str) -> tuple[set[int], set[str]]:
    """The months a text names, and the days written beside them ("28 March", "March 28")."""
    window = [raw.strip(".,;:()«»\"'") for raw in text.lower().split()]
    months: set[int] = set()
    days: set[str] = set()
    for i, word in enumerate(window):
        number = _LATIN_MONTHS.get(word)
        if number is None:
            starts = (n for stem_, n in _CYRILLIC_MONTHS.items() if word.startswith(stem_))
            number = next(starts, None)
        if number is None:
            continue
        around = window[max(0, i - 1) : i] + window[i + 1 : i + 2]
        if word in _ALSO_WORDS and not any(any(ch.isdigit() for ch in t) for t in around):
            continue
        months.add(number)
        days.update(t.lstrip("0") for t in around if t.isdigit() and 1 <= int(t) <= 31)
    return months, days


def _is_month(word: str) -> bool:
    return word in _LATIN_MONTHS or any(word.startswith(m) for m in _CYRILLIC_MONTHS)


def _pole_pattern(starts: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern for a pole's words: a start matches the words it starts, a start ending in
    "$" only itself ("ban$": not "bank")."""
    exact = [re.escape(s[:-1]) for s in starts if s.endswith("$")]
    begins = [re.escape(s) for s in starts if not s.endswith("$")]
    return re.compile("|".join([*(f"{e}\\Z" for e in exact), *begins]))


_POLE_PATTERNS = {
    (axis, side): _pole_pattern(starts)
    for axis, sides in _POLES.items()
    for side, starts in enumerate(sides)
}


def _stem_in(language: str, word: str) -> str:
    """Content-word stems: the English suffix strip for English, else the first six letters
    (enough to meet a word's inflected forms in Russian, Ukrainian or Swedish)."""
    return stem(word) if language in ("en", "") else word[:6]


def signature(text: str, *, language: str) -> Signature:
    folded_words = [w.lower() for w in _WORD.findall(text)]
    entities = extract_entities(text, language=language)
    months, days = _months(text)
    numbers: set[str] = set()
    years: set[str] = set()
    for raw in _NUMBER.findall(text):
        value = _number(raw.strip())
        (years if _YEAR.match(value) else numbers).add(value)
    numbers -= days
    entity_words = {w.lower() for e in entities for w in _WORD.findall(e.text)}
    words = {
        _stem_in(language, fold(w))
        for w in folded_words
        if w not in STOPWORDS
        and w not in _NEGATIONS
        and len(w) > 2
        and w not in entity_words
        and not (months and _is_month(w))
    }
    poles, negated = _stance_words(text)
    return Signature(
        language=language,
        parties=frozenset(e.key for e in entities if str(e.kind) in PARTY_KINDS),
        names=frozenset(e.key for e in entities if str(e.kind) not in PARTY_KINDS),
        numbers=frozenset(numbers),
        years=frozenset(years),
        months=frozenset(months),
        days=frozenset(days),
        words=frozenset(words),
        poles=frozenset(poles),
        negated=negated,
    )


def conflict(a: Signature, b: Signature) -> str:
    """Why two claims cannot be the same assertion ("" when nothing conflicts)."""
    if a.numbers and b.numbers and a.numbers != b.numbers:
        return "a number differs"
    if a.years and b.years and a.years != b.years:
        return "a year differs"
    if a.months and b.months and a.months != b.months:
        return "a month differs"
    if a.days and b.days and a.days != b.days:
        return "a day differs"
    if _swapped(a.parties, b.parties):
        return "a party or place differs"
    if _swapped(a.names, b.names):
        return "a name differs"
    for axis in _POLES:
        if {(axis, 0), (axis, 1)} <= (a.poles | b.poles) and a.poles != b.poles:
            return f"the {axis} goes the other way"
    if a.negated != b.negated:
        return "one of them is negated"
    return ""


def _stance_words(text: str) -> tuple[set[tuple[str, int]], bool]:
    """The directions a text takes and whether it is negated, from its words alone."""
    folded_words = [w.lower() for w in _WORD.findall(text)]
    poles = {
        pole
        for pole, pattern in _POLE_PATTERNS.items()
        if any(pattern.match(w) for w in folded_words)
    }
    return poles, any(w in _NEGATIONS for w in folded_words) or "n't" in text.lower()


def from_keys(keys: set[str], *, text: str, language: str) -> Signature:
    """A stored claim's signature from its index rows and its text, without reading its names
    again (the costly part)."""

    def parts(prefix: str) -> set[str]:
        return {key[len(prefix) :] for key in keys if key.startswith(prefix)}

    poles, negated = _stance_words(text)
    return Signature(
        language=language,
        parties=frozenset(parts("e:")),
        names=frozenset(parts("o:")),
        numbers=frozenset(parts("n:")),
        years=frozenset(parts("y:")),
        months=frozenset(int(m) for m in parts("m:") if m.isdigit()),
        days=frozenset(parts("d:")),
        words=frozenset(key.split(":", 2)[2] for key in keys if key.startswith("w:")),
        poles=frozenset(poles),
        negated=negated,
    )


def _alike(one: str, other: str) -> bool:
    """Two keys of one name as spellings differ: one starts the other ("europ", "european"), or
    they are a letter or two apart ("bobrownik" in Polish, "bobrovnik" from Russian)."""
    if one.startswith(other) or other.startswith(one):
        return True
    if min(len(one), len(other)) < 5 or abs(len(one) - len(other)) > 2:
        return False
    return _distance(one, other) <= max(1, min(len(one), len(other)) // 6)


def _distance(one: str, other: str) -> int:
    row = list(range(len(other) + 1))
    for i, a in enumerate(one, 1):
        previous, row[0] = row[0], i
        for j, b in enumerate(other, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (a != b))
    return row[-1]


def _swapped(mine: frozenset[str], theirs: frozenset[str]) -> bool:
    """Each side names something the other does not, under any spelling: one was put for
    the other ("Belgium" for "Germany"). A name only one side gives is a detail, not a swap."""
    only_mine = [k for k in mine if not any(_alike(k, t) for t in theirs)]
    only_theirs = [k for k in theirs if not any(_alike(k, m) for m in mine)]
    return bool(only_mine and only_theirs)
