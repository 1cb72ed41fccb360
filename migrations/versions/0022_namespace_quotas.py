"""Per-namespace quotas: limits on `namespaces`, usage kept by counters, request windows (app.quotas).

- `namespaces.quota_memories`, `quota_messages`, `quota_bytes`, `quota_requests_per_minute`: the
  namespace's own limits; NULL takes the server's default (`AGENT_MEMORY_QUOTA_*`), 0 means no limit.
- `namespace_usage`: one row per namespace, its active memories (not superseded), session messages and
  stored bytes (`pg_column_size` of memories' content and messages' parts: what PostgreSQL keeps of them,
  compressed when large). Made with the namespace (trigger `namespace_usage_row`).
- `namespace_usage_changes`: what statements changed, not yet folded into the row.
- `namespace_request_windows`: requests counted in the namespace's current one-minute window.

Why counters kept by triggers: memories and messages are written in many places (the one-statement
remember, extraction's bulk insert, supersession in SQL, ingest, the Session API, fork, split, import,
deletes, the purge), and the tables are the one place all of them pass through; usage is then read from a
row, never with COUNT(*) over a big table.

Why changes first, folded at commit without waiting. A statement-level trigger on `memories` and `messages`
(their transition tables, so a 500-row insert is one row here) writes the statement's change per
namespace into `namespace_usage_changes`: an insert, which waits on nothing. At commit, a deferred trigger
folds the namespace's changes into its `namespace_usage` row, but only if it can lock that row at once
(`SKIP LOCKED`): a writer never waits on the counter, so the counter takes no part in any lock cycle
(beside the event counter, which writers do lock at commit, migration 0017). Changes left because the row
was busy are folded by the namespace's next commit; usage is the row plus the changes visible (committed
leftovers, few, and the reader's own). Quota checks that must be exact under concurrency take a
transaction-scoped advisory lock of the namespace first (app.quotas.repository), which works through a
transaction-mode pooler.

Revision ID: 0022
Revises: 0021
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LIMITS = ("quota_memories", "quota_messages", "quota_bytes", "quota_requests_per_minute")

# One statement's change per namespace: `rows` the transition table, `sign` 1 (inserted) or -1 (deleted).
_INSERT_OR_DELETE = """
CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO namespace_usage_changes (namespace_id, memories, messages, bytes)
    SELECT p.namespace_id, {sign} * {count}, {sign} * {messages}, {sign} * sum({size})
    FROM changed r JOIN profiles p ON p.id = r.profile_id
    GROUP BY p.namespace_id;
    RETURN NULL;
