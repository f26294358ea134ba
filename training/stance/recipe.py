"""How the training sets are mixed: a cap on each set's (or label's) pairs, and a weight on each
pair's loss. Pairs over a cap are drawn at random with the run's seed; everything else trains.

The reasons, set by set:
- FNC-1's `unrelated` pairs are easy topic mismatches and its `discuss` pairs many: both are
  drawn down. `disagree`, the rarest label and the one the pipeline most needs right, weighs 2.
- SNLI and SICK are short captions, easy once learnt: capped so they teach negation without
  teaching that every text is a caption.
- Perspectrum is opinion, not evidence: capped.
- COVID-Fact has about two machine-made counter-claims per real claim; unbalanced they teach
  that a COVID-19 claim is refuted, so as many counter-claims as real claims train.
- The real claims against real evidence (HealthVer, Climate-FEVER, LIAR-PLUS, WiCE) are few and
  closest to what the pipeline reads: they weigh more.
"""

from __future__ import annotations

import random
from collections import Counter

from training.stance.records import REFUTE, SUPPORT, TRAIN, Pair

# (source, kind or "") -> the most pairs that train; a source's "" cap covers all its kinds.
CAPS: dict[tuple[str, str], int] = {
    ("fnc-1", "unrelated"): 3000,
    ("fnc-1", "discuss"): 3500,
    ("snli", ""): 3500,
    ("sick", ""): 2000,
    ("perspectrum", ""): 3000,
    ("mnli", ""): 6000,
    ("anli", ""): 4000,
}
# (source, kind or "") -> the weight of each pair's loss; 1 when not named.
WEIGHTS: dict[tuple[str, str], float] = {
    ("fnc-1", "disagree"): 2.0,
    ("healthver", ""): 2.0,
    ("climate-fever", ""): 1.5,
    ("liar-plus", ""): 1.5,
    ("wice", ""): 1.5,
}


def _overrides(text: str, what: str) -> dict[tuple[str, str], float]:
    """ "liar-plus=3,fnc-1:disagree=2.5" as {(set, kind or ""): value}; no value below 0."""
    out: dict[tuple[str, str], float] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, sep, value = item.partition("=")
        source, _, kind = name.partition(":")
        try:
            number = float(value)
        except ValueError:
            number = -1.0
        if not sep or not source or number < 0:
            raise ValueError(f"not a set {what}: {item!r} (write set={what} or set:kind={what})")
        out[(source, kind)] = number
    return out


def weighed(overrides: str) -> dict[tuple[str, str], float]:
    """WEIGHTS with a run's own: "liar-plus=3,fnc-1:disagree=2.5" (a set, or set:label kind)."""
    return {**WEIGHTS, **_overrides(overrides, "weight")}


def capped(overrides: str) -> dict[tuple[str, str], int]:
    """CAPS with a run's own, "fnc-1=600,fnc-1:discuss=200": a set's cap holds for its kinds
    that have none of their own, so a set named alone loses the recipe's caps on its kinds."""
    own = _overrides(overrides, "cap")
    if any(count != int(count) for count in own.values()):
        raise ValueError(f"not a set cap: {overrides!r} (a cap is a whole number of pairs)")
    named = {source for source, kind in own if not kind}
    caps = {key: n for key, n in CAPS.items() if not (key[0] in named and key[1])}
    return {**caps, **{key: int(count) for key, count in own.items()}}


def weight_of(pair: Pair, weights: dict[tuple[str, str], float] = WEIGHTS) -> float:
    return weights.get((pair.source, pair.kind), weights.get((pair.source, ""), 1.0))


def training_mix(
    pairs: list[Pair], seed: int, caps: dict[tuple[str, str], int] = CAPS
) -> list[Pair]:
    """The training side of `pairs`, capped as `caps` says and in a fixed random order."""
    rng = random.Random(seed)
    train = [p for p in pairs if p.split == TRAIN]
    groups: dict[tuple[str, str], list[Pair]] = {}
    for pair in train:
        if (pair.source, pair.kind) in caps:
            key = (pair.source, pair.kind)
        elif (pair.source, "") in caps:
            key = (pair.source, "")
        else:
            key = (pair.source, "*")
        groups.setdefault(key, []).append(pair)
    mixed: list[Pair] = []
    for key in sorted(groups):
        rows = groups[key]
        if key[0] == "covid-fact":
            real = [p for p in rows if p.label == SUPPORT]
            counter = [p for p in rows if p.label == REFUTE]
            mixed += real + rng.sample(counter, min(len(real), len(counter)))
        elif key in caps:
            mixed += rng.sample(rows, min(caps[key], len(rows)))
        else:
            mixed += rows
    rng.shuffle(mixed)
    return mixed


def describe(mixed: list[Pair]) -> dict[str, int]:
    return dict(sorted(Counter(p.source for p in mixed).items()))
