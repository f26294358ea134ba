"""The stance model's training pairs: the distractor pairs (a claim against another claim's
evidence on its topic) are neutral, never the claim's own evidence or a near copy's, and never
cross the split between training and held-out claims."""

from __future__ import annotations

import json
from pathlib import Path

from training.stance import pairs

TOPICS = [
    ("masks", "Cloth masks reduce the spread of the virus in crowded rooms"),
    ("vaccine", "The vaccine trial enrolled adults over the age of sixty"),
    ("ventilation", "Opening windows lowers the virus in school classrooms"),
    ("antibodies", "Antibodies to the virus fade within months of infection"),
    ("children", "Children carry the virus in their noses as often as adults"),
    ("smell", "Loss of smell is an early sign of infection with the virus"),
]


def _covid_fact(root: Path) -> None:
    rows = []
    for n in range(48):
        topic, claim = TOPICS[n % len(TOPICS)]
        claim = f"{claim} in study {n}"
        evidence = [f"Study {n} of the virus measured {topic} in {n + 10} sites and patients."]
        source = f"https://journal.example.org/{topic}/{n}"
        rows.append({"claim": claim, "label": "SUPPORTED", "evidence": evidence,
                     "gold_source": source})  # fmt: skip
        rows.append({"claim": claim.replace("the virus", "the bacteria"), "label": "REFUTED",
                     "evidence": evidence, "gold_source": source})  # fmt: skip
    path = root / "covid-fact" / "COVIDFACT_dataset.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text("\n".join(json.dumps(row) for row in rows))


def test_a_distractor_is_another_claims_evidence_on_the_same_side_of_the_split(
    tmp_path: Path,
) -> None:
    _covid_fact(tmp_path)
    source = pairs.covid_fact(tmp_path)
    owners: dict[str, set[str]] = {}
    split_of = {}
    for row in source:
        owners.setdefault(row.evidence, set()).add(row.claim)
        split_of[row.claim] = row.split

    made = pairs.distractors(tmp_path)

    assert made, "the fixture's claims share words with other claims' evidence"
    assert {(p.label, p.source, p.kind) for p in made} == {
        (pairs.NEUTRAL, "distractors", "covid-fact")
    }
    assert {p.split for p in made} == {pairs.TRAIN, pairs.CALIBRATION, pairs.HELD_OUT}
    for pair in made:
        claimed_by = owners[pair.evidence]
        # Not its own evidence, nor the evidence it shares with its counter-claim.
        assert pair.claim not in claimed_by
        assert all(split_of[other] == pair.split for other in claimed_by)
    assert made == pairs.distractors(tmp_path)  # the same pairs on every run


def test_every_set_trains_and_the_open_variant_leaves_out_sets_without_open_terms(
    tmp_path: Path,
) -> None:
    _covid_fact(tmp_path)

    trained = pairs.load(tmp_path, pairs.TRAINED)
    open_only = pairs.load(tmp_path, pairs.OPEN)

    assert {p.source for p in trained} == {"covid-fact", "distractors"}
    assert open_only == []  # COVID-Fact states no licence
    assert "anli" not in pairs.OPEN and "sick" not in pairs.OPEN


def test_a_key_held_out_stays_held_out_and_calibration_comes_from_the_training_side() -> None:
    keys = [f"claim number {n}" for n in range(4000)]

    sides = {key: pairs.split_of(key, 0.25) for key in keys}

    assert {key for key, side in sides.items() if side == pairs.HELD_OUT} == {
        key for key in keys if pairs.held_out(key, 0.25)
    }
    calibration = sum(side == pairs.CALIBRATION for side in sides.values())
    assert 0.06 * len(keys) < calibration < 0.09 * len(keys)  # 10% of the other 75%
    assert sides == {key: pairs.split_of(key, 0.25) for key in keys}  # the same on every run
