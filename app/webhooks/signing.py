"""Standard Webhooks signatures: `whsec_` secrets and the `webhook-*` headers of a delivery.

A secret is `whsec_` and the base64 of 32 random bytes; the signature of a message is
`v1,` + base64(HMAC-SHA256(key = those bytes, `{webhook-id}.{webhook-timestamp}.{body}`)). During a
rotation's grace period a message is signed with both secrets, the signatures space-separated, so a receiver
holding either verifies it (https://www.standardwebhooks.com/, the specification's "Signature scheme").
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

SECRET_PREFIX = "whsec_"
SECRET_BYTES = 32


def new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def _key(secret: str) -> bytes:
    return base64.b64decode(secret.removeprefix(SECRET_PREFIX))


def signature(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    """One `v1,<base64>` signature of the message with this secret."""
    signed = f"{message_id}.{timestamp}.".encode() + body
    digest = hmac.new(_key(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def headers(signing_secrets: list[str], message_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    """The three headers of a delivery, signed with every secret given (the current one first)."""
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": " ".join(signature(s, message_id, timestamp, body) for s in signing_secrets),
    }
