"""The evaluation's calibration and held-out splits: which side a claim is on, the same on every
run, and two sides that never share a claim."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaluation.averitec import read_averitec
from evaluation.climate_fever import read_climate_fever
from evaluation.dataset import ALL, CALIBRATION, HELD_OUT, calibration_side

MINI = Path(__file__).parent / "fixtures" / "averitec_mini.json"
AVERITEC = (
    Path(__file__).resolve().parents[2].parent / "shared" / "eval" / "averitec-dev" / "dev.json"
)


def test_a_claims_side_is_fixed_by_its_text() -> None:
    # SHA-256 of the text begins with 3 (calibration) and with c (held out).
    halvik = "The Port of Halvik opened its new container terminal in March 2024."
    brannock = "The city council of Brannock banned bicycles from the city centre in 2023."
    assert calibration_side(halvik)
    assert not calibration_side(brannock)
    assert calibration_side(f"  {halvik}\n") and not calibration_side(f"\t{brannock} ")


def test_about_half_of_a_set_of_claims_is_on_the_calibration_side() -> None:
    texts = [
        f"The council of town {n} approved a budget of {n * 7} million in {1990 + n % 30}."
        for n in range(400)
    ]
    share = sum(calibration_side(text) for text in texts) / len(texts)
    assert 0.4 < share < 0.6


def test_about_half_of_averitec_dev_is_on_the_calibration_side() -> None:
    if not AVERITEC.is_file():
        pytest.skip(f"skipped: {AVERITEC} not found (the shared evaluation data is absent)")
    claims = read_averitec(AVERITEC).claims
    share = sum(calibration_side(claim.text) for claim in claims) / len(claims)
    assert 0.4 < share < 0.6


def test_a_set_the_stance_model_never_saw_is_split_in_two_by_text() -> None:
    dataset = read_averitec(MINI)
    calibration = dataset.on_split(CALIBRATION)
    held_out = dataset.on_split(HELD_OUT)
    assert [c.key for c in calibration.claims] == ["0", "3"]
    assert [c.key for c in held_out.claims] == ["1", "2"]
    assert dataset.on_split(ALL) is dataset
    assert calibration.pages.keys() == held_out.pages.keys() == dataset.pages.keys()
    assert any(note.startswith("Split calibration:") for note in calibration.notes)
    assert not any(note.startswith("Split") for note in dataset.notes)
    with pytest.raises(ValueError, match="unknown split"):
        dataset.on_split("training")


def test_a_set_the_stance_model_trained_on_keeps_its_training_side_out_of_both(
    tmp_path: Path,
) -> None:
    path = tmp_path / "climate-fever.jsonl"
    path.write_text(
        "\n".join(
            json.dumps(
                {
                    "claim_id": str(n),
                    "claim": f"Arctic sea ice shrank {n}% in year {n}.",
                    "claim_label": "SUPPORTS",
                    "evidences": [],
                }
            )
            for n in range(200)
        )
    )
    dataset = read_climate_fever(path)
    calibration = {c.key for c in dataset.on_split(CALIBRATION).claims}
    held_out = {c.key for c in dataset.on_split(HELD_OUT).claims}
    training = {c.key for c in dataset.claims if dataset.split_of(c) is None}
    assert calibration and held_out and training
    assert not calibration & held_out and not training & (calibration | held_out)
    assert calibration | held_out | training == {c.key for c in dataset.claims}
    assert held_out == {str(n) for n in range(1, 200, 2)}  # as --held-out has always chosen
