"""A memory's speaker as data: `speaker` and `speaker_role` on memories (and their archived states).

Who said a statement was written into its content ("Carlos: Mi perra se llama Luna") and read back out of
the text by patterns that wanted capitalised Latin words ("陈静:" and "Élodie:" were missed). The speaker is
now stored: `speaker` the name (any script; NULL when none was given), `speaker_role` the role of the
message it was said in (NULL for a remembered memory). Recall's speaker constraint, the agent's-own-words
test, the summary and export read these columns.

Existing memories are filled from their first source message: its role, and its `name`, else the `Name:`
prefix of its text, else the prefix of the memory's own content (a remembered "Ana: …"). The prefix is read
by the code that reads it at ingest (`app.extraction.text.parse_message`), so an old memory gets the
speaker a new one would. Archived states take their memory's speaker, or (a deleted memory's last state)
their content's prefix. A memory's events carry `speaker` and `speakerRole` with its other public fields.

Revision ID: 0020
Revises: 0019
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_BATCH = 5000

# Each memory with its first source message (by its place in its session).
_FIRST_SOURCE = """
    SELECT DISTINCT ON (s.profile_id, s.memory_id) s.profile_id, s.memory_id, g.role, g.name, g.text_content
    FROM memory_sources s
    JOIN messages g ON g.profile_id = s.profile_id AND g.session_id = s.session_id AND g.id = s.message_id
    ORDER BY s.profile_id, s.memory_id, g.seq
"""


# A memory's public fields in its events (0017's `memory_event_json`), as the API returns them now.
_EVENT_JSON = """
    CREATE OR REPLACE FUNCTION memory_event_json(m memories) RETURNS jsonb
    LANGUAGE sql IMMUTABLE
    AS $$
        SELECT jsonb_build_object(
            'id', m.id, 'type', m.type, 'summary', m.summary, 'content', m.content,
            'sessionId', m.session_id, 'eventTime', api_timestamp(m.event_time),
            'createdAt', api_timestamp(m.created_at), 'updatedAt', api_timestamp(m.updated_at),
            'metadata', m.metadata, 'supersededBy', m.superseded_by, 'version', m.version{speaker})
    $$
"""


def upgrade() -> None:
    for table in ("memories", "memory_versions"):
        op.add_column(table, sa.Column("speaker", sa.Text(), nullable=True))
        op.add_column(table, sa.Column("speaker_role", sa.String(length=16), nullable=True))
    # Filling the speakers is no change a client is told of (the events trigger would write nothing), and a
    # deferred trigger event queued for every row of a large table costs memory until commit.
    op.execute("ALTER TABLE memories DISABLE TRIGGER memory_events")
    _fill_memories()
    op.execute("ALTER TABLE memories ENABLE TRIGGER memory_events")
    op.execute(
        """
        UPDATE memory_versions v SET speaker = m.speaker, speaker_role = m.speaker_role
        FROM memories m WHERE m.profile_id = v.profile_id AND m.id = v.memory_id
        """
    )
    _fill_from_prefix("memory_versions", "memory_id", "speaker IS NULL")
    op.execute(_EVENT_JSON.format(speaker=", 'speaker', m.speaker, 'speakerRole', m.speaker_role"))


def _fill_memories() -> None:
    op.execute(
        f"""
        UPDATE memories m SET speaker_role = f.role, speaker = nullif(btrim(f.name), '')
        FROM ({_FIRST_SOURCE}) f
        WHERE m.profile_id = f.profile_id AND m.id = f.memory_id
        """
    )
    _fill_from_prefix("memories", "id", "speaker IS NULL")


def _fill_from_prefix(table: str, key: str, unfilled: str) -> None:
    """The rows still without a speaker: the prefix of their first source message, else of their content."""
    from app.extraction.text import parse_message

    bind = op.get_bind()
    # Keyset over the primary key: every row is read once, in batches.
    keys = ["profile_id", key] + (["version"] if table == "memory_versions" else [])
    columns = ", ".join(f"t.{k}" for k in keys)
    said = (
        """(SELECT g.text_content FROM memory_sources s
            JOIN messages g ON g.profile_id = s.profile_id AND g.session_id = s.session_id AND g.id = s.message_id
            WHERE s.profile_id = t.profile_id AND s.memory_id = t.id ORDER BY g.seq LIMIT 1)"""
        if table == "memories"
        else "NULL"
    )
    after: dict[str, object] = {}
    while True:
        past = f" AND ({columns}) > ({', '.join(f':a_{k}' for k in keys)})" if after else ""
        rows = bind.execute(
            sa.text(
                f"SELECT {columns}, t.content, {said} AS said FROM {table} t "
                f"WHERE t.{unfilled}{past} ORDER BY {columns} LIMIT {_BATCH}"
            ),
            after,
        ).all()
        if not rows:
            return
        updates = []
        for row in rows:
            content, message = row[len(keys)], row[len(keys) + 1]
            speaker = (parse_message(message).speaker if message else None) or parse_message(content).speaker
            if speaker:
                updates.append({f"a_{k}": row[i] for i, k in enumerate(keys)} | {"speaker": speaker})
        if updates:
            match = " AND ".join(f"{k} = :a_{k}" for k in keys)
            bind.execute(sa.text(f"UPDATE {table} SET speaker = :speaker WHERE {match}"), updates)
        after = {f"a_{k}": rows[-1][i] for i, k in enumerate(keys)}


def downgrade() -> None:
    op.execute(_EVENT_JSON.format(speaker=""))
    for table in ("memories", "memory_versions"):
        op.drop_column(table, "speaker_role")
        op.drop_column(table, "speaker")
