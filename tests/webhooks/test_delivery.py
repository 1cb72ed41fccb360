"""Webhook deliveries end to end: changes made through the API become events, the worker's dispatcher
delivers them to a real receiver on loopback, and the receiver verifies each with the Standard Webhooks
reference library (`standardwebhooks`). Order per endpoint, retries after failures, 410, rotation."""

from __future__ import annotations

import asyncio

import httpx
from fastapi import FastAPI

from app.core.settings import Settings
from tests.webhooks.conftest import dispatching, register
from tests.webhooks.receiver import Received, receiver

ALL_TYPES = {
    "memory.created",
    "memory.updated",
    "memory.superseded",
    "memory.deleted",
    "session.deleted",
    "profile.deleted",
    "ingest.completed",
}


def event_ids(received: list[Received]) -> list[int]:
    return [r.message["data"]["eventId"] for r in received]


async def remember(client: httpx.AsyncClient, url: str, content: str, **extra: object) -> str:
    response = await client.post(f"{url}/remember", json={"content": content, **extra})
    assert response.status_code == 201, response.text
    memory_id: str = response.json()["id"]
    return memory_id


async def wait_until(check: object, timeout: float = 30.0) -> None:
    assert callable(check)
    deadline = asyncio.get_running_loop().time() + timeout
    while not await check():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.05)


async def test_every_event_type_arrives_signed_and_in_order(
    hooks_app: FastAPI, hooks_settings: Settings, hooks_client: httpx.AsyncClient, hooks_ns: str
) -> None:
    client, ns = hooks_client, hooks_ns
    with receiver() as inbox, receiver() as memories_only:
        _, secret = await register(client, ns, inbox.url)
        _, secret2 = await register(client, ns, memories_only.url, types=["memory.created"], profile="bob")
        async with dispatching(hooks_app, hooks_settings):
            alice = f"/v1/namespaces/{ns}/profiles/alice"
            blue = await remember(client, alice, "My favourite colour is blue.")
            assert (
                await client.patch(f"{alice}/memories/{blue}", json={"metadata": {"k": 1}})
            ).status_code == 200
            await remember(client, alice, "My favourite colour is green.")  # supersedes blue
            doomed = await remember(client, alice, "I have a dentist appointment on Friday.")
            assert (await client.delete(f"{alice}/memories/{doomed}")).status_code == 200
            ingested = await client.post(
                f"{alice}/ingest",
                json={
                    "sessionId": "s1",
                    "messages": [{"role": "user", "content": "I moved to Lisbon in 2021."}],
                },
            )
            assert ingested.status_code == 202, ingested.text
            job = f"{alice}/jobs/{ingested.json()['jobId']}"

            async def extracted() -> bool:
                return bool((await client.get(job)).json()["status"] == "done")

            await wait_until(extracted)
            assert (await client.delete(f"{alice}/sessions/s1")).status_code == 204
            bob = f"/v1/namespaces/{ns}/profiles/bob"
            await remember(client, bob, "I play the cello.")
            assert (await client.delete(bob)).status_code == 202

            async def all_arrived() -> bool:
                return any(r.message["type"] == "profile.deleted" for r in inbox.accepted)

            await wait_until(all_arrived)
            await memories_only.wait_for(1)
    got = inbox.accepted
    assert {r.message["type"] for r in got} == ALL_TYPES
    assert all(r.verifies_with(secret) for r in got)
    assert not any(r.verifies_with(secret2) for r in got)
    # Every event of the namespace, once, in order: ids are numbered per namespace from 1.
    assert event_ids(got) == list(range(1, len(got) + 1))
    assert len({r.webhook_id for r in got}) == len(got)
    first = got[0].message
    assert first["data"]["namespace"] == ns and first["data"]["profile"] == "alice"
    assert first["data"]["memory"]["id"] == blue and first["timestamp"].endswith("Z")
    # The filtered endpoint got bob's memory.created only.
    assert [(r.message["type"], r.message["data"]["profile"]) for r in memories_only.accepted] == [
        ("memory.created", "bob")
    ]
    assert memories_only.accepted[0].verifies_with(secret2)


