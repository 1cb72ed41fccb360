"""Rules of the semantic channel: which embedder the settings choose, what text of a memory is embedded, and
the channel itself — the profile's memories nearest to a query, as (memory_id, similarity).

One `Semantic` per process when embeddings are configured (the API creates it in its lifespan, a worker on
first use); with `AGENT_MEMORY_EMBEDDINGS=none` there is none, and recall and extraction run exactly as
without this package.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request

from app.core.db import Reads
from app.core.settings import Settings
from app.embeddings import repository
from app.embeddings.repository import PendingMemory, StoredVectors, VectorStore
from app.embeddings.types import Embedder, EmbeddingError

logger = logging.getLogger("agent_memory.embeddings")

# Texts longer than this are cut before embedding (the local model sees 256 tokens at most anyway).
MAX_TEXT_CHARS = 2000


def embedder_from_settings(settings: Settings) -> Embedder | None:
    """The configured provider, or None for lexical-only recall."""
    if settings.embeddings == "openai":
        from app.embeddings.openai import OpenAIEmbedder

        assert settings.embeddings_base_url is not None  # the settings validator requires it
        return OpenAIEmbedder(
            settings.embeddings_base_url,
            model=settings.embeddings_model,
            api_key=settings.embeddings_api_key,
            dimensions=settings.embeddings_dimensions,
            batch_size=settings.embeddings_batch_size,
            timeout_seconds=settings.embeddings_timeout_seconds,
            query_timeout_seconds=settings.embeddings_query_timeout_seconds,
            max_retries=settings.embeddings_max_retries,
        )
    if settings.embeddings == "local":
        from app.embeddings.e5 import E5Embedder

        return E5Embedder(batch_size=settings.embeddings_batch_size, threads=settings.embeddings_threads)
    if settings.embeddings == "minilm":
        from app.embeddings.local import LocalEmbedder

        return LocalEmbedder(batch_size=settings.embeddings_batch_size, threads=settings.embeddings_threads)
    return None


def text_of(memory: PendingMemory, mode: str) -> str:
    """What is embedded for a memory: its own statement (`memory`), the raw turns it came from (`source`),
    or those turns after the message they answer (`context`). A remembered memory has no turns, and an
    edited one no longer says what its turns said: both are embedded from their own statement."""
    if mode == "memory" or not memory.sources or memory.edited:
        text = memory.content
    elif mode == "source":
        text = memory.sources
    else:
        text = f"{memory.previous}\n{memory.sources}" if memory.previous else memory.sources
    return text[:MAX_TEXT_CHARS]


class Semantic:
    """An embedder with what recall and the `embed` job need around it."""

    def __init__(self, embedder: Embedder, settings: Settings) -> None:
        self.embedder = embedder
        self.input_mode: str = settings.embeddings_input
        # Vectors of another model or another input mode live in another space: never compared.
        self.model = f"{embedder.name}|{self.input_mode}"
        self.weight = settings.recall_semantic_weight
        self.floor = settings.recall_semantic_min_similarity
        self.query_timeout = settings.embeddings_query_timeout_seconds
        self.store: VectorStore | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> Semantic | None:
        embedder = embedder_from_settings(settings)
        return cls(embedder, settings) if embedder is not None else None

    async def aclose(self) -> None:
        await self.embedder.aclose()

    async def vector_store(self, db: Reads) -> VectorStore:
        if self.store is None:
            store = await repository.vector_store(db)
            if store is None:
                raise EmbeddingError("no memory_embeddings table: run `agent-memory migrate`")
            self.store = store
        return self.store

    async def stored_vectors(self, db: Reads, profile_id: int) -> StoredVectors | None:
        """The profile's vectors where they are ranked in process (the portable store), read ahead so that
        recall fetches them while its question is still being embedded; None where the database ranks
        them itself (pgvector)."""
        if await self.vector_store(db) != "portable":
            return None
        return await repository.stored_vectors(db, profile_id, self.model)

    async def embed_question(self, query: str) -> SemanticQuery:
        """The question embedded for the semantic channel. Call it with no database connection held: it
        waits on the embedder. A question that cannot be embedded in time gets no vector (recall then
        ranks lexically)."""
        try:
            async with asyncio.timeout(self.query_timeout):
                return SemanticQuery(self, await self.embedder.embed_query(query))
        except (EmbeddingError, TimeoutError) as exc:
            logger.warning("semantic channel skipped: %s", exc or type(exc).__name__)
            return SemanticQuery(self, None)


@dataclass(frozen=True)
class SemanticQuery:
    """A recall question as the semantic channel searches with it: its vector (None: it could not be
    embedded), and the channel's settings."""

    semantic: Semantic
    vector: list[float] | None

    async def nearest(
        self, db: Reads, profile_id: int, limit: int, stored: StoredVectors | None = None
    ) -> list[tuple[str, float]]:
        """The profile's memories nearest to the question, best first ([] without a vector); among `stored`
        when they were read ahead (`Semantic.stored_vectors`), without a statement."""
        if self.vector is None:
            return []
        semantic = self.semantic
        if stored is not None:
            return stored.nearest(self.vector, limit=limit, floor=semantic.floor)
        store = await semantic.vector_store(db)
        return await repository.nearest(
            db, profile_id, semantic.model, self.vector, store, limit=limit, floor=semantic.floor
        )


def semantic_of(state: Any) -> Semantic | None:
    """The API process's semantic channel (created in the lifespan; `state` is the app's), or None without
    embeddings."""
    semantic: Semantic | None = getattr(state, "semantic", None)
    return semantic


async def get_semantic(request: Request) -> Semantic | None:
    """`semantic_of` as a dependency (`async`: FastAPI calls it on the event loop, not in its threadpool)."""
    return semantic_of(request.app.state)


# A route parameter: `semantic: ConfiguredSemantic`. Invisible in the OpenAPI document.
ConfiguredSemantic = Annotated[Semantic | None, Depends(get_semantic)]
