"""Validated name types (namespace, profile, session, message and entry ids) for bodies and path parameters, with their limits."""

from __future__ import annotations

import unicodedata
from typing import Annotated

from fastapi import Path
from pydantic import AfterValidator, Field, StringConstraints

NAMESPACE_PATTERN = r"^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$"
NAMESPACE_RULE = "1–32 characters of a-z, 0-9 and '-', starting and ending with a letter or digit"


PROFILE_NAME_MAX = 100


PROFILE_NAME_RULE = (
    f"1–{PROFILE_NAME_MAX} characters, not '.' or '..', not only whitespace, no '/' and no control, "
    "invisible or bidirectional formatting characters (Unicode Cc, Cf, Zl, Zp: NUL, zero-width space, "
    "right-to-left override…)"
)
# Control (Cc), format (Cf: zero-width and bidirectional marks and overrides), line and paragraph separators
# (Zl, Zp) and surrogates (Cs): characters that make two names look alike, or a name print as another.
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def profile_name_problem(name: str) -> str | None:
    """Why a profile name is refused, or None: the one rule for paths, MCP tools and imported files."""
    if not 1 <= len(name) <= PROFILE_NAME_MAX:
        return f"profile name must be 1–{PROFILE_NAME_MAX} characters"
    if "/" in name:
        return "profile name must not contain '/'"
    if name in (".", ".."):
        return "profile name must not be '.' or '..'"
    if name.isspace():
        return "profile name must not be only whitespace"
    for char in name:
        if unicodedata.category(char) in _INVISIBLE_CATEGORIES:
            return f"profile name must not contain control or invisible characters (U+{ord(char):04X})"
    return None


def _no_control_or_slash(value: str) -> str:
    problem = profile_name_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


NamespaceName = Annotated[
    str,
    StringConstraints(min_length=1, max_length=32, pattern=NAMESPACE_PATTERN),
    Field(description=f"Namespace name: {NAMESPACE_RULE}."),
]


def _no_slash(value: str) -> str:
    # An id with '/' could never be addressed in a path again (the router splits on it), so none is taken.
    if "/" in value:
        raise ValueError("must not contain '/': ids are used as path segments")
    return value


SessionId = Annotated[str, StringConstraints(min_length=1, max_length=64), AfterValidator(_no_slash)]
# Ids of a session's messages go into paths too.
MessageId = Annotated[str, StringConstraints(min_length=1, max_length=128), AfterValidator(_no_slash)]

NamespacePath = Annotated[
    str,
    Path(min_length=1, max_length=32, pattern=NAMESPACE_PATTERN, description=f"Namespace: {NAMESPACE_RULE}."),
]
ProfilePath = Annotated[
    str,
    Path(
        min_length=1,
        max_length=100,
        description=f"Profile name: {PROFILE_NAME_RULE}.",
    ),
    AfterValidator(_no_control_or_slash),
]
SessionPath = Annotated[
    str,
    Path(min_length=1, max_length=64, description="Session id: 1–64 characters, no '/'."),
    AfterValidator(_no_slash),
]
MessagePath = Annotated[
    str,
    Path(min_length=1, max_length=128, description="Message id: 1–128 characters, no '/'."),
    AfterValidator(_no_slash),
]
KeyPath = Annotated[
    str,
    Path(min_length=1, max_length=128, description="Entry key: 1–128 characters, no '/'."),
    AfterValidator(_no_slash),
]
