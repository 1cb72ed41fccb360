"""Where each table lives on a Citus cluster: the one place that says how the schema is distributed.

- Per-profile tables are distributed by `profile_id` and co-located, so everything one request touches
  for a profile sits on one worker node.
- Namespace-wide tables (the event outbox) are distributed by `namespace_id`; the webhook tables stay on the
  coordinator (claimed across namespaces, as jobs are).
- `namespaces`, `api_keys` and `profiles` are reference tables (a copy on every node): every request
  resolves its key and its profile by name, and a per-profile table's foreign key to `profiles` is then
  a key to a reference table, which Citus allows. Creating a profile is a write to every node; profiles
  are created far less often than they are read.
- `jobs` stays a table of the coordinator (a Citus local table): workers claim jobs of every profile with
  `FOR UPDATE SKIP LOCKED`, which Citus runs only within one shard.

tests/core/test_citus_ready.py reads the migrated schema from PostgreSQL's catalogs and fails on a table
this map does not place, or one that breaks the rules of its placement (the distribution column in every
primary key and unique index, foreign keys between distributed tables through it, no key from a reference
table to a distributed one); docs/scale-out.md shows `citus_statements()`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Placement = Literal["distributed", "reference", "local"]


@dataclass(frozen=True)
class Distribution:
    placement: Placement
    column: str | None = None  # the distribution column of a distributed table

    def __post_init__(self) -> None:
        if (self.placement == "distributed") != (self.column is not None):
            raise ValueError("a distributed table, and only one, names its distribution column")


BY_PROFILE = Distribution("distributed", "profile_id")
BY_NAMESPACE = Distribution("distributed", "namespace_id")
REFERENCE = Distribution("reference")
COORDINATOR = Distribution("local")

# In the order the statements must run: reference tables first (keys point at them), then each
# distributed table after the tables its foreign keys point at.
TABLES: dict[str, Distribution] = {
    "namespaces": REFERENCE,
    "api_keys": REFERENCE,
    "profiles": REFERENCE,
    "jobs": COORDINATOR,
    "sessions": BY_PROFILE,
    "messages": BY_PROFILE,
    "compactions": BY_PROFILE,
    "memories": BY_PROFILE,
    "memory_sources": BY_PROFILE,
    "memory_versions": BY_PROFILE,
    "memory_embeddings": BY_PROFILE,
    "memory_tombstones": BY_PROFILE,
    "tombstone_messages": BY_PROFILE,
    "context_blocks": BY_PROFILE,
    "context_entries": BY_PROFILE,
    "context_session_blocks": BY_PROFILE,
    "context_session_entries": BY_PROFILE,
    # The event outbox, numbered per namespace (migration 0017): its counter and cursors with it.
    "event_counters": BY_NAMESPACE,
    "events": BY_NAMESPACE,
    "event_cursors": BY_NAMESPACE,
    # Quotas' usage counters and request windows, one row per namespace (migration 0022).
    "namespace_usage": BY_NAMESPACE,
    "namespace_usage_changes": BY_NAMESPACE,
    "namespace_request_windows": BY_NAMESPACE,
    # Webhook endpoints are claimed across namespaces with `FOR UPDATE SKIP LOCKED` (the dispatcher's lease),
    # as jobs are: tables of the coordinator, their deliveries with them.
    "webhook_endpoints": COORDINATOR,
    "webhook_deliveries": COORDINATOR,
}

# Tables of the tools, not of the product.
UNPLACED = frozenset({"alembic_version"})


def citus_statements() -> list[str]:
    """The calls that distribute a migrated database, run once on the coordinator (in this order)."""
    statements: list[str] = []
    anchors: dict[str, str] = {}  # distribution column → the first table distributed by it
    for table, where in TABLES.items():
        if where.placement == "reference":
            statements.append(f"SELECT create_reference_table('{table}');")
        elif where.placement == "local":
            statements.append(f"SELECT citus_add_local_table_to_metadata('{table}');")
        else:
            assert where.column is not None
            anchor = anchors.setdefault(where.column, table)
            colocate = "" if anchor == table else f", colocate_with => '{anchor}'"
            statements.append(f"SELECT create_distributed_table('{table}', '{where.column}'{colocate});")
    return statements
