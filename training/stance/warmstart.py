"""Start a run from a stance model already shipped, instead of from the bare encoder.

The repository keeps only the ONNX copy of a shipped model: int8, or fp32 with its large weights
stored as fp16 (`ship.store_half`). Its weights are read back out of that graph (dequantized as
`(q - zero_point) * scale`, or cast back to fp32), then loaded into the PyTorch model the run
trains. Named initializers map by name; the linear layers the exporter left unnamed
(`onnx::MatMul_N`) are named by the bias their product is added to in the graph. The caller
checks the result: the loaded model must read like the ONNX copy (`agreement`).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper

_QUANTIZED = "_quantized"
_TRANSPOSED = "_Transposed"
_HALF = "__fp16"
_UNNAMED = "onnx::MatMul_"
_OWN = ("bert.", "mpnet.", "classifier.")


def _dequantized(values: dict[str, np.ndarray], stem: str) -> np.ndarray:
    scale = values[f"{stem}_scale"].astype(np.float32)
    zero = values[f"{stem}_zero_point"].astype(np.float32)
    if scale.size != 1 or zero.size != 1:
        raise ValueError(f"{stem}: only per-tensor quantization is read, not per-channel")
    return (values[f"{stem}{_QUANTIZED}"].astype(np.float32) - zero) * scale


def _bias_after(graph: onnx.GraphProto, start: str, biases: set[str]) -> str:
    """The bias added to what the node reading `start` computes: the first Add downstream of it
    (through the casts and scale products of a quantized MatMul) with a named bias input."""
    consumers: dict[str, list[onnx.NodeProto]] = defaultdict(list)
    for node in graph.node:
        for name in node.input:
            consumers[name].append(node)
    frontier, seen = [start], set()
    for _ in range(6):
        following = []
        for name in frontier:
            for node in consumers[name]:
                if node.op_type == "Add":
                    named = [i for i in node.input if i in biases]
                    if named:
                        return named[0]
                if id(node) not in seen:
                    seen.add(id(node))
                    following.extend(node.output)
        frontier = following
    raise ValueError(f"no bias found after {start}")


def kind_of(path: Path) -> str:
    """Which copy a shipped stance.onnx is: "int8" (quantized weights) or "fp32"."""
    names = {i.name for i in onnx.load(str(path), load_external_data=False).graph.initializer}
    return "int8" if any(name.endswith(_QUANTIZED) for name in names) else "fp32"


def shipped_weights(path: Path) -> dict[str, np.ndarray]:
    """A PyTorch state dict (the encoder's sequence classification names) read out of an int8
    or a half-stored ONNX copy."""
    model = onnx.load(str(path))
    graph = model.graph
    values = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    # A half-stored weight is cast back by a node whose output carries the weight's own name.
    values = {
        (name[: -len(_HALF)] if name.endswith(_HALF) else name): value
        for name, value in values.items()
    }
    biases = {name for name in values if name.startswith(_OWN) and name.endswith(".bias")}
    out: dict[str, np.ndarray] = {}
    for name, value in values.items():
        if name.endswith(_QUANTIZED):
            stem = name[: -len(_QUANTIZED)]
            weight = _dequantized(values, stem)
            if stem.startswith(("bert.embeddings.", "mpnet.embeddings.")):
                out[stem] = weight
            elif stem.endswith(_TRANSPOSED):
                out[stem[: -len(_TRANSPOSED)]] = weight.T
            else:
                bias = _bias_after(graph, name, biases)
                out[bias[: -len("bias")] + "weight"] = weight.T
        elif name.startswith(_UNNAMED):
            bias = _bias_after(graph, name, biases)
            out[bias[: -len("bias")] + "weight"] = value.astype(np.float32).T
        elif name.startswith(_OWN) and not name.endswith(("_scale", "_zero_point")):
            out[name] = value.astype(np.float32)
    return out


def load_into(model, path: Path) -> list[str]:
    """Load the shipped weights into `model`; the names the model has that the copy lacks
    (buffers such as position ids), which must be only those."""
    import torch

    weights = {
        k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in shipped_weights(path).items()
    }
    own = model.state_dict()
    for name, tensor in weights.items():
        if name not in own:
            raise ValueError(f"{name} is in {path} but not in the model")
        if tuple(own[name].shape) != tuple(tensor.shape):
            raise ValueError(f"{name}: {tuple(tensor.shape)} in {path}, {tuple(own[name].shape)}")
    missing = model.load_state_dict(weights, strict=False).missing_keys
    learnt = [name for name in missing if not name.endswith(("position_ids", "token_type_ids"))]
    if learnt:
        raise ValueError(f"{path} lacks {learnt}")
    return missing


def agreement(ours: np.ndarray, theirs: np.ndarray) -> float:
    """The share of rows whose argmax the two sets of logits agree on."""
    return float((ours.argmax(-1) == theirs.argmax(-1)).mean()) if len(ours) else 1.0
