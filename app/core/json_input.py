"""The one JSON decoding rule for what clients send (request bodies, the `metadata=` filter, import
lines): JSON as RFC 8259 defines it, so no `NaN`, `Infinity` or number too large for a double (`1e999`),
and no nesting deeper than `MAX_DEPTH`. Python's parser accepts the first two and gives up on the last with
a RecursionError, which became 500s; here each is a `JsonRefused` (a ValueError) that says why."""

from __future__ import annotations

import json
import math
import re
from typing import Any

# Deeper than any request needs (a session message's parts nest up to 64 levels inside the body).
MAX_DEPTH = 100

# Bytes without which a JSON text can hold no non-finite number and no deep nesting: most bodies skip the
# strict parse (`suspect`). A float overflows past ~1.8e308: an exponent of 3 digits or a run of 300 digits.
_SUSPECT = re.compile(rb"NaN|Infinity|[eE][+-]?\d{3}|\d{300}")


class JsonRefused(ValueError):
    """Valid to Python's parser, not to this API."""


def _constant(name: str) -> Any:
    raise JsonRefused(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonRefused(f"the number {text[:40]} is too large for a double")
    return value


def nesting_depth(value: Any) -> int:
    """How deep arrays and objects nest in `value` (iterative: no recursion limit to hit)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            if depth > MAX_DEPTH:
                break
            stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def loads(data: str | bytes) -> Any:
    """Parse JSON under this API's rule. Raises `JsonRefused` for what the rule refuses and
    `json.JSONDecodeError` (also a ValueError) for what is not JSON at all."""
    try:
        value = json.loads(data, parse_constant=_constant, parse_float=_finite)
    except RecursionError:
        raise JsonRefused(f"nests deeper than {MAX_DEPTH} levels") from None
    if nesting_depth(value) > MAX_DEPTH:
        raise JsonRefused(f"nests deeper than {MAX_DEPTH} levels")
    return value


def suspect(data: bytes) -> bool:
    """Whether `data` may break the rule (then parse it with `loads` to know); False means it cannot."""
    return _SUSPECT.search(data) is not None or data.count(b"[") + data.count(b"{") > MAX_DEPTH
