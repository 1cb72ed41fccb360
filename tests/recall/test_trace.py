"""The recall trace (`trace: true`): per candidate its channels and features, whose contributions add up to
its fusion score and its rank score, and its relevance features, whose contributions give its score; the question's analysis; each stage's time. It observes the ranking: the
result is the same with and without it, and without it there is no `trace` key. The MCP `recall` tool and
the session tool `recall_memory` return the same trace."""

from __future__ import annotations

import math
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.worker.runner import Worker
from tests.mcp.test_mcp import admin, data, mcp_client
from tests.recall.test_recall import FADO_QUESTIONS, ingest_fado_chat
from tests.sessions.helpers import new_session

MEMORIES = [
    "My sister Nadia ran her first marathon in Lisbon.",
    "Nadia is training for a half-marathon in the autumn.",
    "I ran 10 km along the river on Sunday.",
    "The user prefers answers in French.",
    "Bought new running shoes for the marathon.",
    "Dentist appointment on 14 May 2024 at 9:00.",
]
QUESTIONS = [
    "How did my sister do in the marathon?",
    "What did I do in May 2024?",
    '"running shoes"',
    "Where does Nadia live?",
]
STAGES = {"analysis", "embedding", "channels", "fusion", "rerank", "answer", "total"}


async def remembered(client: httpx.AsyncClient, base: str) -> None:
    for content in MEMORIES:
        response = await client.post(f"{base}/remember", json={"content": content})
        assert response.status_code == 201, response.text


async def recall(client: httpx.AsyncClient, base: str, **body: Any) -> dict[str, Any]:
    response = await client.post(f"{base}/recall", json={"referenceDate": "2024-06-01", **body})
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def assert_explains(result: dict[str, Any]) -> None:
    """The trace's candidates are the result's, and their contributions add up."""
    trace = result["trace"]
    analysis = trace["analysis"]
    if result["candidates"]:
        z = analysis["answerabilityIntercept"] + math.fsum(
            f["contribution"] for f in analysis["answerabilityFeatures"]
        )
        assert analysis["answerability"] == pytest.approx(1 / (1 + math.exp(-z)))
    assert set(trace["timings"]) == STAGES and all(ms >= 0 for ms in trace["timings"].values())
    assert [c["id"] for c in trace["candidates"]] == [c["id"] for c in result["candidates"]]
    for explained, candidate in zip(trace["candidates"], result["candidates"], strict=True):
        assert explained["score"] == candidate["score"]
        assert explained["channels"], explained  # something found it
        fused = math.fsum(c["contribution"] for c in explained["channels"])
        assert fused == pytest.approx(explained["fusionScore"], rel=1e-9, abs=1e-12)
        for channel in explained["channels"]:
            assert channel["rank"] >= 1
            assert channel["contribution"] == pytest.approx(channel["weight"] / (5 + channel["rank"]))
        scored = math.fsum(f["contribution"] for f in explained["features"])
        assert scored == pytest.approx(explained["rankScore"], abs=2e-6), explained
        z = explained["relevanceIntercept"] + math.fsum(f["contribution"] for f in explained["relevance"])
        answerable = trace["analysis"]["answerability"]
        relevance = answerable * (1 / (1 + math.exp(-z)))
        if explained["askedFor"]:  # what a question naming a time or a type alone asks for
            relevance = max(relevance, 0.9)
        assert relevance == pytest.approx(candidate["score"], abs=2e-6), explained
        for feature in explained["relevance"]:
            assert feature["contribution"] == pytest.approx(feature["value"] * feature["weight"])
        factors = math.prod(f["weight"] for f in explained["factors"])
        for feature in explained["features"]:
            if feature["name"] == "diversity":  # the score held to the one above it: a difference
                assert feature["contribution"] == feature["value"] < 0
                continue
            expected = feature["value"] * feature["weight"] * factors * explained["scale"]
            assert feature["contribution"] == pytest.approx(expected)