async def test_failures_then_success_deliver_everything_in_order(
    hooks_app: FastAPI, hooks_settings: Settings, hooks_client: httpx.AsyncClient, hooks_ns: str
) -> None:
    client, ns = hooks_client, hooks_ns
    with receiver() as inbox:
        inbox.answer = lambda n: 500 if n <= 6 else 200  # the first six requests fail
        webhook, secret = await register(client, ns, inbox.url)
        url = f"/v1/namespaces/{ns}/profiles/alice"
        for i in range(5):
            await remember(client, url, f"I visited city number {i} last year.")
        async with dispatching(hooks_app, hooks_settings):
            got = await inbox.wait_for(5)
    assert event_ids(got) == [1, 2, 3, 4, 5]
    assert all(r.verifies_with(secret) for r in got)
    # The failed attempts were all of the first event: the next waited for it.
    failed = [r for r in inbox.requests if r.answered == 500]
    assert len(failed) == 6 and {r.message["data"]["eventId"] for r in failed} == {1}
    assert {r.webhook_id for r in failed} == {got[0].webhook_id}, "a retry carries the same webhook-id"
    log = (await client.get(f"/v1/namespaces/{ns}/webhooks/{webhook}/deliveries")).json()["deliveries"]
    assert [d["status"] for d in log] == ["delivered"] * 5
    first = log[-1]
    assert first["attempts"] == 7 and first["responseStatus"] == 200 and first["lastError"] is None
    assert first["responseMs"] is not None
    endpoint = (await client.get(f"/v1/namespaces/{ns}/webhooks/{webhook}")).json()
    assert endpoint["failingSince"] is None and endpoint["cursor"] == 5


async def test_410_disables_the_endpoint(
    hooks_app: FastAPI, hooks_settings: Settings, hooks_client: httpx.AsyncClient, hooks_ns: str
) -> None:
    client, ns = hooks_client, hooks_ns
    with receiver() as inbox:
        inbox.answer = lambda _n: 410
        webhook, _ = await register(client, ns, inbox.url)
        url = f"/v1/namespaces/{ns}/profiles/alice"
        await remember(client, url, "I like green tea.")
        await remember(client, url, "I like black coffee.")
        async with dispatching(hooks_app, hooks_settings):
            await inbox.wait_for(1, accepted=False)

            async def disabled() -> bool:
                got = (await client.get(f"/v1/namespaces/{ns}/webhooks/{webhook}")).json()
                return got["enabled"] is False

            await wait_until(disabled)
            await asyncio.sleep(0.5)  # nothing more is sent
        assert len(inbox.requests) == 1
        endpoint = (await client.get(f"/v1/namespaces/{ns}/webhooks/{webhook}")).json()
        assert "410" in endpoint["disabledReason"]
        # Enabled again, it goes on with the next event.
        inbox.answer = lambda _n: 200
        patched = await client.patch(f"/v1/namespaces/{ns}/webhooks/{webhook}", json={"enabled": True})
        assert patched.status_code == 200 and patched.json()["disabledReason"] is None
        async with dispatching(hooks_app, hooks_settings):
            got = await inbox.wait_for(1)
        assert event_ids(got) == [2]


