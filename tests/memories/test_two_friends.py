"""A chat between two people, each message naming its speaker (`name`), end to end: what is kept, how the
people are named, what recall answers and what the summary says."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from app.worker.runner import Worker

CHAT: list[dict[str, str]] = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "chat_marta_ben.json").read_text(encoding="utf-8")
)


async def _ingested(client: httpx.AsyncClient, url: str, worker: Worker) -> list[dict[str, Any]]:
    response = await client.post(f"{url}/ingest", json={"sessionId": "catch-up", "messages": CHAT})
    assert response.status_code == 202, response.text
    await worker.drain()
    listed = await client.get(f"{url}/memories", params={"limit": 100})
    return list(listed.json()["memories"])


async def test_speakers_are_named_by_the_message_name(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    summaries = [m["summary"] for m in await _ingested(client, profile_url, worker)]
    assert any("Ben's sister Clara is getting married in Seville on 14 June" in s for s in summaries), (
        summaries
    )
    assert any(s.startswith("Marta started a new job at Feedzai") for s in summaries), summaries
    assert not any("User" in s or "Assistant" in s for s in summaries), summaries


async def test_a_name_prefix_in_the_content_names_the_speaker_too(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    message = {"role": "assistant", "content": "Ben: My sister Clara lives in Seville."}
    response = await client.post(f"{profile_url}/ingest", json={"messages": [message]})
    assert response.status_code == 202, response.text
    await worker.drain()
    listed = (await client.get(f"{profile_url}/memories")).json()["memories"]
    assert [m["summary"] for m in listed] == ["Ben's sister Clara lives in Seville."]


async def test_a_name_longer_than_64_characters_is_refused(
    client: httpx.AsyncClient, profile_url: str
) -> None:
    message = {"role": "user", "name": "x" * 65, "content": "I live in Porto."}
    response = await client.post(f"{profile_url}/ingest", json={"messages": [message]})
    assert response.status_code == 422, response.text
    assert "name" in response.text


def _locomo_messages(path: Path) -> list[dict[str, str]]:
    """The turns of a LoCoMo-layout conversation as ingest messages (speaker A the user, B the other)."""
    from datetime import datetime

    sample = json.loads(path.read_text(encoding="utf-8"))[0]
    conversation = sample["conversation"]
    messages = []
    for key, turns in conversation.items():
        if not key.startswith("session_") or not isinstance(turns, list):
            continue
        when = datetime.strptime(conversation[f"{key}_date_time"], "%I:%M %p on %d %B, %Y")
        for turn in turns:
            role = "user" if turn["speaker"] == conversation["speaker_a"] else "assistant"
            stamp = when.strftime("%Y-%m-%dT%H:%M:%SZ")
            messages.append(
                {"role": role, "name": turn["speaker"], "content": turn["text"], "timestamp": stamp}
            )
    return messages


BLIND = Path(__file__).resolve().parents[1] / "data" / "chat_two_friends.json"
CHIT_CHAT = ("Long time", "must be freezing", "Good luck", "asked:", "so jealous", "Congrats", "Talk soon")


async def test_no_chit_chat_is_kept(client: httpx.AsyncClient, profile_url: str, worker: Worker) -> None:
    summaries = [m["summary"] for m in await _ingested(client, profile_url, worker)]
    assert not [s for s in summaries if any(c.lower() in s.lower() for c in CHIT_CHAT)], summaries
    await client.post(
        f"{profile_url}/ingest", json={"sessionId": "blind", "messages": _locomo_messages(BLIND)}
    )
    await worker.drain()
    listed = (await client.get(f"{profile_url}/memories", params={"limit": 100})).json()["memories"]
    blind = [m["summary"] for m in listed if m["sessionId"] == "blind"]
    assert not [s for s in blind if any(c.lower() in s.lower() for c in CHIT_CHAT)], blind
    assert any("Feedzai" in s for s in blind) and any("peanuts" in s for s in blind), blind


async def test_the_summary_names_both_people_and_puts_lasting_facts_first(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    await _ingested(client, profile_url, worker)
    summary = (await client.post(f"{profile_url}/summary", json={})).json()["summary"]
    assert "Marta" in summary and "Ben" in summary and "User" not in summary, summary
    facts = summary.split("## Key Facts\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert any("Feedzai" in line for line in facts[:3]), facts
    assert any("peanuts" in line for line in summary.splitlines()), summary
    last = summary.split("## Last Session\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert 0 < len(last) <= 5, last
    short = (await client.post(f"{profile_url}/summary", json={"responseLength": "short"})).json()["summary"]
    long = (await client.post(f"{profile_url}/summary", json={"responseLength": "long"})).json()["summary"]
    assert len(short) <= len(summary) <= len(long), (short, summary)


QUESTIONS = {
    "Where does Marta work now?": "Feedzai",
    "Who is getting married in Seville?": "Clara",
    "What is Ben allergic to?": "peanuts",
    "Where does Marta live?": "Lisbon",
    "When is the deploy?": "deploy",
}


async def test_answers_hold_no_sentence_from_another_topic(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    await _ingested(client, profile_url, worker)
    for question, needle in QUESTIONS.items():
        body = {"query": question, "referenceDate": "2027-03-07"}
        answer = (await client.post(f"{profile_url}/recall", json=body)).json()["answer"]
        sentences = [s for s in answer.replace("). ", ").\n").split("\n") if s.strip()]
        assert needle in sentences[0], (question, answer)
        assert all(needle in s for s in sentences), (question, answer)
