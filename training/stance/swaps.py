"""One-detail swaps made from the supporting pairs of real claim sets: the page says what the
claim says, but one detail of the claim (a number, a year, a month, a name, a direction) stands
changed in the evidence, or the claim is negated. Each swap refutes; the pair it was made from
supports and trains beside it, so that the only thing telling the two apart is the detail.

The changed detail is always one the claim and the evidence share (a number the claim gives and
the page repeats, a name both name): a page that changes a detail the claim never mentions does
not contradict it. Every occurrence of the detail in the evidence changes, so the evidence does
not contradict itself. A swap keeps the split of the pair it was made from, so held-out claims
make only held-out swaps and the training side never sees them.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from training.stance.records import REFUTE, SUPPORT, Pair, content_words

_NUMBER = re.compile(r"(?<![\w.,-])\d[\d,]*(?:\.\d+)?(?![\w,-]|\.\d)")
_YEAR = re.compile(r"\b(19[5-9]\d|20[0-4]\d)\b")
_MONTHS = (
    "January February March April May June July August September October November December"
).split()
_MONTH_NAMES = "|".join(_MONTHS)
_MONTH = re.compile(rf"\b({_MONTH_NAMES})\b")
_DAY = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)? (?:{_MONTH_NAMES})\b|\b(?:{_MONTH_NAMES}) (\d{{1,2}})\b"
)
# A whole run of capitalised words; `_names` keeps those not at a sentence's start.
_NAME = re.compile("(?<![\\w'\u2019-])[A-Z][\\w'\u2019-]+(?: [A-Z][\\w'\u2019-]+)*")
_OPENERS = frozenset("The A An In On At By For From His Her Its Their This That".split())
_OPENING = re.compile(r"(?:^|[.!?:\"“(]\s*)$")
_AUXILIARY = re.compile(r"\b(is|are|was|were|has|have|had|will|can|could|would|should|did)\b ")
_NEGATED = re.compile(r"\b(not|never|no longer|n't)\b", re.IGNORECASE)
# A word and the one that says the opposite about the same change.
_OPPOSITES = {
    "increase": "decrease",
    "increased": "decreased",
    "increases": "decreases",
    "increasing": "decreasing",
    "rise": "fall",
    "rises": "falls",
    "rose": "fell",
    "rising": "falling",
    "higher": "lower",
    "more": "fewer",
    "above": "below",
    "gained": "lost",
    "won": "lost",
    "approved": "rejected",
    "accepted": "rejected",
    "raised": "lowered",
    "expanded": "shrank",
    "grew": "shrank",
    "warmer": "cooler",
    "warming": "cooling",
    "largest": "smallest",
    "highest": "lowest",
    "reduces": "increases",
    "reduced": "increased",
    "lowers": "raises",
    "improves": "worsens",
    "improved": "worsened",
    "positive": "negative",
    "effective": "ineffective",
    "safe": "unsafe",
}
_OPPOSITES |= {after: before for before, after in _OPPOSITES.items()}
_DIRECTION = re.compile(r"\b(" + "|".join(sorted(_OPPOSITES, key=len, reverse=True)) + r")\b")


def _restates(claim: str, evidence: str, share: float) -> bool:
    """The evidence holds at least `share` of the claim's content words: it says the same thing,
    so that one changed detail makes it say something else."""
    words = content_words(claim)
    return bool(words) and len(words & content_words(evidence)) >= share * len(words)


def _replace_all(text: str, old: str, new: str) -> str:
    return re.sub(r"(?<![\w.])" + re.escape(old) + r"(?![\w]|\.\d)", new, text)


def _names(text: str) -> set[str]:
    """The names a text gives: runs of capitalised words; at a sentence's start (where any word
    is capitalised) only a run of two words or more, an article or preposition before it left
    out."""
    found = set()
    for match in _NAME.finditer(text):
        name = match.group()
        if _OPENING.search(text[: match.start()]):
            words = name.split()
            if words[0] in _OPENERS:
                words = words[1:]
            name = " ".join(words) if len(words) >= 2 else ""
        if name and name not in _MONTHS:
            found.add(name)
    return found


def _shared(pattern: re.Pattern[str], claim: str, evidence: str) -> list[str]:
    found = {m.group() for m in pattern.finditer(claim)}
    return sorted(found & {m.group() for m in pattern.finditer(evidence)})


def _number(claim: str, evidence: str, rng: random.Random) -> str | None:
    # Years and days of a month have swaps of their own (a 40th of December is no detail).
    days = {m.group(1) or m.group(2) for m in _DAY.finditer(evidence)}
    shared = [
        n for n in _shared(_NUMBER, claim, evidence) if not _YEAR.fullmatch(n) and n not in days
    ]
    if not shared:
        return None
    old = rng.choice(shared)
    value = float(old.replace(",", ""))
    new_value = (
        value * rng.choice((0.5, 0.7, 1.4, 2, 3)) if value >= 3 else value + rng.choice((2, 3, 5))
    )
    new = f"{new_value:,.1f}" if "." in old else f"{round(new_value):,}"
    if "," not in old:
        new = new.replace(",", "")
    return None if new == old else _replace_all(evidence, old, new)


def _year(claim: str, evidence: str, rng: random.Random) -> str | None:
    shared = _shared(_YEAR, claim, evidence)
    if not shared:
        return None
    old = rng.choice(shared)
    return _replace_all(evidence, old, str(int(old) + rng.choice((-4, -3, -2, -1, 1, 2, 3))))


def _month(claim: str, evidence: str, rng: random.Random) -> str | None:
    shared = _shared(_MONTH, claim, evidence)
    if not shared:
        return None
    old = rng.choice(shared)
    return _replace_all(evidence, old, rng.choice([m for m in _MONTHS if m != old]))


def _direction(claim: str, evidence: str, rng: random.Random) -> str | None:
    shared = _shared(_DIRECTION, claim, evidence)
    if not shared:
        return None
    old = rng.choice(shared)
    return re.sub(r"\b" + old + r"\b", _OPPOSITES[old], evidence)


def _negated_claim(claim: str) -> str | None:
    """The claim with its first auxiliary negated; None for claims already negative or long."""
    if _NEGATED.search(claim) or len(claim.split()) > 30:
        return None
    auxiliary = _AUXILIARY.search(claim)
    if not auxiliary:
        return None
    return claim[: auxiliary.end()] + "not " + claim[auxiliary.end() :]


def swaps(
    root: Path, sets: Sequence[Callable[[Path], list[Pair]]], per_source: int = 900
) -> list[Pair]:
    """A supporting pair of each of `sets` (the readers of real claim sets whose folders are
    present under `root`) beside its swaps (see the module's text): at most `per_source`
    supporting pairs of each set make swaps, every split in its own share."""
    rng = random.Random(17)
    found: list[Pair] = []
    for read in sets:
        try:
            found.extend(read(root))
        except FileNotFoundError:
            continue
    by_source: dict[str, list[Pair]] = {}
    for pair in found:
        if pair.label == SUPPORT and pair.kind != "partial":
            by_source.setdefault(pair.source, []).append(pair)
    out: list[Pair] = []
    for _, rows in sorted(by_source.items()):
        # The names another name of the set is drawn from.
        pool = sorted({name for pair in rows for name in _names(pair.evidence)})
        rng.shuffle(rows)
        made = 0
        for pair in rows:
            if made >= per_source:
                break
            changed = _changes(pair, pool, rng)
            if not changed:
                continue
            made += 1
            out.append(Pair(pair.claim, pair.evidence, SUPPORT, "swaps", pair.split, "original"))
            out.extend(changed)
    return out


def _changes(pair: Pair, names: list[str], rng: random.Random) -> list[Pair]:
    """The swaps of one supporting pair: at most two, of different kinds."""
    claim, evidence = pair.claim, pair.evidence
    made: list[Pair] = []
    if not _restates(claim, evidence, 0.5):
        return made
    for kind, change in rng.sample(
        [
            ("number", lambda: _number(claim, evidence, rng)),
            ("year", lambda: _year(claim, evidence, rng)),
            ("month", lambda: _month(claim, evidence, rng)),
            ("name", lambda: _name(claim, evidence, names, rng)),
            ("direction", lambda: _direction(claim, evidence, rng)),
        ],
        5,
    ):
        changed = change()
        if changed and changed != evidence:
            made.append(Pair(claim, changed, REFUTE, "swaps", pair.split, kind))
        if len(made) == 2:
            return made
    negated = _negated_claim(claim)
    if negated and not made and _restates(claim, evidence, 0.7):
        made.append(Pair(negated, evidence, REFUTE, "swaps", pair.split, "negation"))
    return made


def _name(claim: str, evidence: str, names: list[str], rng: random.Random) -> str | None:
    shared = sorted(n for n in _names(claim) & _names(evidence) if len(n) > 3)
    if not shared or len(names) < 2:
        return None
    old = rng.choice(shared)
    width = len(old.split())
    alike = [n for n in names if len(n.split()) == width] or names
    for _ in range(5):
        new = rng.choice(alike)
        if new != old and new not in claim and new not in evidence:
            return _replace_all(evidence, old, new)
    return None
