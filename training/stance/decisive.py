"""The sentence that decides: a joined pair cut into its sentences, with the one a teacher reads
as most on the pair's side kept as a pair of its own.

LIAR-PLUS rulings and COVID-Fact evidence come as a few sentences joined, and are trained on that
way. The pipeline reads a page one sentence at a time, and a fact-check's ruling rarely decides
the claim in each of its sentences: it restates the claim, gives context, then takes it apart in
one of them. Which one is not labelled. The teacher (a trained stance model) picks it: the
sentence it reads as likeliest to take the gold side. A pair is kept only when the teacher leans
there at least `FLOOR` of the time, so the gold label and the teacher agree on that sentence;
the gold label keeps the teacher's errors about the claim's side out, and the teacher keeps the
sentences of context out.

Only training pairs are cut, and only after the recipe's caps (so a set's balance of labels
holds); held-out and calibration pairs stay as they were, and figures compare across runs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from training.stance.pairs import content_words
from training.stance.records import LABELS, REFUTE, SUPPORT, TRAIN, Pair

KIND = "decisive"
# The least probability the teacher must give the pair's label on the chosen sentence.
FLOOR = 0.4
# A sentence shorter than this many words is a fragment of the ruling, not a statement.
MIN_WORDS = 5
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'\u201c])")

# (claim, sentence) pairs in, one row of probabilities in LABELS order out per pair.
Teacher = Callable[[list[tuple[str, str]]], Sequence[Sequence[float]]]


def sentences(text: str) -> list[str]:
    """The statements of a joined evidence text, in order."""
    return [s.strip() for s in _SENTENCE_END.split(text) if len(s.split()) >= MIN_WORDS]


def foils(cut: Sequence[Pair], pairs: Sequence[Pair]) -> list[str | None]:
    """For each pair of `cut`, the training claim of its set that shares the most content words
    with it and has none of its evidence, or None when no claim shares a word."""
    by_source: dict[str, dict[str, set[str]]] = {}
    for pair in pairs:
        if pair.split == TRAIN:
            by_source.setdefault(pair.source, {}).setdefault(pair.claim, set()).add(pair.evidence)
    words = {claim: content_words(claim) for claims in by_source.values() for claim in claims}
    out: list[str | None] = []
    for pair in cut:
        own = by_source[pair.source][pair.claim]
        scored = [
            (len(words[pair.claim] & words[claim]), claim)
            for claim, evidence in by_source[pair.source].items()
            if claim != pair.claim and not evidence & own
        ]
        best = max(scored, default=(0, ""), key=lambda item: (item[0], item[1]))
        out.append(best[1] if best[0] > 0 else None)
    return out


def decisive_pairs(
    pairs: list[Pair], teacher: Teacher, sources: Sequence[str], specific: bool = False
) -> list[Pair]:
    """For each training pair of `sources` that takes a side and joins two or more
    sentences: the sentence the teacher reads as likeliest to take that side (with `specific`,
    likeliest above its reading against the pair's foil), as a pair of kind `decisive`, when
    the teacher gives that side at least FLOOR there. A named set with no pairs at all (a
    misspelt name) is an error, not a run quietly trained without it."""
    wanted = set(sources)
    missing = sorted(wanted - {pair.source for pair in pairs})
    if missing:
        raise ValueError(f"no pairs of {', '.join(missing)} to find the deciding sentences in")
    cut = [
        (pair, parts)
        for pair in pairs
        if pair.split == TRAIN
        and pair.source in wanted
        and pair.label in (SUPPORT, REFUTE)
        and len(parts := sentences(pair.evidence)) >= 2
    ]
    rows = teacher([(pair.claim, part) for pair, parts in cut for part in parts])
    against = foils([pair for pair, _ in cut], pairs) if specific else [None] * len(cut)
    asked = [
        (foil, part)
        for (_, parts), foil in zip(cut, against, strict=True)
        if foil
        for part in parts
    ]
    foil_rows = teacher(asked) if asked else []
    out: list[Pair] = []
    at = foil_at = 0
    for (pair, parts), foil in zip(cut, against, strict=True):
        column = LABELS.index(pair.label)
        scores = [float(row[column]) for row in rows[at : at + len(parts)]]
        at += len(parts)
        margins = scores
        if foil:
            read = foil_rows[foil_at : foil_at + len(parts)]
            foil_at += len(parts)
            margins = [score - float(row[column]) for score, row in zip(scores, read, strict=True)]
        best = max(
            (i for i in range(len(parts)) if scores[i] >= FLOOR),
            key=lambda i: (margins[i], -i),
            default=None,
        )
        if best is not None and margins[best] > 0:
            out.append(Pair(pair.claim, parts[best], pair.label, pair.source, TRAIN, KIND))
    return out
