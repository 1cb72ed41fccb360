"""SQL of memory embeddings: which store the schema has, memories still without a vector, storing vectors,
and the nearest memories of one profile to a query vector.

The `embedding` column is pgvector's `vector` when the migration could create the extension, else a
portable `bytea` of half-precision floats (little-endian). Both are searched exactly, narrowed to the
profile (and model) first: pgvector by its inner-product operator, the portable column by numpy over its
bytes. Vectors are stored at unit length, so the inner product is the cosine similarity.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from app.core.db import Reads, driver_fetch
from app.core.memory_types import EMBEDDED_TYPES, sql_list

VectorStore = Literal["pgvector", "portable"]

_STORE = text(
    """
    SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
    WHERE a.attrelid = to_regclass('memory_embeddings') AND a.attname = 'embedding' AND NOT a.attisdropped
    """
)


async def vector_store(db: AsyncSession | AsyncConnection) -> VectorStore | None:
    """The store the schema was migrated with; None before the migration ran."""
    kind = (await db.execute(_STORE)).scalar_one_or_none()
    if kind is None:
        return None
    return "pgvector" if kind == "vector" else "portable"


@dataclass(frozen=True)
class PendingMemory:
    """A memory without a vector of the current model, with the texts it can be embedded from."""

    id: str
    content: str
    sources: str  # its source messages' text, in conversation order ("" for a remembered memory)
    previous: str  # the message before its first source: what the memory's turn answers or follows
    edited: bool = False  # its content was corrected since extraction: the source turns no longer say it


# Only the types the policy table indexes for vectors (`embedded`); past `:after` (the id where the job's
# previous round stopped), so a round reads only what it embeds, not every memory embedded before it. The
# memories are chosen first and their texts gathered for those alone. Whether a memory has a vector is one
# index probe per memory (a LATERAL with LIMIT is never turned into a join): written as a NOT EXISTS, the
# planner chose its join from the statistics of `memory_embeddings`, the table the job is filling, and
# statistics from before the job (few vectors) made it a nested loop over every vector of the profile for
# each memory, 0.3-0.6 s a round at 2,300 vectors and quadratic in the profile's size.
_MISSING = text(
    f"""
    WITH pending AS MATERIALIZED (
        SELECT m.id, m.content, m.version, m.session_id FROM memories m
        LEFT JOIN LATERAL (
            SELECT true AS stored FROM memory_embeddings e
            WHERE e.profile_id = :p AND e.memory_id = m.id AND e.model = :model
            LIMIT 1) vector ON true
        WHERE m.profile_id = :p AND m.id > :after AND m.superseded_by IS NULL
          AND m.type IN {sql_list(EMBEDDED_TYPES)} AND vector.stored IS NULL
        ORDER BY m.id
        LIMIT :n)
    SELECT m.id, m.content, m.version > 1 AS edited,
           coalesce(src.texts, '') AS sources, coalesce(prev.text_content, '') AS previous
    FROM pending m
    LEFT JOIN LATERAL (
        SELECT string_agg(msg.text_content, E'\\n' ORDER BY msg.seq) AS texts,
               (array_agg(msg.parent_id ORDER BY msg.seq))[1] AS first_parent
        FROM memory_sources s
        JOIN messages msg ON msg.profile_id = s.profile_id AND msg.session_id = s.session_id
                         AND msg.id = s.message_id
        WHERE s.profile_id = :p AND s.memory_id = m.id) src ON true
    LEFT JOIN messages prev ON prev.profile_id = :p AND prev.session_id = m.session_id
                           AND prev.id = src.first_parent
    ORDER BY m.id
    """
)


async def missing(
    db: AsyncSession, profile_id: int, model: str, limit: int, after: str = ""
) -> list[PendingMemory]:
    """Active memories of the profile that have no vector of `model` yet, oldest first, from past the id
    `after` on ("": from the first)."""
    rows = await db.execute(_MISSING, {"p": profile_id, "model": model, "n": limit, "after": after})
    return [PendingMemory(r.id, r.content, r.sources, r.previous, bool(r.edited)) for r in rows]


# Profiles holding memories to embed but no vector of the model at all: embeddings were off when their
# memories were written, or the model (or its input) changed since. One probe per profile: its first vector
# of the model ends the NOT EXISTS.
_UNEMBEDDED_PROFILES = text(
    f"""
    SELECT p.id FROM profiles p
    WHERE EXISTS (SELECT 1 FROM memories m
                  WHERE m.profile_id = p.id AND m.superseded_by IS NULL AND m.type IN {sql_list(EMBEDDED_TYPES)})
      AND NOT EXISTS (SELECT 1 FROM memory_embeddings e WHERE e.profile_id = p.id AND e.model = :model)
    ORDER BY p.id
    """
)


async def profiles_without_vectors(db: AsyncSession, model: str) -> list[int]:
    """Profiles with memories to embed and no vector of `model` yet."""
    return [r.id for r in await db.execute(_UNEMBEDDED_PROFILES, {"model": model})]


def _clean(vector: Sequence[float]) -> list[float]:
    """Components too small for a 4-byte float are zero (pgvector rejects them as underflow)."""
    return [float(x) if abs(x) >= 1e-30 else 0.0 for x in vector]


# The portable store's element: a half-precision float, little-endian (a cosine moves by about 1e-4).
HALF = np.dtype("<f2")


def _stored(vector: Sequence[float], store: VectorStore) -> str | bytes:
    """A vector as the store's column takes it: pgvector's text form, or the portable half floats."""
    if store == "pgvector":
        return "[" + ",".join(format(x, ".7g") for x in _clean(vector)) + "]"
    return np.asarray(vector, dtype=np.float32).astype(HALF).tobytes()


async def store_vectors(
    db: AsyncSession | AsyncConnection,
    profile_id: int,
    model: str,
    vectors: dict[str, list[float]],
    store: VectorStore,
) -> int:
    """Store the vectors of memories that still exist; returns how many were stored."""
    if not vectors:
        return 0
    # pgvector's vectors arrive as text and are cast; the portable ones as the bytes stored.
    column, cast = (
        ("text[]", "CAST(v.embedding AS vector)") if store == "pgvector" else ("bytea[]", "v.embedding")
    )
    statement = text(
        f"""
        INSERT INTO memory_embeddings (profile_id, memory_id, model, embedding)
        SELECT :p, v.id, :model, {cast}
        FROM unnest(CAST(:ids AS text[]), CAST(:vectors AS {column})) AS v(id, embedding)
        WHERE EXISTS (SELECT 1 FROM memories m WHERE m.profile_id = :p AND m.id = v.id)
        ON CONFLICT (profile_id, memory_id, model) DO UPDATE SET embedding = EXCLUDED.embedding
        """
    )
    result = await db.execute(
        statement,
        {
            "p": profile_id,
            "model": model,
            "ids": list(vectors),
            "vectors": [_stored(v, store) for v in vectors.values()],
        },
    )
    return int(getattr(result, "rowcount", 0) or 0)


async def forget(db: AsyncSession, profile_id: int, memory_id: str) -> None:
    """Drop a memory's vectors (its content changed)."""
    await db.execute(
        text("DELETE FROM memory_embeddings WHERE profile_id = :p AND memory_id = :id"),
        {"p": profile_id, "id": memory_id},
    )


