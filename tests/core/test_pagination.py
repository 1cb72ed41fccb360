"""Keyset cursors through HTTP: whatever a client sends as `cursor` is a page or a 422, never a 500."""

from __future__ import annotations

import base64
import json

import httpx


def forged(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


async def test_forged_cursors_are_422(client: httpx.AsyncClient, ns: str) -> None:
    # Regression: a cursor decoding to NUL, a lone surrogate, or a time outside Python's calendar once UTC
    # reached the database (or asyncpg) and answered 500.
    profile = f"/v1/namespaces/{ns}/profiles/alice"
    assert (await client.post(f"{profile}/sessions", json={"name": "x"})).status_code == 201
    one_value = [b'["\\u0000"]', b'["\\ud800"]', b"[null]", b'[{"a": 1}]', b"[1e999]", b"\xff\xfe", b"{}"]
    two_values = [
        b'["2024-01-01T00:00:00+00:00", "\\u0000"]',
        b'["2024-01-01T00:00:00+00:00", "\\ud800"]',
        b'["0001-01-01T00:00:00+14:00", "x"]',
        b'["9999-12-31T23:59:59-14:00", "x"]',
        b'["not a time", "x"]',
        b"[null, null]",
    ]
    for url, cursors in [
        ("/v1/namespaces", one_value),
        (f"/v1/namespaces/{ns}/profiles", one_value),
        (f"{profile}/memories", one_value),
        (f"{profile}/sessions", two_values + one_value),
    ]:
        for raw in cursors:
            response = await client.get(url, params={"cursor": forged(raw)})
            assert response.status_code == 422, (url, raw, response.text)
            assert response.json()["code"] == "validation_failed"


async def test_real_cursors_still_page(client: httpx.AsyncClient, ns: str) -> None:
    profile = f"/v1/namespaces/{ns}/profiles/alice"
    for name in ("a", "b"):
        assert (await client.post(f"{profile}/sessions", json={"id": name})).status_code == 201
    first = (await client.get(f"{profile}/sessions", params={"limit": 1})).json()
    rest = (await client.get(f"{profile}/sessions", params={"limit": 1, "cursor": first["cursor"]})).json()
    assert [s["id"] for s in first["sessions"] + rest["sessions"]] == ["b", "a"]
    assert json.loads(base64.urlsafe_b64decode(first["cursor"] + "==="))[1] == "b"
