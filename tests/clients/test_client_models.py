"""The Python client's models against the committed OpenAPI document (the CI check of issue 49): every
schema of `openapi/openapi.json` has a class of the same name in `agent_memory_client.models` with the same
fields (by their wire names), each field referring to the same schemas (the enumeration or the model it is
typed with; an answer may read an enumeration as a plain `str`), and every enumeration a `Literal` of the
same values; a field added on either side and not the other fails here. The check itself is shown to fail
on a field added to a copy of the document, on a field added to a copy of a model, and on a field typed
with another enumeration or model than the document's. Every operation of the document has its method in both
clients (by its operationId, or the seed API's name). The sync client is checked to be what
clients/python/scripts/unasync.py writes from the async one."""

from __future__ import annotations

import ast
import copy
import inspect
import json
import re
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


def _document_refs(schema: Any) -> set[str]:
    """The schemas a property's schema refers to (through anyOf, items, …), by name."""
    if isinstance(schema, dict):
        found = {schema["$ref"].rsplit("/", 1)[1]} if isinstance(schema.get("$ref"), str) else set()
        return found.union(*(_document_refs(v) for k, v in schema.items() if k != "$ref"))
    if isinstance(schema, list):
        return set().union(*(_document_refs(v) for v in schema))
    return set()


def _module_aliases() -> dict[str, set[str]]:
    """The module-level aliases of agent_memory_client.models (`Part = Annotated[TextPart | …]`): the
    names each one's expression mentions."""
    tree = ast.parse(inspect.getsource(models))
    return {
        node.targets[0].id: {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
        for node in tree.body
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
    }


ALIASES = _module_aliases()


def _client_refs(annotation: str, schemas: set[str], seen: frozenset[str] = frozenset()) -> set[str]:
    """The document's schemas a field's annotation (as written) refers to, through the module's aliases."""
    found: set[str] = set()
    for name in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", annotation):
        if name in schemas:
            found.add(name)
        elif name in ALIASES and name not in seen:
            found |= _client_refs(" ".join(ALIASES[name]), schemas, seen | {name})
    return found


def _annotation(model: type[BaseModel], field: str) -> str:
    """A field's annotation as written in its class (the module postpones annotations: a string)."""
    for klass in model.__mro__:
        written = vars(klass).get("__annotations__", {}).get(field)
        if written is not None:
            return written if isinstance(written, str) else repr(written)
    return ""


def _enums(names: set[str], schemas: dict[str, Any]) -> set[str]:
    return {n for n in names if "enum" in schemas[n]}


def _ref_problems(
    name: str, schema: dict[str, Any], model: type[BaseModel], document: dict[str, Any]
) -> list[str]:
    """Fields typed with another enumeration or model than the document's."""
    schemas = document["components"]["schemas"]
    names = set(schemas) - set(NOT_MIRRORED)
    problems = []
    for field_name, field in model.model_fields.items():
        wire = field.alias or field_name
        if wire not in schema.get("properties", {}):
            continue
        documented = _document_refs(schema["properties"][wire]) & names
        typed = _client_refs(_annotation(model, field_name), names)
        if not issubclass(model, models.RequestModel) and not _enums(typed, schemas):
            # Answers (and parts, read back as sent) may read an enumeration as a plain string: a newer
            # server's value is kept.
            documented -= _enums(documented, schemas)
        if documented != typed:
            problems.append(
                f"{name}.{wire}: refers to {sorted(documented)} in the document, {sorted(typed)} in the client"
            )
    return problems


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
        problems.extend(_ref_problems(name, schema, mirror, document))
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


class BlockOutTypedWithTheKeysScope(models.BlockOut):
    """The mistake the check once missed: a block's scope typed as a key's (the names and values of both
    enumerations were right)."""

    scope: models.KeyScope  # type: ignore[assignment]


def test_a_field_typed_with_another_enumeration_or_model_fails_the_check() -> None:
    namespace = {**vars(models), "BlockOut": BlockOutTypedWithTheKeysScope}
    assert mismatches(DOCUMENT, namespace) == [
        "BlockOut.scope: refers to ['BlockOutScope'] in the document, ['KeyScope'] in the client"
    ]
    document = copy.deepcopy(DOCUMENT)
    schemas = document["components"]["schemas"]
    schemas["EditRequest"]["properties"]["type"]["anyOf"][0] = {"$ref": "#/components/schemas/JobStatus"}
    schemas["SessionList"]["properties"]["sessions"]["items"] = {"$ref": "#/components/schemas/MemoryOut"}
    assert mismatches(document, vars(models)) == [
        "EditRequest.type: refers to ['JobStatus'] in the document, ['MemoryType'] in the client",
        "SessionList.sessions: refers to ['MemoryOut'] in the document, ['SessionInfo'] in the client",
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
