"""Memory model: metadata on memories, messages and sessions; validity times and a version archive for
editing, history and point-in-time reads.

`memories` keeps each memory's current state, valid from `valid_from` until `valid_to` (set when it is
superseded); `memory_versions` keeps the states it had before (each edit archives one) and the last state
of a deleted memory. Existing rows are back-filled: a memory has been valid since it was created, and a
superseded one until it was last updated (which is when supersession wrote it).

Revision ID: 0006
Revises: 0005
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.add_column(
        "memories", sa.Column("metadata", JSONB, nullable=False, server_default=sa.text("'{}'::jsonb"))
    )
    op.add_column("memories", sa.Column("valid_from", _TS, nullable=False, server_default=sa.text("now()")))
    op.add_column("memories", sa.Column("valid_to", _TS))
    op.add_column("memories", sa.Column("version", sa.Integer, nullable=False, server_default=sa.text("1")))
    op.add_column(
        "memories", sa.Column("change", sa.String(16), nullable=False, server_default=sa.text("'created'"))
    )
    op.execute(
        "UPDATE memories SET valid_from = created_at, "
        "valid_to = CASE WHEN superseded_by IS NOT NULL THEN updated_at END"
    )
    # Filtered reads: the planner ANDs this containment index with the profile-first btrees
    # (ix_memories_active); btree_gin, which would let one index hold both, is not in the embedded server.
    op.execute("CREATE INDEX ix_memories_metadata ON memories USING gin (metadata jsonb_path_ops)")

    op.add_column("messages", sa.Column("metadata", JSONB))
    op.add_column(
        "sessions", sa.Column("metadata", JSONB, nullable=False, server_default=sa.text("'{}'::jsonb"))
    )

    op.create_table(
        "memory_versions",
        sa.Column("profile_id", sa.BigInteger, sa.ForeignKey("profiles.id", ondelete="CASCADE")),
        sa.Column("memory_id", sa.String(26)),
        sa.Column("version", sa.Integer),
        sa.Column("change", sa.String(16), nullable=False),
        sa.Column("type", sa.String(16), nullable=False),
        sa.Column("summary", sa.Text, nullable=False),
        sa.Column("content", sa.Text, nullable=False),
        sa.Column("metadata", JSONB, nullable=False, server_default=sa.text("'{}'::jsonb")),
        sa.Column("session_id", sa.String(64)),
        sa.Column("topic_key", sa.String(200)),
        sa.Column("event_time", _TS),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("valid_from", _TS, nullable=False),
        sa.Column("valid_to", _TS, nullable=False),
        sa.Column("superseded_by", sa.String(26)),
        sa.Column("deleted_at", _TS),
        sa.PrimaryKeyConstraint("profile_id", "memory_id", "version"),
    )
    op.create_index("ix_memory_versions_valid", "memory_versions", ["profile_id", "valid_to", "valid_from"])


def downgrade() -> None:
    op.drop_table("memory_versions")
    op.drop_column("sessions", "metadata")
    op.drop_column("messages", "metadata")
    op.execute("DROP INDEX IF EXISTS ix_memories_metadata")
    for column in ("change", "version", "valid_to", "valid_from", "metadata"):
        op.drop_column("memories", column)
