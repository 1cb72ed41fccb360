"""The Python client's webhook methods end to end, on the app and fixtures of tests/webhooks (loopback targets
allowed, quick retries, a worker whose dispatcher delivers to a real receiver on loopback): register, list,
get, update (None clears the types), send a test event, read the delivery log as an iterator, redeliver,
rotate the secret, delete."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest
from agent_memory_client import AsyncMemoryClient, NotFoundError
from fastapi import FastAPI

from app.core.settings import Settings
from tests.conftest import ADMIN_KEY
from tests.webhooks.conftest import dispatching, hooks_app, hooks_database, hooks_settings
from tests.webhooks.receiver import receiver

__all__ = ["hooks_app", "hooks_database", "hooks_settings"]  # module fixtures here too


@pytest.fixture
async def memory(hooks_app: FastAPI) -> AsyncIterator[AsyncMemoryClient]:
    transport = httpx.ASGITransport(app=hooks_app)
    async with AsyncMemoryClient(
        "http://test", api_key=ADMIN_KEY, namespace="hooks-client", transport=transport
    ) as c:
        await c.create_namespace("hooks-client", exist_ok=True)
        yield c


async def test_webhook_round_trip(
    memory: AsyncMemoryClient, hooks_app: FastAPI, hooks_settings: Settings
) -> None:
    with receiver() as inbox:
        created = await memory.create_webhook(inbox.url, types=["memory.created"], profile="alice")
        assert created.secret.startswith("whsec_") and created.types == ["memory.created"]
        assert [w.id for w in await memory.list_webhooks()] == [created.id]
        cleared = await memory.update_webhook(created.id, types=None)
        assert cleared.types is None and cleared.profile == "alice"  # None clears; left out, unchanged
        assert (await memory.get_webhook(created.id)).types is None

        test = await memory.send_test_event(created.id)
        assert test.event_type == "webhook.test" and test.status == "pending"
        async with dispatching(hooks_app, hooks_settings, name="client-hooks"):
            (got,) = await inbox.wait_for(1)
            assert got.verifies_with(created.secret) and got.message["type"] == "webhook.test"
            again = await memory.redeliver(created.id, test.id)
            assert again.message_id == test.message_id and again.id != test.id
            assert len(await inbox.wait_for(2)) == 2
            for _ in range(100):  # the log is written once the answer is in
                log = [d async for d in memory.list_deliveries(created.id, page_size=1)]
                if all(d.status == "delivered" for d in log):
                    break
                await asyncio.sleep(0.05)
        assert {d.id for d in log} == {test.id, again.id} and all(d.status == "delivered" for d in log)

        rotated = await memory.rotate_webhook_secret(created.id, grace_seconds=60)
        assert rotated.secret != created.secret and rotated.previous_secret_until is not None
        await memory.delete_webhook(created.id)
        with pytest.raises(NotFoundError):
            await memory.get_webhook(created.id)
