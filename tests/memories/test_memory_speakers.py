"""Speakers as data: who said a statement is stored on its memory at ingest (the message's `name`, or its
`Name:` prefix in any script) and read from there by recall's speaker constraint, the agent's-own-words
factor, the summary, the API and export, never parsed back out of the text."""

from __future__ import annotations

import json
from typing import Any

import httpx
from alembic import command
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.core.migrations import alembic_config
from app.core.settings import to_async_url
from app.worker.runner import Worker
from tests.conftest import admin_client, fresh_database, make_settings, started_app

# A two-person chat: Élodie on the user's side, 陈静 on the other (role assistant, but a person: named).
NAMED_CHAT = [
    ("user", "Élodie", "I work as a nurse at the children's hospital in Lyon."),
    ("assistant", "陈静", "I work as a teacher at a middle school in Shanghai."),
    ("user", "Élodie", "My sister Camille lives in Montreal with her two cats."),
    ("assistant", "陈静", "My sister lives in Beijing and she has a dog."),
]
# The same kind of chat written with `Name:` prefixes in Chinese, no `name` given.
PREFIXED_CHAT = [
    ("user", "周浩: 深圳那家游戏公司的offer下来了！我负责服务器开发。"),
    ("assistant", "陈静: 恭喜！我在上海当老师，我们学校也在招人。"),
    ("user", "周浩: 我女朋友下个月搬到深圳。"),
]


async def _ingest(client: httpx.AsyncClient, url: str, worker: Worker, session: str, messages: Any) -> None:
    response = await client.post(f"{url}/ingest", json={"sessionId": session, "messages": messages})
    assert response.status_code == 202, response.text
    await worker.drain()


async def _memories(client: httpx.AsyncClient, url: str) -> list[dict[str, Any]]:
    response = await client.get(f"{url}/memories", params={"limit": 100})
    assert response.status_code == 200, response.text
    return list(response.json()["memories"])


async def _recall(client: httpx.AsyncClient, url: str, query: str) -> dict[str, Any]:
    response = await client.post(f"{url}/recall", json={"query": query, "minScore": 0, "trace": True})
    assert response.status_code == 200, response.text
    return dict(response.json())


def _factors(found: dict[str, Any]) -> dict[str, set[str]]:
    """Each traced candidate's second-stage factors, by memory id."""
    return {c["id"]: {f["name"] for f in c["factors"]} for c in found["trace"]["candidates"]}


async def _summary(client: httpx.AsyncClient, url: str) -> str:
    response = await client.post(f"{url}/summary", json={})
    assert response.status_code == 200, response.text
    return str(response.json()["summary"])


