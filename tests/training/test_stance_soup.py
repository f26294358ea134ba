"""Averaging two readers' weights (training/stance/soup.py)."""

from __future__ import annotations

import numpy as np
import pytest

from training.stance.soup import averaged


def test_the_average_takes_each_weight_by_the_share_given() -> None:
    first = {"a.weight": np.zeros((2, 3), np.float32), "a.bias": np.array([1.0, 3.0], np.float32)}
    second = {"a.weight": np.ones((2, 3), np.float32), "a.bias": np.array([3.0, 7.0], np.float32)}

    half = averaged(first, second, 0.5)
    quarter = averaged(first, second, 0.25)

    assert np.allclose(half["a.weight"], 0.5) and np.allclose(half["a.bias"], [2.0, 5.0])
    assert np.allclose(quarter["a.weight"], 0.25) and np.allclose(quarter["a.bias"], [1.5, 4.0])
    assert np.array_equal(averaged(first, second, 0.0)["a.bias"], first["a.bias"])
    assert half["a.weight"].dtype == np.float32


def test_readers_that_differ_in_their_weights_or_a_share_outside_0_1_are_refused() -> None:
    first = {"a.weight": np.zeros((2, 3), np.float32)}
    with pytest.raises(ValueError, match="different weights"):
        averaged(first, {"b.weight": np.zeros((2, 3), np.float32)}, 0.5)
    with pytest.raises(ValueError, match=r"\(2, 3\) against \(3, 2\)"):
        averaged(first, {"a.weight": np.zeros((3, 2), np.float32)}, 0.5)
    with pytest.raises(ValueError, match="between 0 and 1"):
        averaged(first, first, 1.5)
