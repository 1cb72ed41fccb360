"""Events: every change to memory written as a row in the transaction that makes it (the outbox).

`events` holds one row per change, numbered per namespace (`id`, from 1, no gaps but those of purged rows):
`memory.created`, `memory.updated`, `memory.superseded`, `memory.deleted` are written by the trigger
`memory_events` on `memories`, and `session.deleted`, `profile.deleted`, `ingest.completed` by the services
that make those changes (`app.events.repository.record`), both through `record_event`.

Why a trigger for the memory events: a memory is written in many places — the one-statement remember and
its batched form (CTEs on the driver's connection), extraction's bulk insert, supersession inside the SQL
function `supersede_memory_topics` (migration 0012), revive, edit, delete, a session's delete — and several
of them change rows that the statement does not return (a topic's superseded memories). The table itself
is the one place every one of them passes through, so none can forget its event.

Why a counter row per namespace, locked at commit. A feed reads `after=<cursor>`: if a transaction could
commit an event with a smaller id than one already read, the reader would skip it for good. Ids from a
sequence are taken in statement order, not commit order. So each event takes the next number of its
namespace from `event_counters` (an UPDATE of one row), and that row stays locked until the writer
commits: the next writer of the namespace gets its number only after the previous one committed, so ids
are in commit order as any reader sees them. A visibility horizon (`pg_snapshot_xmin`) would avoid the
wait, but every transaction of the cluster (another database's, a long extraction) would then hold the
whole feed back. To keep the lock short and out of any lock-order cycle, the trigger is a DEFERRABLE
INITIALLY DEFERRED constraint trigger: the events are numbered at commit, after every other lock the
transaction takes (topic locks, session rows), so the counter is always the last lock and is held only for
the commit itself. Events of one transaction are numbered in the order its changes were made.

A purge of a deleted profile writes no memory events: `profile.deleted` says it. `event_cursors` holds each
subscriber's position per namespace (the worker's follow-up work reads events through it).

Revision ID: 0017
Revises: 0016
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "event_counters",
        sa.Column("namespace_id", sa.BigInteger(), nullable=False),
        sa.Column("last_id", sa.BigInteger(), server_default=sa.text("0"), nullable=False),
        sa.ForeignKeyConstraint(
            ["namespace_id"],
            ["namespaces.id"],
            name=op.f("fk_event_counters_namespace_id_namespaces"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("namespace_id", name=op.f("pk_event_counters")),
    )
    op.create_table(
        "events",
        sa.Column("namespace_id", sa.BigInteger(), nullable=False),
        sa.Column("id", sa.BigInteger(), nullable=False),
        sa.Column("type", sa.String(length=32), nullable=False),
        # No foreign key: a profile's purge must not take its `profile.deleted` event with it.
        sa.Column("profile_id", sa.BigInteger(), nullable=True),
        sa.Column("profile", sa.String(length=100), nullable=True),
        sa.Column("memory_id", sa.String(length=26), nullable=True),
        sa.Column("session_id", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column(
            "data", sa.dialects.postgresql.JSONB(), server_default=sa.text("'{}'::jsonb"), nullable=False
        ),
        sa.ForeignKeyConstraint(
            ["namespace_id"],
            ["namespaces.id"],
            name=op.f("fk_events_namespace_id_namespaces"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("namespace_id", "id", name=op.f("pk_events")),
    )
    op.create_index("ix_events_profile", "events", ["namespace_id", "profile", "id"])
    op.create_index("ix_events_created_at", "events", ["created_at"])
    op.create_table(
        "event_cursors",
        sa.Column("subscriber", sa.String(length=64), nullable=False),
        sa.Column("namespace_id", sa.BigInteger(), nullable=False),
        sa.Column("last_id", sa.BigInteger(), server_default=sa.text("0"), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["namespace_id"],
            ["namespaces.id"],
            name=op.f("fk_event_cursors_namespace_id_namespaces"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("subscriber", "namespace_id", name=op.f("pk_event_cursors")),
    )
    # Timestamps as the API writes them (pydantic: UTC, `Z`, microseconds unless there are none).
    op.execute(
        """
        CREATE FUNCTION api_timestamp(t timestamptz) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE
        AS $$ SELECT replace(to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), '.000000Z', 'Z') $$
        """
    )
    # A memory's public fields as the API returns them (app.memories.schemas.MemoryOut).
    op.execute(
        """
        CREATE FUNCTION memory_event_json(m memories) RETURNS jsonb
        LANGUAGE sql IMMUTABLE
        AS $$
            SELECT jsonb_build_object(
                'id', m.id, 'type', m.type, 'summary', m.summary, 'content', m.content,
                'sessionId', m.session_id, 'eventTime', api_timestamp(m.event_time),
                'createdAt', api_timestamp(m.created_at), 'updatedAt', api_timestamp(m.updated_at),
                'metadata', m.metadata, 'supersededBy', m.superseded_by, 'version', m.version)
        $$
        """
    )
    # The one writer of event rows. NULL (nothing written) when the profile is gone, or, for a memory event
    # (`live_only`), when it is deleted: its purge is said by `profile.deleted`.
    op.execute(
        """
        CREATE FUNCTION record_event(p_profile_id bigint, p_type text, p_memory_id text, p_session_id text,
                                     p_data jsonb, live_only boolean DEFAULT false) RETURNS bigint
        LANGUAGE plpgsql VOLATILE
        AS $$
        DECLARE
            ns bigint;
            profile_name text;
            gone timestamptz;
            next_id bigint;
        BEGIN
            SELECT namespace_id, name, deleted_at INTO ns, profile_name, gone FROM profiles WHERE id = p_profile_id;
            IF ns IS NULL OR (live_only AND gone IS NOT NULL) THEN
                RETURN NULL;
            END IF;
            INSERT INTO event_counters AS c (namespace_id, last_id) VALUES (ns, 1)
            ON CONFLICT (namespace_id) DO UPDATE SET last_id = c.last_id + 1
            RETURNING last_id INTO next_id;
            INSERT INTO events (namespace_id, id, type, profile_id, profile, memory_id, session_id, created_at,
                                data)
            VALUES (ns, next_id, p_type, p_profile_id, profile_name, p_memory_id, p_session_id,
                    clock_timestamp(), p_data);
            PERFORM pg_notify('agent_memory_events', ns::text);
            RETURN next_id;
        END
        $$
        """
    )
    op.execute(
        """
        CREATE FUNCTION memory_events() RETURNS trigger
        LANGUAGE plpgsql
        AS $$
        DECLARE
            m memories;
            kind text;
            extra jsonb := '{}';
        BEGIN
            IF TG_OP = 'INSERT' THEN
                m := NEW; kind := 'memory.created';
            ELSIF TG_OP = 'DELETE' THEN
                m := OLD; kind := 'memory.deleted';
            ELSIF OLD.superseded_by IS NULL AND NEW.superseded_by IS NOT NULL THEN
                m := NEW; kind := 'memory.superseded';
            ELSIF NEW.version <> OLD.version THEN
                m := NEW; kind := 'memory.updated'; extra := jsonb_build_object('change', NEW.change);
            ELSE
                RETURN NULL;  -- no change a client sees (none is made today)
            END IF;
            PERFORM record_event(m.profile_id, kind, m.id, m.session_id,
                                 jsonb_build_object('memory', memory_event_json(m)) || extra, true);
            RETURN NULL;
        END
        $$
        """
    )
    op.execute(
        """
        CREATE CONSTRAINT TRIGGER memory_events AFTER INSERT OR UPDATE OR DELETE ON memories
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION memory_events()
        """
    )


def downgrade() -> None:
    op.execute("DROP TRIGGER memory_events ON memories")
    op.execute("DROP FUNCTION memory_events()")
    op.execute("DROP FUNCTION record_event(bigint, text, text, text, jsonb, boolean)")
    op.execute("DROP FUNCTION memory_event_json(memories)")
    op.execute("DROP FUNCTION api_timestamp(timestamptz)")
    op.drop_table("event_cursors")
    op.drop_table("events")
    op.drop_table("event_counters")
