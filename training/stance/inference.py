"""General inference sets as stance pairs: a premise (the evidence) against a hypothesis (the
claim). Entailment supports, contradiction refutes, neutral says neither. They teach what the
fact-checking sets have too little of: negation, contradiction and entailment in varied prose.
Each is split by premise, so a premise's hypotheses stay on one side."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from training.stance.records import (
    CALIBRATION,
    HELD_OUT,
    NEUTRAL,
    REFUTE,
    SUPPORT,
    TRAIN,
    Pair,
    jsonl,
    split_of,
)

_NLI = {
    "entailment": SUPPORT,
    "contradiction": REFUTE,
    "neutral": NEUTRAL,
    "e": SUPPORT,
    "c": REFUTE,
    "n": NEUTRAL,
}
_TOKENISED = re.compile(" (?=[.,!?;:)'\u2019]|n't\\b|'s\\b)|(?<=[(]) ")


def _detokenised(text: str) -> str:
    """SNLI and the MNLI sample are tokenised ("a dog ."); pages are not."""
    return _TOKENISED.sub("", text.strip())


def _tsv(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8") as rows:
        return list(csv.reader(rows, delimiter="\t", quoting=csv.QUOTE_NONE))


def mnli(root: Path) -> list[Pair]:
    folder = root / "nli" / "mnli"
    pairs = []
    for row in _tsv(folder / "mnli_dev_matched.txt")[1:]:
        if len(row) >= 4 and row[3] in _NLI:
            pairs.append(Pair(row[2], row[1], _NLI[row[3]], "mnli", split_of(row[1], 0.15)))
    for row in _tsv(folder / "mnli_dev_mismatched_sample1000.txt"):
        if len(row) >= 3 and row[0] in _NLI:
            premise, hypothesis = _detokenised(row[1]), _detokenised(row[2])
            split = split_of(premise, 0.15)
            pairs.append(Pair(hypothesis, premise, _NLI[row[0]], "mnli", split, "mismatched"))
    return pairs


def snli(root: Path) -> list[Pair]:
    folder = root / "nli" / "snli"
    pairs = []
    for part in ("dev", "test"):
        premises = (folder / f"s1.{part}").read_text(encoding="utf-8").splitlines()
        hypotheses = (folder / f"s2.{part}").read_text(encoding="utf-8").splitlines()
        labels = (folder / f"labels.{part}").read_text(encoding="utf-8").splitlines()
        for premise, hypothesis, label in zip(premises, hypotheses, labels, strict=False):
            if label.strip() in _NLI:
                premise = _detokenised(premise)
                pairs.append(
                    Pair(
                        _detokenised(hypothesis),
                        premise,
                        _NLI[label.strip()],
                        "snli",
                        split_of(premise, 0.15),
                    )
                )
    return pairs


def anli(root: Path) -> list[Pair]:
    """Adversarial hypotheses: the hardest set here (CC BY-NC 4.0)."""
    pairs = []
    for path in sorted((root / "nli" / "anli").glob("R*_*.jsonl")):
        for item in jsonl(path):
            label = _NLI.get(item.get("label", ""))
            if label:
                context = item["context"]
                pairs.append(
                    Pair(item["hypothesis"], context, label, "anli", split_of(context, 0.15))
                )
    return pairs


def rte(root: Path) -> list[Pair]:
    """Entailment in news and Wikipedia prose. Not-entailment mixes contradiction with what the
    text leaves open, so it trains as neither: a reader must not call a gap a refutation."""
    pairs = []
    for name in ("train.tsv", "dev.tsv", "test.tsv"):
        for row in _tsv(root / "nli" / "rte" / name)[1:]:
            if len(row) >= 4 and row[3] in ("entailment", "not_entailment"):
                label = SUPPORT if row[3] == "entailment" else NEUTRAL
                pairs.append(Pair(row[2], row[1], label, "rte", split_of(row[1], 0.15), row[3]))
    return pairs


_TITLE = re.compile(r"\[\[[^\]]*\]\]")
_TAG = re.compile(r"<[^>]+>")
_BEFORE = {"SUPPORTS": SUPPORT, "SUPPORTED": SUPPORT, "REFUTES": REFUTE}


def _plain(text: str) -> str:
    return _detokenised(re.sub(r"\s+", " ", _TAG.sub("", _TITLE.sub(" ", text))))


def sufficient_facts(root: Path) -> list[Pair]:
    """A FEVER, HoVer or VitaminC claim against its full evidence (support or refute), and
    against the same evidence with a part removed: still that label when what was removed did
    not matter, otherwise neither, since evidence missing its decisive part says nothing."""
    pairs = []
    for path in sorted((root / "nli" / "sufficient-facts").glob("*_sufficient_facts.jsonl")):
        kind = path.name.split("_")[0]
        for item in jsonl(path):
            label = _BEFORE.get(item.get("label_before", ""))
            if not label:
                continue
            claim = item["claim"]
            split = split_of(claim, 0.2)
            full = _plain(item.get("text_orig") or "")
            reduced = _detokenised(" ".join(sentence for _, sentence in item["evidence"]))
            if full:
                pairs.append(Pair(claim, full, label, "sufficient-facts", split, kind))
            if reduced and reduced != full:
                enough = item.get("label_after", "").startswith("ENOUGH")
                after = label if enough else NEUTRAL
                pairs.append(Pair(claim, reduced, after, "sufficient-facts", split, kind))
    return pairs


_SPLITS = {"train": TRAIN, "dev": CALIBRATION, "test": HELD_OUT}
_PERSPECTIVE = {"SUPPORT": SUPPORT, "UNDERMINE": REFUTE}


def perspectrum(root: Path) -> list[Pair]:
    """Debate claims against one-sentence perspectives that support or undermine them, on the
    set's own claim split (its dev claims calibrate). Opinions, not evidence."""
    folder = root / "nli" / "perspectrum"
    splits = json.loads((folder / "dataset_split_v1.0.json").read_text(encoding="utf-8"))
    texts = {
        item["pId"]: item["text"]
        for item in json.loads((folder / "perspective_pool_v1.0.json").read_text(encoding="utf-8"))
    }
    claims = json.loads((folder / "perspectrum_with_answers_v1.0.json").read_text(encoding="utf-8"))
    pairs = []
    for claim in claims:
        split = _SPLITS.get(splits.get(str(claim["cId"]), ""), TRAIN)
        for cluster in claim["perspectives"]:
            label = _PERSPECTIVE.get(cluster.get("stance_label_3", ""))
            if not label:
                continue
            for pid in cluster["pids"]:
                if pid in texts:
                    pairs.append(Pair(claim["text"], texts[pid], label, "perspectrum", split))
    return pairs
