"""What a training pair is, and which split it falls in.

Every set is split by claim (or by what ties several claims together) with a stable hash, so a
claim's pairs are all on one side. Three sides: `train`; `calibration`, carved out of what would
otherwise train, on which the shipped probabilities and the pipeline's counting bars are fitted;
and `held_out`, on which every reported figure is measured. A held-out key stays held out whatever
the calibration share, so figures stay comparable with earlier models.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

SUPPORT, REFUTE, NEUTRAL = "support", "refute", "neutral"
LABELS = (SUPPORT, REFUTE, NEUTRAL)
TRAIN, CALIBRATION, HELD_OUT = "train", "calibration", "held_out"
# The share of each set's training keys kept apart for calibration.
CALIBRATION_SHARE = 0.1


@dataclass(frozen=True)
class Pair:
    claim: str
    evidence: str
    label: str
    source: str
    split: str
    # Finer grouping inside a source, reported apart ("real" / "counter" for COVID-Fact).
    kind: str = ""


def _unit(key: str, salt: str = "") -> float:
    digest = hashlib.sha256((salt + key.strip().lower()).encode()).digest()
    return int.from_bytes(digest[:4], "big") / 2**32


def held_out(key: str, share: float) -> bool:
    """True for about `share` of keys, the same keys on every machine and run."""
    return _unit(key) < share


def calibration(key: str) -> bool:
    """True for about CALIBRATION_SHARE of keys, drawn independently of `held_out`."""
    return _unit(key, "calibration:") < CALIBRATION_SHARE


def split_of(key: str, share: float = 0.25) -> str:
    if held_out(key, share):
        return HELD_OUT
    return CALIBRATION if calibration(key) else TRAIN


def not_held(key: str) -> str:
    """The side of a key that a set's own split already put on the training side."""
    return CALIBRATION if calibration(key) else TRAIN


def jsonl(path: Path) -> Iterator[dict]:
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                yield json.loads(line)


_WORD = re.compile(r"[a-z0-9]{3,}")
_COMMON = frozenset(
    "the and for are was were has have had that this with from not but its their they been "
    "will can than more also which who what when where how about into over after before".split()
)


def content_words(text: str) -> set[str]:
    """The words of a text that say what it is about: three letters or more, not the commonest."""
    return {w for w in _WORD.findall(text.lower()) if w not in _COMMON}
