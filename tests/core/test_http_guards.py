"""Request guards through HTTP: body size limits (413 before parsing), NUL text, problem+json, metrics."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx


async def test_oversized_body_is_413(client: httpx.AsyncClient, ns: str) -> None:
    big = "x" * (1024 * 1024 + 10)
    response = await client.post(f"/v1/namespaces/{ns}/keys", json={"name": big})
    assert response.status_code == 413
    assert response.json()["code"] == "payload_too_large"


async def test_oversized_streamed_body_without_length_is_413(client: httpx.AsyncClient, ns: str) -> None:
    async def chunks() -> AsyncIterator[bytes]:
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


async def test_nul_in_path_or_query_is_422_on_every_route(client: httpx.AsyncClient, ns: str) -> None:
    # Regression: a %00 in a path or query parameter reached PostgreSQL, which refused it with a 500.
    profile = f"/v1/namespaces/{ns}/profiles/alice"
    assert (await client.put(profile)).status_code == 201
    for method, url in [
        ("GET", f"{profile}/sessions/a%00b"),
        ("GET", f"{profile}/sessions/s/messages/%00"),
        ("GET", f"{profile}/sessions/s/messages/%00/branches"),
        ("GET", f"{profile}/memories/%00"),
        ("DELETE", f"{profile}/memories/%00"),
        ("GET", f"{profile}/jobs/%00"),
        ("GET", f"{profile}/context/x/entries/%00"),
        ("DELETE", f"/v1/namespaces/{ns}/keys/%00"),
        ("GET", f"{profile}/search?q=a%00"),
        ("GET", f"{profile}/memories?sessionId=%00"),
        ("GET", f"{profile}/sessions/s/history?leafId=%00"),
        ("POST", f"{profile}/sessions/%00/tools/session_search"),
    ]:
        response = await client.request(method, url, json={} if method == "POST" else None)
        assert response.status_code == 422, (method, url, response.text)
        assert response.json()["code"] == "validation_failed"


async def test_lone_surrogate_in_body_is_422(client: httpx.AsyncClient, ns: str) -> None:
    # Regression: JSON "\ud800" decodes to a lone surrogate, which has no UTF-8 form: a 500 on storing it.
    profile = f"/v1/namespaces/{ns}/profiles/alice"
    json_headers = {"content-type": "application/json"}
    put_block = await client.put(f"{profile}/context/notes", json={"kind": "writable"})
    assert put_block.status_code == 201
    for body in [b'{"content": "\\ud800"}', b'{"content": "a\\uDFFFb"}', b'{"content": "\xed\xa0\x80"}']:
        response = await client.put(f"{profile}/context/notes/content", content=body, headers=json_headers)
        assert response.status_code == 422, (body, response.text)
    key = await client.post(f"/v1/namespaces/{ns}/keys", content=b'{"\\ud800": 1}', headers=json_headers)
    assert key.status_code == 422
    # a surrogate pair is an ordinary character
    emoji = await client.put(
        f"{profile}/context/notes/content", content=b'{"content": "\\ud83d\\ude00"}', headers=json_headers
    )
    assert emoji.status_code == 200 and emoji.json()["content"] == "\U0001f600"


async def test_deeply_nested_body_is_a_client_error(client: httpx.AsyncClient, ns: str) -> None:
    # Regression: the NUL check parsed the body recursively and a RecursionError escaped as a 500.
    body = b"[" * 5000 + b'"\\u0000"' + b"]" * 5000
    for url in [f"/v1/namespaces/{ns}/keys", f"/v1/namespaces/{ns}/profiles/alice/ingest"]:
        response = await client.post(url, content=body, headers={"content-type": "application/json"})
        assert 400 <= response.status_code < 500, response.text


async def test_body_not_in_utf8_is_422(client: httpx.AsyncClient, ns: str) -> None:
    # Regression: FastAPI answered a body it could not decode with an undocumented 400.
    for body in [b"\xff\xfe{}", b'{"name": "\xe9"}', '{"name": "k"}'.encode("utf-16")]:
        response = await client.post(
            f"/v1/namespaces/{ns}/keys", content=body, headers={"content-type": "application/json"}
        )
        assert response.status_code == 422, (body, response.text)
        assert response.json()["code"] == "validation_failed"
    accented = await client.post(f"/v1/namespaces/{ns}/keys", json={"name": "clé é"})
    assert accented.status_code == 201
