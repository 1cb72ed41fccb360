"""Events: numbered after their transaction commits, by whoever reads them, so that writers no longer wait
on one another at commit.

Until now (0017, 0023) a writer took its event ids from its namespace's `event_counters` row and kept the
row locked until it committed, and NOTIFYed the worker in the same transaction. Both are locks held across
the commit's WAL flush: the counter row for the namespace, and PostgreSQL's NOTIFY lock (taken by every
notifying transaction at commit, cluster-wide, until its commit is flushed). Concurrent writers of a
namespace then committed one at a time: `python -m bench outbox --kind remember --connections 8` stored
286 remembers/s with the outbox, 495 without (load 2), no more than one connection stored alone.

Now:
- A writer inserts its events unnumbered (`id` NULL), each with the next value of the sequence `event_seq`
  (`seq`: the order of writing, across namespaces; events of one transaction in the order its changes were
  made). It locks nothing for them, so the memory triggers need no longer wait for the commit (they were
  deferred to keep the counter the last lock taken): they run as each statement ends, and those of inserts
  and updates are statement triggers that write all of a statement's events in one INSERT from its
  transition tables (an extraction's 500 memories: one statement, not 500 calls of a row trigger). A
  transaction's own event (`session.deleted`, `ingest.completed`, `app.events.repository.record`) is
  written after its memories' events as before.
- `number_events(ns)` numbers the namespace's committed unnumbered events in `seq` order, from its counter,
  in a transaction of its own (readers call it, then commit, then read: app.events.repository.number). The
  counter row serialises the numberers, not the writers. An id is therefore given only once its event has
  committed, and a numbering commits all its ids at once after every earlier numbering committed (it waited
  for the counter row), so readers see ids 1…n as a prefix that only grows: a reader going on from the last
  id it read never misses an event, however late the event's transaction committed. Ids stay gap-free per
  namespace (but for purged rows). A numbering that rolls back gave out nothing: readers read only after it
  committed.
- The worker is woken by a NOTIFY at most every quarter second per connection (`wake_event_readers`, the
  time kept in a session setting), so that a steady stream of writes no longer queues its commits on the
  NOTIFY lock; the worker's poll (`AGENT_MEMORY_WORKER_POLL_SECONDS`) catches the rest.

The primary key of `events` becomes (namespace_id, seq); (namespace_id, id) is unique among numbered events,
and a partial index holds the unnumbered ones. The indexes by id leave unnumbered events out, and the one by
time (the retention purge's) is a BRIN, so that a write costs fewer index entries than before.

Revision ID: 0024
Revises: 0023
"""

import importlib.util
from collections.abc import Sequence
from pathlib import Path

from alembic import op

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# A NOTIFY at most this often per connection (seconds); its lock is held across the commit's flush.
WAKE_EVERY = 0.25

_WAKE = f"""
CREATE FUNCTION wake_event_readers(ns bigint) RETURNS void
LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
    now_s double precision := extract(epoch FROM clock_timestamp());
    last_s double precision := nullif(current_setting('agent_memory.events_woken_at', true), '')::float8;
BEGIN
    IF last_s IS NULL OR now_s - last_s >= {WAKE_EVERY} OR now_s < last_s THEN
        PERFORM pg_notify('agent_memory_events', ns::text);
        PERFORM set_config('agent_memory.events_woken_at', now_s::text, false);
    END IF;
END
$$
"""

# The one writer of event rows; NULL (nothing written) when the profile is gone, or, for a memory event
# (`live_only`), when it is deleted. Returns the event's `seq` (its id is given after the commit).
_RECORD_EVENT = """
CREATE OR REPLACE FUNCTION record_event(p_profile_id bigint, p_type text, p_memory_id text, p_session_id text,
                                        p_data jsonb, live_only boolean DEFAULT false) RETURNS bigint
LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
    ns bigint;
    profile_name text;
    gone timestamptz;
    written bigint;
BEGIN
    SELECT namespace_id, name, deleted_at INTO ns, profile_name, gone FROM profiles WHERE id = p_profile_id;
    IF ns IS NULL OR (live_only AND gone IS NOT NULL) THEN
        RETURN NULL;
    END IF;
    INSERT INTO events (namespace_id, type, profile_id, profile, memory_id, session_id, created_at, data)
    VALUES (ns, p_type, p_profile_id, profile_name, p_memory_id, p_session_id, clock_timestamp(), p_data)
    RETURNING seq INTO written;
    PERFORM wake_event_readers(ns);
    RETURN written;
END
$$
"""

