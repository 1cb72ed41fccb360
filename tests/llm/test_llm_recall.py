"""Recall answers written by the LLM (fake chat-completions server on loopback), and the extractive fallback."""

from __future__ import annotations

import httpx

from tests.llm.fake_openai import FakeOpenAI, answer, error


async def test_recall_answer_is_written_by_the_llm(
    provider_client: httpx.AsyncClient, provider_profile_url: str, fake_openai: FakeOpenAI
) -> None:
    await provider_client.post(
        f"{provider_profile_url}/remember", json={"content": "I work as a veterinary nurse in Leeds."}
    )
    fake_openai.script(answer({"answer": "The user is a veterinary nurse in Leeds."}))
    result = (
        await provider_client.post(
            f"{provider_profile_url}/recall", json={"query": "What is my job as a nurse?"}
        )
    ).json()
    assert result["answer"] == "The user is a veterinary nurse in Leeds."
    assert result["count"] == 1
    sent = fake_openai.requests[-1].user
    assert "veterinary nurse" in sent and "What is my job as a nurse?" in sent


async def test_recall_falls_back_to_the_extractive_answer_when_the_llm_fails(
    provider_client: httpx.AsyncClient, provider_profile_url: str, fake_openai: FakeOpenAI
) -> None:
    await provider_client.post(
        f"{provider_profile_url}/remember", json={"content": "I keep two goats called Pip and Moss."}
    )
    fake_openai.script(error(500), error(500), error(500))
    response = await provider_client.post(
        f"{provider_profile_url}/recall", json={"query": "What are my goats called?"}
    )
    assert response.status_code == 200
    assert "Pip and Moss" in response.json()["answer"]


async def test_no_match_never_calls_the_llm(
    provider_client: httpx.AsyncClient, provider_profile_url: str, fake_openai: FakeOpenAI
) -> None:
    await provider_client.put(provider_profile_url)
    result = (
        await provider_client.post(f"{provider_profile_url}/recall", json={"query": "quantum chromodynamics"})
    ).json()
    assert result == {"count": 0, "answer": "", "candidates": []}
    assert fake_openai.requests == []