async def test_failing_for_long_disables_and_says_why(
    hooks_app: FastAPI, hooks_settings: Settings, hooks_client: httpx.AsyncClient, hooks_ns: str
) -> None:
    client, ns = hooks_client, hooks_ns
    impatient = hooks_settings.model_copy(
        update={"webhook_disable_after_seconds": 0.5, "webhook_retry_window_seconds": 0.3}
    )
    with receiver() as inbox:
        inbox.answer = lambda _n: 503
        webhook, _ = await register(client, ns, inbox.url)
        for i in range(3):
            await remember(client, f"/v1/namespaces/{ns}/profiles/alice", f"I own {i + 2} bicycles.")
        async with dispatching(hooks_app, impatient):

            async def disabled() -> bool:
                got = (await client.get(f"/v1/namespaces/{ns}/webhooks/{webhook}")).json()
                return got["enabled"] is False

            await wait_until(disabled)
    endpoint = (await client.get(f"/v1/namespaces/{ns}/webhooks/{webhook}")).json()
    assert endpoint["disabledReason"].startswith("every delivery failed since ")
    assert "HTTP 503" in endpoint["disabledReason"]
    log = (await client.get(f"/v1/namespaces/{ns}/webhooks/{webhook}/deliveries")).json()["deliveries"]
    # Given up after the retry window, each in turn: the stream moved on rather than stall.
    assert log[-1]["status"] == "failed" and log[-1]["lastError"].startswith("HTTP 503")


async def test_rotated_secret_verifies_with_both_during_the_grace_period(
    hooks_app: FastAPI, hooks_settings: Settings, hooks_client: httpx.AsyncClient, hooks_ns: str
) -> None:
    client, ns = hooks_client, hooks_ns
    url = f"/v1/namespaces/{ns}/profiles/alice"
    with receiver() as inbox:
        webhook, old = await register(client, ns, inbox.url)
        async with dispatching(hooks_app, hooks_settings):
            await remember(client, url, "I speak Portuguese.")
            await inbox.wait_for(1)
            rotated = await client.post(f"/v1/namespaces/{ns}/webhooks/{webhook}/rotate-secret")
            assert rotated.status_code == 200, rotated.text
            new = rotated.json()["secret"]
            assert new.startswith("whsec_") and new != old and rotated.json()["previousSecretUntil"]
            await remember(client, url, "I speak Italian.")
            await inbox.wait_for(2)
            # Rotated again with no grace: the one before stops signing at once.
            again = await client.post(
                f"/v1/namespaces/{ns}/webhooks/{webhook}/rotate-secret", json={"graceSeconds": 0}
            )
            newest = again.json()["secret"]
            await remember(client, url, "I speak Greek.")
            got = await inbox.wait_for(3)
    before, during, after = got
    assert before.verifies_with(old) and not before.verifies_with(new)
    assert during.verifies_with(old) and during.verifies_with(new)
    assert len(during.headers["webhook-signature"].split(" ")) == 2
    assert after.verifies_with(newest) and not after.verifies_with(new) and not after.verifies_with(old)
    listed = (await client.get(f"/v1/namespaces/{ns}/webhooks/{webhook}")).json()
    assert "secret" not in listed


async def test_endpoints_are_delivered_to_independently_each_in_order(
    hooks_app: FastAPI, hooks_settings: Settings, hooks_client: httpx.AsyncClient, hooks_ns: str
) -> None:
    """A failing endpoint holds back only itself; many events, two workers, each endpoint in event order."""
    client, ns = hooks_client, hooks_ns
    url = f"/v1/namespaces/{ns}/profiles/alice"
    with receiver() as fast, receiver() as flaky:
        flaky.answer = lambda n: 500 if n % 3 == 0 else 200
        await register(client, ns, fast.url)
        await register(client, ns, flaky.url)
        async with (
            dispatching(hooks_app, hooks_settings, "one"),
            dispatching(hooks_app, hooks_settings, "two"),
        ):
            for i in range(30):
                await remember(client, url, f"Note number {i}: the code is {1000 + i}.")
            got_fast = await fast.wait_for(30)
            got_flaky = await flaky.wait_for(30)
    assert event_ids(got_fast) == list(range(1, 31))
    ids = event_ids(got_flaky)
    assert sorted(set(ids)) == list(range(1, 31))
    assert ids == sorted(ids), "delivered in event order (a duplicate may repeat an id, never go back)"
