"""Tool definitions generated from the blocks, and every tool call round trip with the reference result strings."""

from __future__ import annotations

from typing import Any

import httpx

from tests.context.test_prompt import define_fixture_blocks
from tests.sessions.helpers import append, new_session, text_message


async def call(client: httpx.AsyncClient, url: str, name: str, arguments: Any) -> httpx.Response:
    return await client.post(f"{url}/tools/{name}", json={"arguments": arguments})


async def result(client: httpx.AsyncClient, url: str, name: str, arguments: Any) -> str:
    response = await call(client, url, name, arguments)
    assert response.status_code == 200, response.text
    text: str = response.json()["result"]
    return text


async def define_history(client: httpx.AsyncClient, profile_url: str) -> None:
    """A `history` block: the profile's conversations, searchable (withSearchableHistory)."""
    defined = await client.put(
        f"{profile_url}/context/history",
        json={"kind": "history", "description": "Cross-session conversation history"},
    )
    assert defined.status_code == 201, defined.text


async def test_definitions_follow_the_blocks(client: httpx.AsyncClient, profile_url: str) -> None:
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    bare = (await client.get(f"{url}/tools")).json()["tools"]
    assert bare == []  # no block needs a tool: no tools, as the reference's tools() answers {}

    await define_fixture_blocks(client, profile_url)
    tools = (await client.get(f"{url}/tools")).json()["tools"]
    names = [t["function"]["name"] for t in tools]
    assert names == ["set_context", "load_context", "unload_context", "search_context"]
    assert all(t["type"] == "function" for t in tools)
    set_context = tools[0]["function"]
    assert set_context["parameters"]["required"] == ["label", "content"]
    assert set_context["parameters"]["properties"]["label"]["enum"] == ["memory", "knowledge", "skills"]
    assert set_context["parameters"]["properties"]["action"]["enum"] == ["replace", "append"]
    assert "metadata" in set_context["parameters"]["properties"]
    assert set_context["description"].startswith(
        'Write to a context block. Available blocks:\n- "memory" (writable; this session only): Learned facts\n'
        '- "knowledge" (searchable, keyed entries; this session only): Searchable knowledge base\n'
        '- "skills" (skill collection, keyed entries; this session only): no description\n\n'
        'Writes are stored at once. A block marked "this session only" keeps them for this session: another '
        "session starts from the block's defined content and does not see them. A block marked \"shared by "
        'every session" shows them in every session of this profile, now and later.'
    )
    # A block shared by every session says so.
    shared = await client.put(
        f"{profile_url}/context/memory",
        json={"kind": "writable", "scope": "profile", "description": "Learned facts", "maxTokens": 1100},
    )
    assert shared.status_code == 200, shared.text
    tools = (await client.get(f"{url}/tools")).json()["tools"]
    assert (
        '- "memory" (writable; shared by every session): Learned facts\n'
        in tools[0]["function"]["description"]
    )
    assert tools[1]["function"]["description"] == (
        'Load a document from a skill block by key. Available skill blocks: "skills". '
        "Check the system prompt for available keys."
    )
    assert tools[2]["function"]["description"].endswith(" No skills currently loaded.")
    assert tools[3]["function"]["parameters"]["properties"]["label"]["enum"] == ["knowledge"]


