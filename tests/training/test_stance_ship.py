"""Which copy of a trained stance model ships: the int8 copy only where it reads as the fp32
export does on every measured set."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from evidence.stance.model import StanceModel
from training.stance import ship

SHIPPED = Path(__file__).resolve().parents[2] / "evidence" / "stance" / "model"


def _report(**macro: float) -> dict[str, dict[str, float]]:
    return {name.replace("_", "-"): {"macro_f1": value, "n": 100} for name, value in macro.items()}


def test_the_int8_copy_ships_when_it_loses_at_most_a_hundredth_everywhere() -> None:
    fp32 = _report(healthver=0.70, fnc_1=0.66, distractors=0.90)
    int8 = _report(healthver=0.695, fnc_1=0.66, distractors=0.905)

    losses = ship.int8_losses(fp32, int8)

    assert losses == {"healthver": 0.005, "fnc-1": 0.0, "distractors": -0.005}
    assert ship.choose(losses) == "int8"


def test_the_fp32_copy_ships_when_the_int8_copy_loses_more_on_any_set() -> None:
    fp32 = _report(healthver=0.70, fnc_1=0.66, liar_plus=0.60)
    int8 = _report(healthver=0.70, fnc_1=0.66, liar_plus=0.585)

    assert ship.choose(ship.int8_losses(fp32, int8)) == "fp32"


def test_shares_without_a_macro_f1_are_not_compared_and_nothing_measured_ships_fp32() -> None:
    fp32 = {**_report(healthver=0.7), "covid-fact real read as support": {"share": 0.8, "n": 9}}
    int8 = {**_report(healthver=0.7), "covid-fact real read as support": {"share": 0.1, "n": 9}}

    assert ship.int8_losses(fp32, int8) == {"healthver": 0.0}
    assert ship.choose({}) == "fp32"
    assert ship.BATCH == {"int8": 1, "fp32": 16}


def test_weights_stored_half_read_as_the_model_they_came_from(tmp_path: Path) -> None:
    """The shipped model's fp32 weights (its embeddings) stored as fp16: half their bytes, and
    the same readings, since onnxruntime casts them back to fp32 when it loads the file."""
    halved = tmp_path / "model"
    halved.mkdir()
    ship.store_half(SHIPPED / "stance.onnx", halved / "stance.onnx")
    for name in ("stance.json", "tokenizer.json"):
        shutil.copy(SHIPPED / name, halved / name)
    sentences = [
        "On 12 March 2024 the city council voted to approve the new library budget.",
        "The city council rejected the new library budget when it met in March 2024.",
        "The new football stadium will open to the public next summer.",
    ]
    claim = "The city council approved the new library budget in March 2024."

    before = StanceModel(SHIPPED).read(claim, sentences)
    after = StanceModel(halved).read(claim, sentences)

    assert (halved / "stance.onnx").stat().st_size < (SHIPPED / "stance.onnx").stat().st_size
    for old, new in zip(before, after, strict=True):
        assert new.stance == old.stance
        for label, p in old.probabilities.items():
            assert new.probabilities[label] == pytest.approx(p, abs=0.01)
