"""No 500 for any input: non-finite numbers and deep nesting (one JSON rule for every body and the
`metadata=` filter), profile names that look like nothing or alias each other, oversized headers, oversized
session messages, import's limits and words, the MCP event stream's bound, no SQL values in errors, and
long texts classified off the event loop."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

import app.extraction.default as default
import app.mcp.server as mcp_server

NON_FINITE = ["NaN", "Infinity", "-Infinity", "1e999", "-1e999", "1" + "0" * 400 + ".0"]


def _deep(depth: int) -> str:
    return '{"a":' * depth + "1" + "}" * depth


async def _post_raw(client: httpx.AsyncClient, url: str, body: str, method: str = "POST") -> httpx.Response:
    return await client.request(method, url, content=body, headers={"content-type": "application/json"})


async def test_non_finite_numbers_and_deep_nesting_are_422_everywhere(
    client: httpx.AsyncClient, ns: str
) -> None:
    p = f"/v1/namespaces/{ns}/profiles/p"
    made = await client.post(f"{p}/remember", json={"content": "I moved to Lisbon."})
    assert made.status_code == 201
    memory_id = made.json()["id"]
    for number in NON_FINITE:
        meta = f'{{"score": {number}}}'
        bodies = [
            ("POST", f"{p}/remember", f'{{"content": "I like tea.", "metadata": {meta}}}'),
            ("POST", f"{p}/ingest", f'{{"sessionId": "s", "messages": [{{"role": "user", "content": "hi", "metadata": {meta}}}]}}'),
            ("POST", f"{p}/sessions", f'{{"id": "s9", "metadata": {meta}}}'),
            ("PATCH", f"{p}/memories/{memory_id}", f'{{"metadata": {meta}}}'),
            ("POST", f"{p}/recall", f'{{"query": "tea?", "metadata": {meta}}}'),
        ]  # fmt: skip
        for method, url, body in bodies:
            response = await _post_raw(client, url, body, method)
            assert response.status_code == 422, (number, url, response.text)
            assert response.json()["code"] == "validation_failed"
        listed = await client.get(f"{p}/memories", params={"metadata": meta})
        assert listed.status_code == 422, (number, listed.text)
    deep = await _post_raw(client, f"{p}/remember", f'{{"content": "x", "metadata": {_deep(5000)}}}')
    assert deep.status_code == 422
    deep_filter = await client.get(
        f"{p}/memories", params={"metadata": '{"a":' + "[" * 5000 + "]" * 5000 + "}"}
    )
    assert deep_filter.status_code == 422
    # Large but finite numbers are numbers.
    ok = await _post_raw(client, f"{p}/remember", '{"content": "I like coffee.", "metadata": {"n": 1e308}}')
    assert ok.status_code == 201


@pytest.mark.parametrize(
    "name", ["%2E", "%2E%2E", "%20", "%20%20", "a%E2%80%8Bb", "a%E2%80%AEb", "%E2%80%A8", "%FF"]
)
async def test_profile_names_that_look_like_nothing_are_refused(
    client: httpx.AsyncClient, ns: str, name: str
) -> None:
    response = await client.post(
        f"/v1/namespaces/{ns}/profiles/{name}/remember", json={"content": "I like tea."}
    )
    assert response.status_code == 422, response.text


async def test_invalid_utf8_names_do_not_alias_one_profile(client: httpx.AsyncClient, ns: str) -> None:
    for name in ("%FF", "%FE"):
        response = await client.get(f"/v1/namespaces/{ns}/profiles/{name}/memories")
        assert response.status_code == 422


async def test_oversized_headers_are_refused_before_the_body(client: httpx.AsyncClient, ns: str) -> None:
    huge = "Bearer amk_x_" + "a" * 64 * 1024
    response = await client.get(f"/v1/namespaces/{ns}", headers={"authorization": huge})
    assert response.status_code == 431
    assert response.json()["code"] == "headers_too_large"


async def test_import_enforces_remembers_limits_in_its_own_words(client: httpx.AsyncClient, ns: str) -> None:
    exported = await client.get(f"/v1/namespaces/{ns}/export")
    header = json.loads(exported.text.splitlines()[0])
    await client.post(f"/v1/namespaces/{ns}/profiles/p/remember", json={"content": "I like tea."})
    records = [
        json.loads(line) for line in (await client.get(f"/v1/namespaces/{ns}/export")).text.splitlines()
    ]
    memory = next(r for r in records if r["type"] == "memory")
    profile = next(r for r in records if r["type"] == "profile")
    big = {**memory, "data": {**memory["data"], "id": "01JBIGBIGBIGBIGBIGBIGBIGBI", "content": "a" * 40_000}}
    body = "".join(json.dumps(r) + "\n" for r in [header, profile, big, {"type": "end", "records": 2}])
    response = await client.post(
        f"/v1/namespaces/{ns}/import", content=body, headers={"content-type": "application/x-ndjson"}
    )
    assert response.status_code == 422, response.text
    assert "32768 bytes" in response.text
    # A record the database refuses is told in the import's words, not PostgreSQL's.
    bad = {
        **memory,
        "data": {**memory["data"], "id": "01JBADBADBADBADBADBADBADBA", "summary": "", "type": "fact"},
    }
    body = "".join(json.dumps(r) + "\n" for r in [header, profile, bad, {"type": "end", "records": 2}])
    refused = await client.post(
        f"/v1/namespaces/{ns}/import", content=body, headers={"content-type": "application/x-ndjson"}
    )
    if refused.status_code == 422:
        assert "constraint" not in refused.text and "violates" not in refused.text


async def test_the_mcp_event_stream_is_closed_after_its_bound(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mcp_server, "STREAM_IDLE_SECONDS", 0.3)
    response = await asyncio.wait_for(client.get("/mcp", headers={"accept": "text/event-stream"}), timeout=30)
    assert response.status_code < 500


async def test_sql_errors_carry_no_parameters(app: FastAPI) -> None:
    with pytest.raises(DBAPIError) as raised:
        async with app.state.engine.connect() as conn:
            await conn.execute(text("SELECT CAST(:v AS text), 1 / 0"), {"v": "secret-metadata-value"})
    assert "secret-metadata-value" not in str(raised.value)


async def test_remember_and_edit_classify_long_texts_off_the_event_loop(
    client: httpx.AsyncClient, ns: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    loop_thread = threading.get_ident()
    threads: list[int] = []
    real = default.classify_one

    def recording(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.get_ident())
        return real(*args, **kwargs)

    monkeypatch.setattr(default, "classify_one", recording)
    long_text = "[image: " * 4000
    p = f"/v1/namespaces/{ns}/profiles/p"
    made = await client.post(f"{p}/remember", json={"content": long_text})
    assert made.status_code == 201
    edited = await client.patch(f"{p}/memories/{made.json()['id']}", json={"content": long_text + "x"})
    assert edited.status_code == 200
    assert len(threads) == 2 and loop_thread not in threads


async def test_a_session_update_with_null_switch_is_422(client: httpx.AsyncClient, ns: str) -> None:
    p = f"/v1/namespaces/{ns}/profiles/p"
    assert (await client.post(f"{p}/sessions", json={"id": "s1"})).status_code == 201
    response = await client.patch(f"{p}/sessions/s1", json={"extractMemories": None})
    assert response.status_code == 422, response.text
