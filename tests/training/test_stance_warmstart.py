"""A run started from a shipped stance model reads its weights back out of the ONNX copy: the
int8 copy of the fast reader and the half-stored fp32 copy of the strong one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper

from training.stance import warmstart

STANCE = Path(__file__).resolve().parents[2] / "evidence" / "stance"
STRONG = STANCE / "strong-2"  # the strong reader that ships (config.settings)


def test_each_shipped_copy_says_which_kind_it_is() -> None:
    assert warmstart.kind_of(STANCE / "model" / "stance.onnx") == "int8"
    assert warmstart.kind_of(STRONG / "stance.onnx") == "fp32"


def test_the_half_stored_copy_gives_back_every_weight_of_the_encoder_and_its_head() -> None:
    weights = warmstart.shipped_weights(STRONG / "stance.onnx")

    for layer in range(12):
        for part in ("attn.q", "attn.k", "attn.v", "attn.o"):
            name = f"mpnet.encoder.layer.{layer}.attention.{part}"
            assert weights[f"{name}.weight"].shape == (768, 768)
            assert weights[f"{name}.bias"].shape == (768,)
        assert weights[f"mpnet.encoder.layer.{layer}.intermediate.dense.weight"].shape == (
            3072,
            768,
        )
        assert weights[f"mpnet.encoder.layer.{layer}.output.dense.weight"].shape == (768, 3072)
    assert weights["classifier.out_proj.weight"].shape == (3, 768)
    assert weights["mpnet.embeddings.word_embeddings.weight"].shape[1] == 768
    assert all(value.dtype == np.float32 for value in weights.values())
    assert not any(name.endswith("__fp16") or name.startswith("onnx::") for name in weights)


def test_a_weight_read_back_is_the_stored_one_cast_to_fp32() -> None:
    path = STRONG / "stance.onnx"
    stored = {
        tensor.name: numpy_helper.to_array(tensor)
        for tensor in onnx.load(str(path)).graph.initializer
    }
    weights = warmstart.shipped_weights(path)

    word = stored["mpnet.embeddings.word_embeddings.weight__fp16"]
    assert word.dtype == np.float16
    np.testing.assert_array_equal(
        weights["mpnet.embeddings.word_embeddings.weight"], word.astype(np.float32)
    )
