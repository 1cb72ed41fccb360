"""The `Embedder` protocol every provider implements, and the error they raise."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Protocol


class EmbeddingError(Exception):
    """No usable vectors: the endpoint failed after retries, answered nonsense, or the local model is absent."""


class Embedder(Protocol):
    """Turns texts into unit-length vectors. `name` identifies the model: vectors are stored with it, and
    only vectors of the configured model are searched, so changing models never mixes spaces."""

    name: str

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in order (batched by the provider)."""
        ...

    async def embed_query(self, text: str) -> list[float]:
        """One vector for a recall query (on the request path: the provider bounds the time it takes)."""
        ...

    async def load(self) -> None:
        """Get ready before the first call (the local model reads its weights); may do nothing."""
        ...

    async def aclose(self) -> None: ...


def unit(vector: Sequence[float]) -> list[float]:
    """The vector scaled to length 1 (cosine similarity becomes a dot product); zero stays zero."""
    norm = math.sqrt(sum(x * x for x in vector))
    if norm == 0.0 or not math.isfinite(norm):
        raise EmbeddingError("the embedder returned a zero or non-finite vector")
    return [x / norm for x in vector]
