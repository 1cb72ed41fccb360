"""Profiles through HTTP: get-or-create, idempotence under concurrency, counts, names, soft delete."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from app.core.memory_types import MemoryType


async def test_get_or_create_then_get_with_counts(client: httpx.AsyncClient, ns: str) -> None:
    first = await client.put(f"/v1/namespaces/{ns}/profiles/alice")
    assert first.status_code == 201
    second = await client.put(f"/v1/namespaces/{ns}/profiles/alice")
    assert second.status_code == 200 and second.json() == first.json()
    detail = (await client.get(f"/v1/namespaces/{ns}/profiles/alice")).json()
    assert detail["counts"] == {
        "memories": {t.value: 0 for t in MemoryType},  # every type of the policy table, at zero
        "messages": 0,
        "sessions": 0,
        "pendingJobs": 0,
    }
    missing = await client.get(f"/v1/namespaces/{ns}/profiles/bob")
    assert missing.status_code == 404 and missing.json()["code"] == "profile_not_found"


async def test_twenty_concurrent_puts_make_one_profile(client: httpx.AsyncClient, ns: str) -> None:
    responses = await asyncio.gather(*(client.put(f"/v1/namespaces/{ns}/profiles/racer") for _ in range(20)))
    statuses = sorted(r.status_code for r in responses)
    assert statuses.count(201) == 1 and statuses.count(200) == 19
    listed = (await client.get(f"/v1/namespaces/{ns}/profiles")).json()["profiles"]
    assert [p["name"] for p in listed] == ["racer"]


async def test_list_is_keyset_paginated(client: httpx.AsyncClient, ns: str) -> None:
    for name in ["c", "a", "e", "b", "d"]:
        await client.put(f"/v1/namespaces/{ns}/profiles/{name}")
    seen: list[str] = []
    cursor = None
    while True:
        params = {"limit": 2, **({"cursor": cursor} if cursor else {})}
        page = (await client.get(f"/v1/namespaces/{ns}/profiles", params=params)).json()
        seen += [p["name"] for p in page["profiles"]]
        cursor = page.get("cursor")
        if cursor is None:
            break
    assert seen == ["a", "b", "c", "d", "e"]
    assert "cursor" not in page, page  # the last page leaves the key out, not null
    bad = await client.get(f"/v1/namespaces/{ns}/profiles", params={"cursor": "!!!"})
    assert bad.status_code == 422
    assert (await client.get(f"/v1/namespaces/{ns}/profiles", params={"limit": 501})).status_code == 422


@pytest.mark.parametrize(("name", "fragment"), [("x" * 101, "100"), ("tab%09here", "control")])
async def test_bad_profile_names(client: httpx.AsyncClient, ns: str, name: str, fragment: str) -> None:
    response = await client.put(f"/v1/namespaces/{ns}/profiles/{name}")
    assert response.status_code == 422, response.text
    assert fragment in response.json()["detail"]


async def test_unicode_profile_names_allowed(client: httpx.AsyncClient, ns: str) -> None:
    response = await client.put(f"/v1/namespaces/{ns}/profiles/Zoë 🚀")
    assert response.status_code == 201 and response.json()["name"] == "Zoë 🚀"


async def test_deleted_profile_invisible_and_name_reusable(client: httpx.AsyncClient, ns: str) -> None:
    await client.put(f"/v1/namespaces/{ns}/profiles/gone")
    assert (await client.delete(f"/v1/namespaces/{ns}/profiles/gone")).status_code == 202
    assert (await client.get(f"/v1/namespaces/{ns}/profiles/gone")).status_code == 404
    # Idempotent: a repeated delete answers as the first did; the namespace must still exist.
    assert (await client.delete(f"/v1/namespaces/{ns}/profiles/gone")).status_code == 202
    missing_ns = await client.delete("/v1/namespaces/no-such-ns/profiles/gone")
    assert missing_ns.status_code == 404 and missing_ns.json()["code"] == "namespace_not_found"
    assert (await client.put(f"/v1/namespaces/{ns}/profiles/gone")).status_code == 201
