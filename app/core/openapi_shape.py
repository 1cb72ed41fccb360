"""Shapes the OpenAPI document for generated clients (openapi-python-client, openapi-typescript) without
changing what the API accepts or answers:

- inline enums become named schemas (`ThinkingLevel`, `MessageRole`, …), not `RecallRequestThinkinglevel`;
- an inline free-form object becomes the named `JsonObject` (not `ToolCallArgumentsType0`);
- an optional request body is `$ref` with `required: false`, not a `null` union (a client may leave it out);
- in schemas only ever sent (request bodies), a default is said in the description instead of `default`,
  which openapi-typescript would otherwise turn into a required field; the server applies it;
- property `title`s (pydantic's "Thinkinglevel") are dropped: names come from the property names;
- a text response without a schema (`/metrics`) is a string.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, get_args

# Inline enums by their set of values → the schema name they get. The ones a domain declares as a
# `Literal` type are named by the app from those types (`named_literals`); these have no such type.
ENUM_NAMES: dict[frozenset[str], str] = {
    frozenset({"queued", "running", "done", "failed"}): "JobStatus",
    frozenset({"replace", "append"}): "WriteAction",
    frozenset({"streaming", "done"}): "StreamState",
    # Definable kinds (`history` is built in, not defined).
    frozenset({"readonly", "writable", "skill", "search", "summary"}): "BlockKind",
}
JSON_OBJECT = "JsonObject"

Schema = dict[str, Any]
EnumNames = Mapping[frozenset[str], str]


def named_literals(**literals: Any) -> dict[frozenset[str], str]:
    """Schema names by the values of the `Literal` types they name: `named_literals(ToolState=ToolState)`."""
    return {frozenset(str(v) for v in get_args(literal)): name for name, literal in literals.items()}


def _ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def _enum_name(names: EnumNames, owner: str, prop: str, values: list[Any]) -> str:
    named = names.get(frozenset(str(v) for v in values))
    return named or owner + prop[:1].upper() + prop[1:]


def _free_form(node: Schema) -> bool:
    """An object of any keys and values (`dict[str, Any]`)."""
    return (
        node.get("type") == "object" and "properties" not in node and node.get("additionalProperties") is True
    )


def _hoist(node: Schema, owner: str, prop: str, schemas: dict[str, Schema], names: EnumNames) -> Schema:
    """`node` with inline enums and free-form objects replaced by references to named schemas."""
    kept = {k: v for k, v in node.items() if k in ("description", "default")}
    if "enum" in node and node.get("type") == "string":
        name = _enum_name(names, owner, prop, node["enum"])
        existing = schemas.get(name)
        if existing is not None and set(existing.get("enum", [])) != set(node["enum"]):
            name = owner + prop[:1].upper() + prop[1:]  # the same name for other values: keep them apart
        schemas.setdefault(name, {"type": "string", "enum": node["enum"], "title": name})
        return {**_ref(name), **kept}
    if _free_form(node):
        schemas.setdefault(
            JSON_OBJECT, {"type": "object", "additionalProperties": True, "title": JSON_OBJECT}
        )
        return {**_ref(JSON_OBJECT), **kept}
    if "anyOf" in node:
        return {**node, "anyOf": [_hoist(member, owner, prop, schemas, names) for member in node["anyOf"]]}
    if "items" in node and isinstance(node["items"], dict):
        return {**node, "items": _hoist(node["items"], owner, prop, schemas, names)}
    return node


def _refs(node: Any) -> set[str]:
    found: set[str] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
                found.add(ref.rsplit("/", 1)[1])
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _closure(names: set[str], schemas: dict[str, Schema]) -> set[str]:
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen or name not in schemas:
            continue
        seen.add(name)
        todo.extend(_refs(schemas[name]))
    return seen


def _say_default(prop: Schema) -> Schema:
    default = prop["default"]
    if default is None:
        return {k: v for k, v in prop.items() if k != "default"}
    shown = str(default).lower() if isinstance(default, bool) else default
    note = f"Default: `{shown}`."
    description = prop.get("description", "")
    if "default" not in description.lower():
        description = f"{description} {note}".strip()
    return {**{k: v for k, v in prop.items() if k != "default"}, "description": description}


def shape_for_sdks(document: dict[str, Any], literal_names: EnumNames) -> dict[str, Any]:
    """Rewrite `document` in place (see the module docstring); returns it. `literal_names`: the names of
    the domains' `Literal` enums (`named_literals`), with `ENUM_NAMES`."""
    names = {**ENUM_NAMES, **literal_names}
    schemas: dict[str, Schema] = document.setdefault("components", {}).setdefault("schemas", {})

    for name in list(schemas):
        properties = schemas[name].get("properties")
        if not properties:
            continue
        for prop, node in list(properties.items()):
            node = {k: v for k, v in node.items() if k != "title"}
            properties[prop] = _hoist(node, name, prop, schemas, names)

    request_roots: set[str] = set()
    response_roots: set[str] = set()
    for item in document.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", []):
                parameter["schema"] = _hoist(
                    {k: v for k, v in parameter["schema"].items() if k != "title"},
                    "".join(part.title() for part in operation.get("operationId", "").split("_")),
                    parameter["name"],
                    schemas,
                    names,
                )
            body = operation.get("requestBody")
            if body is not None:
                for media in body.get("content", {}).values():
                    schema = media.get("schema", {})
                    members = schema.get("anyOf", [])
                    refs = [m for m in members if "$ref" in m]
                    if len(refs) == 1 and len(members) == 2 and {"type": "null"} in members:
                        media["schema"] = refs[0]  # optional body: leave it out rather than send null
                        body["required"] = False
                request_roots |= _refs(body)
            response_roots |= _refs(operation.get("responses", {}))
            for response in operation.get("responses", {}).values():
                for media_type, media in response.get("content", {}).items():
                    if media_type.startswith("text/") and "schema" not in media:
                        media["schema"] = {"type": "string"}  # /metrics: text, not "any"

    sent_only = _closure(request_roots, schemas) - _closure(response_roots, schemas)
    for name in sent_only:
        properties = schemas[name].get("properties", {})
        required = set(schemas[name].get("required", []))
        for prop, node in list(properties.items()):
            if "default" in node and prop not in required:
                properties[prop] = _say_default(node)
    return document
