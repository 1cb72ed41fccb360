"""The one rule for JSON a client sends, wherever it arrives (request bodies, the `metadata=` query filter,
import lines): standard JSON numbers only — no `NaN`, `Infinity`, `-Infinity`, nor a number that overflows
to infinity (`1e999`) or has more digits than Python reads — and at most `MAX_JSON_DEPTH` levels of nesting.

PostgreSQL's jsonb cannot store a non-finite number and Python cannot walk (or pydantic validate)
unbounded nesting, so both used to end in a 500; here they are refused as the client's error (422).
`StrictJsonRoute` makes every API route parse its body with `loads`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

# Far deeper than any body of this API needs (a session message's part may itself nest 64 levels inside
# its envelope), and safely below where pydantic (about 255) and Python's recursion (about 1,000) stop.
MAX_JSON_DEPTH = 128

NOT_FINITE = "numbers must be finite: NaN, Infinity and numbers beyond ±1.8e308 (such as 1e999) are not JSON"
TOO_LONG_NUMBER = "a number has too many digits"


def too_deep(max_depth: int) -> str:
    return f"JSON nested too deeply (at most {max_depth} levels)"


class JsonRefused(json.JSONDecodeError):
    """JSON that parses but that this API does not accept (a `ValueError`, as any JSON error is)."""

    def __init__(self, msg: str, doc: str | bytes) -> None:
        text = doc if isinstance(doc, str) else doc.decode("utf-8", "replace")
        super().__init__(msg, text, 0)

    def __str__(self) -> str:
        return (
            self.msg
        )  # JSONDecodeError's own adds "line 1 column 1 (char 0)": the position is not the point


def json_problem(value: Any, max_depth: int = MAX_JSON_DEPTH) -> str | None:
    """Why a parsed JSON value breaks the rule, or None. Iterative, so any depth is walked safely."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, float):
            if not math.isfinite(item):
                return NOT_FINITE
        elif isinstance(item, dict | list):
            if depth >= max_depth:
                return too_deep(max_depth)
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children if isinstance(child, float | dict | list))
    return None


def loads(raw: str | bytes) -> Any:
    """`json.loads` under the rule: `json.JSONDecodeError` (a `ValueError`) for anything it refuses."""
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise JsonRefused(too_deep(MAX_JSON_DEPTH), raw) from None
    except ValueError:  # int() refuses more than sys.get_int_max_str_digits() digits
        raise JsonRefused(TOO_LONG_NUMBER, raw) from None
    problem = json_problem(value)
    if problem is not None:
        raise JsonRefused(problem, raw)
    return value


class StrictJsonRequest(Request):
    """A request whose JSON body is parsed by `loads`."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = loads(await self.body())
        return self._json


class StrictJsonRoute(APIRoute):
    """The route class of every API router: FastAPI reads a JSON body through `Request.json`, so the
    handler gets a `StrictJsonRequest` and a refused body becomes FastAPI's own 422 (`json_invalid`)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict_json_handler(request: Request) -> Response:
            return await handler(StrictJsonRequest(request.scope, request.receive))

        return strict_json_handler
