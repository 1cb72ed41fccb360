"""GET /v1/key: what the request's key reaches (the inspector asks it once, at log-in)."""

from __future__ import annotations

import httpx


async def test_admin_and_scoped_keys_and_no_key(
    client: httpx.AsyncClient, anon: httpx.AsyncClient, ns: str
) -> None:
    # The bootstrap key (AGENT_MEMORY_ADMIN_KEY) is no stored key: it has no id.
    admin = (await client.get("/v1/key")).json()
    assert admin == {"keyId": None, "admin": True, "namespace": None, "scope": "admin"}

    created = (await client.post(f"/v1/namespaces/{ns}/keys", json={"name": "ui"})).json()
    scoped = await anon.get("/v1/key", headers={"Authorization": f"Bearer {created['key']}"})
    assert scoped.json() == {"keyId": created["id"], "admin": False, "namespace": ns, "scope": "admin"}

    assert (await anon.get("/v1/key")).status_code == 401
    forged = await anon.get("/v1/key", headers={"Authorization": f"Bearer amk_{created['id']}_wrong"})
    assert forged.status_code == 401

    # The key's namespace deleted: its key reaches nothing (401: deleted namespaces' keys die with them).
    await client.delete(f"/v1/namespaces/{ns}")
    gone = await anon.get("/v1/key", headers={"Authorization": f"Bearer {created['key']}"})
    assert gone.status_code in (401, 404)
