"""No LLM call is made while the application holds a database connection in a transaction or a statement.

The fake LLM server looks at `pg_stat_activity` for the test database on every request it gets: each
call site (extraction in the worker, recall's answer, POST /compact, the auto-compaction job) must find
none of the application's connections busy.
"""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from app.sessions.summariser import LLM_SYSTEM_PROMPT
from app.worker.runner import Worker
from tests.llm.fake_openai import ChatRequest, FakeOpenAI, Reply, answer
from tests.sessions.helpers import append, new_session, text_message

SUMMARY = (
    "## Topic\nThe move.\n\n## Key Points\n- Boxes.\n\n## Current State\nPacking.\n\n## Open Items\n- None."
)


def _reply(request: ChatRequest) -> Reply:
    if request.system.startswith(LLM_SYSTEM_PROMPT[:40]):
        return answer(SUMMARY)
    if request.system.startswith("You extract"):
        return answer({"memories": []})
    return answer({"answer": "The user keeps bees."})


def _watch(fake: FakeOpenAI, app: FastAPI) -> None:
    fake.default = _reply
    fake.watch(app.state.settings.database_url)
    fake.requests.clear()


def _assert_nothing_held(fake: FakeOpenAI) -> None:
    assert fake.requests, "the LLM was called"
    for request in fake.requests:
        assert request.busy_connections == [], request.busy_connections


async def test_extraction_calls_the_llm_with_no_connection_held(
    provider_client: httpx.AsyncClient,
    provider_app: FastAPI,
    provider_profile_url: str,
    provider_worker: Worker,
    fake_openai: FakeOpenAI,
) -> None:
    response = await provider_client.post(
        f"{provider_profile_url}/ingest",
        json={"sessionId": "held-1", "messages": [{"role": "user", "content": "I keep bees on my roof."}]},
    )
    assert response.status_code == 202
    _watch(fake_openai, provider_app)
    await provider_worker.drain()
    _assert_nothing_held(fake_openai)


async def test_recall_answer_with_no_connection_held(
    provider_client: httpx.AsyncClient,
    provider_app: FastAPI,
    provider_profile_url: str,
    fake_openai: FakeOpenAI,
) -> None:
    await provider_client.post(
        f"{provider_profile_url}/remember", json={"content": "I keep bees on my roof."}
    )
    _watch(fake_openai, provider_app)
    result = (
        await provider_client.post(f"{provider_profile_url}/recall", json={"query": "Where do I keep bees?"})
    ).json()
    assert result["answer"] == "The user keeps bees."
    _assert_nothing_held(fake_openai)


async def _long_session(client: httpx.AsyncClient, profile_url: str, **options: object) -> str:
    sid = await new_session(client, profile_url, **options)
    url = f"{profile_url}/sessions/{sid}"
    for i in range(8):
        role = "user" if i % 2 == 0 else "assistant"
        await append(
            client, url, text_message(f"m{i}", role, f"Message {i} about packing boxes for the move.")
        )
    return url


async def test_compact_with_no_connection_held(
    provider_client: httpx.AsyncClient,
    provider_app: FastAPI,
    provider_profile_url: str,
    fake_openai: FakeOpenAI,
) -> None:
    url = await _long_session(provider_client, provider_profile_url)
    _watch(fake_openai, provider_app)
    response = await provider_client.post(f"{url}/compact", json={"tailTokenBudget": 0})
    assert response.status_code == 200 and response.json()["summary"] == SUMMARY
    _assert_nothing_held(fake_openai)


async def test_auto_compaction_with_no_connection_held(
    provider_client: httpx.AsyncClient,
    provider_app: FastAPI,
    provider_profile_url: str,
    provider_worker: Worker,
    fake_openai: FakeOpenAI,
) -> None:
    _watch(fake_openai, provider_app)
    await provider_worker.drain()  # earlier tests' jobs out of the way
    url = await _long_session(provider_client, provider_profile_url, compactAfter=60)
    fake_openai.requests.clear()
    await provider_worker.drain()
    [compaction] = (await provider_client.get(f"{url}/compactions")).json()["compactions"]
    assert compaction["summary"] == SUMMARY
    _assert_nothing_held(fake_openai)
