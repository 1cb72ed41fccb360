"""The committed OpenAPI document reads well to SDK generators: clean schema names, optional bodies that
may be left out, request defaults that are not required fields, typed message parts, text metrics."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOCUMENT: dict[str, Any] = json.loads((ROOT / "openapi" / "openapi.json").read_text())
SCHEMAS: dict[str, Any] = DOCUMENT["components"]["schemas"]
PROFILE = "/v1/namespaces/{namespace}/profiles/{profile}"


def test_no_inline_enums_or_anonymous_objects() -> None:
    for name, schema in SCHEMAS.items():
        assert not re.search(r"Type\d|Thinkinglevel|Responselength", name), name
        for prop, node in (schema.get("properties") or {}).items():
            for member in [node, *node.get("anyOf", []), node.get("items") or {}]:
                assert "enum" not in member, (name, prop)
                assert not (member.get("type") == "object" and member.get("additionalProperties") is True), (
                    name,
                    prop,
                )
            assert "title" not in node, (name, prop)
    assert SCHEMAS["ThinkingLevel"]["enum"] == ["low", "medium", "high"]
    assert {"MemoryType", "MessageRole", "JobStatus", "ResponseLength", "JsonObject"} <= set(SCHEMAS)


def test_request_defaults_are_not_required_fields() -> None:
    recall = SCHEMAS["RecallRequest"]
    assert recall["required"] == ["query"]
    for prop in ("thinkingLevel", "responseLength", "limit"):
        assert "default" not in recall["properties"][prop]
        assert "Default:" in recall["properties"][prop]["description"]


def test_optional_bodies_can_be_left_out() -> None:
    for path in (f"{PROFILE}/summary", f"{PROFILE}/sessions/{{session_id}}/compact"):
        body = DOCUMENT["paths"][path]["post"]["requestBody"]
        assert body.get("required") is False
        assert "$ref" in body["content"]["application/json"]["schema"]


def test_metrics_is_text() -> None:
    content = DOCUMENT["paths"]["/metrics"]["get"]["responses"]["200"]["content"]
    assert content == {"text/plain": {"schema": {"type": "string"}}}


def test_message_parts_are_a_union_of_ai_sdk_parts_with_a_catch_all() -> None:
    items = SCHEMAS["SessionMessage"]["properties"]["parts"]["items"]
    names = [member["$ref"].rsplit("/", 1)[1] for member in items["anyOf"]]
    assert names[0] == "TextPart" and names[-1] == "UnknownPart"
    assert {"ReasoningPart", "ToolPart", "DynamicToolPart", "FilePart", "DataPart"} <= set(names)
    assert SCHEMAS["TextPart"]["properties"]["type"]["const"] == "text"
    assert SCHEMAS["ToolPart"]["properties"]["type"]["pattern"] == "^tool-.+"
    assert {"toolCallId", "state"} <= set(SCHEMAS["ToolPart"]["required"])


def test_clients_guide_shows_the_examples_ci_checks() -> None:
    guide = (ROOT / "docs" / "clients.md").read_text()
    for name, fence in (("example.py", "```python\n"), ("example.ts", "```ts\n")):
        assert fence + (ROOT / ".ci" / "sdk" / name).read_text() + "```" in guide, name


def test_import_body_is_bytes_a_generator_reads() -> None:
    """Declared as application/x-ndjson, the import was left out of the generated Python client."""
    body = DOCUMENT["paths"]["/v1/namespaces/{namespace}/import"]["post"]["requestBody"]
    assert body["required"] is True
    assert list(body["content"]) == ["application/octet-stream"]
    assert body["content"]["application/octet-stream"]["schema"]["format"] == "binary"
