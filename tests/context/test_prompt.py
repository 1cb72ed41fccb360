"""Context blocks and the system prompt: exact rendering, maxTokens on every path, freezing across writes and restarts."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from app.core.settings import Settings
from app.main import create_app
from tests.conftest import ADMIN_KEY
from tests.sessions.helpers import new_session

EXPECTED_PROMPT = """\
══════════════════════════════════════════════
SOUL (Identity) [readonly]
══════════════════════════════════════════════
You are a helpful assistant.

══════════════════════════════════════════════
MEMORY (Learned facts) [1% — 11/1100 tokens] [writable]
══════════════════════════════════════════════
User likes coffee.
User prefers dark roast.

══════════════════════════════════════════════
KNOWLEDGE (Searchable knowledge base) [searchable]
══════════════════════════════════════════════
2 entries indexed.

══════════════════════════════════════════════
SKILLS [loadable]
══════════════════════════════════════════════
- api-ref: API Reference documentation
- style-guide: Company style guide"""


async def define_fixture_blocks(client: httpx.AsyncClient, profile_url: str) -> None:
    ctx = f"{profile_url}/context"
    soul = await client.put(
        f"{ctx}/soul",
        json={"kind": "readonly", "description": "Identity", "content": "You are a helpful assistant."},
    )
    assert soul.status_code == 201, soul.text
    assert (await client.put(f"{ctx}/empty", json={"kind": "readonly"})).status_code == 201
    memory = await client.put(
        f"{ctx}/memory",
        json={
            "kind": "writable",
            "description": "Learned facts",
            "maxTokens": 1100,
            "content": "User likes coffee.",
        },
    )
    assert memory.status_code == 201
    appended = await client.put(
        f"{ctx}/memory/content", json={"content": "User prefers dark roast.", "action": "append"}
    )
    assert (
        appended.status_code == 200
        and appended.json()["content"] == "User likes coffee.\nUser prefers dark roast."
    )
    assert appended.json()["tokens"] == 11
    knowledge = await client.put(
        f"{ctx}/knowledge", json={"kind": "search", "description": "Searchable knowledge base"}
    )
    assert knowledge.status_code == 201
    for key, text in [
        ("deploys", "We deploy on Fridays after the review."),
        ("oncall", "Ana is on call this week."),
    ]:
        entry = await client.put(f"{ctx}/knowledge/entries/{key}", json={"content": text})
        assert entry.status_code == 201, entry.text
    assert (await client.put(f"{ctx}/skills", json={"kind": "skill"})).status_code == 201
    for key, description in [
        ("style-guide", "Company style guide"),
        ("api-ref", "API Reference documentation"),
    ]:
        entry = await client.put(
            f"{ctx}/skills/entries/{key}",
            json={"content": f"Full text of {key}.", "description": description},
        )
        assert entry.status_code == 201


async def test_system_prompt_exact_format(client: httpx.AsyncClient, profile_url: str) -> None:
    await define_fixture_blocks(client, profile_url)
    sid = await new_session(client, profile_url)
    prompt = (await client.get(f"{profile_url}/sessions/{sid}/system-prompt")).json()["systemPrompt"]
    assert prompt == EXPECTED_PROMPT

    blocks = (await client.get(f"{profile_url}/context")).json()["blocks"]
    assert [b["label"] for b in blocks] == ["soul", "empty", "memory", "knowledge", "skills"]
    assert blocks[2] == {
        "label": "memory",
        "kind": "writable",
        "scope": "session",
        "description": "Learned facts",
        "content": "User likes coffee.\nUser prefers dark roast.",
        "tokens": 11,
        "maxTokens": 1100,
    }


async def test_frozen_until_refresh(client: httpx.AsyncClient, profile_url: str) -> None:
    await define_fixture_blocks(client, profile_url)
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    frozen = (await client.get(f"{url}/system-prompt")).json()["systemPrompt"]

    written = await client.post(
        f"{url}/tools/set_context",
        json={"arguments": {"label": "memory", "content": "User is vegan.", "action": "append"}},
    )
    assert written.json() == {"result": "Written to memory. Usage: 1% (15/1100 tokens)"}
    assert (
        await client.put(f"{profile_url}/context/soul/content", json={"content": "You are terse."})
    ).status_code == 200
    assert (await client.get(f"{url}/system-prompt")).json()["systemPrompt"] == frozen

    refreshed = (await client.post(f"{url}/system-prompt/refresh")).json()["systemPrompt"]
    assert refreshed != frozen
    assert "You are terse." in refreshed and "User is vegan." in refreshed
    assert "[1% — 15/1100 tokens]" in refreshed
    assert (await client.get(f"{url}/system-prompt")).json()["systemPrompt"] == refreshed

    # Another session freezes its own snapshot: the shared soul as it is now, and memory (session-scoped)
    # as the definition starts it, without the first session's write.
    other = await new_session(client, profile_url)
    other_prompt = (await client.get(f"{profile_url}/sessions/{other}/system-prompt")).json()["systemPrompt"]
    assert "You are terse." in other_prompt and "User is vegan." not in other_prompt
    assert "[1% — 11/1100 tokens]" in other_prompt


async def test_frozen_prompt_survives_restart(
    client: httpx.AsyncClient, profile_url: str, settings: Settings, app: FastAPI
) -> None:
    await define_fixture_blocks(client, profile_url)
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    frozen = (await client.get(f"{url}/system-prompt")).content
    await client.put(f"{profile_url}/context/memory/content", json={"content": "Everything changed."})

    second = create_app(settings, run_worker=False)
    async with second.router.lifespan_context(second):
        transport = httpx.ASGITransport(app=second)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://test", headers={"Authorization": f"Bearer {ADMIN_KEY}"}
        ) as restarted:
            again = await restarted.get(f"{url}/system-prompt")
    assert again.status_code == 200
    assert again.content == frozen
    assert again.json()["systemPrompt"] == EXPECTED_PROMPT


async def test_max_tokens_enforced_on_every_path(client: httpx.AsyncClient, profile_url: str) -> None:
    ctx = f"{profile_url}/context"
    big = "word " * 40  # 40 words → 52 tokens
    too_big = await client.put(f"{ctx}/notes", json={"kind": "writable", "maxTokens": 10, "content": big})
    assert too_big.status_code == 422 and too_big.json()["code"] == "block_too_large"
    assert too_big.json()["detail"] == 'Block "notes" exceeds maxTokens: 52 > 10'
    assert (await client.get(f"{ctx}/notes")).status_code == 404

    assert (
        await client.put(f"{ctx}/notes", json={"kind": "writable", "maxTokens": 10, "content": "short"})
    ).status_code == 201
    api = await client.put(f"{ctx}/notes/content", json={"content": big})
    assert api.status_code == 422 and api.json()["code"] == "block_too_large"
    appended = await client.put(f"{ctx}/notes/content", json={"content": big, "action": "append"})
    assert appended.status_code == 422
    shrink = await client.put(f"{ctx}/notes", json={"kind": "writable", "maxTokens": 1})
    assert shrink.status_code == 422 and shrink.json()["code"] == "block_too_large"

    sid = await new_session(client, profile_url)
    tool = await client.post(
        f"{profile_url}/sessions/{sid}/tools/set_context",
        json={"arguments": {"label": "notes", "content": big}},
    )
    assert tool.status_code == 200
    assert tool.json()["result"] == 'Error: Block "notes" exceeds maxTokens: 52 > 10'
    block = (await client.get(f"{ctx}/notes")).json()
    assert block["content"] == "short" and block["maxTokens"] == 10

    ok = await client.post(
        f"{profile_url}/sessions/{sid}/tools/set_context",
        json={"arguments": {"label": "notes", "content": "tiny note"}},
    )
    assert ok.json()["result"] == "Written to notes. Usage: 30% (3/10 tokens)"


async def test_block_rules_and_not_found(client: httpx.AsyncClient, profile_url: str) -> None:
    ctx = f"{profile_url}/context"
    assert (await client.get(f"{ctx}/nope")).status_code == 404
    await client.put(f"{ctx}/rules", json={"kind": "readonly", "content": "Be kind."})
    assert (await client.get(f"{ctx}/nope")).json()["code"] == "block_not_found"
    assert (await client.put(f"{ctx}/nope/content", json={"content": "x"})).status_code == 404
    assert (await client.get(f"{ctx}/nope/entries")).status_code == 404
    assert (await client.delete(f"{ctx}/nope")).status_code == 204  # idempotent

    entries_on_inline = await client.put(f"{ctx}/rules/entries/k", json={"content": "x"})
    assert entries_on_inline.status_code == 409 and entries_on_inline.json()["code"] == "wrong_block_kind"
    content_on_keyed = await client.put(f"{ctx}/kb", json={"kind": "search", "content": "x"})
    assert content_on_keyed.status_code == 422
    bad_label = await client.put(f"{ctx}/bad label!", json={"kind": "readonly"})
    assert bad_label.status_code == 422

    await client.put(f"{ctx}/kb", json={"kind": "search"})
    assert (await client.get(f"{ctx}/kb/entries/missing")).json()["code"] == "entry_not_found"
    assert (await client.put(f"{ctx}/kb/entries/a", json={"content": "alpha"})).status_code == 201
    assert (await client.put(f"{ctx}/kb/entries/a", json={"content": "alpha two"})).status_code == 200
    assert (await client.get(f"{ctx}/kb/entries/a")).json()["content"] == "alpha two"
    assert [e["key"] for e in (await client.get(f"{ctx}/kb/entries")).json()["entries"]] == ["a"]
    assert (await client.delete(f"{ctx}/kb/entries/a")).status_code == 204
    assert (await client.delete(f"{ctx}/kb/entries/a")).status_code == 204  # idempotent

    redefined = await client.put(f"{ctx}/rules", json={"kind": "readonly", "description": "House rules"})
    assert redefined.status_code == 200 and redefined.json()["content"] == "Be kind."
    assert (await client.delete(f"{ctx}/rules")).status_code == 204
    assert (await client.get(f"{ctx}/rules")).status_code == 404
