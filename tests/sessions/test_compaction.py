"""Compaction overlays, the reference compaction algorithm, auto-compaction, fork and split, through HTTP."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from sqlalchemy import text

from app.worker.runner import Worker
from tests.sessions.helpers import append, history_ids, new_session, text_message


def tool_call(message_id: str, call_id: str) -> dict[str, Any]:
    return {
        "id": message_id,
        "role": "assistant",
        "parts": [
            {"type": "tool-search", "toolCallId": call_id, "state": "input-available", "input": {"q": "x"}}
        ],
    }


def tool_result(message_id: str, call_id: str) -> dict[str, Any]:
    return {
        "id": message_id,
        "role": "assistant",
        "parts": [
            {
                "type": "tool-search",
                "toolCallId": call_id,
                "state": "output-available",
                "input": {"q": "x"},
                "output": "three results",
            },
        ],
    }


async def fill(client: httpx.AsyncClient, url: str, count: int, prefix: str = "m") -> list[str]:
    ids = []
    for i in range(count):
        role = "user" if i % 2 == 0 else "assistant"
        text = f"Message {i} talks about the Lisbon office move and the budget for item {i}."
        await append(client, url, text_message(f"{prefix}{i}", role, text))
        ids.append(f"{prefix}{i}")
    return ids


async def test_overlay_replaces_exactly_its_range(client: httpx.AsyncClient, profile_url: str) -> None:
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    ids = await fill(client, url, 6)
    added = await client.post(
        f"{url}/compactions", json={"summary": "Summary of 1-3", "fromMessageId": "m1", "toMessageId": "m3"}
    )
    assert added.status_code == 201, added.text
    overlay = added.json()
    history = (await client.get(f"{url}/history")).json()
    assert [m["id"] for m in history["messages"]] == ["m0", f"compaction_{overlay['id']}", "m4", "m5"]
    assert history["messages"][1]["role"] == "assistant"
    assert history["messages"][1]["parts"] == [{"type": "text", "text": "Summary of 1-3"}]
    assert history["pathLength"] == 6
    assert await history_ids(client, url, raw="true") == ids
    listed = (await client.get(f"{url}/compactions")).json()["compactions"]
    assert listed == [overlay]

    # A branch that leaves the range before its end does not get the overlay.
    await append(client, url, text_message("alt", "assistant", "another answer"), parentId="m2")
    assert await history_ids(client, url, leafId="alt") == ["m0", "m1", "m2", "alt"]

    missing = await client.post(
        f"{url}/compactions", json={"summary": "s", "fromMessageId": "m1", "toMessageId": "zz"}
    )
    assert missing.status_code == 404


async def test_compact_aligns_to_tool_pairs(client: httpx.AsyncClient, profile_url: str) -> None:
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    for message in [
        text_message("u0", "user", "Find me flights to Lisbon for the offsite."),
        text_message("a1", "assistant", "Sure, which dates?"),
        tool_call("a2", "head-call"),  # the last protected head message is a call...
        tool_result("a3", "head-call"),  # ...so its result must not start the compacted range
        text_message("u4", "user", "The dates are the 3rd to the 7th of May."),
        text_message("a5", "assistant", "Noted: travel from the 3rd to the 7th of May."),
        tool_call("a6", "tail-call"),
        tool_result("a7", "tail-call"),  # minTailMessages=2 would cut between a6 and a7
        text_message("u8", "user", "Book the cheapest one."),
    ]:
        await append(client, url, message)
    compacted = await client.post(f"{url}/compact", json={"tailTokenBudget": 0, "minTailMessages": 2})
    assert compacted.status_code == 200, compacted.text
    overlay = compacted.json()
    assert (overlay["fromMessageId"], overlay["toMessageId"]) == ("u4", "a5")
    for section in ("## Topic", "## Key Points", "## Current State", "## Open Items"):
        assert section in overlay["summary"]
    assert "May" in overlay["summary"], overlay["summary"]  # what the compacted range said
    assert "Lisbon" not in overlay["summary"], overlay["summary"]  # said in the protected head only
    ids = await history_ids(client, url)
    assert ids == ["u0", "a1", "a2", "a3", f"compaction_{overlay['id']}", "a6", "a7", "u8"]

    # Compaction queued the range for memory extraction.
    profile = (await client.get(profile_url)).json()
    assert profile["counts"]["pendingJobs"] >= 1


async def test_nothing_to_compact_is_null(client: httpx.AsyncClient, profile_url: str) -> None:
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    assert (await client.post(f"{url}/compact")).json() is None
    await fill(client, url, 5)
    assert (await client.post(f"{url}/compact")).json() is None  # 5 ≤ protectHead 3 + minTail 2
    await fill(client, url, 3, prefix="n")
    assert (await client.post(f"{url}/compact")).json() is None  # everything fits the 20,000-token tail
    assert (await client.get(f"{url}/compactions")).json()["compactions"] == []


async def test_iterative_compaction_extends_the_overlay(client: httpx.AsyncClient, profile_url: str) -> None:
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    await fill(client, url, 10)
    first = (await client.post(f"{url}/compact", json={"tailTokenBudget": 0})).json()
    assert (first["fromMessageId"], first["toMessageId"]) == ("m3", "m7")
    await fill(client, url, 6, prefix="n")
    second = (await client.post(f"{url}/compact", json={"tailTokenBudget": 0})).json()
    assert (second["fromMessageId"], second["toMessageId"]) == ("m3", "n3")
    assert second["summary"].splitlines()[1] == first["summary"].splitlines()[1]  # the topic is kept
    assert "item 5" in second["summary"] and "item 3" in second["summary"]  # old and new points
    history = await history_ids(client, url)
    assert history == ["m0", "m1", "m2", f"compaction_{second['id']}", "n4", "n5"]
    assert len((await client.get(f"{url}/compactions")).json()["compactions"]) == 2


async def test_auto_compaction_on_threshold(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    sid = await new_session(client, profile_url, compactAfter=150)
    url = f"{profile_url}/sessions/{sid}"
    await fill(client, url, 5)
    assert (await client.get(f"{url}/compactions")).json()["compactions"] == []
    before = (await client.get(f"{url}/history")).json()["tokenEstimate"]
    assert before < 150
    long = "The quarterly budget review covers travel, hardware, salaries and the office move to Lisbon. " * 3
    response = await client.post(f"{url}/messages", json={"message": text_message("big", "user", long)})
    assert response.status_code == 201
    # The append answered at once: compaction is the worker's job, and shows once it is done.
    assert (await client.get(f"{url}/compactions")).json()["compactions"] == []
    await worker.drain()
    compactions = (await client.get(f"{url}/compactions")).json()["compactions"]
    assert len(compactions) == 1
    ids = await history_ids(client, url)
    assert ids[:3] == ["m0", "m1", "m2"] and ids[3].startswith("compaction_") and ids[-1] == "big"
    assert await history_ids(client, url, raw="true") == ["m0", "m1", "m2", "m3", "m4", "big"]


async def test_fork_copies_the_path_without_compactions(client: httpx.AsyncClient, profile_url: str) -> None:
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    await fill(client, url, 6)
    await client.post(f"{url}/compactions", json={"summary": "s", "fromMessageId": "m1", "toMessageId": "m2"})
    forked = await client.post(f"{url}/fork", json={"atMessageId": "m3", "name": "Forked"})
    assert forked.status_code == 201, forked.text
    info = forked.json()
    assert info["parentSessionId"] == sid and info["name"] == "Forked" and info["id"] != sid
    fork_url = f"{profile_url}/sessions/{info['id']}"
    copied = (await client.get(f"{fork_url}/history")).json()["messages"]
    original = (await client.get(f"{url}/history", params={"leafId": "m3", "raw": "true"})).json()["messages"]
    assert [m["parts"] for m in copied] == [m["parts"] for m in original]
    assert [m["role"] for m in copied] == [m["role"] for m in original]
    assert not {m["id"] for m in copied} & {m["id"] for m in original}
    assert (await client.get(f"{fork_url}/compactions")).json()["compactions"] == []
    # The source is untouched.
    assert await history_ids(client, url, raw="true") == [f"m{i}" for i in range(6)]


async def test_split_ends_the_session_and_seeds_the_next(client: httpx.AsyncClient, profile_url: str) -> None:
    sid = await new_session(client, profile_url, model="gpt-x", source="cli")
    url = f"{profile_url}/sessions/{sid}"
    await fill(client, url, 3)
    split = await client.post(
        f"{url}/split", json={"summary": "We planned the Lisbon move.", "name": "Part 2"}
    )
    assert split.status_code == 201, split.text
    info = split.json()
    assert info["parentSessionId"] == sid and info["name"] == "Part 2" and info["model"] == "gpt-x"
    assert (await client.get(url)).json()["endReason"] == "compaction"
    seeded = (await client.get(f"{profile_url}/sessions/{info['id']}/history")).json()["messages"]
    assert len(seeded) == 1 and seeded[0]["role"] == "assistant"
    assert seeded[0]["parts"] == [
        {"type": "text", "text": "[Context from previous session]\n\nWe planned the Lisbon move."}
    ]
    listed = (await client.get(f"{profile_url}/sessions")).json()["sessions"]
    assert listed[0]["id"] == info["id"]


async def test_failed_auto_compaction_never_fails_the_append(
    client: httpx.AsyncClient, profile_url: str, worker: Worker, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.sessions import compaction

    async def broken(*args: Any, **kwargs: Any) -> str:
        raise RuntimeError("summariser exploded")

    monkeypatch.setattr(compaction, "summarise_plan", broken)
    sid = await new_session(client, profile_url, compactAfter=10)
    url = f"{profile_url}/sessions/{sid}"
    await fill(client, url, 6)
    await worker.drain()
    assert await history_ids(client, url) == [f"m{i}" for i in range(6)]
    assert (await client.get(f"{url}/compactions")).json()["compactions"] == []
    async with worker.sessionmaker() as db:
        job = (
            await db.execute(
                text("SELECT status, last_error FROM jobs WHERE kind = 'compact' AND session_id = :s"),
                {"s": sid},
            )
        ).one()
    assert job.status == "failed" and "summariser exploded" in job.last_error


async def test_compaction_names_the_speakers(client: httpx.AsyncClient, profile_url: str) -> None:
    """The extractive compaction summary says who spoke by their `name`, User / Assistant otherwise."""
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    said = [
        ("user", "Marta", "I booked the flat in Porto for three nights."),
        ("assistant", "Ben", "I found a tram pass that covers the whole stay."),
        ("user", None, "The budget for food is two hundred euros."),
        ("assistant", None, "Dinner at the riverside place is booked for Friday."),
        ("user", "Marta", "Thanks."),
    ]
    for i, (role, name, words) in enumerate(said):
        message = text_message(f"s{i}", role, words)
        await append(client, url, {**message, "name": name} if name else message)
    compaction = (await client.post(f"{url}/compact", json={"protectHead": 0, "tailTokenBudget": 0})).json()
    summary = compaction["summary"]
    assert "Marta: I booked the flat in Porto" in summary, summary
    assert "Ben: I found a tram pass" in summary, summary
    assert "User: The budget for food" in summary, summary
