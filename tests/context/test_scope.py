"""Context block scope (issue 10 items 3 and 6): session-scoped blocks keep content, entries and loaded
skills per session, starting from the definition; profile-scoped blocks are shared; the `history` kind
makes conversations searchable and brings session_search."""

from __future__ import annotations

from typing import Any

import httpx

from tests.context.test_tools import result
from tests.sessions.helpers import append, new_session, text_message

SEPARATOR = "═" * 46


async def define(client: httpx.AsyncClient, profile_url: str, label: str, **body: Any) -> None:
    response = await client.put(f"{profile_url}/context/{label}", json=body)
    assert response.status_code == 201, response.text


async def test_session_scoped_content_is_per_session(client: httpx.AsyncClient, profile_url: str) -> None:
    await define(client, profile_url, "memory", kind="writable", description="Learned facts", maxTokens=1100)
    await define(client, profile_url, "notes", kind="writable", scope="profile", content="Shared start.")
    chat, other = (
        await new_session(client, profile_url, id="chat-123"),
        await new_session(client, profile_url),
    )
    chat_url, other_url = f"{profile_url}/sessions/{chat}", f"{profile_url}/sessions/{other}"

    # Today's path holds the starting content every session begins with.
    start = await client.put(f"{profile_url}/context/memory/content", json={"content": "Prefers tea."})
    assert start.status_code == 200 and start.json()["scope"] == "session"

    written = await result(
        client, chat_url, "set_context", {"label": "memory", "content": "Lives in Oslo.", "action": "append"}
    )
    assert written == "Written to memory. Usage: 1% (7/1100 tokens)"
    assert (await client.get(f"{chat_url}/context/memory")).json()[
        "content"
    ] == "Prefers tea.\nLives in Oslo."
    assert (await client.get(f"{other_url}/context/memory")).json()["content"] == "Prefers tea."
    assert (await client.get(f"{profile_url}/context/memory")).json()["content"] == "Prefers tea."

    # Profile scope: one content, whoever writes it.
    assert (
        await result(
            client, other_url, "set_context", {"label": "notes", "content": "From other.", "action": "append"}
        )
    ) == "Written to notes. Usage: 7 tokens"
    for url in (chat_url, other_url, profile_url):
        assert (await client.get(f"{url}/context/notes")).json()["content"] == "Shared start.\nFrom other."

    # Each session's prompt renders its own content.
    chat_prompt = (await client.get(f"{chat_url}/system-prompt")).json()["systemPrompt"]
    other_prompt = (await client.get(f"{other_url}/system-prompt")).json()["systemPrompt"]
    assert chat_prompt == (
        f"{SEPARATOR}\nMEMORY (Learned facts) [1% — 7/1100 tokens] [writable]\n{SEPARATOR}\n"
        "Prefers tea.\nLives in Oslo.\n\n"
        f"{SEPARATOR}\nNOTES [writable]\n{SEPARATOR}\nShared start.\nFrom other."
    )
    assert "Lives in Oslo." not in other_prompt and "Prefers tea." in other_prompt

    # The session paths write too; maxTokens holds there as everywhere.
    put = await client.put(f"{other_url}/context/memory/content", json={"content": "Other's own."})
    assert put.status_code == 200 and put.json()["content"] == "Other's own."
    too_big = await client.put(f"{other_url}/context/memory/content", json={"content": "word " * 2000})
    assert too_big.status_code == 422 and too_big.json()["code"] == "block_too_large"
    listed = {b["label"]: b["content"] for b in (await client.get(f"{other_url}/context")).json()["blocks"]}
    assert listed == {"memory": "Other's own.", "notes": "Shared start.\nFrom other."}
    # A later change of the starting content reaches only sessions that never wrote their own.
    third = await new_session(client, profile_url)
    await client.put(f"{profile_url}/context/memory/content", json={"content": "Prefers coffee."})
    assert (await client.get(f"{profile_url}/sessions/{third}/context/memory")).json()[
        "content"
    ] == "Prefers coffee."
    assert (await client.get(f"{chat_url}/context/memory")).json()[
        "content"
    ] == "Prefers tea.\nLives in Oslo."

    # Deleting a session takes its own copies with it.
    assert (await client.delete(chat_url)).status_code == 204
    assert (await client.get(f"{chat_url}/context/memory")).status_code == 404


