"""Session API as the reference has it: message ids unique per session, session-scoped context blocks,
and a per-session switch for extracting chat messages into memories.

- messages: primary key (profile_id, session_id, id) instead of (profile_id, id); the parent index carries
  the session too. memory_sources gains session_id and references messages by the new key.
- sessions.extract_memories: appended messages are queued for extraction unless a session opts out.
- context_blocks.scope: `session` (each session keeps its own content and entries, starting from the
  definition's) or `profile` (one content shared by every session). A session's own copy of a block lives in
  context_session_blocks, its entries in context_session_entries; both go with the session.

Revision ID: 0009
Revises: 0008
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # ---- message ids per session
    op.drop_constraint(
        "fk_memory_sources_profile_id_message_id_messages", "memory_sources", type_="foreignkey"
    )
    op.add_column("memory_sources", sa.Column("session_id", sa.String(length=64), nullable=True))
    op.execute(
        "UPDATE memory_sources s SET session_id = m.session_id FROM messages m "
        "WHERE m.profile_id = s.profile_id AND m.id = s.message_id"
    )
    op.execute("DELETE FROM memory_sources WHERE session_id IS NULL")
    op.alter_column("memory_sources", "session_id", nullable=False)
    op.drop_constraint("pk_memory_sources", "memory_sources", type_="primary")
    op.create_primary_key(
        "pk_memory_sources", "memory_sources", ["profile_id", "memory_id", "session_id", "message_id"]
    )
    op.drop_index("ix_memory_sources_message", table_name="memory_sources")
    op.create_index(
        "ix_memory_sources_message",
        "memory_sources",
        ["profile_id", "session_id", "message_id"],
        unique=False,
    )
    op.drop_constraint("pk_messages", "messages", type_="primary")
    op.create_primary_key("pk_messages", "messages", ["profile_id", "session_id", "id"])
    op.drop_index("ix_messages_parent", table_name="messages")
    op.create_index("ix_messages_parent", "messages", ["profile_id", "session_id", "parent_id"], unique=False)
    op.create_foreign_key(
        "fk_memory_sources_profile_id_session_id_message_id_messages",
        "memory_sources",
        "messages",
        ["profile_id", "session_id", "message_id"],
        ["profile_id", "session_id", "id"],
        ondelete="CASCADE",
    )

    # ---- extraction of appended messages, per session
    op.add_column(
        "sessions",
        sa.Column("extract_memories", sa.Boolean(), server_default=sa.text("true"), nullable=False),
    )

    # ---- context block scope
    op.add_column(
        "context_blocks",
        sa.Column("scope", sa.String(length=16), server_default=sa.text("'session'"), nullable=False),
    )
    op.create_table(
        "context_session_blocks",
        sa.Column("profile_id", sa.BigInteger(), nullable=False),
        sa.Column("session_id", sa.String(length=64), nullable=False),
        sa.Column("label", sa.String(length=64), nullable=False),
        sa.Column("content", sa.Text(), server_default=sa.text("''"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["profile_id", "session_id"],
            ["sessions.profile_id", "sessions.id"],
            name=op.f("fk_context_session_blocks_profile_id_session_id_sessions"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["profile_id", "label"],
            ["context_blocks.profile_id", "context_blocks.label"],
            name=op.f("fk_context_session_blocks_profile_id_label_context_blocks"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("profile_id", "session_id", "label", name=op.f("pk_context_session_blocks")),
    )
    op.create_table(
        "context_session_entries",
        sa.Column("profile_id", sa.BigInteger(), nullable=False),
        sa.Column("session_id", sa.String(length=64), nullable=False),
        sa.Column("label", sa.String(length=64), nullable=False),
        sa.Column("key", sa.String(length=128), nullable=False),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column(
            "tsv",
            postgresql.TSVECTOR(),
            sa.Computed("to_tsvector('english'::regconfig, content)", persisted=True),
            nullable=False,
        ),
        sa.ForeignKeyConstraint(
            ["profile_id", "session_id", "label"],
            [
                "context_session_blocks.profile_id",
                "context_session_blocks.session_id",
                "context_session_blocks.label",
            ],
            name="fk_context_session_entries_block",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "profile_id", "session_id", "label", "key", name=op.f("pk_context_session_entries")
        ),
    )
    op.create_index(
        "ix_context_session_entries_tsv",
        "context_session_entries",
        ["tsv"],
        unique=False,
        postgresql_using="gin",
    )


def downgrade() -> None:
    op.drop_index(
        "ix_context_session_entries_tsv", table_name="context_session_entries", postgresql_using="gin"
    )
    op.drop_table("context_session_entries")
    op.drop_table("context_session_blocks")
    op.drop_column("context_blocks", "scope")
    op.drop_column("sessions", "extract_memories")
    op.drop_constraint(
        "fk_memory_sources_profile_id_session_id_message_id_messages", "memory_sources", type_="foreignkey"
    )
    op.drop_index("ix_messages_parent", table_name="messages")
    op.create_index("ix_messages_parent", "messages", ["profile_id", "parent_id"], unique=False)
    op.drop_constraint("pk_messages", "messages", type_="primary")
    op.create_primary_key("pk_messages", "messages", ["profile_id", "id"])
    op.drop_index("ix_memory_sources_message", table_name="memory_sources")
    op.create_index("ix_memory_sources_message", "memory_sources", ["profile_id", "message_id"], unique=False)
    op.drop_constraint("pk_memory_sources", "memory_sources", type_="primary")
    op.create_primary_key("pk_memory_sources", "memory_sources", ["profile_id", "memory_id", "message_id"])
    op.drop_column("memory_sources", "session_id")
    op.create_foreign_key(
        "fk_memory_sources_profile_id_message_id_messages",
        "memory_sources",
        "messages",
        ["profile_id", "message_id"],
        ["profile_id", "id"],
        ondelete="CASCADE",
    )