@pytest.mark.parametrize("level", ["low", "medium", "high"])
async def test_the_trace_adds_up_and_changes_nothing(client: httpx.AsyncClient, ns: str, level: str) -> None:
    base = f"/v1/namespaces/{ns}/profiles/runner-{level}"
    await remembered(client, base)
    for question in QUESTIONS:
        plain = await recall(client, base, query=question, thinkingLevel=level)
        traced = await recall(client, base, query=question, thinkingLevel=level, trace=True)
        assert "trace" not in plain
        assert {k: v for k, v in traced.items() if k != "trace"} == plain, question
        assert traced["trace"]["analysis"]["level"] == level
        assert_explains(traced)
        features = {f["name"] for c in traced["trace"]["candidates"] for f in c["features"]}
        if traced["candidates"]:
            expected = {"first"} if level == "low" else {"first", "specific", "agree", "near", "answer_type"}
            assert expected <= features


async def test_a_candidate_held_below_the_one_above_it_says_so(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    # The memory moved down has its score held to the one now above it.
    await ingest_fado_chat(client, profile_url, worker)
    held = 0
    for level in ("low", "medium"):
        for query in FADO_QUESTIONS:
            # minScore 0: every candidate the ranking returned, however unlikely to answer.
            traced = await recall(
                client, profile_url, query=query, thinkingLevel=level, trace=True, minScore=0
            )
            assert_explains(traced)
            held += sum(
                f["name"] == "diversity" for c in traced["trace"]["candidates"] for f in c["features"]
            )
    assert held


async def test_the_analysis_says_what_the_question_became(client: httpx.AsyncClient, ns: str) -> None:
    base = f"/v1/namespaces/{ns}/profiles/runner"
    await remembered(client, base)
    sister = (await recall(client, base, query="How did my sister do in the marathon?", trace=True))["trace"]
    analysis = sister["analysis"]
    assert analysis["language"] == "en" and analysis["timeWindow"] is None
    assert "marathon" in analysis["terms"]
    assert "sister" in analysis["relations"]
    assert "nadia" in analysis["names"]  # the name the profile gives "my sister"
    channels = {c["channel"] for c in sister["candidates"][0]["channels"]}
    assert {"memory_text", "prior"} <= channels

    may = (await recall(client, base, query="What did I do in May 2024?", trace=True))["trace"]["analysis"]
    assert may["timeWindow"] == {"start": "2024-05-01T00:00:00Z", "end": "2024-06-01T00:00:00Z"}
    spanish = await recall(client, base, query="¿Dónde vive mi hermana ahora?", trace=True)
    assert spanish["trace"]["analysis"]["language"] == "es"
    quoted = (await recall(client, base, query='"running shoes"', trace=True))["trace"]["analysis"]
    assert quoted["phrases"] == ["running shoes"]

    nothing = await recall(client, base, query="quantum chromodynamics", trace=True)
    assert nothing["count"] == 0 and nothing["trace"]["candidates"] == []
    assert nothing["trace"]["analysis"]["terms"]


async def test_mcp_and_the_session_tool_trace_too(app: FastAPI, client: httpx.AsyncClient, ns: str) -> None:
    base = f"/v1/namespaces/{ns}/profiles/runner"
    await remembered(client, base)
    question = "How did my sister do in the marathon?"
    async with mcp_client(app, **admin()) as mcp:
        where = {"namespace": ns, "profile": "runner"}
        traced = data(await mcp.call_tool("recall", {"query": question, "trace": True, **where}))
        plain = data(await mcp.call_tool("recall", {"query": question, **where}))
    assert "trace" not in plain and {k: v for k, v in traced.items() if k != "trace"} == plain
    assert_explains(traced)

    assert (await client.put(f"{base}/context/memory", json={"kind": "summary"})).status_code == 201
    url = f"{base}/sessions/{await new_session(client, base)}/tools/recall_memory"
    called = await client.post(url, json={"arguments": {"query": question, "trace": True}})
    assert called.status_code == 200, called.text
    tool = called.json()
    assert "Nadia" in tool["result"] and tool["trace"]["candidates"]
    assert tool["trace"]["analysis"]["level"] == "medium"
    untraced = (await client.post(url, json={"arguments": {"query": question}})).json()
    assert untraced == {"result": tool["result"]}
    refused = await client.post(url, json={"arguments": {"query": question, "trace": "yes"}})
    assert refused.status_code == 422 and "trace" in refused.json()["detail"]
