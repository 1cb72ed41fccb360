"""The shape of an API key, `amk_<keyId>_<secret>`: parsing it, and telling a real key from a weak one."""

from __future__ import annotations

import math
import re
from collections import Counter

KEY_PREFIX = "amk"
# A minted secret is 48 hex characters; a configured admin key needs at least 32 (128 bits of hex).
SECRET_MIN_CHARS = 32
# Shannon entropy of the secret's characters, in bits per character: random hex of 32 characters never
# measured under 2.78 in 200,000 draws; "abcd" repeated is 2.0, one character repeated 0.
SECRET_MIN_BITS_PER_CHAR = 2.5
_SECRET_CHARS = re.compile(r"[A-Za-z0-9-]+")


def parse_key(token: str) -> tuple[str, str] | None:
    parts = token.split("_")
    if len(parts) != 3 or parts[0] != KEY_PREFIX or not parts[1] or not parts[2]:
        return None
    return parts[1], parts[2]


def _bits_per_char(text: str) -> float:
    counts = Counter(text)
    return -sum(n / len(text) * math.log2(n / len(text)) for n in counts.values())


def weak_key_problem(token: str) -> str | None:
    """Why a key given by hand (AGENT_MEMORY_ADMIN_KEY) is not a real key, or None."""
    parsed = parse_key(token)
    if parsed is None:
        return "must look like amk_<keyId>_<secret>"
    _, secret = parsed
    if len(secret) < SECRET_MIN_CHARS or not _SECRET_CHARS.fullmatch(secret):
        return f"the secret must be at least {SECRET_MIN_CHARS} characters of hex or base64url (got {len(secret)})"
    if _bits_per_char(secret) < SECRET_MIN_BITS_PER_CHAR:
        return "the secret is too regular to be random"
    return None