END $$
"""


def _changes(name: str, sign: int, table: str) -> str:
    if table == "memories":
        count, messages, size = (
            "count(*) FILTER (WHERE r.superseded_by IS NULL)",
            "0",
            "pg_column_size(r.content)",
        )
    else:
        count, messages, size = "0", "count(*)", "pg_column_size(r.parts)"
    return _INSERT_OR_DELETE.format(name=name, sign=sign, count=count, messages=messages, size=size)


def upgrade() -> None:
    for column in LIMITS:
        op.add_column("namespaces", sa.Column(column, sa.BigInteger(), nullable=True))
        op.create_check_constraint(f"ck_namespaces_{column}", "namespaces", f"{column} >= 0")
    op.create_table(
        "namespace_usage",
        sa.Column("namespace_id", sa.BigInteger(), nullable=False),
        sa.Column("memories", sa.BigInteger(), server_default=sa.text("0"), nullable=False),
        sa.Column("messages", sa.BigInteger(), server_default=sa.text("0"), nullable=False),
        sa.Column("bytes", sa.BigInteger(), server_default=sa.text("0"), nullable=False),
        sa.ForeignKeyConstraint(
            ["namespace_id"],
            ["namespaces.id"],
            name="fk_namespace_usage_namespace_id_namespaces",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("namespace_id", name="pk_namespace_usage"),
    )
    op.create_table(
        "namespace_usage_changes",
        sa.Column("namespace_id", sa.BigInteger(), nullable=False),
        sa.Column("id", sa.BigInteger(), sa.Identity(), nullable=False),
        sa.Column("memories", sa.BigInteger(), nullable=False),
        sa.Column("messages", sa.BigInteger(), nullable=False),
        sa.Column("bytes", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("namespace_id", "id", name="pk_namespace_usage_changes"),
    )
    op.create_table(
        "namespace_request_windows",
        sa.Column("namespace_id", sa.BigInteger(), nullable=False),
        sa.Column("window", sa.BigInteger(), nullable=False),  # minutes since the epoch, database clock
        sa.Column("requests", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["namespace_id"],
            ["namespaces.id"],
            name="fk_namespace_request_windows_namespace_id_namespaces",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("namespace_id", name="pk_namespace_request_windows"),
    )
    op.execute(
        """
        CREATE FUNCTION namespace_usage_row() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO namespace_usage (namespace_id) VALUES (NEW.id);
            RETURN NULL;
        END $$
        """
    )
    op.execute(
        "CREATE TRIGGER namespace_usage_row AFTER INSERT ON namespaces "
        "FOR EACH ROW EXECUTE FUNCTION namespace_usage_row()"
    )
    for table in ("memories", "messages"):
        op.execute(_changes(f"{table}_usage_inserted", 1, table))
        op.execute(_changes(f"{table}_usage_deleted", -1, table))
        op.execute(
            f"CREATE TRIGGER {table}_usage_inserted AFTER INSERT ON {table} REFERENCING NEW TABLE AS changed "
            f"FOR EACH STATEMENT EXECUTE FUNCTION {table}_usage_inserted()"
        )
        op.execute(
            f"CREATE TRIGGER {table}_usage_deleted AFTER DELETE ON {table} REFERENCING OLD TABLE AS changed "
            f"FOR EACH STATEMENT EXECUTE FUNCTION {table}_usage_deleted()"
        )
    # Updates: only rows whose counted state changed (supersession and revival, an edit, a replaced message);
    # the many others (languages, speakers, timestamps) write nothing.
    op.execute(
        """
        CREATE FUNCTION memories_usage_updated() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO namespace_usage_changes (namespace_id, memories, messages, bytes)
            SELECT p.namespace_id,
                   sum((n.superseded_by IS NULL)::int - (o.superseded_by IS NULL)::int), 0,
                   sum(pg_column_size(n.content) - pg_column_size(o.content))
            FROM new_rows n JOIN old_rows o ON o.profile_id = n.profile_id AND o.id = n.id
            JOIN profiles p ON p.id = n.profile_id
            WHERE (n.superseded_by IS NULL) <> (o.superseded_by IS NULL)
               OR pg_column_size(n.content) <> pg_column_size(o.content)
            GROUP BY p.namespace_id;
            RETURN NULL;
        END $$
        """
    )
    op.execute(
        """
        CREATE FUNCTION messages_usage_updated() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO namespace_usage_changes (namespace_id, memories, messages, bytes)
            SELECT p.namespace_id, 0, 0, sum(pg_column_size(n.parts) - pg_column_size(o.parts))
            FROM new_rows n
            JOIN old_rows o ON o.profile_id = n.profile_id AND o.session_id = n.session_id AND o.id = n.id
            JOIN profiles p ON p.id = n.profile_id
            WHERE pg_column_size(n.parts) <> pg_column_size(o.parts)
            GROUP BY p.namespace_id;
            RETURN NULL;
        END $$
        """
    )
    for table in ("memories", "messages"):
        op.execute(
            f"CREATE TRIGGER {table}_usage_updated AFTER UPDATE ON {table} "
            "REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows "
            f"FOR EACH STATEMENT EXECUTE FUNCTION {table}_usage_updated()"
        )
    op.execute(
        """
        CREATE FUNCTION namespace_usage_fold() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            -- Never wait on the counter: busy, the changes stay for the namespace's next commit to fold.
            PERFORM 1 FROM namespace_usage WHERE namespace_id = NEW.namespace_id FOR UPDATE SKIP LOCKED;
            IF FOUND THEN
                WITH folded AS (
                    DELETE FROM namespace_usage_changes WHERE namespace_id = NEW.namespace_id
                    RETURNING memories, messages, bytes
                ), total AS (
                    SELECT coalesce(sum(memories), 0) AS memories, coalesce(sum(messages), 0) AS messages,
                           coalesce(sum(bytes), 0) AS bytes
                    FROM folded
                )
                UPDATE namespace_usage u
                SET memories = u.memories + total.memories, messages = u.messages + total.messages,
                    bytes = u.bytes + total.bytes
                FROM total
                WHERE u.namespace_id = NEW.namespace_id
                  AND (total.memories <> 0 OR total.messages <> 0 OR total.bytes <> 0);
            END IF;
            RETURN NULL;
        END $$
        """
    )
    op.execute(
        "CREATE CONSTRAINT TRIGGER namespace_usage_fold AFTER INSERT ON namespace_usage_changes "
        "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION namespace_usage_fold()"
    )
    # What is there already, counted once.
    op.execute(
        """
        INSERT INTO namespace_usage (namespace_id, memories, messages, bytes)
        SELECT n.id,
               coalesce((SELECT count(*) FILTER (WHERE m.superseded_by IS NULL) FROM memories m
                         JOIN profiles p ON p.id = m.profile_id WHERE p.namespace_id = n.id), 0),
               coalesce((SELECT count(*) FROM messages s
                         JOIN profiles p ON p.id = s.profile_id WHERE p.namespace_id = n.id), 0),
               coalesce((SELECT sum(pg_column_size(m.content)) FROM memories m
                         JOIN profiles p ON p.id = m.profile_id WHERE p.namespace_id = n.id), 0)
               + coalesce((SELECT sum(pg_column_size(s.parts)) FROM messages s
                           JOIN profiles p ON p.id = s.profile_id WHERE p.namespace_id = n.id), 0)
        FROM namespaces n
        """
    )


def downgrade() -> None:
    op.execute("DROP TRIGGER namespace_usage_fold ON namespace_usage_changes")
    for table in ("memories", "messages"):
        for change in ("inserted", "deleted", "updated"):
            op.execute(f"DROP TRIGGER {table}_usage_{change} ON {table}")
            op.execute(f"DROP FUNCTION {table}_usage_{change}()")
    op.execute("DROP TRIGGER namespace_usage_row ON namespaces")
    op.execute("DROP FUNCTION namespace_usage_row()")
    op.execute("DROP FUNCTION namespace_usage_fold()")
    op.drop_table("namespace_request_windows")
    op.drop_table("namespace_usage_changes")
    op.drop_table("namespace_usage")
    for column in LIMITS:
        op.drop_constraint(f"ck_namespaces_{column}", "namespaces", type_="check")
        op.drop_column("namespaces", column)