# Exact search, narrowed to the profile's vectors of this model before ranking; superseded memories never
# appear (their vectors stay until the memory is purged).
_NEAREST_PGVECTOR = """
    WITH candidates AS MATERIALIZED (
        SELECT e.memory_id, -(e.embedding <#> CAST(CAST(:q AS text) AS vector)) AS similarity
        FROM memory_embeddings e
        WHERE e.profile_id = :p AND e.model = :model)
    SELECT c.memory_id, c.similarity FROM candidates c
    JOIN memories m ON m.profile_id = :p AND m.id = c.memory_id AND m.superseded_by IS NULL
    WHERE c.similarity >= :floor
    ORDER BY c.similarity DESC, c.memory_id DESC
    LIMIT :k
    """
# The portable store's vectors as stored: half floats, read by numpy in one piece.
_PORTABLE_VECTORS = """
    SELECT e.memory_id, e.embedding
    FROM memory_embeddings e
    JOIN memories m ON m.profile_id = :p AND m.id = e.memory_id AND m.superseded_by IS NULL
    WHERE e.profile_id = :p AND e.model = :model
    """


@dataclass(frozen=True)
class StoredVectors:
    """A profile's vectors of one model as the portable store keeps them, read and laid out for ranking in
    process: fetched while the question is still being embedded (recall), ranked once its vector is in."""

    ids: list[str]
    blobs: list[bytes]
    # Every vector as one float32 matrix, when they all have one length (vectors of one model always do).
    matrix: NDArray[np.float32] | None

    @classmethod
    def of(cls, rows: Sequence[tuple[str, bytes]]) -> StoredVectors:
        ids = [memory_id for memory_id, _ in rows]
        blobs = [blob for _, blob in rows]
        matrix = None
        if blobs and len({len(blob) for blob in blobs}) == 1:
            matrix = np.frombuffer(b"".join(blobs), dtype=HALF).reshape(len(blobs), -1).astype(np.float32)
        return cls(ids, blobs, matrix)

    def nearest(self, vector: Sequence[float], *, limit: int, floor: float) -> list[tuple[str, float]]:
        """(memory_id, cosine similarity) of the vectors closest to `vector`, best first (ties: the newer
        memory first), at least `floor`, `limit` at most."""
        if not self.ids:
            return []
        query = np.asarray(vector, dtype=np.float32)
        similarity: NDArray[np.float32]
        if self.matrix is not None and self.matrix.shape[1] == len(query):
            similarity = self.matrix @ query
        else:
            similarity = np.array([_dot(blob, query) for blob in self.blobs], dtype=np.float32)
        kept = np.flatnonzero(similarity >= floor)
        if len(kept) > limit:
            # Only what can make the first `limit` is sorted: the vectors at or above the limit-th best
            # similarity (those tied with it included, for the newer-first tie-break below).
            cut = np.partition(similarity[kept], len(kept) - limit)[len(kept) - limit]
            kept = kept[similarity[kept] >= cut]
        values = similarity.tolist()
        ids = self.ids
        order = sorted(kept.tolist(), key=lambda i: (values[i], ids[i]), reverse=True)
        return [(ids[i], values[i]) for i in order[:limit]]


