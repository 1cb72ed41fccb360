"""CORS: off by default (no headers, a preflight is not answered as one), on for the listed origins."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from app.main import create_app
from tests.conftest import ADMIN_KEY, make_settings

PREFLIGHT = {
    "origin": "https://app.example.com",
    "access-control-request-method": "POST",
    "access-control-request-headers": "authorization, content-type",
}


@pytest.fixture
async def cors_app(database_url: str) -> AsyncIterator[FastAPI]:
    settings = make_settings(database_url, cors_origins="https://app.example.com, http://localhost:5173")
    app = create_app(settings, run_worker=False, migrate_on_start=False)
    async with app.router.lifespan_context(app):
        yield app


async def test_cors_is_off_by_default(anon: httpx.AsyncClient) -> None:
    preflight = await anon.options("/v1/namespaces", headers=PREFLIGHT)
    assert "access-control-allow-origin" not in preflight.headers
    plain = await anon.get("/healthz", headers={"origin": "https://app.example.com"})
    assert "access-control-allow-origin" not in plain.headers


async def test_allowed_origin_gets_preflight_and_headers(cors_app: FastAPI) -> None:
    transport = httpx.ASGITransport(app=cors_app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        preflight = await http.options("/v1/namespaces", headers=PREFLIGHT)
        assert preflight.status_code == 200
        assert preflight.headers["access-control-allow-origin"] == "https://app.example.com"
        assert "POST" in preflight.headers["access-control-allow-methods"]
        assert "authorization" in preflight.headers["access-control-allow-headers"].lower()

        call = await http.post(
            "/v1/namespaces",
            json={"name": "cors-ns"},
            headers={"origin": "https://app.example.com", "authorization": f"Bearer {ADMIN_KEY}"},
        )
        assert call.status_code in (201, 409)
        assert call.headers["access-control-allow-origin"] == "https://app.example.com"
        assert "x-request-id" in call.headers["access-control-expose-headers"].lower()

        refused = await http.options(
            "/v1/namespaces", headers={**PREFLIGHT, "origin": "https://evil.example"}
        )
        assert refused.status_code == 400
        assert "access-control-allow-origin" not in refused.headers
