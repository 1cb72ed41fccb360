"""Events: a memory event costs less to write — its JSON inlined, its namespace's counter stored once per
batch of events instead of once per event.

Two costs of 0017's trigger, measured with `python -m bench outbox` (an extraction storing 500 memories
spent more in the trigger than in inserting them):
- `api_timestamp` and `memory_event_json` (0017, 0020) were declared IMMUTABLE, but `to_char` in their
  bodies is STABLE. PostgreSQL inlines a SQL function only when its body is no more volatile than it says,
  so neither was: every event ran four SQL functions of their own (the JSON and its three timestamps),
  each planned anew on each call. Declared STABLE, as their bodies are, they are inlined.
- The namespace's counter row was updated once per event: 500 versions of one row in one transaction,
  each found by walking the chain of the ones before. Now the first event of a namespace in a batch locks
  the counter row (`FOR UPDATE`) and reads it, the next ones are numbered from a transaction-local setting,
  and the last one of the batch stores the counter once and notifies. A batch is the events fired
  together: all of a transaction's at commit (the trigger is deferred), or those of one statement once
  `SET CONSTRAINTS memory_events IMMEDIATE` is in force (`app.events.repository.record`). Which event is
  the last is known by counting: the trigger's WHEN clause counts each row change as it is queued
  (`agent_memory.events_queued`), each firing counts itself (`agent_memory.events_fired`); settings made
  with `set_config(..., true)` are undone with the (sub)transaction that made them, as are the trigger
  events it queued, so the two counts agree. A batch of one event takes the counter as before (one UPDATE).

Ids stay in commit order (the counter row is locked from the first event of the namespace to the commit,
as in 0017) and without gaps. A batch that moves from one namespace to another stores the first one's
counter before it locks the next (locks are still held to the commit).

Revision ID: 0023
Revises: 0022
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FUNCTIONS = ("api_timestamp(timestamptz)", "memory_event_json(memories)")

_QUEUED = "coalesce(nullif(current_setting('agent_memory.events_queued', true), ''), '0')::int"
# Evaluated as each row change is queued (it counts it), always true.
_COUNT_QUEUED = f"set_config('agent_memory.events_queued', ({_QUEUED} + 1)::text, true) IS NOT NULL"

# The namespace being numbered in this batch (`agent_memory.events_ns`) and its last number given
# (`agent_memory.events_next`): stored in its counter row, and its listeners notified.
_STORE_COUNTER = """
CREATE FUNCTION store_event_counter() RETURNS void
LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
    ns bigint := nullif(current_setting('agent_memory.events_ns', true), '')::bigint;
BEGIN
    IF ns IS NOT NULL THEN
        UPDATE event_counters SET last_id = current_setting('agent_memory.events_next')::bigint
        WHERE namespace_id = ns;
        PERFORM pg_notify('agent_memory_events', ns::text);
        PERFORM set_config('agent_memory.events_ns', '', true);
    END IF;
END
$$
"""

_MEMORY_EVENTS = f"""
CREATE OR REPLACE FUNCTION memory_events() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
    m memories;
    kind text;
    extra jsonb := '{{}}';
    ns bigint;
    profile_name text;
    gone timestamptz;
    next_id bigint;
    queued int := {_QUEUED};
    fired int := coalesce(nullif(current_setting('agent_memory.events_fired', true), ''), '0')::int + 1;
    last_of_batch boolean;
    batch_ns text;
BEGIN
    last_of_batch := fired >= queued;
    IF last_of_batch THEN
        PERFORM set_config('agent_memory.events_queued', '0', true);
        IF fired > 1 THEN
            PERFORM set_config('agent_memory.events_fired', '0', true);
        END IF;
    ELSE
        PERFORM set_config('agent_memory.events_fired', fired::text, true);
    END IF;
    IF TG_OP = 'INSERT' THEN
        m := NEW; kind := 'memory.created';
    ELSIF TG_OP = 'DELETE' THEN
        m := OLD; kind := 'memory.deleted';
    ELSIF OLD.superseded_by IS NULL AND NEW.superseded_by IS NOT NULL THEN
        m := NEW; kind := 'memory.superseded';
    ELSIF NEW.version <> OLD.version THEN
        m := NEW; kind := 'memory.updated'; extra := jsonb_build_object('change', NEW.change);
    END IF;
    IF kind IS NOT NULL THEN  -- else no change a client sees (none is made today)
        -- A deleted profile's memories write none: its purge is said by `profile.deleted`.
        SELECT namespace_id, name, deleted_at INTO ns, profile_name, gone FROM profiles WHERE id = m.profile_id;
    END IF;
    IF ns IS NOT NULL AND gone IS NULL THEN
        batch_ns := current_setting('agent_memory.events_ns', true);
        IF ns::text = batch_ns THEN
            next_id := current_setting('agent_memory.events_next')::bigint + 1;
            PERFORM set_config('agent_memory.events_next', next_id::text, true);
        ELSE
            IF batch_ns <> '' THEN
                PERFORM store_event_counter();  -- the batch moves on from another namespace
            END IF;
            IF last_of_batch THEN  -- one event (of this namespace) left: take its number as 0017 did
                INSERT INTO event_counters AS c (namespace_id, last_id) VALUES (ns, 1)
                ON CONFLICT (namespace_id) DO UPDATE SET last_id = c.last_id + 1
                RETURNING last_id INTO next_id;
                PERFORM pg_notify('agent_memory_events', ns::text);
            ELSE
                SELECT last_id + 1 INTO next_id FROM event_counters WHERE namespace_id = ns FOR UPDATE;
                IF next_id IS NULL THEN
                    INSERT INTO event_counters (namespace_id) VALUES (ns) ON CONFLICT DO NOTHING;
                    SELECT last_id + 1 INTO next_id FROM event_counters WHERE namespace_id = ns FOR UPDATE;
                END IF;
                PERFORM set_config('agent_memory.events_ns', ns::text, true);
                PERFORM set_config('agent_memory.events_next', next_id::text, true);
            END IF;
        END IF;
        INSERT INTO events (namespace_id, id, type, profile_id, profile, memory_id, session_id, created_at, data)
        VALUES (ns, next_id, kind, m.profile_id, profile_name, m.id, m.session_id, clock_timestamp(),
                jsonb_build_object('memory', memory_event_json(m)) || extra);
    END IF;
    IF last_of_batch AND current_setting('agent_memory.events_ns', true) <> '' THEN
        PERFORM store_event_counter();
    END IF;
    RETURN NULL;
END
$$
"""

# 0017's, for the downgrade.
_OLD_MEMORY_EVENTS = """
CREATE OR REPLACE FUNCTION memory_events() RETURNS trigger
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

_TRIGGER = """
CREATE CONSTRAINT TRIGGER memory_events AFTER INSERT OR UPDATE OR DELETE ON memories
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW {when} EXECUTE FUNCTION memory_events()
"""


def upgrade() -> None:
    for function in FUNCTIONS:
        op.execute(f"ALTER FUNCTION {function} STABLE")
    op.execute(_STORE_COUNTER)
    op.execute(_MEMORY_EVENTS)
    op.execute("DROP TRIGGER memory_events ON memories")
    op.execute(_TRIGGER.format(when=f"WHEN ({_COUNT_QUEUED})"))


def downgrade() -> None:
    op.execute("DROP TRIGGER memory_events ON memories")
    op.execute(_OLD_MEMORY_EVENTS)
    op.execute(_TRIGGER.format(when=""))
    op.execute("DROP FUNCTION store_event_counter()")
    for function in FUNCTIONS:
        op.execute(f"ALTER FUNCTION {function} IMMUTABLE")
