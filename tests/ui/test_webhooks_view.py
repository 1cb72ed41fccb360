"""The inspector's webhooks view in Chromium against a live server whose worker delivers to a receiver on
loopback (`AGENT_MEMORY_WEBHOOK_ALLOW_PRIVATE`, on in tests only): from the namespace to its endpoints, an
endpoint's delivery log, "Send a test event" (the receiver answers it 500: the log says so) and "Redeliver"
(the same message, the same webhook-id, now delivered). The page asks no host but its own."""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.ui.conftest import LiveServer, RequestLog, screenshot, serve, sign_in
from tests.webhooks.receiver import Received, receiver


@pytest.fixture(scope="module")
def hooks_server() -> Iterator[LiveServer]:
    with serve(
        "amk_uiadmin_" + secrets.token_hex(16), {"AGENT_MEMORY_WEBHOOK_ALLOW_PRIVATE": "true"}
    ) as server:
        yield server


def _requests(inbox_requests: list[Received], n: int) -> list[Received]:
    deadline = time.monotonic() + 60
    while len(inbox_requests) < n and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(inbox_requests) >= n, inbox_requests
    return inbox_requests


def test_delivery_log_test_event_and_redeliver(hooks_server: LiveServer, browser: Browser) -> None:
    ns = "ui-hooks-" + secrets.token_hex(2)
    with receiver() as inbox, hooks_server.api() as api:
        inbox.answer = lambda n: 500 if n == 2 else 200  # the first test event fails, its redelivery not
        assert api.post("/v1/namespaces", json={"name": ns}).status_code == 201
        created = api.post(f"/v1/namespaces/{ns}/webhooks", json={"url": inbox.url})
        assert created.status_code == 201, created.text
        webhook, secret = created.json()["id"], created.json()["secret"]
        remembered = api.post(
            f"/v1/namespaces/{ns}/profiles/alice/remember", json={"content": "I like figs."}
        )
        assert remembered.status_code == 201
        _requests(inbox.requests, 1)

        page = browser.new_page(viewport={"width": 1280, "height": 900})
        log = RequestLog(page)
        sign_in(page, hooks_server.base, hooks_server.admin_key or "")
        page.goto(f"{hooks_server.base}/ui#/ns/{ns}")
        page.get_by_role("link", name="Webhooks and their delivery log").click()
        expect(page.get_by_role("heading", name=f"Webhooks of {ns}")).to_be_visible()
        page.get_by_role("link", name=webhook).click()
        expect(page.get_by_role("heading", name=webhook)).to_be_visible()
        rows = page.locator("table.deliveries tbody tr")
        expect(rows).to_have_count(1)
        expect(rows.first).to_contain_text("memory.created")
        expect(rows.first).to_contain_text("delivered")

        page.get_by_role("button", name="Send a test event").click()
        expect(page.locator("#notice")).to_contain_text("Test event msg_")
        test = _requests(inbox.requests, 2)[1]
        assert test.message["type"] == "webhook.test" and test.answered == 500 and test.verifies_with(secret)
        page.get_by_role("button", name="Reload").click()
        expect(rows).to_have_count(2)
        failed = rows.filter(has_text="webhook.test")
        expect(failed).to_contain_text("failed")
        expect(failed).to_contain_text("HTTP 500")
        screenshot(page, "inspector-webhook")

        failed.get_by_role("button", name=re.compile("^Redeliver")).click()
        expect(page.locator("#notice")).to_contain_text(f"Message {test.webhook_id} queued again")
        again = _requests(inbox.requests, 3)[2]
        assert again.webhook_id == test.webhook_id and again.body == test.body and again.answered == 200
        page.get_by_role("button", name="Reload").click()
        expect(rows).to_have_count(3)
        expect(rows.first).to_contain_text("delivered")
        assert log.foreign(hooks_server.base) == [] and log.console_errors == []
        page.close()
