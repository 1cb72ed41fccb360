"""The guard against server-side request forgery, with non-public targets not allowed (the default): URLs
at loopback, private, link-local and metadata addresses are refused when registered; a name that resolves
to loopback, and a redirect towards one, are refused when delivered (the worker checks every address it
resolves, connects to the checked one, and never follows a redirect)."""

from __future__ import annotations

import asyncio
from ipaddress import ip_address
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.core.settings import Settings
from app.webhooks import targets
from tests.webhooks.conftest import dispatching, register
from tests.webhooks.receiver import receiver

REFUSED = [
    "http://127.0.0.1/hook",
    "http://127.1.2.3:8080/hook",
    "http://[::1]/hook",
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.5/hook",
    "http://10.255.1.1:9000/x",
    "http://192.168.1.10/",
    "http://172.16.0.1/",
    "http://[fd00:ec2::254]/",
    "http://[::ffff:127.0.0.1]/",
    "http://0.0.0.0/",
    "http://localhost/hook",
    "http://localhost./hook",
    "http://api.localhost/hook",
]


async def test_non_public_urls_are_refused_at_registration(client: httpx.AsyncClient, ns: str) -> None:
    """The suite's app has the default settings: nothing non-public allowed."""
    for url in REFUSED:
        response = await client.post(f"/v1/namespaces/{ns}/webhooks", json={"url": url})
        assert response.status_code == 422, url
        assert response.json()["code"] == "webhook_url_refused", url
    assert (await client.get(f"/v1/namespaces/{ns}/webhooks")).json()["webhooks"] == []


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "[::1]", "vm"])
async def test_loopback_targets_are_refused_when_delivered(
    hooks_app: FastAPI, hooks_settings: Settings, hooks_client: httpx.AsyncClient, hooks_ns: str, host: str
) -> None:
    """Registered while the operator allowed them, delivered by a worker that does not: every resolved
    address is checked at delivery time (`localhost` and `vm`, from /etc/hosts, resolve to 127.0.0.1)."""
    strict = hooks_settings.model_copy(update={"webhook_allow_private": ""})
    with receiver("::1" if host == "[::1]" else "127.0.0.1") as inbox:
        port = inbox.url.rsplit(":", 1)[1].split("/")[0]
        webhook, _ = await register(hooks_client, hooks_ns, f"http://{host}:{port}/hook")
        sent = await hooks_client.post(f"/v1/namespaces/{hooks_ns}/webhooks/{webhook}/test")
        assert sent.status_code == 202
        async with dispatching(hooks_app, strict):
            log = await _settled(hooks_client, hooks_ns, webhook)
        assert inbox.requests == []
    assert log["status"] == "failed" and log["responseStatus"] is None
    assert log["lastError"].startswith("refused: ") and "(loopback)" in log["lastError"]


async def test_a_redirect_is_not_followed(
    hooks_app: FastAPI, hooks_settings: Settings, hooks_client: httpx.AsyncClient, hooks_ns: str
) -> None:
    """Only 127.0.0.2 allowed: the receiver there redirects to 127.0.0.1, which is never asked."""
    only_one = hooks_settings.model_copy(update={"webhook_allow_private": "127.0.0.2/32"})
    with receiver("127.0.0.1") as target, receiver("127.0.0.2") as redirecting:
        redirecting.answer = lambda _n: (307, {"Location": target.url})
        webhook, _ = await register(hooks_client, hooks_ns, redirecting.url)
        await hooks_client.post(f"/v1/namespaces/{hooks_ns}/webhooks/{webhook}/test")
        async with dispatching(hooks_app, only_one):
            log = await _settled(hooks_client, hooks_ns, webhook)
        assert len(redirecting.requests) == 1 and target.requests == []
    assert log["status"] == "failed" and log["responseStatus"] == 307
    assert log["lastError"] == f"HTTP 307: redirect to {target.url} not followed"


async def _settled(client: httpx.AsyncClient, ns: str, webhook: str) -> dict[str, Any]:
    for _ in range(400):
        log = (await client.get(f"/v1/namespaces/{ns}/webhooks/{webhook}/deliveries")).json()["deliveries"]
        if log and log[0]["status"] != "pending":
            entry: dict[str, Any] = log[0]
            return entry
        await asyncio.sleep(0.05)
    raise AssertionError("the delivery was not tried")


def test_every_kind_of_non_public_address_is_refused_and_public_ones_are_not() -> None:
    none = targets.AllowPrivate.parse("")
    for address in [
        "127.0.0.1",
        "::1",
        "169.254.169.254",
        "10.1.2.3",
        "100.64.0.1",
        "fe80::1",
        "224.0.0.1",
        "::ffff:10.0.0.1",
        "64:ff9b::7f00:1",
        "100.100.100.200",
        "0.0.0.0",
        "::",
    ]:
        assert targets.refusal(ip_address(address), none) is not None, address
    for address in ["93.184.216.34", "2606:4700::6810:84e5", "8.8.8.8"]:
        assert targets.refusal(ip_address(address), none) is None, address
    everything = targets.AllowPrivate.parse("true")
    assert targets.refusal(ip_address("10.1.2.3"), everything) is None
    # Allowing private targets never opens the metadata service, unless a network names it.
    assert targets.refusal(ip_address("169.254.169.254"), everything) is not None
    listed = targets.AllowPrivate.parse("10.1.0.0/16, 169.254.169.254")
    assert targets.refusal(ip_address("10.1.9.9"), listed) is None
    assert targets.refusal(ip_address("10.2.0.1"), listed) is not None
    assert targets.refusal(ip_address("169.254.169.254"), listed) is None