async def test_session_scoped_entries_and_skills(client: httpx.AsyncClient, profile_url: str) -> None:
    await define(client, profile_url, "skills", kind="skill")
    await define(client, profile_url, "kb", kind="search", description="Knowledge")
    ctx = f"{profile_url}/context"
    await client.put(f"{ctx}/skills/entries/style", json={"content": "Write short.", "description": "Style"})
    await client.put(f"{ctx}/kb/entries/deploys", json={"content": "We deploy on Fridays."})
    one, two = await new_session(client, profile_url), await new_session(client, profile_url)
    one_url, two_url = f"{profile_url}/sessions/{one}", f"{profile_url}/sessions/{two}"

    indexed = await result(
        client,
        one_url,
        "set_context",
        {"label": "kb", "content": "Ana is on call.", "metadata": {"title": "Oncall"}},
    )
    assert indexed == 'Indexed "oncall" in kb.'
    assert await result(client, one_url, "search_context", {"label": "kb", "query": "ana call"}) == (
        "[oncall]\nAna is on call."
    )
    assert (
        await result(client, two_url, "search_context", {"label": "kb", "query": "ana"})
        == "No results found."
    )
    # Session one started from the definition's entries, and keeps them.
    assert await result(client, one_url, "search_context", {"label": "kb", "query": "deploy friday"}) == (
        "[deploys]\nWe deploy on Fridays."
    )
    one_keys = [e["key"] for e in (await client.get(f"{one_url}/context/kb/entries")).json()["entries"]]
    assert one_keys == ["deploys", "oncall"]
    assert [e["key"] for e in (await client.get(f"{ctx}/kb/entries")).json()["entries"]] == ["deploys"]

    # A skill written in session two only: loadable there, unknown in one.
    put = await client.put(
        f"{two_url}/context/skills/entries/review", json={"content": "Check tests.", "description": "Review"}
    )
    assert put.status_code == 201
    assert (
        await result(client, two_url, "load_context", {"label": "skills", "key": "review"}) == "Check tests."
    )
    assert (
        await result(client, one_url, "load_context", {"label": "skills", "key": "review"})
        == "Not found: review"
    )
    two_prompt = (await client.get(f"{two_url}/system-prompt")).json()["systemPrompt"]
    assert "- review: Review\n- style: Style" in two_prompt
    one_tools = (await client.get(f"{one_url}/tools")).json()["tools"]
    assert one_tools[2]["function"]["description"].endswith(" No skills currently loaded.")
    assert (await client.delete(f"{two_url}/context/skills/entries/style")).status_code == 204
    assert (await client.get(f"{ctx}/skills/entries/style")).status_code == 200


async def test_history_block_and_session_search(client: httpx.AsyncClient, profile_url: str) -> None:
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    await define(client, profile_url, "soul", kind="readonly", content="You are helpful.")
    assert [t["function"]["name"] for t in (await client.get(f"{url}/tools")).json()["tools"]] == []

    await define(
        client, profile_url, "history", kind="history", description="Cross-session conversation history"
    )
    other = await new_session(client, profile_url)
    await append(
        client,
        f"{profile_url}/sessions/{other}",
        text_message("o1", "user", "The deploy to production failed."),
    )
    await append(client, url, text_message("u1", "user", "Production is fine, no deploy today."))
    await append(client, url, text_message("u2", "user", "Production dashboards are green."))

    tools = (await client.get(f"{url}/tools")).json()["tools"]
    assert [t["function"]["name"] for t in tools] == ["search_context", "session_search"]
    assert tools[0]["function"]["parameters"]["properties"]["label"]["enum"] == ["history"]
    assert tools[1]["function"]["description"] == (
        "Search past conversations for relevant context. Searches across all sessions."
    )
    prompt = (await client.get(f"{url}/system-prompt")).json()["systemPrompt"]
    assert prompt.endswith(
        f"{SEPARATOR}\nHISTORY (Cross-session conversation history) [searchable]\n{SEPARATOR}\n"
        "2 sessions available for search."
    )
    found = await result(client, url, "session_search", {"query": "deploy production"})
    assert sorted(found.split("\n---\n")) == [
        "[user] Production is fine, no deploy today.",
        "[user] The deploy to production failed.",
    ]
    assert await result(client, url, "search_context", {"label": "history", "query": "dashboards green"}) == (
        "[user] Production dashboards are green."
    )
    assert await result(client, url, "session_search", {"query": "zebra"}) == "No results found."
    refused = await client.put(f"{profile_url}/context/history", json={"kind": "history", "content": "x"})
    assert refused.status_code == 422


async def test_session_context_routes_refuse_cleanly(client: httpx.AsyncClient, profile_url: str) -> None:
    await define(client, profile_url, "memory", kind="writable")
    await define(client, profile_url, "kb", kind="search")
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    for response, status, code in [
        (await client.get(f"{profile_url}/sessions/ghost/context/memory"), 404, "session_not_found"),
        (await client.get(f"{url}/context/ghost"), 404, "block_not_found"),
        (await client.put(f"{url}/context/kb/content", json={"content": "x"}), 409, "wrong_block_kind"),
        (await client.get(f"{url}/context/memory/entries"), 409, "wrong_block_kind"),
        (await client.get(f"{url}/context/kb/entries/ghost"), 404, "entry_not_found"),
        (
            await client.put(f"{url}/context/memory/content", json={"content": "x", "action": "x"}),
            422,
            "validation_failed",
        ),
        (
            await client.get(f"{url}/history", params={"truncate": "true", "keepRecent": -1}),
            422,
            "validation_failed",
        ),
    ]:
        assert (response.status_code, response.json()["code"]) == (status, code), response.text
    # Deletes are idempotent: an entry that is not there is deleted already.
    assert (await client.delete(f"{url}/context/kb/entries/ghost")).status_code == 204
