"""What an MCP tool call returns: a result's structured content, a problem as a tool error (`isError`,
its text starting with the problem's `code`), the parse of arguments into a request model, and the
middleware that answers a call with unknown or missing arguments with such a coded error."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeVar

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp_types import CallToolResult, TextContent
from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)


def _text(payload: Any) -> str:
    return json.dumps(payload, ensure_ascii=False, default=str)


def _ok(model: BaseModel | dict[str, Any] | None) -> CallToolResult:
    if isinstance(model, BaseModel):
        data: dict[str, Any] = model.model_dump(mode="json", by_alias=True, exclude_none=True)
    else:
        data = model or {}
    return CallToolResult(content=[TextContent(type="text", text=_text(data))], structured_content=data)


def _problem(status: int, code: str, detail: str, **extra: Any) -> CallToolResult:
    data = {"code": code, "status": status, "detail": detail, **extra}
    return CallToolResult(
        content=[TextContent(type="text", text=f"{code}: {detail}")], structured_content=data, is_error=True
    )


def _invalid(exc: ValidationError) -> CallToolResult:
    errors = [{"loc": list(e["loc"]), "msg": e["msg"]} for e in exc.errors()]
    first = errors[0] if errors else {"loc": [], "msg": "invalid arguments"}
    detail = f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}"
    return _problem(422, "validation_failed", detail, errors=errors)


def parse(model: type[M], values: dict[str, Any]) -> M | CallToolResult:
    """A request body from tool arguments, validated by the REST route's own model (its limits)."""
    try:
        return model.model_validate(values)
    except ValidationError as exc:
        return _invalid(exc)


def _argument_problem(tool: str, given: Mapping[str, Any], expected: dict[str, bool]) -> str | None:
    """What is wrong with the names of a call's arguments (unknown ones, required ones missing), in words
    that name the expected arguments; None when the names are right."""
    unknown = [name for name in given if name not in expected]
    missing = [name for name, required in expected.items() if required and name not in given]
    if not unknown and not missing:
        return None
    problems = [f'unknown argument "{name}"' for name in unknown]
    problems += [f'missing required argument "{name}"' for name in missing]
    listed = ", ".join(f"{name} (required)" if required else name for name, required in expected.items())
    return f"{tool}: {'; '.join(problems)}. Its arguments: {listed}."


class CodedToolErrors:
    """Server middleware. A call whose argument names are wrong (`{"id": …}` for `memory_id`) is refused
    before the SDK validates it, with a message naming the expected arguments; a tool error the SDK makes
    itself (arguments that fail the tool's JSON Schema, such as a string for `limit`) carries a code too,
    `validation_failed`, like the tools' own errors."""

    def __init__(self, arguments: dict[str, dict[str, bool]]) -> None:
        self.arguments = arguments  # tool name → its argument names → required

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.method == "tools/call" and ctx.params is not None:
            tool = ctx.params.get("name")
            given = ctx.params.get("arguments") or {}
            if isinstance(tool, str) and tool in self.arguments and isinstance(given, Mapping):
                detail = _argument_problem(tool, given, self.arguments[tool])
                if detail is not None:
                    return _problem(422, "validation_failed", detail).model_dump(
                        mode="json", by_alias=True, exclude_none=True
                    )
        result = await call_next(ctx)
        # The result arrives in its wire form (camelCase keys).
        if ctx.method != "tools/call" or not isinstance(result, dict):
            return result
        if not result.get("isError") or result.get("structuredContent") is not None:
            return result
        texts = [c.get("text", "") for c in result.get("content", []) if isinstance(c, dict)]
        detail = " ".join(t for t in texts if t).strip() or "invalid tool arguments"
        return {
            **result,
            "content": [{"type": "text", "text": f"validation_failed: {detail}"}],
            "structuredContent": {"code": "validation_failed", "status": 422, "detail": detail},
        }
