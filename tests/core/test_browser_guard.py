"""An open server (no key, loopback) refuses what a web page can send it: a foreign Host (DNS rebinding,
421), a foreign Origin (403, every method), a state-changing body that is not JSON (415, the bodies a page
posts without a CORS preflight). REST and MCP alike; a keyed server's clients are unaffected."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from app.main import create_app
from tests.conftest import fresh_database, make_settings

MCP_INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}
MCP_HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


@pytest.fixture
async def open_http() -> AsyncIterator[httpx.AsyncClient]:
    async with fresh_database("am_guard") as url:
        app: FastAPI = create_app(
            make_settings(url, admin_key=None, cors_origins="https://app.example"), run_worker=False
        )
        async with app.router.lifespan_context(app):
            assert app.state.open_mode.active
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8080") as http:
                yield http


async def test_a_foreign_host_is_refused(open_http: httpx.AsyncClient) -> None:
    for host in ("evil.example.com", "evil.example.com:8080", "127.0.0.1.nip.io", "10.0.0.1"):
        response = await open_http.get("/v1/namespaces", headers={"host": host})
        assert response.status_code == 421, host
        assert response.json()["code"] == "misdirected_request"
    for host in ("127.0.0.1:8080", "localhost:8080", "localhost", "[::1]:8080"):
        assert (await open_http.get("/v1/namespaces", headers={"host": host})).status_code == 200, host
    mcp = await open_http.post("/mcp", json=MCP_INIT, headers={**MCP_HEADERS, "host": "evil.example.com"})
    assert mcp.status_code == 421


async def test_a_foreign_origin_is_refused_on_every_method(open_http: httpx.AsyncClient) -> None:
    evil = {"origin": "https://evil.example.com"}
    assert (await open_http.get("/v1/namespaces", headers=evil)).status_code == 403
    refused = await open_http.post("/v1/namespaces", json={"name": "pwned"}, headers=evil)
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    assert (await open_http.delete("/v1/namespaces/pwned", headers=evil)).status_code == 403
    assert (await open_http.get("/v1/namespaces/pwned")).status_code == 404  # nothing was written
    mcp = await open_http.post("/mcp", json=MCP_INIT, headers={**MCP_HEADERS, **evil})
    assert mcp.status_code == 403
    # The listed origin and loopback pages are let through.
    for origin in ("https://app.example", "http://localhost:5173", "http://127.0.0.1:8080"):
        response = await open_http.get("/v1/namespaces", headers={"origin": origin})
        assert response.status_code == 200, origin


async def test_a_body_a_page_can_post_without_preflight_is_refused(open_http: httpx.AsyncClient) -> None:
    assert (await open_http.post("/v1/namespaces", json={"name": "demo"})).status_code == 201
    line = '{"kind": "memory", "profile": "p", "content": "I moved to Lisbon."}\n'
    for content_type in (
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
    ):
        imported = await open_http.post(
            "/v1/namespaces/demo/import", content=line, headers={"content-type": content_type}
        )
        assert imported.status_code == 415, content_type
        assert imported.json()["code"] == "unsupported_media_type"
        remembered = await open_http.post(
            "/v1/namespaces/demo/profiles/p/remember",
            content='{"content": "I moved to Lisbon."}',
            headers={"content-type": content_type},
        )
        assert remembered.status_code == 415, content_type
        mcp = await open_http.post(
            "/mcp", content=str(MCP_INIT), headers={**MCP_HEADERS, "content-type": content_type}
        )
        assert mcp.status_code == 415, content_type
    listed = await open_http.get("/v1/namespaces/demo/profiles/p/memories")
    assert listed.status_code == 404 or listed.json()["memories"] == []
    ok = await open_http.post(
        "/v1/namespaces/demo/profiles/p/remember", json={"content": "I moved to Lisbon."}
    )
    assert ok.status_code == 201
    mcp = await open_http.post("/mcp", json=MCP_INIT, headers=MCP_HEADERS)
    assert mcp.status_code == 200
