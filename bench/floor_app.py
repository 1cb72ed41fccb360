"""The floors `bench_floors.py` measures the service against: a bare Starlette app on the same uvicorn.

- `GET /noop`: an empty JSON answer, no database (what HTTP + uvicorn cost);
- `POST /insert`: the body's JSON parsed, one INSERT … RETURNING into the service's own `memories` table
  on a pooled asyncpg connection, the row's id answered (what remember could cost at best: one request,
  one round trip).

Run by the bench as `uvicorn bench.floor_app:app` with FLOOR_DATABASE_URL set; not part of the product.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from ulid import ULID

_INSERT = """
    INSERT INTO memories (profile_id, id, type, summary, content, content_hash)
    VALUES ($1, $2, 'fact', $3, $3, $4)
    ON CONFLICT (profile_id, content_hash) DO NOTHING
    RETURNING id
"""


@asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    # The bench gives the service's processes the same bound (AGENT_MEMORY_DB_POOL_SIZE, no overflow).
    size = int(os.environ.get("FLOOR_POOL_SIZE", "20"))
    pool = await asyncpg.create_pool(os.environ["FLOOR_DATABASE_URL"], min_size=1, max_size=size)
    app.state.pool = pool
    try:
        yield
    finally:
        await pool.close()


async def noop(request: Request) -> JSONResponse:
    return JSONResponse({"status": "ok"})


async def insert(request: Request) -> JSONResponse:
    body: dict[str, Any] = json.loads(await request.body())
    content = str(body["content"])
    digest = hashlib.sha256(content.encode()).hexdigest()
    async with request.app.state.pool.acquire() as conn:
        memory_id = await conn.fetchval(_INSERT, int(body["profileId"]), str(ULID()), content, digest)
    return JSONResponse({"id": memory_id}, status_code=201)


app = Starlette(routes=[Route("/noop", noop), Route("/insert", insert, methods=["POST"])], lifespan=lifespan)
