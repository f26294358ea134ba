"""Distillation: a larger model's readings of unlabelled page sentences and of the labelled
training pairs, kept as soft labels that the shipped model's size learns from.

A larger encoder reads better (the pilot in DATA_CARD.md) but too slowly for the pipeline, which
reads a page one sentence at a time. So the larger model is trained as a teacher on the same
pairs, then reads sentences that no set labels but that are what the pipeline reads: every
sentence of each WiCE claim's cited page, and the sentences of each FNC-1 body that share the
most words with its headline, training side only. Its probabilities are written to a file that
holds no text (each pair is named by a hash of the claim and the sentence), so it can be kept in
the repository while the sets stay outside it. A later run of the small model trains on its own
labelled pairs as before and, on those page sentences, learns to read as the teacher reads:
the teacher's probabilities, softened by a temperature, are its targets there. The teacher
also reads the labelled training pairs of the sets the figures are measured on, so that on
those the student learns its probabilities beside the hard label: how sure a reading should
be, and which other label a hard pair is close to.

    .train/bin/python -m training.stance.train --base mpnet --teach FILE      # the teacher
    .train/bin/python -m training.stance.train --soft FILE [--soft-weight 0.5]  # the student

The file is gzip-compressed JSON lines: a header (the teacher, its labels, how many pairs, and
how they were drawn), then one line per pair, {"k": key, "p": [support, refute, neutral]}.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from training.stance import news
from training.stance.pairs import (
    REAL_TEXT,
    _wice_items,
    content_words,
    wice_page,
    wice_split,
)
from training.stance.records import LABELS, TRAIN, Pair, split_of

KIND = "page"
# How many sentences of one page the teacher reads: those sharing the most words with the
# claim (the ones a reader must tell apart), then others drawn at random.
WICE_CLOSEST, WICE_DRAWN = 10, 10
FNC_SENTENCES = 3
# One related FNC-1 training pair in this many gives its body's sentences: the bodies repeat
# across headlines, and the teacher's time is the cost.
FNC_EVERY = 4
MIN_WORDS = 6
# A teacher reads this many pairs between writes of its file, so that a reading stopped part-way
# keeps what it read (a student learns from whatever pairs a file holds).
READ_CHUNK = 2000
# The labelled sets whose training pairs the teacher reads: the real-text sets, where the targets
# are measured and whose text is most like a page's, and the distractors. The others keep their
# hard labels alone: the general-inference sets and the guards' synthetic or general pairs
# (COVID-Fact's swaps, SICK, contrastive) would cost the teacher another 20 minutes or so.
TAUGHT_SETS = (*REAL_TEXT, "distractors")


class SoftLabelError(ValueError):
    """A soft-label file that cannot be read as one."""


def pair_key(claim: str, evidence: str) -> str:
    """A pair's name in a soft-label file: no text of it, the same on every machine."""
    return hashlib.sha256(f"{claim}\x00{evidence}".encode()).hexdigest()[:20]


def _picked(claim: str, sentences: list[str], closest: int, drawn: int, seed: str) -> list[str]:
    usable = [s for s in sentences if len(s.split()) >= MIN_WORDS]
    words = content_words(claim)
    ranked = sorted(range(len(usable)), key=lambda i: (-len(words & content_words(usable[i])), i))
    chosen = ranked[:closest]
    rest = [i for i in range(len(usable)) if i not in chosen]
    chosen += random.Random(seed).sample(rest, min(drawn, len(rest)))
    return [usable[i] for i in sorted(chosen)]


def wice_page_pairs(root: Path) -> list[Pair]:
    """Sentences of each training-side WiCE claim's cited page against the claim."""
    pairs = []
    for item in _wice_items(root):
        if wice_split(item) != TRAIN:
            continue
        claim = item["claim"]
        sentences, _ = wice_page(item)
        for sentence in _picked(claim, sentences, WICE_CLOSEST, WICE_DRAWN, claim):
            pairs.append(Pair(claim, sentence, "", "page:wice", TRAIN, KIND))
    return pairs


def fnc_page_pairs(root: Path) -> list[Pair]:
    """The sentences of a training-side FNC-1 body that share the most words with a headline it
    is related to, one related pair in FNC_EVERY (by a hash of headline and body)."""
    bodies = news.bodies_of(root)
    pairs = []
    for headline, body, stance in news.stances_of(root, bodies):
        if stance == "unrelated" or split_of(headline, 0.15) != TRAIN:
            continue
        digest = hashlib.sha256(f"{headline}\x00{body}".encode()).digest()
        if digest[0] % FNC_EVERY:
            continue
        for sentence in _picked(headline, bodies[body], FNC_SENTENCES, 0, headline):
            pairs.append(Pair(headline, sentence, "", "page:fnc-1", TRAIN, KIND))
    return pairs


def page_pairs(root: Path) -> list[Pair]:
    """The unlabelled page sentences the teacher reads, each pair once."""
    out: dict[str, Pair] = {}
    for pair in wice_page_pairs(root) + fnc_page_pairs(root):
        out.setdefault(pair_key(pair.claim, pair.evidence), pair)
    return list(out.values())