async def stored_vectors(db: Reads, profile_id: int, model: str) -> StoredVectors:
    """The profile's vectors of `model` in the portable store, of its active memories."""
    found = await driver_fetch(db, _PORTABLE_VECTORS, {"p": profile_id, "model": model})
    return StoredVectors.of([(memory_id, blob) for memory_id, blob in found])


async def nearest(
    db: Reads,
    profile_id: int,
    model: str,
    vector: Sequence[float],
    store: VectorStore,
    *,
    limit: int,
    floor: float,
) -> list[tuple[str, float]]:
    """(memory_id, cosine similarity) of the profile's memories closest to `vector`, best first (ties: the
    newer memory first)."""
    if store == "pgvector":
        params: dict[str, object] = {
            "p": profile_id, "model": model, "q": _stored(vector, store), "k": limit, "floor": floor
        }  # fmt: skip
        rows = await driver_fetch(db, _NEAREST_PGVECTOR, params)
        return [(r["memory_id"], float(r["similarity"])) for r in rows]
    return (await stored_vectors(db, profile_id, model)).nearest(vector, limit=limit, floor=floor)


def _dot(blob: bytes, query: NDArray[np.float32]) -> float:
    """The dot product of a stored vector with the query, over the dimensions they share."""
    stored = np.frombuffer(blob, dtype=HALF).astype(np.float32)
    common = min(len(stored), len(query))
    return float(np.dot(stored[:common], query[:common]))
