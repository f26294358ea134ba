"""Which ONNX copy of a trained model ships, chosen by how it reads.

The fp32 export reads as the trained model does. The int8 copy (dynamic quantization, a weight
scale per output channel) is a quarter of the size and reads faster, but it scales its
activations once per run, so it must read one pair a run and it reads a little otherwise. It
ships only when it loses at most `INT8_LOSS` of macro-F1 on every set it was measured on.
Otherwise the fp32 copy ships, its weights stored as fp16 (`store_half`): onnxruntime folds the
cast of a constant when it loads the model, so it reads in fp32 from a file half the size.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from training.stance.records import Pair

# The most macro-F1 the int8 copy may lose against the fp32 export on any measured set.
INT8_LOSS = 0.01
# Pairs a run for each copy: fp32 reads a pair the same whatever shares its batch.
BATCH = {"int8": 1, "fp32": 16}
# Weights smaller than this stay fp32 (biases and norms: too small to matter to the size).
_HALF_FROM = 1024


def int8_losses(
    fp32: dict[str, dict[str, float]], int8: dict[str, dict[str, float]]
) -> dict[str, float]:
    """For each set both copies were measured on, how much macro-F1 the int8 copy lost."""
    return {
        name: round(fp32[name]["macro_f1"] - int8[name]["macro_f1"], 4)
        for name in fp32
        if "macro_f1" in fp32[name] and name in int8
    }


def choose(losses: dict[str, float]) -> str:
    """int8 when it loses at most INT8_LOSS everywhere it was measured, else fp32."""
    return "int8" if losses and max(losses.values()) <= INT8_LOSS else "fp32"


def store_half(full: Path, out: Path) -> None:
    """The fp32 model with each large weight stored as fp16 and cast back to fp32 in the graph."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(str(full))
    graph = model.graph
    casts = []
    kept = []
    for tensor in graph.initializer:
        if tensor.data_type != TensorProto.FLOAT or int(np.prod(tensor.dims)) < _HALF_FROM:
            kept.append(tensor)
            continue
        values = numpy_helper.to_array(tensor)
        half = numpy_helper.from_array(values.astype(np.float16), f"{tensor.name}__fp16")
        kept.append(half)
        casts.append(helper.make_node("Cast", [half.name], [tensor.name], to=TensorProto.FLOAT))
    del graph.initializer[:]
    graph.initializer.extend(kept)
    nodes = casts + list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.checker.check_model(model)
    onnx.save(model, str(out))


def chosen(sets: str, pair: Pair) -> bool:
    """Whether a pair is of the sets named (comma-separated; "all" or "" names every set, "none"
    none)."""
    if sets in ("", "all"):
        return True
    return pair.source in sets.split(",")
