"""The webhook endpoints' API: register (the secret shown once), list, read, change, remove; a namespace key
manages only its own namespace's endpoints; a test event and a redelivery, sent by the worker and shown in
the delivery log."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from app.core.settings import Settings
from tests.webhooks.conftest import dispatching, register
from tests.webhooks.receiver import receiver
from tests.webhooks.test_ssrf import _settled


async def test_register_list_change_remove(hooks_client: httpx.AsyncClient, hooks_ns: str) -> None:
    client, base = hooks_client, f"/v1/namespaces/{hooks_ns}/webhooks"
    created = await client.post(
        base, json={"url": "https://hooks.example.com/in?x=1", "types": ["memory.deleted", "memory.created"]}
    )
    assert created.status_code == 201, created.text
    body = created.json()
    assert body["secret"].startswith("whsec_") and body["id"].startswith("ep_")
    assert body["types"] == ["memory.created", "memory.deleted"] and body["profile"] is None
    assert body["enabled"] is True and body["cursor"] == 0
    webhook = body["id"]

    listed = (await client.get(base)).json()["webhooks"]
    assert [w["id"] for w in listed] == [webhook] and "secret" not in listed[0]
    one = (await client.get(f"{base}/{webhook}")).json()
    assert "secret" not in one and one["url"] == "https://hooks.example.com/in?x=1"

    patched = await client.patch(
        f"{base}/{webhook}", json={"types": None, "profile": "alice", "enabled": False}
    )
    assert patched.status_code == 200, patched.text
    assert patched.json()["types"] is None and patched.json()["profile"] == "alice"
    assert (
        patched.json()["enabled"] is False and patched.json()["disabledReason"] == "disabled through the API"
    )
    untouched = (await client.patch(f"{base}/{webhook}", json={"enabled": True})).json()
    assert untouched["profile"] == "alice" and untouched["disabledReason"] is None

    bad = await client.post(base, json={"url": "https://hooks.example.com/", "types": ["memory.eaten"]})
    assert bad.status_code == 422
    assert (await client.post(base, json={"url": "ftp://hooks.example.com/"})).status_code == 422
    assert (await client.patch(f"{base}/{webhook}", json={"url": "https://x.example/"})).status_code == 422
    assert (await client.get(f"{base}/ep_nope")).status_code == 404

    assert (await client.delete(f"{base}/{webhook}")).status_code == 204
    gone = await client.get(f"{base}/{webhook}")
    assert gone.status_code == 404 and gone.json()["code"] == "webhook_not_found"


async def test_a_namespace_key_manages_only_its_namespace(
    hooks_app: FastAPI, hooks_client: httpx.AsyncClient, hooks_ns: str
) -> None:
    client = hooks_client
    other = (await client.post("/v1/namespaces", json={"name": hooks_ns + "-o"})).json()["name"]
    theirs, _ = await register(client, other, "https://hooks.example.com/other")
    key = (await client.post(f"/v1/namespaces/{hooks_ns}/keys", json={"name": "app"})).json()["key"]
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=hooks_app),
        base_url="http://test",
        headers={"Authorization": f"Bearer {key}"},
    ) as scoped:
        mine = await scoped.post(
            f"/v1/namespaces/{hooks_ns}/webhooks", json={"url": "https://hooks.example.com/a"}
        )
        assert mine.status_code == 201, mine.text
        assert (await scoped.get(f"/v1/namespaces/{other}/webhooks")).status_code == 404
        assert (await scoped.get(f"/v1/namespaces/{other}/webhooks/{theirs}")).status_code == 404
        # Another namespace's endpoint id, asked under this namespace, is not found either.
        assert (await scoped.get(f"/v1/namespaces/{hooks_ns}/webhooks/{theirs}")).status_code == 404
        assert (await scoped.delete(f"/v1/namespaces/{other}/webhooks/{theirs}")).status_code == 404
        assert (await scoped.post(f"/v1/namespaces/{other}/webhooks/{theirs}/test")).status_code == 404
    assert (await client.get(f"/v1/namespaces/{other}/webhooks/{theirs}")).status_code == 200


async def test_test_event_and_redelivery(
    hooks_app: FastAPI, hooks_settings: Settings, hooks_client: httpx.AsyncClient, hooks_ns: str
) -> None:
    client, base = hooks_client, f"/v1/namespaces/{hooks_ns}/webhooks"
    with receiver() as inbox:
        inbox.answer = lambda n: 500 if n == 1 else 200
        webhook, secret = await register(client, hooks_ns, inbox.url)
        queued = await client.post(f"{base}/{webhook}/test")
        assert queued.status_code == 202, queued.text
        test = queued.json()
        assert (
            test["eventType"] == "webhook.test" and test["status"] == "pending" and test["ordered"] is False
        )
        async with dispatching(hooks_app, hooks_settings):
            first = await inbox.wait_for(1, accepted=False)
            assert first[0].verifies_with(secret) and first[0].message["type"] == "webhook.test"

            log = [await _settled(client, hooks_ns, webhook)]
            # A test is tried once: its failure is the log's to show, not retried.
            assert log[0]["status"] == "failed" and log[0]["lastError"].startswith("HTTP 500")
            assert log[0]["responseStatus"] == 500 and log[0]["attempts"] == 1

            again = await client.post(f"{base}/{webhook}/deliveries/{test['id']}/redeliver")
            assert again.status_code == 202, again.text
            assert again.json()["messageId"] == test["messageId"] and again.json()["id"] != test["id"]
            got = await inbox.wait_for(1)
        assert got[0].webhook_id == test["messageId"] and got[0].body == first[0].body
        assert got[0].verifies_with(secret)
        missing = await client.post(f"{base}/{webhook}/deliveries/dl_nope/redeliver")
        assert missing.status_code == 404 and missing.json()["code"] == "delivery_not_found"
        paged = (await client.get(f"{base}/{webhook}/deliveries", params={"limit": 1})).json()
        assert len(paged["deliveries"]) == 1 and paged["cursor"]
        rest = (
            await client.get(f"{base}/{webhook}/deliveries", params={"limit": 1, "cursor": paged["cursor"]})
        ).json()
        assert rest["deliveries"][0]["id"] == test["id"] and "cursor" not in rest
