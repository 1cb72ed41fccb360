"""Recall knows what it does not know: questions nothing in the profile answers get `count: 0`, an empty
`answer` and no candidates, in several languages, with the semantic channel on (the packaged local model,
through the worker's real embedding jobs) and off; the questions it can answer still are; `minScore` 0
shows what was held back; `score` is an absolute relevance in [0, 1]. Through HTTP, MCP and the session
tool."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.context.tools import NO_RESULTS
from app.recall.schemas import DEFAULT_MIN_SCORE
from app.worker.runner import Worker
from tests.mcp.test_mcp import admin, data, mcp_client
from tests.sessions.helpers import new_session

FACTS = [
    "I work as a pediatric nurse at Santa Maria hospital in Lisbon.",
    "My dog is a beagle called Biscuit.",
    "I am allergic to peanuts.",
    "My sister Inês lives in Porto.",
    "We are planning a trip to Japan in October.",
    "My favourite band is Radiohead.",
    "I need to renew my passport before the trip.",
    "Me encanta cocinar paella los domingos con mi familia.",
    "Ich spiele seit zehn Jahren Cello.",
    "我在学习书法，每周上两次课。",
    "毎朝コーヒーを二杯飲みます。",
    "I go running along the river every morning before work.",
]
# Each question with a word of the memory that answers it.
ANSWERABLE = [
    ("Where do I work?", "nurse"),
    ("What is my dog called?", "Biscuit"),
    ("What am I allergic to?", "peanuts"),
    ("Where does my sister live?", "Porto"),
    ("Which band do I like best?", "Radiohead"),
    ("¿Qué me gusta cocinar los domingos?", "paella"),
    ("Welches Instrument spiele ich?", "Cello"),
    ("我在学习什么？", "书法"),
    ("毎朝何を飲みますか？", "コーヒー"),
]
UNANSWERABLE = [
    "What car do I drive?",
    "Who won the 1998 World Cup?",
    "What is the capital of Mongolia?",
    "quantum chromodynamics lattice",
    "Wie heißt meine Katze?",
    "Was ist mein Lieblingsfilm?",
    "¿Cuál es mi película favorita?",
    "¿Cómo se llama mi gato?",
    "我的车是什么颜色的？",
    "我丈夫做什么工作？",
    "私の車は何色ですか？",
    "私の猫の名前は何ですか？",
]


@pytest.fixture(scope="module")
def provider_overrides() -> dict[str, object]:
    """The app of `provider_app` with the default semantic channel: the packaged local model."""
    return {"embeddings": "local"}


async def _remember_all(client: httpx.AsyncClient, url: str) -> None:
    for fact in FACTS:
        response = await client.post(f"{url}/remember", json={"content": fact})
        assert response.status_code == 201, response.text


async def _recall(client: httpx.AsyncClient, url: str, query: str, **extra: Any) -> dict[str, Any]:
    response = await client.post(f"{url}/recall", json={"query": query, **extra})
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


async def _check(client: httpx.AsyncClient, url: str) -> int:
    """Every answerable question answered, every unanswerable one not; how many of those held back some
    candidate."""
    for question, word in ANSWERABLE:
        found = await _recall(client, url, question)
        assert found["count"] >= 1 and word in found["answer"], (question, found)
        assert all(DEFAULT_MIN_SCORE <= c["score"] <= 1 for c in found["candidates"]), found
        scores = [c["score"] for c in found["candidates"]]
        assert scores == sorted(scores, reverse=True)
    held_back = 0
    for question in UNANSWERABLE:
        found = await _recall(client, url, question)
        assert (found["count"], found["answer"], found["candidates"]) == (0, "", []), (question, found)
        # Held back, not lost: with minScore 0 what the ranking found comes back, scored below the default
        # (lexically, a question none of whose words the profile holds finds nothing at all).
        everything = await _recall(client, url, question, minScore=0, trace=True)
        assert all(0 <= c["score"] < DEFAULT_MIN_SCORE for c in everything["candidates"])
        if everything["candidates"]:
            held_back += 1
            traced = everything["trace"]["candidates"][0]
            assert {f["name"] for f in traced["relevance"]} >= {"coverage", "known", "cosine"}
            assert 0 < traced["rankScore"] <= 1
            assert 0 <= everything["trace"]["analysis"]["answerability"] <= 1
    return held_back


async def test_lexical_recall_abstains_on_what_the_profile_does_not_hold(
    client: httpx.AsyncClient, ns: str
) -> None:
    url = f"/v1/namespaces/{ns}/profiles/alice"
    await _remember_all(client, url)
    await _check(client, url)


async def test_semantic_recall_abstains_too(
    provider_app: FastAPI, provider_client: httpx.AsyncClient, provider_ns: str, provider_worker: Worker
) -> None:
    url = f"/v1/namespaces/{provider_ns}/profiles/alice"
    await _remember_all(provider_client, url)
    await provider_worker.drain()  # every memory's vector stored: the semantic channel sees them all
    assert (await provider_client.get("/readyz")).json()["embeddings"] != "none"
    # The semantic channel always finds something: every unanswerable question held candidates back.
    assert await _check(provider_client, url) == len(UNANSWERABLE)


async def test_min_score_is_checked_and_mcp_abstains(
    app: FastAPI, client: httpx.AsyncClient, ns: str
) -> None:
    url = f"/v1/namespaces/{ns}/profiles/alice"
    await _remember_all(client, url)
    for bad in (-0.1, 1.5, "high"):
        response = await client.post(f"{url}/recall", json={"query": "Where do I work?", "minScore": bad})
        assert response.status_code == 422, response.text
    where = {"namespace": ns, "profile": "alice"}
    async with mcp_client(app, **admin()) as mcp:
        empty = data(await mcp.call_tool("recall", {"query": "What car do I drive?", **where}))
        assert (empty["count"], empty["answer"], empty["candidates"]) == (0, "", [])
        found = data(await mcp.call_tool("recall", {"query": "What is my dog called?", **where}))
        assert "Biscuit" in found["answer"]
        strict = {"query": "What is my dog called?", "min_score": 1, **where}
        assert data(await mcp.call_tool("recall", strict))["count"] == 0


async def test_the_session_tool_abstains_too(client: httpx.AsyncClient, ns: str) -> None:
    """The Session API's `recall_memory` tool: nothing relevant is "No results found.", as an empty store
    is; `minScore` is the tool's argument too."""
    url = f"/v1/namespaces/{ns}/profiles/alice"
    await _remember_all(client, url)
    assert (await client.put(f"{url}/context/memory", json={"kind": "summary"})).status_code == 201
    tool = f"{url}/sessions/{await new_session(client, url)}/tools/recall_memory"

    async def call(**arguments: object) -> str:
        response = await client.post(tool, json={"arguments": arguments})
        assert response.status_code == 200, response.text
        return str(response.json()["result"])

    assert await call(query="What car do I drive?") == NO_RESULTS
    assert await call(query="Wie heißt meine Katze?") == NO_RESULTS
    assert "Biscuit" in await call(query="What is my dog called?")
    assert await call(query="What is my dog called?", minScore=1) == NO_RESULTS
    refused = await client.post(tool, json={"arguments": {"query": "x", "minScore": 2}})
    assert refused.status_code == 422 and "minScore" in refused.json()["detail"]