def teacher_pairs(root: Path, labelled: Sequence[Pair]) -> list[Pair]:
    """What a teacher reads, each pair once: the labelled training pairs of TAUGHT_SETS first
    (what only a teacher that trained on them can read), then the page sentences (which an
    earlier teacher's file may already hold), so that a reading stopped part-way has read the
    first."""
    out: dict[str, Pair] = {}
    for pair in labelled:
        if pair.source in TAUGHT_SETS:
            out.setdefault(pair_key(pair.claim, pair.evidence), pair)
    for pair in page_pairs(root):
        out.setdefault(pair_key(pair.claim, pair.evidence), pair)
    return list(out.values())


def write_soft(
    path: Path, pairs: Sequence[Pair], probabilities: Sequence[Sequence[float]], header: dict
) -> None:
    if len(pairs) != len(probabilities):
        raise SoftLabelError(f"{len(pairs)} pairs but {len(probabilities)} rows of probabilities")
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    with gzip.open(partial, "wt", encoding="utf-8") as out:
        out.write(json.dumps({**header, "labels": list(LABELS), "pairs": len(pairs)}) + "\n")
        for pair, row in zip(pairs, probabilities, strict=True):
            key = pair_key(pair.claim, pair.evidence)
            out.write(json.dumps({"k": key, "p": [round(float(p), 4) for p in row]}) + "\n")
    partial.replace(path)


def read_and_write(
    path: Path,
    pairs: Sequence[Pair],
    read: Callable[[Sequence[Pair]], Sequence[Sequence[float]]],
    header: dict,
    chunk: int = READ_CHUNK,
) -> list[Sequence[float]]:
    """Read `pairs` a chunk at a time, in their order, and write the file of what has been read
    after each chunk: `complete` false in its header until the last. A reading stopped part-way
    leaves a whole file of the pairs read so far."""
    if chunk < 1:
        raise ValueError(f"chunk must be at least 1, not {chunk}")
    started = time.perf_counter()
    probabilities: list[Sequence[float]] = []
    for start in range(0, len(pairs), chunk):
        part = pairs[start : start + chunk]
        rows = read(part)
        if len(rows) != len(part):
            raise SoftLabelError(f"{len(part)} pairs read as {len(rows)} rows")
        probabilities.extend(rows)
        done = len(probabilities)
        minutes = (time.perf_counter() - started) / 60
        read_so_far = {
            **header,
            "complete": done == len(pairs),
            "of": len(pairs),
            "reading_minutes": round(minutes, 1),
        }
        write_soft(path, pairs[:done], probabilities, read_so_far)
        left = minutes / done * (len(pairs) - done)
        print(f"read {done}/{len(pairs)}: {minutes:.1f} min, about {left:.0f} min left", flush=True)
    if not pairs:
        write_soft(path, pairs, probabilities, {**header, "complete": True, "of": 0})
    return probabilities


def read_soft(path: Path) -> tuple[dict, dict[str, tuple[float, ...]]]:
    """The header and each pair's probabilities, by key."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as rows:
            header = json.loads(next(rows))
            if header.get("labels") != list(LABELS):
                raise SoftLabelError(f"{path}: labels {header.get('labels')}, not {list(LABELS)}")
            soft: dict[str, tuple[float, ...]] = {}
            for number, line in enumerate(rows, start=2):
                row = json.loads(line)
                probabilities = tuple(float(p) for p in row["p"])
                if len(probabilities) != len(LABELS) or abs(sum(probabilities) - 1) > 0.01:
                    raise SoftLabelError(f"{path} line {number}: not a distribution over labels")
                soft[str(row["k"])] = probabilities
    except (OSError, EOFError, StopIteration, json.JSONDecodeError, KeyError, TypeError) as exc:
        raise SoftLabelError(f"{path}: not a soft-label file ({exc})") from exc
    if header.get("pairs") != len(soft):
        raise SoftLabelError(
            f"{path}: the header says {header.get('pairs')} pairs, it holds {len(soft)}"
        )
    return header, soft


def read_soft_files(paths: Sequence[Path]) -> tuple[dict, dict[str, tuple[float, ...]]]:
    """Several teachers' files as one: where two read the same pair, the later file's reading
    stands. The header names every teacher and how many pairs each file gave."""
    soft: dict[str, tuple[float, ...]] = {}
    teachers, given = [], []
    for path in paths:
        header, read = read_soft(path)
        soft.update(read)
        teachers.append(str(header.get("teacher", "")))
        given.append({"file": str(path), "pairs": len(read), "complete": header.get("complete")})
    return {"teacher": "; ".join(teachers), "files": given}, soft


def taught(pairs: Sequence[Pair], soft: dict[str, tuple[float, ...]]) -> list[Pair]:
    """The page pairs the teacher read, in a fixed order; a pair it did not read is left out."""
    return [p for p in pairs if pair_key(p.claim, p.evidence) in soft]
