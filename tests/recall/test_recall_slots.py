"""A process runs a bounded number of recalls at a time (`app.core.work_slots`): a recall that finds every
slot busy past its bound is answered 503 `unavailable` with Retry-After, within the bound, and counted in
/metrics; one that finds a slot free is answered as usual."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from fastapi import FastAPI

from app.core.work_slots import WorkSlots
from tests.conftest import admin_client, make_settings, new_namespace, started_app


@pytest.fixture(scope="module")
async def one_slot_app(database_url: str) -> AsyncIterator[FastAPI]:
    settings = make_settings(database_url, recall_slots=1, db_pool_timeout_seconds=0.3)
    async with started_app(settings) as application:
        yield application


async def test_a_recall_waits_for_a_slot_no_longer_than_its_bound(one_slot_app: FastAPI) -> None:
    slots: WorkSlots = one_slot_app.state.work_slots
    assert slots.slots == 1
    async with admin_client(one_slot_app) as client:
        ns = await new_namespace(client)
        recall = f"/v1/namespaces/{ns}/profiles/alice/recall"
        remembered = await client.post(
            f"/v1/namespaces/{ns}/profiles/alice/remember", json={"content": "I keep bees."}
        )
        assert remembered.status_code == 201
        shed_before = slots.shed
        async with slots.slot():  # the process's one slot, busy
            busy = await client.post(recall, json={"query": "bees"})
        assert busy.status_code == 503, busy.text
        assert busy.json()["code"] == "unavailable" and int(busy.headers["retry-after"]) > 0
        assert slots.shed == shed_before + 1
        metrics = (await client.get("/metrics")).text
        assert "agent_memory_busy_shed_total" in metrics
        free = await client.post(recall, json={"query": "bees"})
        assert free.status_code == 200 and free.json()["count"] == 1, free.text
