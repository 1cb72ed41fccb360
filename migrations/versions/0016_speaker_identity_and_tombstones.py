"""A message's identity includes its speaker; deleted memories leave tombstones.

Identity. An ingested message's id was sha256(sessionId ␟ role ␟ content), so two people saying the same
words in one session were one message. It is now sha256(sessionId ␟ role ␟ speaker ␟ content) when the
message has a speaker (`name`), and stays sha256(sessionId ␟ role ␟ content) when it has none: every id
stored without a name is unchanged, and a client re-sending such a conversation still adds nothing. The
ids stored with a name (since 0014) are recomputed here, so the same conversation re-sent with its names
finds them; the recomputed id follows the message everywhere it is referenced: its children's
`parent_id`, the memories' sources, compaction ranges and the extraction jobs not run yet. Only ids that
are the old hash of their own row are touched (the Session API's client-given ids never are).

Tombstones. `memory_tombstones` holds a deleted memory's id, content fingerprint (`content_hash`),
type and session; `tombstone_messages` its source messages' identities, each marked deleted (gone with the
memory: ingest does not store it again) or kept (another memory cited it). No text is kept.

Revision ID: 0016
Revises: 0015
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_SOURCES_FK = "fk_memory_sources_profile_id_session_id_message_id_messages"


def _identity(*parts: str) -> str:
    """SQL: the first 128 bits (hex) of sha256 over the parts joined by the unit separator."""
    joined = " || chr(31) || ".join(parts)
    return f"left(encode(sha256(convert_to({joined}, 'UTF8')), 'hex'), 32)"


def upgrade() -> None:
    op.create_table(
        "memory_tombstones",
        sa.Column("profile_id", sa.BigInteger(), nullable=False),
        sa.Column("id", sa.String(length=26), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("session_id", sa.String(length=64), nullable=True),
        sa.Column("type", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["profile_id"],
            ["profiles.id"],
            name=op.f("fk_memory_tombstones_profile_id_profiles"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("profile_id", "id", name=op.f("pk_memory_tombstones")),
    )
    op.create_index("ix_memory_tombstones_hash", "memory_tombstones", ["profile_id", "content_hash"])
    op.create_index("ix_memory_tombstones_session", "memory_tombstones", ["profile_id", "session_id"])
    op.create_table(
        "tombstone_messages",
        sa.Column("profile_id", sa.BigInteger(), nullable=False),
        sa.Column("tombstone_id", sa.String(length=26), nullable=False),
        sa.Column("session_id", sa.String(length=64), nullable=False),
        sa.Column("message_id", sa.String(length=128), nullable=False),
        sa.Column("deleted", sa.Boolean(), server_default=sa.text("true"), nullable=False),
        sa.ForeignKeyConstraint(
            ["profile_id", "tombstone_id"],
            ["memory_tombstones.profile_id", "memory_tombstones.id"],
            name=op.f("fk_tombstone_messages_profile_id_tombstone_id_memory_tombstones"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "profile_id", "tombstone_id", "session_id", "message_id", name=op.f("pk_tombstone_messages")
        ),
    )
    op.create_index(
        "ix_tombstone_messages_message", "tombstone_messages", ["profile_id", "session_id", "message_id"]
    )
    _recompute_named_identities()


def _recompute_named_identities() -> None:
    op.execute(
        f"""
        CREATE TEMPORARY TABLE renamed_messages ON COMMIT DROP AS
        SELECT profile_id, session_id, id AS old_id,
               {_identity("session_id", "role", "name", "text_content")} AS new_id
        FROM messages
        WHERE name IS NOT NULL AND name <> ''
          AND id = {_identity("session_id", "role", "text_content")}
        """
    )
    op.execute("CREATE INDEX ON renamed_messages (profile_id, session_id, old_id)")
    op.execute("ANALYZE renamed_messages")
    # The sources' key follows the message's: the foreign key is set aside while both change.
    op.drop_constraint(_SOURCES_FK, "memory_sources", type_="foreignkey")
    op.execute(
        """
        UPDATE messages m SET id = r.new_id FROM renamed_messages r
        WHERE m.profile_id = r.profile_id AND m.session_id = r.session_id AND m.id = r.old_id
        """
    )
    op.execute(
        """
        UPDATE messages m SET parent_id = r.new_id FROM renamed_messages r
        WHERE m.profile_id = r.profile_id AND m.session_id = r.session_id AND m.parent_id = r.old_id
        """
    )
    op.execute(
        """
        UPDATE memory_sources s SET message_id = r.new_id FROM renamed_messages r
        WHERE s.profile_id = r.profile_id AND s.session_id = r.session_id AND s.message_id = r.old_id
        """
    )
    for column in ("from_message_id", "to_message_id"):
        op.execute(
            f"""
            UPDATE compactions c SET {column} = r.new_id FROM renamed_messages r
            WHERE c.profile_id = r.profile_id AND c.session_id = r.session_id AND c.{column} = r.old_id
            """
        )
    # Extraction jobs not run yet name their messages by id.
    op.execute(
        """
        UPDATE jobs j SET payload = jsonb_set(j.payload, '{message_ids}', (
            SELECT coalesce(jsonb_agg(coalesce(r.new_id, x.id) ORDER BY x.ord), '[]'::jsonb)
            FROM jsonb_array_elements_text(j.payload -> 'message_ids') WITH ORDINALITY AS x(id, ord)
            LEFT JOIN renamed_messages r
                ON r.profile_id = j.profile_id AND r.session_id = j.session_id AND r.old_id = x.id
        ))
        WHERE j.kind = 'extract' AND j.status IN ('queued', 'running')
          AND jsonb_typeof(j.payload -> 'message_ids') = 'array'
        """
    )
    op.create_foreign_key(
        _SOURCES_FK,
        "memory_sources",
        "messages",
        ["profile_id", "session_id", "message_id"],
        ["profile_id", "session_id", "id"],
        ondelete="CASCADE",
    )


def downgrade() -> None:
    op.drop_index("ix_tombstone_messages_message", table_name="tombstone_messages")
    op.drop_table("tombstone_messages")
    op.drop_index("ix_memory_tombstones_session", table_name="memory_tombstones")
    op.drop_index("ix_memory_tombstones_hash", table_name="memory_tombstones")
    op.drop_table("memory_tombstones")
    # Named messages keep their speaker-aware ids: the older code reads any id, and computing the old
    # ones back could merge two speakers' messages into one key.
