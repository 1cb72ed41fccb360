"""The committed OpenAPI document matches the app, and follows the house rules for generated SDKs."""

from __future__ import annotations

import json

from app.cli import OPENAPI_PATH, render_openapi


def test_committed_openapi_matches_the_app() -> None:
    current = render_openapi()
    committed = OPENAPI_PATH.read_text(encoding="utf-8") if OPENAPI_PATH.exists() else ""
    assert committed == current, (
        "openapi/openapi.json is stale: run `agent-memory openapi --write` and commit it"
    )


def test_operation_ids_unique_snake_case_and_errors_declared() -> None:
    document = json.loads(render_openapi())
    seen: set[str] = set()
    for path, item in document["paths"].items():
        for method, operation in item.items():
            op_id = operation["operationId"]
            assert op_id == op_id.lower() and " " not in op_id, op_id
            assert op_id not in seen, f"duplicate operationId {op_id}"
            seen.add(op_id)
            if path.startswith("/v1/"):
                codes = set(operation["responses"])
                assert "401" in codes and "422" in codes, f"{method.upper()} {path} declares {codes}"
    assert "HTTPBearer" in document["components"]["securitySchemes"]
