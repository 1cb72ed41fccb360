"""The inspector on a server running open (loopback, no key configured), as the API is: `/ui` opens on the
namespaces with no sign-in step, and acts as admin; signing out and in again with an empty key still works."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.ui.conftest import LiveServer, RequestLog, serve


@pytest.fixture(scope="module")
def servers(live_server: LiveServer) -> Iterator[tuple[LiveServer, LiveServer]]:
    """(an open server, a closed one), both started before the module's browser: a server's database is made
    with asyncio.run, which cannot run once Playwright's loop does."""
    with serve(None) as open_server:
        yield open_server, live_server


def test_open_server_opens_on_the_namespaces(
    servers: tuple[LiveServer, LiveServer], browser: Browser
) -> None:
    open_server = servers[0]
    with open_server.api() as api:
        assert api.post("/v1/namespaces", json={"name": "open-demo"}).status_code == 201
    page = browser.new_page()
    requests = RequestLog(page)
    page.goto(f"{open_server.base}/ui")
    expect(page.get_by_role("heading", name="Namespaces")).to_be_visible()
    expect(page.get_by_role("link", name="open-demo")).to_be_visible()
    expect(page.get_by_text("open server (no key)")).to_be_visible()
    expect(page.get_by_label("API key")).to_have_count(0)
    assert page.evaluate("() => sessionStorage.getItem('agent-memory.key')") == ""
    assert requests.console_errors == [] and requests.foreign(open_server.base) == []

    # Signed out, the form stays until the reader signs in again; an empty key is the open server's.
    page.get_by_role("button", name="Sign out").click()
    key_field = page.get_by_label("API key")
    expect(key_field).to_be_visible()
    page.reload()
    expect(key_field).to_be_visible()  # #/login: no way back in by itself
    key_field.press("Enter")
    expect(page.get_by_role("link", name="open-demo")).to_be_visible()
    assert requests.console_errors == []
    page.close()


def test_closed_server_asks_for_a_key_and_says_where_one_comes_from(
    servers: tuple[LiveServer, LiveServer], browser: Browser
) -> None:
    live_server = servers[1]
    page = browser.new_page()
    requests = RequestLog(page)
    page.goto(f"{live_server.base}/ui")
    key_field = page.get_by_label("API key")
    expect(key_field).to_be_focused()
    expect(page.locator("form.login")).to_contain_text("agent-memory keys create --admin")
    key_field.press("Enter")  # an empty key, as an open server takes it
    expect(page.get_by_role("alert")).to_contain_text("This server is not open: it needs a key.")
    # Asking whether the server is open leaves no error in the console (the refused empty key's 401 does).
    assert [e for e in requests.console_errors if "status of 401" not in e] == []
    assert len(requests.console_errors) <= 1
    page.close()
