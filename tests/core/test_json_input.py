"""The one JSON rule (app.core.json_input): non-finite numbers and over-deep nesting are a 422 wherever JSON
arrives — every request body and the `metadata=` query filter — never a 500."""

from __future__ import annotations

import urllib.parse

import httpx
import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute

from app.core.json_input import MAX_JSON_DEPTH, StrictJsonRoute

# Regression: each of these in metadata was a 500 (jsonb refuses NaN/Infinity; 1e999 parses to inf; a
# 5,000-deep object exceeded Python's recursion in the metadata checks).
HOSTILE = ["NaN", "Infinity", "-Infinity", "1e999", "-1e999", '{"a": ' * 5000 + "1" + "}" * 5000]
JSON = {"content-type": "application/json"}


def _bodies(memory_id: str) -> list[tuple[str, str, str]]:
    """(method, path under the profile, body with `{v}` where the hostile metadata value goes)."""
    return [
        ("POST", "/remember", '{"content": "I like tea", "metadata": {"k": {v}}}'),
        ("POST", "/ingest", '{"messages": [{"role": "user", "content": "hi", "metadata": {"k": {v}}}]}'),
        ("POST", "/sessions", '{"metadata": {"k": {v}}}'),
        ("PATCH", f"/memories/{memory_id}", '{"metadata": {"k": {v}}}'),
        ("POST", "/recall", '{"query": "tea", "metadata": {"k": {v}}}'),
    ]


async def test_non_finite_numbers_and_deep_nesting_are_422_everywhere(
    client: httpx.AsyncClient, profile_url: str
) -> None:
    created = await client.post(f"{profile_url}/remember", json={"content": "I like green tea"})
    assert created.status_code == 201, created.text
    for method, path, template in _bodies(created.json()["id"]):
        for value in HOSTILE:
            body = template.replace("{v}", value)
            response = await client.request(method, f"{profile_url}{path}", content=body, headers=JSON)
            assert response.status_code == 422, (method, path, value[:20], response.text)
            problem = response.json()
            assert problem["code"] == "validation_failed"
            assert "finite" in problem["detail"] or "nested too deeply" in problem["detail"], problem
        # lists: 5,000 nested objects would not fit in a URL
        for value in [*HOSTILE[:-1], "[" * 5000 + "]" * 5000]:
            filter_value = urllib.parse.quote('{"k": ' + value + "}")
            listed = await client.get(f"{profile_url}/memories?metadata={filter_value}")
            assert listed.status_code == 422, (value[:20], listed.text)
            assert listed.json()["errors"][0]["loc"] == ["query", "metadata"]


async def test_depth_bound_is_exact(client: httpx.AsyncClient, profile_url: str) -> None:
    # The whole body may nest MAX_JSON_DEPTH levels: {"metadata": {"k": [[…]]}} is 2 + the lists.
    def body(lists: int) -> str:
        return '{"content": "deep", "metadata": {"k": ' + "[" * lists + "]" * lists + "}}"

    ok = await client.post(f"{profile_url}/remember", content=body(MAX_JSON_DEPTH - 2), headers=JSON)
    assert ok.status_code == 201, ok.text
    refused = await client.post(f"{profile_url}/remember", content=body(MAX_JSON_DEPTH - 1), headers=JSON)
    assert refused.status_code == 422
    assert (
        refused.json()["detail"]
        == f"body.0: invalid JSON: JSON nested too deeply (at most {MAX_JSON_DEPTH} levels)"
    )


async def test_finite_numbers_are_kept(client: httpx.AsyncClient, profile_url: str) -> None:
    body = '{"content": "numbers", "metadata": {"ratio": 2.5, "small": -1e-300, "int": 12345678901234567890}}'
    response = await client.post(f"{profile_url}/remember", content=body, headers=JSON)
    assert response.status_code == 201, response.text
    assert response.json()["metadata"] == {"ratio": 2.5, "small": -1e-300, "int": 12345678901234567890}


async def test_ordinary_invalid_json_says_why(client: httpx.AsyncClient, profile_url: str) -> None:
    response = await client.post(f"{profile_url}/remember", content=b'{"content": }', headers=JSON)
    assert response.status_code == 422
    assert response.json()["detail"] == "body.12: invalid JSON: Expecting value"


@pytest.mark.parametrize("digits", [5000])
async def test_number_with_too_many_digits_is_422(
    client: httpx.AsyncClient, profile_url: str, digits: int
) -> None:
    body = '{"content": "x", "metadata": {"k": ' + "9" * digits + "}}"
    response = await client.post(f"{profile_url}/remember", content=body, headers=JSON)
    assert response.status_code == 422, response.text
    assert "too many digits" in response.json()["detail"]


def test_every_api_route_parses_json_by_the_rule(app: FastAPI) -> None:
    routes = [route for route in app.routes if isinstance(route, APIRoute)]
    assert routes
    assert [route.path for route in routes if not isinstance(route, StrictJsonRoute)] == []
