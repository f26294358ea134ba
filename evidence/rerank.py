"""Rank a page's chunks against the claim: BM25, blended with embedding cosine when we have one.

The embedder is the configured embedding model through the LLM gateway when
`llm.embedding_model` is set (a failure there is an error, never a silent switch), otherwise
WordLlama's small static embeddings, which ship inside its wheel and run offline. If WordLlama
cannot be loaded, BM25 alone ranks.
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass
from typing import Any

import bm25s
import numpy as np

from claimcheck.config import get_config
from claimcheck.words import tokens
from evidence.chunking import Chunk
from integrations import llm

logger = logging.getLogger(__name__)
# bm25s sets its own logger to DEBUG when imported, overriding the LOGGING setting.
logging.getLogger("bm25s").setLevel(logging.WARNING)

# How much the embedding cosine counts against normalised BM25 when both are there.
EMBEDDING_SHARE = 0.5


@dataclass(frozen=True)
class ScoredChunk:
    chunk: Chunk
    score: float
    bm25: float
    cosine: float | None


class _WordLlama:
    """One WordLlama model per process, loaded on first use."""

    _lock = threading.Lock()
    _model: Any = None
    _failed = False

    @classmethod
    def get(cls) -> Any:
        if cls._model is not None or cls._failed:
            return cls._model
        with cls._lock:
            if cls._model is None and not cls._failed:
                cls._model = cls._load()
                cls._failed = cls._model is None
        return cls._model

    @staticmethod
    def _load() -> Any:
        # The weights ship in the wheel; the default loader would look for the tokenizer in
        # the Hugging Face cache (and try the network), so point it at the package folder.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        try:
            import pathlib

            import wordllama
            from wordllama import WordLlama

            return WordLlama.load(
                cache_dir=pathlib.Path(wordllama.__file__).parent, disable_download=True
            )
        except (ImportError, OSError, ValueError, RuntimeError) as exc:
            logger.warning(
                "wordllama unavailable; ranking with BM25 only", extra={"error": repr(exc)}
            )
            return None


def embed(texts: list[str], *, offline: bool = False) -> np.ndarray | None:
    """Unit-length vectors, one row per text, or None when no embedder is available. `offline`
    uses this machine's embedder even when an LLM embedding model is configured."""
    if not texts:
        return None
    if get_config().llm.embedding_model and not offline:
        vectors = np.asarray(llm.embed(texts=texts).value, dtype=np.float32)
    else:
        model = _WordLlama.get()
        if model is None:
            return None
        vectors = np.asarray(model.embed(texts, norm=False), dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return np.asarray(vectors / np.where(norms == 0, 1.0, norms))


def cosine_to_first(texts: list[str], *, offline: bool = False) -> list[float] | None:
    """Cosine of each of texts[1:] to texts[0]."""
    vectors = embed(texts, offline=offline)
    if vectors is None:
        return None
    return [float(v) for v in vectors[1:] @ vectors[0]]


def bm25_scores(query: str, documents: list[str]) -> list[float]:
    corpus = [tokens(d) or ["_"] for d in documents]
    query_tokens = [t for t in tokens(query) if any(t in doc for doc in corpus)]
    if not query_tokens:
        return [0.0] * len(documents)
    retriever = bm25s.BM25()
    retriever.index(corpus, show_progress=False)
    return [float(s) for s in retriever.get_scores(query_tokens)]


def rerank(
    *, claim_text: str, chunks: list[Chunk], top_k: int = 3, offline: bool = False
) -> list[ScoredChunk]:
    """The top_k chunks, best first. Headings count as part of a chunk's text for matching.
    `offline` embeds on this machine whatever the configuration says."""
    if not chunks or top_k <= 0:
        return []
    documents = [" ".join([*c.heading_path, c.text]) for c in chunks]
    bm25 = bm25_scores(claim_text, documents)
    top = max(bm25) or 1.0
    cosines = cosine_to_first([claim_text, *documents], offline=offline)
    scored = []
    for index, chunk in enumerate(chunks):
        lexical = bm25[index] / top
        if cosines is None:
            score, cosine = lexical, None
        else:
            cosine = cosines[index]
            score = (1 - EMBEDDING_SHARE) * lexical + EMBEDDING_SHARE * max(cosine, 0.0)
        scored.append(ScoredChunk(chunk=chunk, score=score, bm25=bm25[index], cosine=cosine))
    scored.sort(key=lambda s: (-s.score, s.chunk.start))
    return scored[:top_k]