# A memory's public fields in its events, as the API returns them (0020's `memory_event_json`), from its
# columns: a transition table's row is a record, not a `memories` row, and joining the table back for one
# is a plan PL/pgSQL keeps (a scan of the whole table, once planned while it was small).
_EVENT_FIELDS = """
CREATE FUNCTION memory_event_fields(id text, type text, summary text, content text, session_id text,
                                    event_time timestamptz, created_at timestamptz, updated_at timestamptz,
                                    metadata jsonb, superseded_by text, version integer, speaker text,
                                    speaker_role text) RETURNS jsonb
LANGUAGE sql STABLE
AS $$
    SELECT jsonb_build_object(
        'id', id, 'type', type, 'summary', summary, 'content', content, 'sessionId', session_id,
        'eventTime', api_timestamp(event_time), 'createdAt', api_timestamp(created_at),
        'updatedAt', api_timestamp(updated_at), 'metadata', metadata, 'supersededBy', superseded_by,
        'version', version, 'speaker', speaker, 'speakerRole', speaker_role)
$$
"""

_EVENT_JSON = """
CREATE OR REPLACE FUNCTION memory_event_json(m memories) RETURNS jsonb
LANGUAGE sql STABLE
AS $$
    SELECT memory_event_fields(m.id, m.type, m.summary, m.content, m.session_id, m.event_time, m.created_at,
                               m.updated_at, m.metadata, m.superseded_by, m.version, m.speaker, m.speaker_role)
$$
"""

_FIELDS = "n.id, n.type, n.summary, n.content, n.session_id, n.event_time, n.created_at, n.updated_at, n.metadata, n.superseded_by, n.version, n.speaker, n.speaker_role"

# The memory events, written as each statement ends: `memory.created` and `memory.superseded` /
# `memory.updated` set-wise from the statement's transition tables (one INSERT for all its rows, their
# order kept by `row_number() OVER ()` over the transition table, read in the order the rows changed),
# `memory.deleted` per row.
_INSERTED = f"""
CREATE FUNCTION memory_events_inserted() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
    written bigint;
    ns bigint;
BEGIN
    INSERT INTO events (namespace_id, type, profile_id, profile, memory_id, session_id, created_at, data)
    SELECT p.namespace_id, 'memory.created', n.profile_id, p.name, n.id, n.session_id, clock_timestamp(),
           jsonb_build_object('memory', memory_event_fields({_FIELDS}))
    FROM (SELECT *, row_number() OVER () AS k FROM new_rows) AS n
    -- A deleted profile's memories write none: its purge is said by `profile.deleted`.
    JOIN profiles p ON p.id = n.profile_id AND p.deleted_at IS NULL
    ORDER BY n.k;
    GET DIAGNOSTICS written = ROW_COUNT;
    IF written > 0 THEN
        SELECT p.namespace_id INTO ns FROM profiles p WHERE p.id = (SELECT profile_id FROM new_rows LIMIT 1);
        PERFORM wake_event_readers(ns);
    END IF;
    RETURN NULL;
END
$$
"""

_UPDATED = f"""
CREATE FUNCTION memory_events_updated() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
    written bigint;
    ns bigint;
BEGIN
    INSERT INTO events (namespace_id, type, profile_id, profile, memory_id, session_id, created_at, data)
    SELECT p.namespace_id, n.kind, n.profile_id, p.name, n.id, n.session_id, clock_timestamp(),
           jsonb_build_object('memory', memory_event_fields({_FIELDS})) || n.extra
    FROM (
        SELECT n.*,
               CASE WHEN o.superseded_by IS NULL AND n.superseded_by IS NOT NULL THEN 'memory.superseded'
                    WHEN n.version <> o.version THEN 'memory.updated' END AS kind,
               CASE WHEN (o.superseded_by IS NULL AND n.superseded_by IS NOT NULL) OR n.version = o.version
                    THEN '{{}}'::jsonb ELSE jsonb_build_object('change', n.change) END AS extra
        FROM (SELECT *, row_number() OVER () AS k FROM new_rows) AS n
        JOIN old_rows o ON o.profile_id = n.profile_id AND o.id = n.id
    ) AS n
    JOIN profiles p ON p.id = n.profile_id AND p.deleted_at IS NULL
    WHERE n.kind IS NOT NULL  -- else no change a client sees (languages, speakers, timestamps)
    ORDER BY n.k;
    GET DIAGNOSTICS written = ROW_COUNT;
    IF written > 0 THEN
        SELECT p.namespace_id INTO ns FROM profiles p WHERE p.id = (SELECT profile_id FROM new_rows LIMIT 1);
        PERFORM wake_event_readers(ns);
    END IF;
    RETURN NULL;
END
$$
"""

