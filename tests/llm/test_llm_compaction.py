"""Compaction with the LLM summariser, its iterative update, and the fallback to the extractive summariser."""

from __future__ import annotations

import httpx
import pytest

from app.sessions.summariser import LLM_SYSTEM_PROMPT
from app.worker.runner import Worker
from tests.llm.fake_openai import ChatRequest, FakeOpenAI, answer, error
from tests.sessions.helpers import append, history_ids, new_session, text_message

FIRST = """## Topic
Planning the Lisbon office move.

## Key Points
- User wants the move done by 3 June 2024.
- Assistant listed three removal firms.

## Current State
Comparing quotes.

## Open Items
- Pick a removal firm."""

SECOND = """## Topic
Planning the Lisbon office move.

## Key Points
- User wants the move done by 3 June 2024.
- User picked the second removal firm.

## Current State
Booking the firm.

## Open Items
- None noted."""


def _is_summary(request: ChatRequest) -> bool:
    return request.system.startswith(LLM_SYSTEM_PROMPT[:40])


async def fill(client: httpx.AsyncClient, url: str, count: int, prefix: str = "m") -> None:
    for i in range(count):
        role = "user" if i % 2 == 0 else "assistant"
        text = f"Message {i} is about the Lisbon office move and removal firm number {i}."
        await append(client, url, text_message(f"{prefix}{i}", role, text))


async def test_compaction_summary_written_by_the_llm_and_updated(
    provider_client: httpx.AsyncClient, provider_profile_url: str, fake_openai: FakeOpenAI
) -> None:
    sid = await new_session(provider_client, provider_profile_url)
    url = f"{provider_profile_url}/sessions/{sid}"
    await fill(provider_client, url, 10)
    fake_openai.script(answer("Here is the summary:\n\n" + FIRST))
    first = await provider_client.post(f"{url}/compact", json={"tailTokenBudget": 0})
    assert first.status_code == 200, first.text
    assert first.json()["summary"] == FIRST, "the preamble before the first section is dropped"
    [request] = fake_openai.requests
    assert request.system.startswith(LLM_SYSTEM_PROMPT.split("{budget}")[0])
    assert "response_format" not in request.body
    assert "[user] Message 4 is about" in request.user and "[assistant] Message 5" in request.user
    assert "Message 2 " not in request.user and "Message 8 " not in request.user, "head and tail stay out"
    history = (await provider_client.get(f"{url}/history")).json()["messages"]
    assert history[3]["parts"] == [{"type": "text", "text": FIRST}]

    # The next compaction hands the LLM the existing summary to update, and extends the overlay.
    await fill(provider_client, url, 6, prefix="n")
    fake_openai.requests.clear()
    fake_openai.script(answer(f"```markdown\n{SECOND}\n```"))
    second = (await provider_client.post(f"{url}/compact", json={"tailTokenBudget": 0})).json()
    assert second["summary"] == SECOND and (second["fromMessageId"], second["toMessageId"]) == ("m3", "n3")
    [request] = fake_openai.requests
    assert FIRST in request.user and "existing summary" in request.user
    assert "[user] Message 2 is about" in request.user  # n2
    assert await history_ids(provider_client, url) == [
        "m0",
        "m1",
        "m2",
        f"compaction_{second['id']}",
        "n4",
        "n5",
    ]


@pytest.mark.parametrize(
    "failure",
    [
        pytest.param(error(500, "model crashed"), id="server-error"),
        pytest.param(answer("I summarised it: the move is on."), id="no-sections"),
    ],
)
async def test_compaction_falls_back_when_the_llm_fails(
    provider_client: httpx.AsyncClient,
    provider_profile_url: str,
    fake_openai: FakeOpenAI,
    failure: object,
    caplog: pytest.LogCaptureFixture,
) -> None:
    sid = await new_session(provider_client, provider_profile_url)
    url = f"{provider_profile_url}/sessions/{sid}"
    await fill(provider_client, url, 8)
    fake_openai.script(failure)  # type: ignore[arg-type]
    response = await provider_client.post(f"{url}/compact", json={"tailTokenBudget": 0})
    assert response.status_code == 200, response.text
    summary = response.json()["summary"]
    assert summary.startswith("## Topic") and "## Open Items" in summary
    assert "removal firm number 4" in summary, "the extractive summary of the compacted messages"
    assert len(fake_openai.requests) == 1, "one attempt: the request does not wait through retries"
    assert "LLM compaction summary failed" in caplog.text


async def test_auto_compaction_uses_the_llm_and_survives_its_failure(
    provider_client: httpx.AsyncClient,
    provider_profile_url: str,
    fake_openai: FakeOpenAI,
    provider_worker: Worker,
) -> None:
    long = "The quarterly budget review covers travel, hardware, salaries and the office move to Lisbon. " * 3
    sid = await new_session(provider_client, provider_profile_url, compactAfter=150)
    url = f"{provider_profile_url}/sessions/{sid}"
    await fill(provider_client, url, 5)
    # Summaries answer FIRST; extraction (the compacted range, and earlier tests' queued jobs) finds nothing.
    fake_openai.default = lambda r: answer(FIRST) if _is_summary(r) else answer({"memories": []})
    await append(provider_client, url, text_message("big", "user", long))
    assert (await provider_client.get(f"{url}/compactions")).json()["compactions"] == []
    await provider_worker.drain()
    [compaction] = (await provider_client.get(f"{url}/compactions")).json()["compactions"]
    summaries = [r for r in fake_openai.requests if _is_summary(r)]
    assert compaction["summary"] == FIRST and len(summaries) == 1

    other = await new_session(provider_client, provider_profile_url, compactAfter=150)
    other_url = f"{provider_profile_url}/sessions/{other}"
    await fill(provider_client, other_url, 5, prefix="o")
    # The summary's one attempt fails: the extractive one is stored.
    fake_openai.default = lambda r: error(503) if _is_summary(r) else answer({"memories": []})
    response = await provider_client.post(
        f"{other_url}/messages", json={"message": text_message("big2", "user", long)}
    )
    assert response.status_code == 201
    await provider_worker.drain()
    [compaction] = (await provider_client.get(f"{other_url}/compactions")).json()["compactions"]
    assert compaction["summary"].startswith("## Topic") and compaction["summary"] != FIRST
