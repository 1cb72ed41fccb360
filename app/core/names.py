"""Validated name types (namespace, profile, session, message and entry ids) for bodies and path parameters, with their limits."""

from __future__ import annotations

import unicodedata
from typing import Annotated

from fastapi import Path
from pydantic import AfterValidator, Field, StringConstraints

NAMESPACE_PATTERN = r"^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$"
NAMESPACE_RULE = "1–32 characters of a-z, 0-9 and '-', starting and ending with a letter or digit"
PROFILE_MAX_CHARS = 100


# Characters a profile name may not hold: controls (Cc), invisible formatting and bidirectional controls
# (Cf: zero-width spaces, right-to-left overrides), line and paragraph separators (Zl, Zp), surrogates (Cs),
# private-use and unassigned code points (Co, Cn): names that look alike, or like nothing, are not names.
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})


def check_profile_name(value: str) -> str:
    if "/" in value:
        raise ValueError("profile name must not contain '/'")
    if any(unicodedata.category(c) in _INVISIBLE_CATEGORIES for c in value):
        raise ValueError("profile name must not contain control, invisible or bidirectional characters")
    if value in (".", "..") or not value.strip():
        raise ValueError("profile name must not be '.', '..' or only spaces")
    # A path's bytes that are not UTF-8 (%FF, %FE…) all decode to U+FFFD: such names would alias each other.
    if "\ufffd" in value:
        raise ValueError("profile name must be UTF-8 (percent-encoded bytes like %FF are not)")
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


def _speaker_name(value: str) -> str | None:
    # Surrounding spaces are not part of a name; a name of only spaces is no name (the role speaks).
    return value.strip() or None


# A message's speaker (OpenAI's chat `name`), for ingest and the Session API alike.
SpeakerName = Annotated[
    str,
    StringConstraints(min_length=1, max_length=64),
    AfterValidator(_speaker_name),
    Field(
        description="Who said it (OpenAI's chat `name`, at most 64 characters): used instead of User / "
        "Assistant in memories, summaries, recall and rendered history. A `Name: text` prefix in the "
        "content means the same."
    ),
]

NamespacePath = Annotated[
    str,
    Path(min_length=1, max_length=32, pattern=NAMESPACE_PATTERN, description=f"Namespace: {NAMESPACE_RULE}."),
]
ProfilePath = Annotated[
    str,
    Path(
        min_length=1,
        max_length=PROFILE_MAX_CHARS,
        description="Profile name: 1–100 characters, no control characters or '/'.",
    ),
    AfterValidator(check_profile_name),
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
