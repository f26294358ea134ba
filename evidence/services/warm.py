"""Load what reading a page needs once, before a worker takes its first claim: the stance
models (each run once, which builds the ONNX session's buffers), the language detector, the
reranker's embeddings and the gazetteer. Each of these otherwise loads on first use, inside the
first claim a fresh worker runs."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from claimcheck.language import detect_language
from evidence.entities.gazetteer import place_named
from evidence.rerank import embed
from evidence.stance import model as stance_model

_CLAIM = "The council adopted the new rules in June 2024"
_SENTENCE = "The city council voted on Tuesday to adopt the new rules."


def _stance(get: Callable[[], stance_model.StanceModel | None]) -> Callable[[], None]:
    def load() -> None:
        loaded = get()
        if loaded is not None:
            loaded.read(_CLAIM, [_SENTENCE])

    return load


def readers_warm() -> dict[str, float]:
    """Load every reader this process will use; the seconds each took, by name. A reader that
    cannot load is reported (once, by its loader) and left to the fallback, as on first use.

    The gazetteer is built in Python, holding the interpreter's lock; the models load in native
    code meanwhile, on a second thread. Both threads have ended when this returns (a process may
    fork next)."""
    steps: dict[str, Callable[[], object]] = {
        "stance model": _stance(stance_model.get),
        "strong stance model": _stance(stance_model.get_strong),
        "language detector": lambda: detect_language(_SENTENCE),
        # This machine's embedder: a configured model server is a guest, tried per call when a
        # claim needs it, and whether it answers now has no bearing on a worker starting.
        "reranker": lambda: embed([_CLAIM, _SENTENCE], offline=True),
        "gazetteer": lambda: place_named("paris"),
    }
    took: dict[str, float] = {}

    def load(names: list[str]) -> None:
        for name in names:
            started = time.monotonic()
            steps[name]()
            took[name] = time.monotonic() - started

    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="warm") as pool:
        lanes = [["gazetteer"], [name for name in steps if name != "gazetteer"]]
        for done in [pool.submit(load, lane) for lane in lanes]:
            done.result()
    return {name: took[name] for name in steps}
