"""FNC-1: news headlines against article bodies, the product's own kind of text.

A body runs to hundreds of words, past what the model reads at once, so each pair is the headline
against the passage of its body that bears on it most: the run of up to three sentences that
shares the most of the headline's words, as the pipeline's reranker picks a page's passages.
Agree supports, disagree refutes; discuss (reports the claim without taking a side) and unrelated
say neither. Split by headline. The held-out side keeps every related pair and one unrelated pair
in six, so the easy unrelated pairs do not swamp its figures.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

from training.stance.records import HELD_OUT, NEUTRAL, REFUTE, SUPPORT, Pair, _unit, split_of

_STANCES = {"agree": SUPPORT, "disagree": REFUTE, "discuss": NEUTRAL, "unrelated": NEUTRAL}
_SENTENCE_END = re.compile('(?<=[.!?"\u201d])\\s+(?=[A-Z"\u201c\u2018\'(])|\n+')
_WORD = re.compile(r"[a-z0-9]{3,}")
_COMMON = frozenset(
    "the and for are was were has have had that this with from not but its their they been "
    "will can than more also which who what when where how about into over after before said "
    "says report reports reported".split()
)
PASSAGE_WORDS = 90


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _COMMON}


def sentences(body: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(body) if len(s.split()) >= 4]


def passage(headline: str, body_sentences: list[str]) -> str:
    """The run of one to three sentences (at most PASSAGE_WORDS words) that shares the most of
    the headline's words; the first such run on a tie, the body's opening when none shares any."""
    wanted = _words(headline)
    best, best_score = "", -1.0
    for start in range(len(body_sentences)):
        for length in (1, 2, 3):
            run = body_sentences[start : start + length]
            if len(run) < length:
                break
            text = " ".join(run)
            if length > 1 and len(text.split()) > PASSAGE_WORDS:
                break
            shared = len(wanted & _words(text))
            # A longer run must add words of the headline to win.
            score = shared - 0.1 * (length - 1)
            if score > best_score:
                best, best_score = text, score
    return best or " ".join(" ".join(body_sentences[:3]).split()[:PASSAGE_WORDS])


def bodies_of(root: Path) -> dict[str, list[str]]:
    """Each FNC-1 body's sentences, by its body ID."""
    with (root / "nli" / "fnc-1" / "train_bodies.csv").open(encoding="utf-8") as rows:
        return {row["Body ID"]: sentences(row["articleBody"]) for row in csv.DictReader(rows)}


def stances_of(root: Path, bodies: dict[str, list[str]]) -> list[tuple[str, str, str]]:
    """(headline, body ID, stance) of each pair of a known stance and body, each pair once."""
    seen: set[tuple[str, str]] = set()
    out = []
    for name in ("train_train_stances.csv", "train_test_stances.csv"):
        with (root / "nli" / "fnc-1" / name).open(encoding="utf-8") as rows:
            for row in csv.DictReader(rows):
                key = (row["Headline"], row["Body ID"])
                if key in seen or row["Stance"] not in _STANCES or row["Body ID"] not in bodies:
                    continue
                seen.add(key)
                out.append((row["Headline"], row["Body ID"], row["Stance"]))
    return out


def fnc1(root: Path) -> list[Pair]:
    bodies = bodies_of(root)
    pairs = []
    for headline, body, stance in stances_of(root, bodies):
        split = split_of(headline, 0.15)
        if split == HELD_OUT and stance == "unrelated" and _unit(headline + body, "fnc:") >= 1 / 6:
            continue
        text = passage(headline, bodies[body])
        if text:
            pairs.append(Pair(headline, text, _STANCES[stance], "fnc-1", split, stance))
    return pairs
