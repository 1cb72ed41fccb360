"""Request guards through HTTP: body size limits (413 before parsing), NUL text, problem+json, metrics."""

from __future__ import annotations

import httpx


async def test_oversized_body_is_413(client: httpx.AsyncClient, ns: str) -> None:
    big = "x" * (1024 * 1024 + 10)
    response = await client.post(f"/v1/namespaces/{ns}/keys", json={"name": big})
    assert response.status_code == 413
    assert response.json()["code"] == "payload_too_large"


async def test_oversized_streamed_body_without_length_is_413(client: httpx.AsyncClient, ns: str) -> None:
    async def chunks():  # type: ignore[no-untyped-def]
        for _ in range(20):
            yield b"x" * 65536

    response = await client.post(
        f"/v1/namespaces/{ns}/keys", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413


async def test_nul_is_rejected_with_422(client: httpx.AsyncClient, ns: str) -> None:
    response = await client.post(f"/v1/namespaces/{ns}/keys", json={"name": "a\u0000b"})
    assert response.status_code == 422
    assert response.json()["code"] == "validation_failed"
    # an escaped backslash followed by "u0000" is ordinary text
    ok = await client.post(f"/v1/namespaces/{ns}/keys", json={"name": "a\\u0000b"})
    assert ok.status_code == 201


async def test_malformed_json_is_422_problem(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v1/namespaces", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["errors"]


async def test_unknown_route_is_problem_json(client: httpx.AsyncClient) -> None:
    response = await client.get("/v1/nowhere")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


async def test_readyz_and_metrics(anon: httpx.AsyncClient, client: httpx.AsyncClient) -> None:
    ready = await anon.get("/readyz")
    assert ready.status_code == 200 and ready.json()["status"] == "ready"
    await client.get("/v1/namespaces")
    metrics = await anon.get("/metrics")
    assert metrics.status_code == 200
    assert (
        'agent_memory_http_requests_total{method="GET",route="/v1/namespaces",status="200"}' in metrics.text
    )
    assert "agent_memory_http_request_seconds_bucket" in metrics.text


async def test_request_id_is_echoed(client: httpx.AsyncClient) -> None:
    response = await client.get("/healthz", headers={"X-Request-Id": "abc123"})
    assert response.headers["x-request-id"] == "abc123"
