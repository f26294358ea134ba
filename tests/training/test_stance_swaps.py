"""The one-detail swaps the strong reader is taught refutation with (training/stance/swaps.py)."""

from __future__ import annotations

import csv
import difflib
from pathlib import Path

from training.stance.pairs import one_detail_swaps as swaps
from training.stance.records import REFUTE, SUPPORT

RESTATED = (
    "The city's population rose to 120,000 in 2019, Mayor Anna Berg said in March.",
    "Mayor Anna Berg said in March that the city's population rose to 120,000 in 2019.",
)
ELSEWHERE = (
    "The harbour reopened to cruise ships after the storm.",
    "Officials in the capital discussed next year's budget for schools and roads.",
)
OTHER_NAMES = (
    "The regional council confirmed the figures on Tuesday, Director Omar Haddad said.",
    "A later report by Director Omar Haddad confirmed the council's figures.",
)


def _root(tmp_path: Path, rows: list[tuple[str, str]]) -> Path:
    folder = tmp_path / "nli" / "healthver"
    folder.mkdir(parents=True)
    with (folder / "healthver_dev.csv").open("w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=["claim", "evidence", "label"])
        writer.writeheader()
        for claim, evidence in rows:
            writer.writerow({"claim": claim, "evidence": evidence, "label": "Supports"})
    return tmp_path


def _changed_words(before: str, after: str) -> list[str]:
    words = difflib.ndiff(before.split(), after.split())
    return [w for w in words if w.startswith(("- ", "+ "))]


def test_a_restated_claim_makes_swaps_that_change_one_shared_detail(tmp_path: Path) -> None:
    made = swaps(_root(tmp_path, [RESTATED, OTHER_NAMES]))
    claim, evidence = RESTATED
    own = [p for p in made if p.claim == claim]

    originals = [p for p in own if p.kind == "original"]
    assert [(p.evidence, p.label) for p in originals] == [(evidence, SUPPORT)]
    refuting = [p for p in own if p.label == REFUTE]
    assert 1 <= len(refuting) <= 2
    for pair in refuting:
        assert pair.kind in {"number", "year", "month", "name", "direction"}
        removed = [w[2:] for w in _changed_words(evidence, pair.evidence) if w.startswith("- ")]
        # Only a detail the claim itself gives is changed, and only that one.
        assert removed and all(word.strip(".,") in claim for word in removed), pair.evidence
        assert len(removed) <= 2, pair.evidence
    assert {p.split for p in own} == {originals[0].split}


def test_evidence_that_does_not_restate_the_claim_makes_no_swaps(tmp_path: Path) -> None:
    assert swaps(_root(tmp_path, [ELSEWHERE])) == []


def test_a_name_is_swapped_whole_for_one_of_as_many_words(tmp_path: Path) -> None:
    claim = "Mayor Anna Berg opened the new bridge over the river."
    evidence = "The new bridge over the river was opened by Mayor Anna Berg on Friday."
    made = swaps(_root(tmp_path, [(claim, evidence), OTHER_NAMES]))
    named = [p for p in made if p.kind == "name" and p.claim == claim]
    assert named, made
    for pair in named:
        assert "Anna Berg" not in pair.evidence and "Berg" not in pair.evidence
        assert "Director Omar Haddad" in pair.evidence or "Omar Haddad" in pair.evidence


def test_a_claim_with_no_detail_to_change_is_negated(tmp_path: Path) -> None:
    claim = "Regular handwashing is a habit that stops the spread of the common cold."
    evidence = "Regular handwashing is a habit that stops the spread of the common cold in schools."
    made = [p for p in swaps(_root(tmp_path, [(claim, evidence)])) if p.label == REFUTE]
    assert [(p.kind, p.claim, p.evidence) for p in made] == [
        (
            "negation",
            "Regular handwashing is not a habit that stops the spread of the common cold.",
            evidence,
        )
    ]


def test_a_shared_direction_word_is_turned_to_its_opposite(tmp_path: Path) -> None:
    claim = "Regular handwashing is effective against the spread of the common cold."
    evidence = "Regular handwashing is effective against the spread of the common cold in schools."
    made = [p for p in swaps(_root(tmp_path, [(claim, evidence)])) if p.label == REFUTE]
    assert [(p.kind, p.evidence) for p in made] == [
        ("direction", evidence.replace("effective", "ineffective"))
    ]
