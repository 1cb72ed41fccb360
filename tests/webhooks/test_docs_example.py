"""docs/webhooks.md's Python verification example, taken from the page and run on real deliveries: it accepts
what the worker sends (one signature, and two during a rotation) and refuses a changed body or another
secret."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.core.settings import Settings
from tests.webhooks.conftest import dispatching, register
from tests.webhooks.receiver import receiver

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "webhooks.md").read_text()


def _verify_from_the_page() -> Callable[[str, dict[str, str], bytes], Any]:
    section = PAGE.split("### Python", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, flags=re.S)
    assert code is not None
    scope: dict[str, Any] = {}
    exec(compile(code.group(1), "docs/webhooks.md", "exec"), scope)
    verify: Callable[[str, dict[str, str], bytes], Any] = scope["verify"]
    return verify


async def test_the_python_example_verifies_deliveries(
    hooks_app: FastAPI, hooks_settings: Settings, hooks_client: httpx.AsyncClient, hooks_ns: str
) -> None:
    verify = _verify_from_the_page()
    base = f"/v1/namespaces/{hooks_ns}/webhooks"
    with receiver() as inbox:
        webhook, secret = await register(hooks_client, hooks_ns, inbox.url)
        async with dispatching(hooks_app, hooks_settings):
            await hooks_client.post(f"{base}/{webhook}/test")
            await inbox.wait_for(1)
            new = (await hooks_client.post(f"{base}/{webhook}/rotate-secret")).json()["secret"]
            await hooks_client.post(f"{base}/{webhook}/test")
            plain, rotated = await inbox.wait_for(2)
    assert verify(secret, plain.headers, plain.body)["type"] == "webhook.test"
    assert verify(secret, rotated.headers, rotated.body)["data"]["webhookId"] == webhook
    assert verify(new, rotated.headers, rotated.body)["type"] == "webhook.test"
    with pytest.raises(ValueError):
        verify(new, plain.headers, plain.body)
    with pytest.raises(ValueError):
        verify(secret, plain.headers, plain.body.replace(b"webhook.test", b"webhook.tost"))
