"""What a namespace key may do: its scope, and the scope each operation needs.

- `read`: recall, list, get, summary, history, search, export, events;
- `write`: also ingest, remember, edit and delete memories, sessions and messages, context blocks;
- `admin` (of its namespace): also its keys, webhooks, import, and deleting the namespace.

An admin key of the server (no namespace) may do everything. Only an admin — of the server or of that
namespace — mints or revokes keys, so a leaked read or write key cannot mint itself a successor before it is
revoked. REST operations are judged by their operationId (the endpoint's name) and method; MCP tools by
their name (`app.mcp.server`).
"""

from __future__ import annotations

from typing import Literal, get_args

Scope = Literal["read", "write", "admin"]
SCOPES: tuple[Scope, ...] = get_args(Scope)
RANK: dict[Scope, int] = {"read": 0, "write": 1, "admin": 2}
# A namespace key made without a scope: admin of its namespace, what every namespace key could do before
# scopes (keys made before them keep it).
DEFAULT_SCOPE: Scope = "admin"

# Operations that need the namespace's admin, whatever their method.
ADMIN_OPERATIONS = frozenset(
    {
        "create_key",
        "list_keys",
        "revoke_key",
        "delete_namespace",
        "set_quotas",
        "import_namespace",
        "create_webhook",
        "list_webhooks",
        "get_webhook",
        "update_webhook",
        "delete_webhook",
        "rotate_webhook_secret",
        "send_test_event",
        "list_deliveries",
        "redeliver",
    }
)
# POSTs that only read.
READ_OPERATIONS = frozenset({"recall", "get_summary"})
READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def needed(operation: str, method: str) -> Scope:
    """The scope a REST operation needs."""
    if operation in ADMIN_OPERATIONS:
        return "admin"
    if method.upper() in READ_METHODS or operation in READ_OPERATIONS:
        return "read"
    return "write"


def allows(scope: Scope, need: Scope) -> bool:
    return RANK[scope] >= RANK[need]