async def test_every_tool_round_trip(client: httpx.AsyncClient, profile_url: str) -> None:
    await define_fixture_blocks(client, profile_url)
    await define_history(client, profile_url)
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"

    # set_context on an inline block, replace and append.
    assert await result(client, url, "set_context", {"label": "memory", "content": "User likes tea."}) == (
        "Written to memory. Usage: 0% (4/1100 tokens)"
    )
    assert await result(
        client, url, "set_context", {"label": "memory", "content": "Lives in Oslo.", "action": "append"}
    ) == ("Written to memory. Usage: 1% (8/1100 tokens)")
    # memory is session-scoped: the write is this session's; the definition keeps the starting content.
    assert (await client.get(f"{url}/context/memory")).json()["content"] == "User likes tea.\nLives in Oslo."
    assert (
        (await client.get(f"{profile_url}/context/memory")).json()["content"].startswith("User likes coffee.")
    )
    assert (
        await result(client, url, "set_context", {"label": "soul", "content": "x"})
        == 'Error: Block "soul" is readonly'
    )
    assert (
        await result(client, url, "set_context", {"label": "ghost", "content": "x"})
        == 'Error: block "ghost" not found'
    )

    # set_context on keyed blocks: the key is the title's slug, or a slug + hash of the content.
    assert (
        await result(
            client,
            url,
            "set_context",
            {
                "label": "skills",
                "content": "Step 1: test. Step 2: ship.",
                "metadata": {"title": "Deploy Checklist!", "description": "How we ship"},
            },
        )
        == 'Indexed "deploy-checklist" in skills.'
    )
    assert await result(
        client, url, "set_context", {"label": "knowledge", "content": "Ana is on call this week."}
    ) == ('Indexed "ana-is-on-call-this-week-1my0uh2" in knowledge.')
    skill = (await client.get(f"{url}/context/skills/entries/deploy-checklist")).json()
    assert skill["description"] == "How we ship"

    # load_context / unload_context
    assert await result(client, url, "load_context", {"label": "skills", "key": "deploy-checklist"}) == (
        "Step 1: test. Step 2: ship."
    )
    assert await result(client, url, "load_context", {"label": "skills", "key": "nope"}) == "Not found: nope"
    assert await result(client, url, "load_context", {"label": "memory", "key": "x"}) == (
        'Error: "memory" is not a skill block. Skill blocks: skills'
    )
    tools = (await client.get(f"{url}/tools")).json()["tools"]
    assert tools[2]["function"]["description"].endswith(" Currently loaded: skills:deploy-checklist.")
    await append(
        client,
        url,
        {
            "id": "tool-msg",
            "role": "assistant",
            "parts": [
                {
                    "type": "tool-load_context",
                    "toolCallId": "c1",
                    "state": "output-available",
                    "input": {"label": "skills", "key": "deploy-checklist"},
                    "output": "Step 1: test. Step 2: ship.",
                }
            ],
        },
    )
    assert await result(client, url, "unload_context", {"label": "skills", "key": "deploy-checklist"}) == (
        'Unloaded "deploy-checklist" from skills. Context reclaimed.'
    )
    reclaimed = (await client.get(f"{url}/messages/tool-msg")).json()["parts"][0]
    assert reclaimed["output"] == "[skill unloaded: deploy-checklist]"
    assert await result(client, url, "unload_context", {"label": "skills", "key": "deploy-checklist"}) == (
        'Skill "deploy-checklist" is not currently loaded in "skills".'
    )

    # search_context
    found = await result(
        client, url, "search_context", {"label": "knowledge", "query": "deploying on friday"}
    )
    assert found == "[deploys]\nWe deploy on Fridays after the review."
    assert (
        await result(client, url, "search_context", {"label": "knowledge", "query": "kangaroo"})
        == "No results found."
    )
    assert await result(client, url, "search_context", {"label": "skills", "query": "x"}) == (
        'Error: "skills" is not searchable. Searchable blocks: knowledge, history'
    )

    # session_search, arguments given as the JSON string an LLM emits.
    other = await new_session(client, profile_url)
    await append(
        client, f"{profile_url}/sessions/{other}", text_message("s1", "user", "The deployment is blocked.")
    )
    await append(
        client,
        f"{profile_url}/sessions/{other}",
        text_message("s2", "assistant", "I will unblock the deploy."),
    )
    found_sessions = await result(client, url, "session_search", '{"query": "deploying"}')
    assert sorted(found_sessions.split("\n---\n")) == [
        "[assistant] I will unblock the deploy.",
        "[user] The deployment is blocked.",
    ]
    assert await result(client, url, "session_search", {"query": "zebra"}) == "No results found."


async def test_refused_calls_are_422_with_guidance(client: httpx.AsyncClient, profile_url: str) -> None:
    await define_fixture_blocks(client, profile_url)
    await define_history(client, profile_url)
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    unknown = await call(client, url, "rm_rf", {})
    assert unknown.status_code == 422 and unknown.json()["code"] == "unknown_tool"
    assert "set_context" in unknown.json()["detail"]
    not_here = await call(client, url, "recall_memory", {"query": "x"})  # no summary block
    assert not_here.status_code == 422 and not_here.json()["code"] == "unknown_tool"

    for name, arguments, fragment in [
        ("set_context", {"content": "x"}, '"label" is required'),
        ("set_context", {"label": "memory", "content": 5}, '"content" must be a string'),
        ("set_context", {"label": "memory", "content": "x", "action": "delete"}, '"action"'),
        ("set_context", {"label": "memory", "content": "x", "metadata": "t"}, '"metadata"'),
        ("load_context", {"label": "skills"}, '"key" is required'),
        ("search_context", "{not json", "not valid JSON"),
        ("session_search", "[1, 2]", "JSON object"),
    ]:
        response = await call(client, url, name, arguments)
        assert response.status_code == 422, (name, response.text)
        assert response.json()["code"] == "invalid_tool_arguments"
        assert fragment in response.json()["detail"], response.json()["detail"]
    missing_session = await call(client, f"{profile_url}/sessions/nope", "session_search", {"query": "x"})
    assert missing_session.status_code == 404


async def test_hostile_tool_arguments_are_refused_not_500(
    client: httpx.AsyncClient, profile_url: str
) -> None:
    # Regression: arguments sent as a JSON string skip the request guard, so NUL and lone surrogates
    # reached PostgreSQL; deep nesting raised RecursionError; an unbounded query made a tsvector over
    # 1 MiB; recall_memory passed an empty or >1 KiB query to a RecallRequest. All were 500s.
    await define_fixture_blocks(client, profile_url)
    await define_history(client, profile_url)
    assert (await client.put(f"{profile_url}/context/profile", json={"kind": "summary"})).status_code == 201
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    many_words = " ".join(f"a{i}-b{i}" for i in range(40_000))
    for name, arguments in [
        ("session_search", '{"query": "\\u0000"}'),
        ("session_search", '{"query": "\\ud800"}'),
        ("set_context", '{"label": "memory", "content": "a\\u0000b"}'),
        ("session_search", "[" * 5000 + "]" * 5000),
        ("session_search", {"query": many_words}),
        ("search_context", {"label": "knowledge", "query": many_words}),
        ("recall_memory", {"query": "é" * 999}),
    ]:
        response = await call(client, url, name, arguments)
        assert response.status_code == 422, (name, response.text[:300])
        assert response.json()["code"] == "invalid_tool_arguments"
    assert await result(client, url, "recall_memory", {"query": ""}) == "No results found."
    indexed = await result(client, url, "set_context", {"label": "knowledge", "content": many_words})
    assert indexed.startswith("Error: text too large to index"), indexed[:200]
    entry = await client.put(f"{profile_url}/context/knowledge/entries/big", json={"content": many_words})
    assert entry.status_code == 422 and entry.json()["code"] == "text_too_large"
