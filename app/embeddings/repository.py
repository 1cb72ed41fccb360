"""SQL of memory embeddings: which store the schema has, memories still without a vector, storing vectors,
and the nearest memories of one profile to a query vector.

The `embedding` column is pgvector's `vector` when the migration could create the extension, else a
portable `real[]`. Both are searched exactly, narrowed to the profile (and model) first: pgvector by its
inner-product operator, the portable column by numpy over its binary form. Vectors are stored at unit
length, so the inner product is the cosine similarity.
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


# Only the types the policy table indexes for vectors (`embedded`).
_MISSING = text(
    f"""
    SELECT m.id, m.content, m.version > 1 AS edited,
           coalesce(src.texts, '') AS sources, coalesce(prev.text_content, '') AS previous
    FROM memories m
    LEFT JOIN LATERAL (
        SELECT string_agg(msg.text_content, E'\\n' ORDER BY msg.seq) AS texts,
               (array_agg(msg.parent_id ORDER BY msg.seq))[1] AS first_parent
        FROM memory_sources s
        JOIN messages msg ON msg.profile_id = s.profile_id AND msg.session_id = s.session_id
                         AND msg.id = s.message_id
        WHERE s.profile_id = :p AND s.memory_id = m.id) src ON true
    LEFT JOIN messages prev ON prev.profile_id = :p AND prev.session_id = m.session_id
                           AND prev.id = src.first_parent
    WHERE m.profile_id = :p AND m.superseded_by IS NULL AND m.type IN {sql_list(EMBEDDED_TYPES)}
      AND NOT EXISTS (SELECT 1 FROM memory_embeddings e
                      WHERE e.profile_id = :p AND e.memory_id = m.id AND e.model = :model)
    ORDER BY m.id
    LIMIT :n
    """
)


async def missing(db: AsyncSession, profile_id: int, model: str, limit: int) -> list[PendingMemory]:
    """Active memories of the profile that have no vector of `model` yet, oldest first."""
    rows = await db.execute(_MISSING, {"p": profile_id, "model": model, "n": limit})
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
    """Components too small for a 4-byte float are zero (PostgreSQL's `real` rejects them as underflow)."""
    return [float(x) if abs(x) >= 1e-30 else 0.0 for x in vector]


def _literal(vector: Sequence[float], store: VectorStore) -> str:
    body = ",".join(format(x, ".7g") for x in _clean(vector))
    return f"[{body}]" if store == "pgvector" else "{" + body + "}"


def _column_type(store: VectorStore) -> str:
    return "vector" if store == "pgvector" else "real[]"


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
    statement = text(
        f"""
        INSERT INTO memory_embeddings (profile_id, memory_id, model, embedding)
        SELECT :p, v.id, :model, CAST(v.embedding AS {_column_type(store)})
        FROM unnest(CAST(:ids AS text[]), CAST(:vectors AS text[])) AS v(id, embedding)
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
            "vectors": [_literal(v, store) for v in vectors.values()],
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
# The portable store's vectors as their binary form (`array_send`), for numpy to take the dot products: in
# SQL, unnesting both arrays for every row took 32 ms for a profile of 1,000 vectors.
_PORTABLE_VECTORS = """
    SELECT e.memory_id, array_send(e.embedding) AS embedding
    FROM memory_embeddings e
    JOIN memories m ON m.profile_id = :p AND m.id = e.memory_id AND m.superseded_by IS NULL
    WHERE e.profile_id = :p AND e.model = :model
    """
# A one-dimensional `real[]` in PostgreSQL's binary form: a 20-byte header (dimensions, null flag, element
# type, length, lower bound), then each element as its length and its big-endian value (vectors hold no NULL).
_ARRAY_HEADER = 20
_ELEMENT = np.dtype([("length", ">i4"), ("value", ">f4")])


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
    params: dict[str, object] = {"p": profile_id, "model": model}
    if store == "pgvector":
        params.update({"q": _literal(vector, store), "k": limit, "floor": floor})
        rows = await driver_fetch(db, _NEAREST_PGVECTOR, params)
        return [(r["memory_id"], float(r["similarity"])) for r in rows]
    found = await driver_fetch(db, _PORTABLE_VECTORS, params)
    if not found:
        return []
    ids = [memory_id for memory_id, _ in found]
    blobs = [blob for _, blob in found]
    query = np.asarray(_clean(vector), dtype=np.float32)
    similarity: NDArray[np.float32]
    lengths = {len(blob) for blob in blobs}
    if len(lengths) == 1 and min(lengths) > _ARRAY_HEADER:
        # Vectors of one length (the usual case): one matrix, one product.
        raw = np.frombuffer(b"".join(blobs), dtype=np.uint8).reshape(len(blobs), -1)[:, _ARRAY_HEADER:]
        matrix = np.ascontiguousarray(raw).view(_ELEMENT)["value"].astype(np.float32)
        common = min(matrix.shape[1], len(query))
        similarity = matrix[:, :common] @ query[:common]
    else:
        similarity = np.array([_dot(blob, query) for blob in blobs], dtype=np.float32)
    order = sorted(
        (i for i in range(len(ids)) if similarity[i] >= floor),
        key=lambda i: (similarity[i], ids[i]),
        reverse=True,
    )
    return [(ids[i], float(similarity[i])) for i in order[:limit]]


def _dot(blob: bytes, query: NDArray[np.float32]) -> float:
    """The dot product of a stored vector (binary form) with the query, over the dimensions they share."""
    if len(blob) <= _ARRAY_HEADER:  # an empty array has a shorter header and no elements
        return 0.0
    stored = np.frombuffer(blob, _ELEMENT, offset=_ARRAY_HEADER)["value"].astype(np.float32)
    common = min(len(stored), len(query))
    return float(np.dot(stored[:common], query[:common]))
