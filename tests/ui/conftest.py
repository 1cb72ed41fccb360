"""Browser tests: `agent-memory serve` on a free loopback port over a fresh PostgreSQL database, driven by
Playwright in Debian's Chromium (installed by .ci/run with apt; Playwright's own browser download is never
used). One server and one browser per module keep the suite fast; each test opens its own pages.

Screenshots land in docs/img/, where docs/inspector.md shows them.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from playwright.sync_api import Browser, Page, Request, expect, sync_playwright

from bench.harness import Server, create_database, drop_database
from tests.conftest import SERVER_URL

CHROMIUM = "/usr/bin/chromium"
# Headless in a container: no sandbox (root), no GPU, and none of the browser's own calls home.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "img"


@dataclass(frozen=True)
class LiveServer:
    base: str
    admin_key: str | None  # None: the server runs open (loopback, no key configured)
    database_url: str

    def api(self, key: str | None = None) -> httpx.Client:
        """A client of the live server sending `key` (the admin key by default; none on an open server)."""
        token = key or self.admin_key
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.base, headers=headers, timeout=30)


@contextmanager
def serve(admin_key: str | None, settings: dict[str, str] | None = None) -> Iterator[LiveServer]:
    """`serve` (API and its worker process) on its own database, with this admin key or open, and these
    `AGENT_MEMORY_*` variables besides."""
    name, database_url = asyncio.run(create_database(SERVER_URL, "am_ui"))
    env = {
        "AGENT_MEMORY_DATABASE_URL": database_url,
        "AGENT_MEMORY_LOG_LEVEL": "WARNING",
        "AGENT_MEMORY_WORKER_POLL_SECONDS": "0.1",
    }
    if admin_key is not None:
        env["AGENT_MEMORY_ADMIN_KEY"] = admin_key
    env.update(settings or {})
    server = Server(env=env, inherit_settings=False)
    server.spawn()
    try:
        server.wait_ready(timeout=180)  # generous: the machine may be loaded far past its cores
        yield LiveServer(server.base_url, admin_key, database_url)
    finally:
        server.stop()
        asyncio.run(drop_database(SERVER_URL, name))


@pytest.fixture(scope="module")
def live_server() -> Iterator[LiveServer]:
    """A server with an admin key, for the module."""
    with serve("amk_uiadmin_" + secrets.token_hex(16)) as server:
        yield server


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `apt-get install chromium` (.ci/run does)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class RequestLog:
    """Every request a page makes, to check that none leaves the server's own origin; and the errors its
    console reports (a script error, or anything the Content-Security-Policy refused)."""

    def __init__(self, page: Page) -> None:
        self.urls: list[str] = []
        self.console_errors: list[str] = []
        page.on("request", self._record)
        page.on("console", lambda message: self._console(message.type, message.text))
        page.on("pageerror", lambda error: self.console_errors.append(str(error)))

    def _console(self, kind: str, text: str) -> None:
        if kind == "error":
            self.console_errors.append(text)

    def _record(self, request: Request) -> None:
        self.urls.append(request.url)

    def foreign(self, base: str) -> list[str]:
        origin = urlsplit(base).netloc
        return [u for u in self.urls if urlsplit(u).netloc != origin and not u.startswith("data:")]


def screenshot(page: Page, name: str, *, scrolled: bool = False) -> None:
    """The viewport as a person sees it, from the top of the page unless `scrolled` keeps where it is."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    if not scrolled:
        page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def sign_in(page: Page, base: str, key: str, *, refused: bool = False) -> None:
    """Type the key in the focused field and press Enter; then wait for the first page (or the refusal)."""
    page.goto(f"{base}/ui")
    key_field = page.get_by_label("API key")
    expect(key_field).to_be_focused()
    key_field.fill(key)
    key_field.press("Enter")
    if refused:
        expect(page.get_by_role("alert")).to_have_text("This key was refused.")
    else:
        expect(page.get_by_role("button", name="Sign out")).to_be_visible()
        expect(page.locator("main h1")).to_be_visible()
