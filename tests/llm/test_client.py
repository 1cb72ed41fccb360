"""The OpenAI-compatible client against a real HTTP server: JSON mode and its fallback, retries, errors."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
from pydantic import ValidationError

from app.core.settings import Settings
from app.language.sentences import split_sentences
from app.llm.answers import write_answer
from app.llm.client import LlmClient, LlmError, parse_json_object
from bench.harness import free_port
from tests.llm.fake_openai import FakeOpenAI, answer, dropped, error

SYSTEM = [{"role": "system", "content": "Answer in JSON."}, {"role": "user", "content": "Say hi."}]


@pytest.fixture
async def llm(fake_openai: FakeOpenAI) -> AsyncIterator[LlmClient]:
    client = LlmClient(
        fake_openai.url,
        model="fake-model",
        api_key="sk-secret",
        timeout_seconds=2.0,
        max_retries=2,
        backoff_seconds=0.01,
    )
    yield client
    await client.aclose()


async def test_chat_json_sends_the_protocol_and_parses_the_object(
    fake_openai: FakeOpenAI, llm: LlmClient
) -> None:
    fake_openai.script(answer({"greeting": "hi"}))
    assert await llm.chat_json(SYSTEM, max_tokens=50) == {"greeting": "hi"}
    [request] = fake_openai.requests
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == "Bearer sk-secret"
    assert request.body["model"] == "fake-model"
    assert request.body["messages"] == SYSTEM
    assert request.body["response_format"] == {"type": "json_object"}
    assert request.body["max_tokens"] == 50 and request.body["temperature"] == 0.0


async def test_no_key_no_authorization_header(fake_openai: FakeOpenAI) -> None:
    client = LlmClient(fake_openai.url, model="m")
    try:
        fake_openai.script(answer("plain text"))
        assert await client.chat(SYSTEM) == "plain text"
    finally:
        await client.aclose()
    assert "authorization" not in fake_openai.requests[0].headers
    assert "response_format" not in fake_openai.requests[0].body


async def test_server_error_then_success_is_retried(fake_openai: FakeOpenAI, llm: LlmClient) -> None:
    fake_openai.script(error(500), error(503), answer({"ok": True}))
    assert await llm.chat_json(SYSTEM) == {"ok": True}
    assert len(fake_openai.requests) == 3


async def test_rate_limit_honours_retry_after(fake_openai: FakeOpenAI, llm: LlmClient) -> None:
    fake_openai.script(error(429, "slow down", retry_after="0.3"), answer({"ok": 1}))
    started = time.monotonic()
    assert await llm.chat_json(SYSTEM) == {"ok": 1}
    assert time.monotonic() - started >= 0.3
    assert len(fake_openai.requests) == 2


async def test_dropped_connection_is_retried(fake_openai: FakeOpenAI, llm: LlmClient) -> None:
    fake_openai.script(dropped(), answer({"ok": 2}))
    assert await llm.chat_json(SYSTEM) == {"ok": 2}
    assert len(fake_openai.requests) == 2


async def test_retries_are_bounded(fake_openai: FakeOpenAI, llm: LlmClient) -> None:
    with pytest.raises(LlmError, match=r"after 3 attempt\(s\).*HTTP 500"):
        await llm.chat(SYSTEM)
    assert len(fake_openai.requests) == 3  # max_retries=2
    fake_openai.requests.clear()
    with pytest.raises(LlmError):
        await llm.chat(SYSTEM, max_retries=0)
    assert len(fake_openai.requests) == 1


async def test_client_errors_are_not_retried(fake_openai: FakeOpenAI, llm: LlmClient) -> None:
    fake_openai.script(error(401, "bad key"))
    with pytest.raises(LlmError, match="HTTP 401.*bad key"):
        await llm.chat(SYSTEM)
    assert len(fake_openai.requests) == 1


async def test_json_mode_rejected_falls_back_to_the_prompt(fake_openai: FakeOpenAI, llm: LlmClient) -> None:
    fake_openai.reject_json_mode = True
    fake_openai.script(answer('```json\n{"fenced": true}\n```'), answer({"second": 2}))
    assert await llm.chat_json(SYSTEM) == {"fenced": True}
    assert ["response_format" in r.body for r in fake_openai.requests] == [True, False]
    # Remembered: the next call does not try JSON mode again.
    assert await llm.chat_json(SYSTEM) == {"second": 2}
    assert ["response_format" in r.body for r in fake_openai.requests] == [True, False, False]


async def test_malformed_answers_raise(fake_openai: FakeOpenAI, llm: LlmClient) -> None:
    fake_openai.script(answer("not json at all"))
    with pytest.raises(LlmError, match="not valid JSON"):
        await llm.chat_json(SYSTEM)
    fake_openai.script(answer("[1, 2]"))
    with pytest.raises(LlmError, match="not an object"):
        await llm.chat_json(SYSTEM)
    from tests.llm.fake_openai import Reply

    fake_openai.script(Reply(body='{"choices": []}'))
    with pytest.raises(LlmError, match="not a chat completion"):
        await llm.chat(SYSTEM)
    assert len(fake_openai.requests) == 3, "a malformed answer is the caller's to retry, not the client's"


async def test_timeout_and_refused_connection_raise(fake_openai: FakeOpenAI) -> None:
    slow = LlmClient(fake_openai.url, model="m", timeout_seconds=0.2, max_retries=1, backoff_seconds=0.01)
    try:
        from tests.llm.fake_openai import Reply

        fake_openai.script(Reply(content="late", delay=0.5), Reply(content="late", delay=0.5))
        with pytest.raises(LlmError, match="ReadTimeout"):
            await slow.chat(SYSTEM)
    finally:
        await slow.aclose()
    port = free_port()
    closed = LlmClient(f"http://127.0.0.1:{port}/v1", model="m", max_retries=1, backoff_seconds=0.01)
    try:
        with pytest.raises(LlmError, match="ConnectError"):
            await closed.chat(SYSTEM)
    finally:
        await closed.aclose()


def test_parse_json_object_tolerates_prose_around_the_object() -> None:
    assert parse_json_object('Sure! Here it is: {"a": [1]} Hope that helps.') == {"a": [1]}
    with pytest.raises(LlmError):
        parse_json_object("{broken")


def test_settings_validate_the_llm_options() -> None:
    settings = Settings(llm_base_url=" http://127.0.0.1:11434/v1/ ", llm_api_key="  ")
    assert settings.llm_base_url == "http://127.0.0.1:11434/v1" and settings.llm_api_key is None
    assert Settings(llm_base_url="").llm_base_url is None
    assert LlmClient.from_settings(Settings()) is None
    for bad in ({"llm_base_url": "127.0.0.1:11434"}, {"llm_timeout_seconds": 0}, {"llm_max_concurrency": 0}):
        with pytest.raises(ValidationError):
            Settings(**bad)


MEMORIES: list[dict[str, Any]] = [
    {
        "summary": "User ran a half marathon",
        "content": "Yesterday I ran my first half marathon.",
        "type": "event",
        "event_time": datetime(2024, 5, 9, tzinfo=UTC),
    },
    {"summary": "User lives in Lisbon", "content": "I moved to Lisbon.", "type": "fact", "event_time": None},
]


async def test_write_answer_from_memories(fake_openai: FakeOpenAI, llm: LlmClient) -> None:
    fake_openai.script(answer({"answer": "User ran a first half marathon on 9 May 2024."}))
    text = await write_answer(
        llm,
        "When did I run a half marathon?",
        MEMORIES,
        "short",
        datetime(2024, 5, 20, tzinfo=UTC),
        sentences=split_sentences,
    )
    assert text == "User ran a first half marathon on 9 May 2024."
    [request] = fake_openai.requests
    assert "20 May 2024" in request.system and "60 tokens" in request.system
    assert "When did I run a half marathon?" in request.user
    assert "9 May 2024" in request.user and "User lives in Lisbon" in request.user
    assert request.body["response_format"] == {"type": "json_object"}


async def test_write_answer_empty_when_the_memories_do_not_answer(
    fake_openai: FakeOpenAI, llm: LlmClient
) -> None:
    now = datetime(2024, 5, 20, tzinfo=UTC)
    assert (
        await write_answer(llm, "What is my dog's name?", [], "medium", now, sentences=split_sentences) == ""
    )
    assert fake_openai.requests == [], "no memories: no call"
    fake_openai.script(answer({"answer": ""}), answer({"answer": "The memories do not say."}))
    assert (
        await write_answer(llm, "What is my dog's name?", MEMORIES, "medium", now, sentences=split_sentences)
        == ""
    )
    assert (
        await write_answer(llm, "What is my dog's name?", MEMORIES, "long", now, sentences=split_sentences)
        == ""
    )
    assert "400 tokens" in fake_openai.requests[-1].system


async def test_write_answer_cuts_a_runaway_answer(fake_openai: FakeOpenAI, llm: LlmClient) -> None:
    fake_openai.script(answer({"answer": "User lives in Lisbon. " * 60}))
    text = await write_answer(
        llm,
        "Where do I live?",
        MEMORIES,
        "short",
        datetime(2024, 5, 20, tzinfo=UTC),
        sentences=split_sentences,
    )
    assert text.startswith("User lives in Lisbon.") and len(text.split()) <= 70
    fake_openai.script(answer({"answer": 42}))
    with pytest.raises(LlmError):
        await write_answer(
            llm,
            "Where do I live?",
            MEMORIES,
            "short",
            datetime(2024, 5, 20, tzinfo=UTC),
            sentences=split_sentences,
        )
