"""The inspector on a server running open (loopback, no key configured), as the API is: signing in with an
empty key works and acts as admin."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.ui.conftest import LiveServer, serve, sign_in


@pytest.fixture(scope="module")
def open_server() -> Iterator[LiveServer]:
    with serve(None) as server:
        yield server


def test_open_server_needs_no_key(open_server: LiveServer, browser: Browser) -> None:
    with open_server.api() as api:
        assert api.post("/v1/namespaces", json={"name": "open-demo"}).status_code == 201
    page = browser.new_page()
    sign_in(page, open_server.base, "")
    expect(page.get_by_text("open server (no key)")).to_be_visible()
    expect(page.get_by_role("link", name="open-demo")).to_be_visible()
    assert page.evaluate("() => sessionStorage.getItem('agent-memory.key')") == ""
    page.close()
