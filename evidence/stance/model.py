"""The stance model: a cross-encoder that reads (claim, sentence) and says support, refute or
neither, with a probability for each.

It is all-MiniLM-L6-v2 fine-tuned on claim-evidence pairs (`training/stance/`, DATA_CARD.md there)
and exported to ONNX, int8. Its probabilities are calibrated by class: the card (`stance.json`)
holds a scale and a bias per label, fitted on a calibration split no reported figure is measured
on, and the bars at which the pipeline counts a support or a refutation, chosen on that split.
The model and its tokenizer ship in `evidence/stance/model/`; nothing is downloaded. It loads
once per process, on first use, and reads in batches. When the files are missing or do not
load, `get()` logs a warning once and answers None, and the caller falls back to the lexical
scorer.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from django.conf import settings

logger = logging.getLogger(__name__)

# Sentences per run. The int8 model quantizes its activations with one scale per run, so a
# reading would shift with whatever else shares its batch; one sentence per run keeps each
# reading the same wherever it is read, and on a CPU it costs nothing (bench/stance_bench.py).
_BATCH = 1
_lock = threading.Lock()
_loaded: dict[Path, StanceModel | None] = {}


@dataclass(frozen=True)
class Reading:
    """The model's reading of one sentence: the likeliest label and how sure it is of it."""

    stance: str
    probability: float
    probabilities: dict[str, float]


class StanceModel:
    def __init__(self, folder: Path, threads: int = 1) -> None:
        import onnxruntime
        from tokenizers import Tokenizer

        card = json.loads((folder / "stance.json").read_text())
        self.labels: tuple[str, ...] = tuple(card["labels"])
        self.max_length = int(card["max_length"])
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=self.max_length, strategy="longest_first")
        self.tokenizer.no_padding()
        calibration = card.get("calibration") or {}
        self.scale = np.asarray(calibration.get("scale", [1.0] * len(self.labels)), np.float32)
        self.bias = np.asarray(calibration.get("bias", [0.0] * len(self.labels)), np.float32)
        # How sure a reading of each label must be to count toward a verdict; None: the defaults.
        self.bars: dict[str, float] | None = card.get("bars")
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        self.session = onnxruntime.InferenceSession(
            str(folder / "stance.onnx"), options, providers=["CPUExecutionProvider"]
        )
        self.inputs = {i.name for i in self.session.get_inputs()}

    def read(self, claim: str, sentences: list[str]) -> list[Reading]:
        """One reading per sentence, in order."""
        if not sentences:
            return []
        encodings = self.tokenizer.encode_batch([(claim, s) for s in sentences])
        # When batches hold several sentences, similar lengths share one, so little is padding.
        order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
        probabilities = np.zeros((len(sentences), len(self.labels)), dtype=np.float32)
        for start in range(0, len(order), _BATCH):
            rows = order[start : start + _BATCH]
            logits = self._logits([encodings[i] for i in rows]) * self.scale + self.bias
            shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
            probabilities[rows] = shifted / shifted.sum(axis=1, keepdims=True)
        readings = []
        for row in probabilities:
            best = int(row.argmax())
            readings.append(
                Reading(
                    stance=self.labels[best],
                    probability=float(row[best]),
                    probabilities={
                        label: float(p) for label, p in zip(self.labels, row, strict=True)
                    },
                )
            )
        return readings

    def _logits(self, encodings: list[Any]) -> np.ndarray:
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(encodings), width), dtype=np.int64)
        types = np.zeros_like(ids)
        mask = np.zeros_like(ids)
        for row, encoding in enumerate(encodings):
            length = len(encoding.ids)
            ids[row, :length] = encoding.ids
            types[row, :length] = encoding.type_ids
            mask[row, :length] = 1
        feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        (logits,) = self.session.run(None, {k: v for k, v in feed.items() if k in self.inputs})
        return np.asarray(logits, dtype=np.float32)


def folder() -> Path:
    return Path(settings.STANCE_MODEL_DIR)


def get() -> StanceModel | None:
    """The process's model, loaded on first use; None (with one warning) when it cannot load."""
    where = folder()
    with _lock:
        if where not in _loaded:
            _loaded[where] = _load(where)
        return _loaded[where]


def _load(where: Path) -> StanceModel | None:
    if not (where / "stance.onnx").is_file():
        logger.warning(
            "stance model not found in %s; reading stance with the lexical scorer", where
        )
        return None
    try:
        return StanceModel(where, threads=settings.STANCE_MODEL_THREADS)
    except Exception:
        logger.warning(
            "stance model in %s failed to load; reading stance with the lexical scorer",
            where,
            exc_info=True,
        )
        return None


def forget() -> None:
    """Drop loaded models (tests that point STANCE_MODEL_DIR elsewhere)."""
    with _lock:
        _loaded.clear()