async def test_a_named_two_person_chat_keeps_each_statement_s_speaker(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    messages = [
        {"role": role, "name": name, "content": text, "timestamp": f"2026-05-0{i + 1}T10:00:00Z"}
        for i, (role, name, text) in enumerate(NAMED_CHAT)
    ]
    await _ingest(client, profile_url, worker, "chat", messages)
    memories = await _memories(client, profile_url)
    said = {m["summary"]: (m["speaker"], m["speakerRole"]) for m in memories}
    nurse = next(s for s in said if "nurse" in s)
    teacher = next(s for s in said if "teacher" in s)
    assert said[nurse] == ("Élodie", "user") and said[teacher] == ("陈静", "assistant"), said
    detail = (await client.get(f"{profile_url}/memories/{memories[0]['id']}")).json()
    assert detail["speaker"] in ("Élodie", "陈静")

    # The speaker constraint: a question about one of them finds that person's own statement first, in
    # the spelling of the chat or another (no accent), and the other's is held below it.
    for question, expected, speaker in (
        ("Where does Élodie work?", "nurse", "Élodie"),
        ("Where does Elodie work?", "nurse", "Élodie"),
        ("Where does 陈静 work?", "teacher", "陈静"),
        ("Where does Élodie's sister live?", "Montreal", "Élodie"),
        ("Where does 陈静's sister live?", "Beijing", "陈静"),
    ):
        found = await _recall(client, profile_url, question)
        top = found["candidates"][0]
        assert expected in top["summary"] and top["speaker"] == speaker, (question, found["candidates"])
    # 陈静 speaks on the assistant's side but is a person: her words are not the agent's own.
    found = await _recall(client, profile_url, "Where does 陈静 work?")
    assert all("by_agent" not in names for names in _factors(found).values()), found["trace"]

    # The summary says who said what, from the stored speaker, even where a summary does not name them.
    summary = await _summary(client, profile_url)
    assert "Élodie works as a nurse" in summary and "陈静 works as a teacher" in summary, summary
    teacher_id = next(m["id"] for m in memories if m["summary"] == teacher)
    edited = await client.patch(
        f"{profile_url}/memories/{teacher_id}", json={"summary": "Teaches at a middle school in Shanghai."}
    )
    assert edited.status_code == 200, edited.text
    assert edited.json()["speaker"] == "陈静"  # an edit keeps who said it
    assert "- 陈静: Teaches at a middle school in Shanghai." in await _summary(client, profile_url)


async def test_a_prefix_in_chinese_names_the_speaker_once_at_ingest(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    messages = [
        {"role": role, "content": text, "timestamp": f"2026-05-0{i + 1}T10:00:00Z"}
        for i, (role, text) in enumerate(PREFIXED_CHAT)
    ]
    await _ingest(client, profile_url, worker, "zh", messages)
    memories = await _memories(client, profile_url)
    assert {(m["speaker"], m["speakerRole"]) for m in memories} == {("周浩", "user"), ("陈静", "assistant")}
    for m in memories:  # the name is not said twice
        assert m["summary"].startswith(f"{m['speaker']}: ") and m["summary"].count(m["speaker"]) == 1

    top = (await _recall(client, profile_url, "周浩在深圳负责什么工作？"))["candidates"][0]
    assert top["speaker"] == "周浩" and "服务器" in top["summary"]
    found = await _recall(client, profile_url, "陈静在哪里当老师？")
    assert found["candidates"][0]["speaker"] == "陈静" and "老师" in found["candidates"][0]["summary"]
    # "陈静:" on the assistant's side is a person's words (the old `^[A-Z]` text test took them for the
    # agent's).
    assert "by_agent" not in _factors(found)[found["candidates"][0]["id"]]

    summary = await _summary(client, profile_url)
    assert "周浩: 深圳那家游戏公司的offer下来了" in summary and "陈静: " in summary, summary


async def test_the_agent_s_own_words_are_known_by_their_stored_speaker(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    messages = [
        {"role": "user", "content": "I keep basil and mint on my balcony in Lisbon."},
        {
            "role": "assistant",
            "content": "You should give your basil six hours of sun and water it every morning.",
        },
    ]
    await _ingest(client, profile_url, worker, "garden", messages)
    said = {m["speakerRole"]: m["speaker"] for m in await _memories(client, profile_url)}
    assert said == {"user": None, "assistant": None}
    found = await _recall(client, profile_url, "How much sun does basil on a balcony need?")
    factors = _factors(found)
    by_role = {m["id"]: m["speakerRole"] for m in await _memories(client, profile_url)}
    assert {by_role[m] for m, names in factors.items() if "by_agent" in names} == {"assistant"}


async def test_remember_reads_a_prefix_and_export_carries_the_speaker(
    client: httpx.AsyncClient, ns: str, profile_url: str
) -> None:
    remembered = await client.post(f"{profile_url}/remember", json={"content": "Élodie: j'adore le ski."})
    assert remembered.status_code == 201, remembered.text
    body = remembered.json()
    assert body["speaker"] == "Élodie" and body["speakerRole"] is None
    assert body["content"] == "Élodie: j'adore le ski."  # the text is kept as given
    plain = (
        await client.post(f"{profile_url}/remember", json={"content": "Note: the ski pass expires."})
    ).json()
    assert plain["speaker"] is None  # a label, not a person

    async with client.stream("GET", f"/v1/namespaces/{ns}/export") as response:
        lines = [line async for line in response.aiter_lines() if '"memory"' in line]
    assert any('"speaker": "Élodie"' in line or '"speaker":"Élodie"' in line for line in lines), lines


async def test_an_export_written_before_speakers_imports_with_them(
    client: httpx.AsyncClient, ns: str, profile_url: str, worker: Worker
) -> None:
    """An export of a version that stored no speaker (its memory records without `speaker` and
    `speakerRole`) imports with the speakers ingest gives: the first source's name, else its prefix."""
    messages = [
        {
            "role": "user",
            "name": "Élodie",
            "content": "I work as a nurse at the children's hospital in Lyon.",
        },
        {"role": "assistant", "content": "陈静: 我在上海当老师。"},
    ]
    await _ingest(client, profile_url, worker, "chat", messages)
    async with client.stream("GET", f"/v1/namespaces/{ns}/export") as response:
        records = [json.loads(line) async for line in response.aiter_lines() if line]
    for record in records:
        if record["type"] in ("memory", "memory_version"):
            assert record["data"].pop("speaker") is not None
            record["data"].pop("speaker_role")
    other = f"{ns}-old"
    assert (await client.post("/v1/namespaces", json={"name": other})).status_code == 201
    body = "\n".join(json.dumps(r, ensure_ascii=False) for r in records)
    imported = await client.post(f"/v1/namespaces/{other}/import", content=body.encode())
    assert imported.status_code == 200, imported.text
    url = profile_url.replace(f"/namespaces/{ns}/", f"/namespaces/{other}/")
    said = {(m["speaker"], m["speakerRole"]) for m in await _memories(client, url)}
    assert said == {("Élodie", "user"), ("陈静", "assistant")}


async def test_the_migration_fills_the_speaker_of_existing_memories() -> None:
    """A database at 0019: a memory from a named message, one from a message with a `陈静:` prefix, the
    agent's own words, a remembered "周浩: …" and a deleted memory's archived state. After the migration
    each has the speaker ingest would give it now, and recall reads it (the API over the migrated data)."""
    async with fresh_database("am_test_speakers") as url:
        engine = create_async_engine(to_async_url(url))
        async with engine.begin() as conn:
            await conn.run_sync(lambda c: _upgrade(c, "0019"))
            for sql in (
                "INSERT INTO namespaces (id, name) VALUES (1, 'ns')",
                "INSERT INTO profiles (id, namespace_id, name) VALUES (1, 1, 'p')",
                "INSERT INTO sessions (profile_id, id, name) VALUES (1, 's', 's')",
                """INSERT INTO messages (profile_id, id, session_id, parent_id, role, name, parts, text_content)
                   VALUES (1, 'a', 's', NULL, 'user', 'Élodie', '[]', 'I work as a nurse in Lyon.'),
                          (1, 'b', 's', 'a', 'assistant', NULL, '[]', '陈静: 我在上海当老师。'),
                          (1, 'c', 's', 'b', 'assistant', NULL, '[]', 'You should visit the Old Town.')""",
                """INSERT INTO memories (profile_id, id, type, summary, content, session_id, content_hash)
                   VALUES (1, 'm1', 'fact', 'Élodie works as a nurse in Lyon.',
                           'Élodie: I work as a nurse in Lyon.', 's', 'h1'),
                          (1, 'm2', 'fact', '陈静: 我在上海当老师。', '陈静: 我在上海当老师。', 's', 'h2'),
                          (1, 'm3', 'fact', 'User should visit the Old Town.',
                           'You should visit the Old Town.', 's', 'h3'),
                          (1, 'm4', 'fact', '周浩: 我在深圳。', '周浩: 我在深圳。', NULL, 'h4')""",
                """INSERT INTO memory_sources (profile_id, memory_id, session_id, message_id)
                   VALUES (1, 'm1', 's', 'a'), (1, 'm2', 's', 'b'), (1, 'm3', 's', 'c')""",
                """INSERT INTO memory_versions (profile_id, memory_id, version, change, type, summary, content,
                                               created_at, valid_from, valid_to, deleted_at)
                   VALUES (1, 'gone', 1, 'created', 'fact', 'Анна: привет', 'Анна: привет', now(), now(),
                           now(), now())""",
            ):
                await conn.execute(text(sql))
        async with engine.begin() as conn:
            await conn.run_sync(lambda c: _upgrade(c, "head"))
            memories = await conn.execute(text("SELECT id, speaker, speaker_role FROM memories ORDER BY id"))
            assert [tuple(r) for r in memories] == [
                ("m1", "Élodie", "user"),
                ("m2", "陈静", "assistant"),
                ("m3", None, "assistant"),
                ("m4", "周浩", None),
            ]
            archived = await conn.execute(text("SELECT speaker, speaker_role FROM memory_versions"))
            assert [tuple(r) for r in archived] == [("Анна", None)]
        await engine.dispose()

        async with started_app(make_settings(url)) as app, admin_client(app) as client:
            listed = (await client.get("/v1/namespaces/ns/profiles/p/memories")).json()["memories"]
            assert {m["id"]: m["speaker"] for m in listed} == {
                "m1": "Élodie",
                "m2": "陈静",
                "m3": None,
                "m4": "周浩",
            }


def _upgrade(connection: Any, revision: str) -> None:
    cfg = alembic_config()
    cfg.attributes["connection"] = connection
    command.upgrade(cfg, revision)
