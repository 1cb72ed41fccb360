"""Recall in a large profile (bounded work: rarest terms looked up, common ones matched in the newest rows,
statistics from pg_stats) answers like the exact ranking. `recall_exact_rows` is lowered so that a few dozen
memories make a "large" profile; the same questions run against an app that ranks them exactly."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import httpx
import pytest

from tests.conftest import admin_client, make_settings, new_namespace, started_app

HIKES = [f"On day {n} I went hiking with Bruno near the lake." for n in range(1, 31)]
RARE = "I keep the spare carburettor for my Vespa in the garage."
OTHERS = ["My sister Ana lives in Porto.", "I adopted a grey cat called Miso."]


@contextlib.asynccontextmanager
async def app_client(database_url: str, exact_rows: int) -> AsyncIterator[httpx.AsyncClient]:
    settings = make_settings(database_url, recall_exact_rows=exact_rows)
    async with started_app(settings) as app, admin_client(app) as client:
        yield client


async def _recall(client: httpx.AsyncClient, url: str, query: str) -> list[dict[str, Any]]:
    response = await client.post(f"{url}/recall", json={"query": query, "limit": 5})
    assert response.status_code == 200, response.text
    candidates: list[dict[str, Any]] = response.json()["candidates"]
    return candidates


@pytest.fixture(scope="module")
async def loaded(database_url: str) -> str:
    """A profile of 33 memories, analysed so that PostgreSQL has statistics for it; its URL."""
    async with app_client(database_url, exact_rows=5_000) as client:
        url = f"/v1/namespaces/{await new_namespace(client)}/profiles/alice"
        for content in [*HIKES, RARE, *OTHERS]:
            response = await client.post(f"{url}/remember", json={"content": content})
            assert response.status_code == 201, response.text
    conn = await asyncpg.connect(database_url)
    try:
        await conn.execute("ANALYZE memories")
    finally:
        await conn.close()
    return url


@pytest.mark.parametrize("exact_rows", [8, 5_000], ids=["bounded", "exact"])
async def test_rare_term_is_found_first(database_url: str, loaded: str, exact_rows: int) -> None:
    async with app_client(database_url, exact_rows) as client:
        candidates = await _recall(client, loaded, "Where do I keep the carburettor?")
    assert candidates and "carburettor" in candidates[0]["summary"].lower()


@pytest.mark.parametrize("exact_rows", [8, 5_000], ids=["bounded", "exact"])
async def test_common_terms_still_answer(database_url: str, loaded: str, exact_rows: int) -> None:
    async with app_client(database_url, exact_rows) as client:
        candidates = await _recall(client, loaded, "Who did I go hiking with?")
    assert len(candidates) == 5
    assert all("hiking" in c["summary"].lower() for c in candidates)


async def test_bounded_and_exact_agree_on_the_best_answer(database_url: str, loaded: str) -> None:
    questions = ["Where does Ana live?", "What is my cat called?", "Where is my Vespa's carburettor?"]
    best: dict[int, list[str]] = {}
    for exact_rows in (8, 5_000):
        async with app_client(database_url, exact_rows) as client:
            best[exact_rows] = [(await _recall(client, loaded, q))[0]["id"] for q in questions]
    assert best[8] == best[5_000]