_DELETED = """
CREATE OR REPLACE FUNCTION memory_events() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
    ns bigint;
    profile_name text;
BEGIN
    SELECT namespace_id, name INTO ns, profile_name FROM profiles WHERE id = OLD.profile_id AND deleted_at IS NULL;
    IF ns IS NOT NULL THEN
        INSERT INTO events (namespace_id, type, profile_id, profile, memory_id, session_id, created_at, data)
        VALUES (ns, 'memory.deleted', OLD.profile_id, profile_name, OLD.id, OLD.session_id, clock_timestamp(),
                jsonb_build_object('memory', memory_event_json(OLD)));
        PERFORM wake_event_readers(ns);
    END IF;
    RETURN NULL;
END
$$
"""

_TRIGGERS = (
    "CREATE TRIGGER memory_events_inserted AFTER INSERT ON memories REFERENCING NEW TABLE AS new_rows "
    "FOR EACH STATEMENT EXECUTE FUNCTION memory_events_inserted()",
    "CREATE TRIGGER memory_events_updated AFTER UPDATE ON memories "
    "REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows "
    "FOR EACH STATEMENT EXECUTE FUNCTION memory_events_updated()",
    "CREATE TRIGGER memory_events_deleted AFTER DELETE ON memories FOR EACH ROW EXECUTE FUNCTION memory_events()",
)

# Numbers the namespace's committed unnumbered events; its last id after (NULL: none was waiting). Run it
# in a transaction of its own and commit before reading the ids (see the docstring). The waiting events'
# `seq`s are read into an array, then each row is updated through the primary key, a plan that cannot go
# wrong: a join of the table with its own unnumbered rows was planned as a nested loop over both (the
# partial index says "one row"; 0.8 ms an event in a batch of 500), and one with the array as a hash join
# over all the namespace's events. The reads of the partial index are planned on each call (EXECUTE), never
# from a plan kept since the table was empty.
_NUMBER_EVENTS = """
CREATE FUNCTION number_events(ns bigint) RETURNS bigint
LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
    waiting bigint[];
    one bigint;
    last bigint;
    numbered bigint;
BEGIN
    EXECUTE 'SELECT ARRAY(SELECT seq FROM events WHERE namespace_id = $1 AND id IS NULL LIMIT 1)'
        INTO waiting USING ns;
    IF cardinality(waiting) = 0 THEN
        RETURN NULL;
    END IF;
    INSERT INTO event_counters (namespace_id) VALUES (ns) ON CONFLICT DO NOTHING;
    SELECT last_id INTO last FROM event_counters WHERE namespace_id = ns FOR UPDATE;
    -- A new snapshot (READ COMMITTED): what another numbering gave before it let go of the row is seen.
    EXECUTE 'SELECT ARRAY(SELECT seq FROM events WHERE namespace_id = $1 AND id IS NULL ORDER BY seq)'
        INTO waiting USING ns;
    numbered := 0;
    FOREACH one IN ARRAY waiting LOOP
        UPDATE events SET id = last + numbered + 1 WHERE namespace_id = ns AND seq = one;
        IF FOUND THEN
            numbered := numbered + 1;
        END IF;
    END LOOP;
    IF numbered > 0 THEN
        UPDATE event_counters SET last_id = last + numbered WHERE namespace_id = ns;
    END IF;
    RETURN last + numbered;
END
$$
"""

# Every namespace's (in namespace order, so that two numberings never wait on each other in a cycle).
_NUMBER_ALL_EVENTS = """
CREATE FUNCTION number_all_events() RETURNS integer
LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
    ns bigint;
    namespaces integer := 0;
BEGIN
    FOR ns IN EXECUTE 'SELECT DISTINCT namespace_id FROM events WHERE id IS NULL ORDER BY namespace_id' LOOP
        PERFORM number_events(ns);
        namespaces := namespaces + 1;
    END LOOP;
    RETURN namespaces;
END
$$
"""


