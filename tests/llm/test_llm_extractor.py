"""The LLM extractor end to end: ingest over HTTP, the real worker loop, a real HTTP server as the LLM.

The fake server reads the window the extractor sent and answers as a model would, citing the new messages'
ids, plus items the extractor must drop or repair (unknown type, a context message's id, a long summary).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from app.extraction.llm import SYSTEM_PROMPT, LlmExtractor, parse_memories
from app.extraction.types import InputMessage
from app.llm.client import LlmClient, LlmError
from app.worker.runner import Worker
from tests.llm.conftest import JOB_MAX_ATTEMPTS
from tests.llm.fake_openai import FakeOpenAI, Reply, answer, error

CONVERSATION = [
    {"role": "user", "content": "Hi there!", "timestamp": "2024-05-10T09:00:00Z"},
    {"role": "assistant", "content": "Hello! How can I help?", "timestamp": "2024-05-10T09:00:05Z"},
    {"role": "user", "content": "I moved to Lisbon last year.", "timestamp": "2024-05-10T09:01:00Z"},
    {
        "role": "user",
        "content": "Yesterday I ran my first half marathon.",
        "timestamp": "2024-05-10T09:02:00Z",
    },
    {"role": "user", "content": "From now on, always answer in French.", "timestamp": "2024-05-10T09:03:00Z"},
]


def window(request_user: str) -> list[dict[str, Any]]:
    """The messages the extractor put in its prompt."""
    listed: list[dict[str, Any]] = json.loads(request_user.split("Messages:\n", 1)[1])
    return listed


def model_answer(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """What a good model answers for the new messages, plus junk the extractor has to filter."""
    memories: list[dict[str, Any]] = []
    context_ids = [m["id"] for m in messages if not m["new"]]
    for m in messages:
        if not m["new"]:
            continue
        text = m["text"]
        if "Lisbon" in text:
            memories.append(
                {
                    "type": "fact",
                    "summary": "User lives in Lisbon (LLM)",
                    "content": text,
                    "topicKey": "User.Home City",
                    "eventTime": None,
                    "sourceMessageIds": [m["id"]],
                }
            )
        if "Porto" in text:
            memories.append(
                {
                    "type": "FACT",
                    "summary": "User lives in Porto (LLM)",
                    "content": text,
                    "topicKey": "user.home_city",
                    "sourceMessageIds": [m["id"], "not-a-message"],
                }
            )
        if "marathon" in text:
            memories.append(
                {
                    "type": "event",
                    "summary": "User ran a first half marathon (LLM) " + "x" * 300,
                    "content": text,
                    "topicKey": None,
                    "eventTime": "2024-05-09",
                    "sourceMessageIds": [m["id"]],
                }
            )
        if "French" in text:
            memories.append(
                {
                    "type": "instruction",
                    "summary": "Always answer User in French (LLM)",
                    "content": text,
                    "topicKey": "agent.language",
                    "sourceMessageIds": m["id"],
                }
            )
        # Junk: an unknown type, a memory citing only context, a memory without text.
        memories.append(
            {"type": "opinion", "summary": "nice chat", "content": text, "sourceMessageIds": [m["id"]]}
        )
        memories.append({"type": "fact", "summary": "", "content": "", "sourceMessageIds": [m["id"]]})
    if context_ids:
        memories.append(
            {
                "type": "fact",
                "summary": "From context (LLM)",
                "content": "context only",
                "sourceMessageIds": context_ids,
            }
        )
    return {"memories": memories}


def like_a_model(request: Any) -> Reply:
    return answer(model_answer(window(request.user)))


async def ingest(client: httpx.AsyncClient, url: str, messages: list[dict[str, str]], sid: str) -> str:
    response = await client.post(f"{url}/ingest", json={"sessionId": sid, "messages": messages})
    assert response.status_code == 202, response.text
    job_id: str = response.json()["jobId"]
    return job_id


async def listed(client: httpx.AsyncClient, url: str) -> list[dict[str, Any]]:
    memories: list[dict[str, Any]] = (await client.get(f"{url}/memories", params={"limit": 100})).json()[
        "memories"
    ]
    return memories


async def test_memories_come_from_the_llm_with_sources(
    provider_client: httpx.AsyncClient,
    provider_profile_url: str,
    provider_worker: Worker,
    fake_openai: FakeOpenAI,
) -> None:
    fake_openai.default = like_a_model
    job_id = await ingest(provider_client, provider_profile_url, CONVERSATION, "s1")
    await provider_worker.drain()
    job = (await provider_client.get(f"{provider_profile_url}/jobs/{job_id}")).json()
    assert job["status"] == "done" and job["attempts"] == 1 and job["memoriesCreated"] == 3, job

    [request] = fake_openai.requests
    assert request.headers["authorization"] == "Bearer sk-test-key"
    assert request.body["model"] == "fake-model" and request.system == SYSTEM_PROMPT
    sent = window(request.user)
    assert [m["text"] for m in sent] == [m["content"] for m in CONVERSATION]
    assert all(m["new"] for m in sent) and sent[0]["timestamp"] == "2024-05-10T09:00:00Z"
    assert sent[0]["weekday"] == "Friday"

    memories = await listed(provider_client, provider_profile_url)
    by_type = {m["type"]: m for m in memories}
    assert set(by_type) == {"fact", "event", "instruction"}, memories
    assert all("(LLM)" in m["summary"] for m in memories), (
        "summaries are the model's, not the offline extractor's"
    )
    event = by_type["event"]
    assert len(event["summary"]) == 200 and event["summary"].endswith("…")
    assert event["eventTime"].startswith("2024-05-09T00:00:00")

    detail = (await provider_client.get(f"{provider_profile_url}/memories/{by_type['fact']['id']}")).json()
    assert detail["content"] == "I moved to Lisbon last year."
    assert [s["content"] for s in detail["sources"]] == ["I moved to Lisbon last year."]
    assert detail["sources"][0]["timestamp"].startswith("2024-05-10T09:01:00")
    instruction = (
        await provider_client.get(f"{provider_profile_url}/memories/{by_type['instruction']['id']}")
    ).json()
    assert [s["content"] for s in instruction["sources"]] == ["From now on, always answer in French."]

    # A later message of the session: earlier ones go as context, the topic key supersedes the old fact.
    fake_openai.requests.clear()
    later = [{"role": "user", "content": "I just moved to Porto.", "timestamp": "2024-06-01T10:00:00Z"}]
    job_id = await ingest(provider_client, provider_profile_url, later, "s1")
    await provider_worker.drain()
    assert (await provider_client.get(f"{provider_profile_url}/jobs/{job_id}")).json()["status"] == "done"
    sent = window(fake_openai.requests[0].user)
    assert [m["new"] for m in sent][-2:] == [False, True] and sent[-1]["text"] == "I just moved to Porto."
    summaries = {m["summary"] for m in await listed(provider_client, provider_profile_url)}
    assert "User lives in Porto (LLM)" in summaries and "User lives in Lisbon (LLM)" not in summaries
    assert "From context (LLM)" not in summaries, "context messages yield no memories"


async def test_server_error_then_success(
    provider_client: httpx.AsyncClient,
    provider_profile_url: str,
    provider_worker: Worker,
    fake_openai: FakeOpenAI,
) -> None:
    fake_openai.script(error(500))
    fake_openai.default = like_a_model
    job_id = await ingest(provider_client, provider_profile_url, CONVERSATION[2:3], "s-retry")
    await provider_worker.drain()
    job = (await provider_client.get(f"{provider_profile_url}/jobs/{job_id}")).json()
    assert job["status"] == "done" and job["memoriesCreated"] == 1, job
    assert len(fake_openai.requests) == 2, "the client retried the 500 itself"


async def test_malformed_answer_is_retried_then_fails_with_the_error_kept(
    provider_client: httpx.AsyncClient,
    provider_profile_url: str,
    provider_worker: Worker,
    fake_openai: FakeOpenAI,
) -> None:
    fake_openai.default = lambda _request: answer("Sure! The memories are: Lisbon, marathon.")
    job_id = await ingest(provider_client, provider_profile_url, CONVERSATION[2:4], "s-bad")
    await provider_worker.drain()
    job = (await provider_client.get(f"{provider_profile_url}/jobs/{job_id}")).json()
    assert job["status"] == "failed" and job["attempts"] == JOB_MAX_ATTEMPTS, job
    assert "LlmError" in job["error"] and "not valid JSON" in job["error"]
    assert len(fake_openai.requests) == JOB_MAX_ATTEMPTS, "a malformed answer is retried by the job"
    assert await listed(provider_client, provider_profile_url) == []

    # Valid JSON of the wrong shape is malformed too; an LLM down on every attempt fails the same way.
    fake_openai.requests.clear()
    fake_openai.default = lambda _request: answer({"facts": ["Lisbon"]})
    job_id = await ingest(provider_client, provider_profile_url, CONVERSATION[4:5], "s-shape")
    await provider_worker.drain()
    job = (await provider_client.get(f"{provider_profile_url}/jobs/{job_id}")).json()
    assert job["status"] == "failed" and 'no "memories" list' in job["error"], job

    fake_openai.default = lambda _request: error(401, "invalid api key")
    job_id = await ingest(
        provider_client, provider_profile_url, [{"role": "user", "content": "I have a cat."}], "s-down"
    )
    await provider_worker.drain()
    job = (await provider_client.get(f"{provider_profile_url}/jobs/{job_id}")).json()
    assert job["status"] == "failed" and job["attempts"] == JOB_MAX_ATTEMPTS, job
    assert "HTTP 401" in job["error"] and "invalid api key" in job["error"], job


async def test_long_jobs_are_cut_into_windows(fake_openai: FakeOpenAI) -> None:
    fake_openai.default = like_a_model
    client = LlmClient(fake_openai.url, model="m", backoff_seconds=0.01)
    try:
        stamp = datetime(2024, 5, 10, 9, tzinfo=UTC)
        messages = [InputMessage(f"m{i}", "user", f"Note {i}: I moved to Lisbon.", stamp) for i in range(90)]
        memories = await LlmExtractor(client).extract(messages, new_from=5)
    finally:
        await client.aclose()
    # Windows are sent concurrently: put them back in order of their first new message.
    windows = sorted(
        (window(r.user) for r in fake_openai.requests),
        key=lambda w: int(next(m["id"] for m in w if m["new"])[1:]),
    )
    assert [sum(m["new"] for m in w) for w in windows] == [40, 40, 5]
    assert [sum(not m["new"] for m in w) for w in windows] == [5, 6, 6]
    assert len(memories) == 85 and all(len(m.source_message_ids) == 1 for m in memories)


def test_parse_memories_validates_strictly() -> None:
    stamp = datetime(2024, 5, 10, 9, tzinfo=UTC)
    new = [InputMessage("a", "user", "text", stamp)]
    with pytest.raises(LlmError):
        parse_memories({"memories": "none"}, new)
    with pytest.raises(LlmError):
        parse_memories({"memories": ["a fact"]}, new)
    [memory] = parse_memories(
        {
            "memories": [
                {
                    "type": "event",
                    "summary": "  User   met Ana ",
                    "content": "c" * 3000,
                    "topicKey": "not a key!",
                    "eventTime": "2024-05-09T18:30:00+02:00",
                    "sourceMessageIds": ["a", "a", "zz"],
                },
                {"type": "event", "summary": "no source", "content": "x", "sourceMessageIds": []},
            ]
        },
        new,
    )
    assert memory.summary == "User met Ana" and len(memory.content) == 2000
    assert memory.topic_key is None and memory.source_message_ids == ("a",)
    assert memory.event_time == datetime(2024, 5, 9, 16, 30, tzinfo=UTC)
    [naive] = parse_memories(
        {
            "memories": [
                {
                    "type": "event",
                    "summary": "s",
                    "content": "Yesterday User met Ana.",
                    "eventTime": "soon",
                    "sourceMessageIds": ["a"],
                }
            ]
        },
        new,
    )
    assert naive.event_time is not None and naive.event_time.date().isoformat() == "2024-05-09"
