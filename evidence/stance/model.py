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

Two readers may ship. The fast one (`evidence/stance/model/`) reads every candidate sentence of a
page; the strong one (`evidence/stance/strong-2/`, a larger cross-encoder) reads only the
`STANCE_PICK` sentences that bear most on the claim (`pick.py`: the fast one's readings, BM25
and the embedding cosine), and its readings stand for them (`read_where_it_decides`). The
other sentences read as neither: what the fast reader would have said of them is what the
strong one was shipped to replace. Without the strong reader the fast one reads alone.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from django.conf import settings

from evidence.stance.pick import pick as pick_sentences

logger = logging.getLogger(__name__)

# Sentences per run, unless the card says otherwise. An int8 model quantizes its activations with
# one scale per run, so a reading would shift with whatever else shares its batch; one sentence
# per run keeps each reading the same wherever it is read (bench/stance_bench.py). An fp32 model
# reads a sentence the same in any batch, and its card says how many to read at once.
_BATCH = 1
_lock = threading.Lock()
_loaded: dict[Path, StanceModel | None] = {}


@dataclass(frozen=True)
class Reading:
    """The model's reading of one sentence: the likeliest label and how sure it is of it."""

    stance: str
    probability: float
    probabilities: dict[str, float]
    fast: str | None = None
    """Where the strong model read the sentence, the fast model's likeliest label for it: a
    second reader, trained apart, whose agreement lets a refutation or a support the strong
    model reads count below its bar (`combine.combined`)."""


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
        self.batch = max(1, int(card.get("batch", _BATCH)))
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        self.session = onnxruntime.InferenceSession(
            str(folder / "stance.onnx"), options, providers=["CPUExecutionProvider"]
        )
        self.inputs = {i.name for i in self.session.get_inputs()}
        # The process that loaded it: a worker cluster's main process, for the workers it forks.
        self.loaded_in = os.getpid()

    def read(self, claim: str, sentences: list[str]) -> list[Reading]:
        """One reading per sentence, in order."""
        if not sentences:
            return []
        encodings = self.tokenizer.encode_batch([(claim, s) for s in sentences])
        # When batches hold several sentences, similar lengths share one, so little is padding.
        order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
        probabilities = np.zeros((len(sentences), len(self.labels)), dtype=np.float32)
        for start in range(0, len(order), self.batch):
            rows = order[start : start + self.batch]
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
    """The process's fast model, loaded on first use; None (with one warning) when it cannot
    load."""
    return _get(folder())


def get_strong() -> StanceModel | None:
    """The process's strong model, loaded on first use; None (with one warning) when it cannot
    load, and then the fast model reads alone."""
    return _get(Path(settings.STANCE_STRONG_MODEL_DIR))


def deciding() -> StanceModel | None:
    """The model whose readings decide, and so whose bars count: the strong one where both
    load, the fast one alone where only it does, None where the fast one does not."""
    fast = get()
    if fast is None:
        return None
    return get_strong() or fast


def _get(where: Path) -> StanceModel | None:
    with _lock:
        if where not in _loaded:
            _loaded[where] = _load(where)
        return _loaded[where]


def unread(labels: tuple[str, ...]) -> Reading:
    """A sentence the strong reader was not given: it reads as neither, about nothing."""
    return Reading(
        stance="neutral",
        probability=1.0,
        probabilities={label: float(label == "neutral") for label in labels},
    )


def pick(claim: str, sentences: list[str], readings: list[Reading], k: int) -> list[int]:
    """The k sentences that bear most on the claim, in page order (`evidence/stance/pick.py`)."""
    neutral = [r.probabilities.get("neutral", 1.0) for r in readings]
    return pick_sentences(claim, sentences, neutral, k)


def read_where_it_decides(claim: str, sentences: list[str]) -> list[Reading] | None:
    """Each sentence's reading: the strong model's for the sentences the fast one picks, neither
    for the rest; the fast model's alone when the strong one does not load; None when neither
    loads (the caller reads lexically)."""
    fast = get()
    if fast is None:
        return None
    readings = fast.read(claim, sentences)
    strong = get_strong()
    if strong is None:
        return readings
    chosen = pick(claim, sentences, readings, settings.STANCE_PICK)
    out = [unread(strong.labels)] * len(sentences)
    for index, reading in zip(
        chosen, strong.read(claim, [sentences[i] for i in chosen]), strict=True
    ):
        out[index] = replace(reading, fast=readings[index].stance)
    return out


def _load(where: Path) -> StanceModel | None:
    if not (where / "stance.onnx").is_file():
        logger.warning("stance model not found in %s; reading stance without it", where)
        return None
    try:
        return StanceModel(where, threads=settings.STANCE_MODEL_THREADS)
    except Exception:
        logger.warning(
            "stance model in %s failed to load; reading stance without it",
            where,
            exc_info=True,
        )
        return None


def forget() -> None:
    """Drop loaded models (tests that point STANCE_MODEL_DIR elsewhere)."""
    with _lock:
        _loaded.clear()