def upgrade() -> None:
    op.execute("CREATE SEQUENCE event_seq")
    op.execute("ALTER TABLE events ADD COLUMN seq bigint NOT NULL DEFAULT nextval('event_seq')")
    op.execute("ALTER SEQUENCE event_seq OWNED BY events.seq")
    op.execute("ALTER TABLE events DROP CONSTRAINT pk_events")
    op.execute("ALTER TABLE events ADD CONSTRAINT pk_events PRIMARY KEY (namespace_id, seq)")
    op.execute("ALTER TABLE events ALTER COLUMN id DROP NOT NULL")
    # The indexes by id hold numbered events only: an event's write adds no entry to them, its numbering does.
    op.execute("CREATE UNIQUE INDEX uq_events_id ON events (namespace_id, id) WHERE id IS NOT NULL")
    op.execute("DROP INDEX ix_events_profile")
    op.execute("CREATE INDEX ix_events_profile ON events (namespace_id, profile, id) WHERE id IS NOT NULL")
    op.execute("CREATE INDEX ix_events_unnumbered ON events (namespace_id, seq) WHERE id IS NULL")
    # Only the retention purge reads by time, and rows come in time order: a block range index (BRIN) costs
    # next to nothing to keep, where a B-tree took an entry for each write and each numbering.
    op.execute("DROP INDEX ix_events_created_at")
    op.execute("CREATE INDEX ix_events_created_at ON events USING brin (created_at)")
    op.execute(_WAKE)
    op.execute(_RECORD_EVENT)
    op.execute(_NUMBER_EVENTS)
    op.execute(_NUMBER_ALL_EVENTS)
    op.execute("DROP TRIGGER memory_events ON memories")
    op.execute("DROP FUNCTION store_event_counter()")
    op.execute(_EVENT_FIELDS)
    op.execute(_EVENT_JSON)
    op.execute(_INSERTED)
    op.execute(_UPDATED)
    op.execute(_DELETED)
    for trigger in _TRIGGERS:
        op.execute(trigger)


def downgrade() -> None:
    # 0023's trigger and functions, from its file (the versions are not a package).
    spec = importlib.util.spec_from_file_location("m0023", Path(__file__).with_name("0023_event_batches.py"))
    assert spec is not None and spec.loader is not None
    previous = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(previous)
    op.execute("SELECT number_all_events()")
    for trigger in ("memory_events_inserted", "memory_events_updated", "memory_events_deleted"):
        op.execute(f"DROP TRIGGER {trigger} ON memories")
    op.execute("DROP FUNCTION memory_events_inserted()")
    op.execute("DROP FUNCTION memory_events_updated()")
    op.execute(
        """
        CREATE OR REPLACE FUNCTION memory_event_json(m memories) RETURNS jsonb
        LANGUAGE sql STABLE
        AS $$
            SELECT jsonb_build_object(
                'id', m.id, 'type', m.type, 'summary', m.summary, 'content', m.content,
                'sessionId', m.session_id, 'eventTime', api_timestamp(m.event_time),
                'createdAt', api_timestamp(m.created_at), 'updatedAt', api_timestamp(m.updated_at),
                'metadata', m.metadata, 'supersededBy', m.superseded_by, 'version', m.version,
                'speaker', m.speaker, 'speakerRole', m.speaker_role)
        $$
        """
    )
    op.execute(
        "DROP FUNCTION memory_event_fields(text, text, text, text, text, timestamptz, timestamptz, "
        "timestamptz, jsonb, text, integer, text, text)"
    )
    op.execute(previous._STORE_COUNTER)
    op.execute(previous._MEMORY_EVENTS)
    op.execute(previous._TRIGGER.format(when=f"WHEN ({previous._COUNT_QUEUED})"))
    op.execute(
        """
        CREATE OR REPLACE FUNCTION record_event(p_profile_id bigint, p_type text, p_memory_id text,
                                                p_session_id text, p_data jsonb, live_only boolean DEFAULT false)
        RETURNS bigint
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
    op.execute("DROP FUNCTION number_all_events()")
    op.execute("DROP FUNCTION number_events(bigint)")
    op.execute("DROP FUNCTION wake_event_readers(bigint)")
    op.execute("DROP INDEX ix_events_unnumbered")
    op.execute("DROP INDEX uq_events_id")
    op.execute("DROP INDEX ix_events_profile")
    op.execute("CREATE INDEX ix_events_profile ON events (namespace_id, profile, id)")
    op.execute("DROP INDEX ix_events_created_at")
    op.execute("CREATE INDEX ix_events_created_at ON events (created_at)")
    op.execute("ALTER TABLE events DROP CONSTRAINT pk_events")
    op.execute("ALTER TABLE events ALTER COLUMN id SET NOT NULL")
    op.execute("ALTER TABLE events ADD CONSTRAINT pk_events PRIMARY KEY (namespace_id, id)")
    op.execute("ALTER TABLE events DROP COLUMN seq")
