"""The Python client's models against the committed OpenAPI document (the CI check of issue 49): every
schema of `openapi/openapi.json` has a class of the same name in `agent_memory_client.models` with the same
fields (by their wire names), and every enumeration a `Literal` of the same values; a field added on either
side and not the other fails here. The check itself is shown to fail on a field added to a copy of the
document and on a field added to a copy of a model. Every operation of the document has its method in both
clients (by its operationId, or the seed API's name). The sync client is checked to be what
clients/python/scripts/unasync.py writes from the async one."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

from agent_memory_client import AsyncMemoryClient, MemoryClient, models
from pydantic import BaseModel, create_model

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = json.loads((ROOT / "openapi" / "openapi.json").read_text())

# Schemas the client does not mirror as a class, and why.
NOT_MIRRORED = {
    "JsonObject": "any JSON object: `dict[str, Any]` where the document refers to it",
}


def wire_fields(model: type[BaseModel]) -> set[str]:
    """A model's fields as the API spells them (its aliases)."""
    return {field.alias or name for name, field in model.model_fields.items()}


def mismatches(document: dict[str, Any], namespace: dict[str, Any]) -> list[str]:
    """Where the document's schemas and the client's models (looked up by name in `namespace`) disagree."""
    problems: list[str] = []
    for name, schema in document["components"]["schemas"].items():
        if name in NOT_MIRRORED:
            continue
        mirror = namespace.get(name)
        if "enum" in schema:
            values = set(typing.get_args(mirror)) if mirror is not None else set()
            if values != set(schema["enum"]):
                problems.append(
                    f"{name}: enum {sorted(schema['enum'])} in the document, {sorted(values)} in the client"
                )
            continue
        if not (isinstance(mirror, type) and issubclass(mirror, BaseModel)):
            problems.append(f"{name}: a schema of the document with no model in agent_memory_client.models")
            continue
        documented = set(schema.get("properties", {}))
        mirrored = wire_fields(mirror)
        for field in sorted(documented - mirrored):
            problems.append(f"{name}.{field}: in the document, not in the client's model")
        for field in sorted(mirrored - documented):
            problems.append(f"{name}.{field}: in the client's model, not in the document")
    return problems


def test_every_schema_has_a_model_with_the_same_fields() -> None:
    problems = mismatches(DOCUMENT, vars(models))
    assert problems == [], "update clients/python/agent_memory_client/models.py:\n" + "\n".join(problems)


def test_a_field_added_to_the_document_fails_the_check() -> None:
    document = copy.deepcopy(DOCUMENT)
    document["components"]["schemas"]["MemoryOut"]["properties"]["importance"] = {"type": "number"}
    document["components"]["schemas"]["MemoryType"]["enum"].append("preference")
    document["components"]["schemas"]["Reminder"] = {
        "type": "object",
        "properties": {"at": {"type": "string"}},
    }
    assert mismatches(document, vars(models)) == [
        "MemoryOut.importance: in the document, not in the client's model",
        "MemoryType: enum ['event', 'fact', 'instruction', 'preference', 'task'] in the document, "
        "['event', 'fact', 'instruction', 'task'] in the client",
        "Reminder: a schema of the document with no model in agent_memory_client.models",
    ]


def test_a_field_added_to_a_model_fails_the_check() -> None:
    widened = create_model("RecallRequest", __base__=models.RecallRequest, rerank=(bool, False))
    namespace = {**vars(models), "RecallRequest": widened}
    assert mismatches(DOCUMENT, namespace) == [
        "RecallRequest.rerank: in the client's model, not in the document"
    ]


# Operations whose client method is named as the seed's API names them, not by the operationId.
METHOD_NAMES = {
    "list_memories": "list",
    "get_memory": "get",
    "edit_memory": "edit",
    "delete_memory": "delete",
    "memory_history": "history",
}
# Operations the client does not wrap, and why.
NOT_WRAPPED = {"metrics": "Prometheus text for a scraper, not for an agent"}


def test_every_operation_has_a_method_in_both_clients() -> None:
    operations = [op["operationId"] for path in DOCUMENT["paths"].values() for op in path.values()]
    wanted = {METHOD_NAMES.get(op, op) for op in operations if op not in NOT_WRAPPED}
    hint = "add it to clients/python/agent_memory_client/_async_client.py, then run clients/python/scripts/unasync.py"
    assert wanted - set(dir(AsyncMemoryClient)) == set(), hint
    assert wanted - set(dir(MemoryClient)) == set(), hint


def test_models_read_the_wire_names() -> None:
    """camelCase on the wire, snake_case in Python."""
    assert "sessionId" in wire_fields(models.MemoryOut)
    assert "metadata" in wire_fields(models.SessionInfo)
    memory = models.MemoryOut.model_validate(
        {
            "id": "01J",
            "type": "preference",  # a type a newer server might send: read, not refused
            "summary": "s",
            "sessionId": None,
            "createdAt": "2024-05-10T09:00:00Z",
            "updatedAt": "2024-05-10T09:00:00Z",
            "content": "c",
            "importance": 0.5,  # a field a newer server might add: kept
        }
    )
    assert memory.type == "preference" and memory.session_id is None
    assert memory.model_extra == {"importance": 0.5}


def test_sync_client_is_written_from_the_async_one() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "clients" / "python" / "scripts" / "unasync.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
