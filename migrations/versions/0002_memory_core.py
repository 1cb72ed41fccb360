"""Memory core: sessions, messages (tree + full text), memories (full text) and memory_sources.

Revision ID: 0002
Revises: 0001
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "memories",
        sa.Column("profile_id", sa.BigInteger(), nullable=False),
        sa.Column("id", sa.String(length=26), nullable=False),
        sa.Column("type", sa.String(length=16), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("session_id", sa.String(length=64), nullable=True),
        sa.Column("topic_key", sa.String(length=200), nullable=True),
        sa.Column("event_time", sa.DateTime(timezone=True), nullable=True),
        sa.Column("superseded_by", sa.String(length=26), nullable=True),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column(
            "tsv",
            postgresql.TSVECTOR(),
            sa.Computed(
                "setweight(to_tsvector('english'::regconfig, summary), 'A') || setweight(to_tsvector('english'::regconfig, content), 'B')",
                persisted=True,
            ),
            nullable=False,
        ),
        sa.ForeignKeyConstraint(
            ["profile_id"], ["profiles.id"], name=op.f("fk_memories_profile_id_profiles"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("profile_id", "id", name=op.f("pk_memories")),
    )
    op.create_index(
        "ix_memories_active",
        "memories",
        ["profile_id", "id"],
        unique=False,
        postgresql_where=sa.text("superseded_by IS NULL"),
    )
    op.create_index("ix_memories_event_time", "memories", ["profile_id", "event_time"], unique=False)
    op.create_index("ix_memories_session", "memories", ["profile_id", "session_id"], unique=False)
    op.create_index(
        "ix_memories_topic",
        "memories",
        ["profile_id", "topic_key"],
        unique=False,
        postgresql_where=sa.text("superseded_by IS NULL AND topic_key IS NOT NULL"),
    )
    op.create_index("ix_memories_tsv", "memories", ["tsv"], unique=False, postgresql_using="gin")
    op.create_index("uq_memories_profile_hash", "memories", ["profile_id", "content_hash"], unique=True)
    op.create_table(
        "sessions",
        sa.Column("profile_id", sa.BigInteger(), nullable=False),
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.Text(), server_default=sa.text("''"), nullable=False),
        sa.Column("parent_session_id", sa.String(length=64), nullable=True),
        sa.Column("model", sa.Text(), nullable=True),
        sa.Column("source", sa.Text(), nullable=True),
        sa.Column("end_reason", sa.Text(), nullable=True),
        sa.Column("input_tokens", sa.BigInteger(), server_default=sa.text("0"), nullable=False),
        sa.Column("output_tokens", sa.BigInteger(), server_default=sa.text("0"), nullable=False),
        sa.Column("estimated_cost", sa.Float(), server_default=sa.text("0"), nullable=False),
        sa.Column("compact_after", sa.Integer(), nullable=True),
        sa.Column("system_prompt", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["profile_id"], ["profiles.id"], name=op.f("fk_sessions_profile_id_profiles"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("profile_id", "id", name=op.f("pk_sessions")),
    )
    op.create_index("ix_sessions_profile_updated", "sessions", ["profile_id", "updated_at"], unique=False)
    op.create_table(
        "messages",
        sa.Column("profile_id", sa.BigInteger(), nullable=False),
        sa.Column("id", sa.String(length=128), nullable=False),
        sa.Column("session_id", sa.String(length=64), nullable=False),
        sa.Column("parent_id", sa.String(length=128), nullable=True),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("parts", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("text_content", sa.Text(), server_default=sa.text("''"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("seq", sa.BigInteger(), sa.Identity(always=False), nullable=False),
        sa.Column(
            "tsv",
            postgresql.TSVECTOR(),
            sa.Computed("to_tsvector('english'::regconfig, text_content)", persisted=True),
            nullable=False,
        ),
        sa.ForeignKeyConstraint(
            ["profile_id", "session_id"],
            ["sessions.profile_id", "sessions.id"],
            name=op.f("fk_messages_profile_id_session_id_sessions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("profile_id", "id", name=op.f("pk_messages")),
    )
    op.create_index("ix_messages_parent", "messages", ["profile_id", "parent_id"], unique=False)
    op.create_index("ix_messages_session_seq", "messages", ["profile_id", "session_id", "seq"], unique=False)
    op.create_index("ix_messages_tsv", "messages", ["tsv"], unique=False, postgresql_using="gin")
    op.create_table(
        "memory_sources",
        sa.Column("profile_id", sa.BigInteger(), nullable=False),
        sa.Column("memory_id", sa.String(length=26), nullable=False),
        sa.Column("message_id", sa.String(length=128), nullable=False),
        sa.ForeignKeyConstraint(
            ["profile_id", "memory_id"],
            ["memories.profile_id", "memories.id"],
            name=op.f("fk_memory_sources_profile_id_memory_id_memories"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["profile_id", "message_id"],
            ["messages.profile_id", "messages.id"],
            name=op.f("fk_memory_sources_profile_id_message_id_messages"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("profile_id", "memory_id", "message_id", name=op.f("pk_memory_sources")),
    )
    op.create_index("ix_memory_sources_message", "memory_sources", ["profile_id", "message_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_memory_sources_message", table_name="memory_sources")
    op.drop_table("memory_sources")
    op.drop_index("ix_messages_tsv", table_name="messages", postgresql_using="gin")
    op.drop_index("ix_messages_session_seq", table_name="messages")
    op.drop_index("ix_messages_parent", table_name="messages")
    op.drop_table("messages")
    op.drop_index("ix_sessions_profile_updated", table_name="sessions")
    op.drop_table("sessions")
    op.drop_index("uq_memories_profile_hash", table_name="memories")
    op.drop_index("ix_memories_tsv", table_name="memories", postgresql_using="gin")
    op.drop_index(
        "ix_memories_topic",
        table_name="memories",
        postgresql_where=sa.text("superseded_by IS NULL AND topic_key IS NOT NULL"),
    )
    op.drop_index("ix_memories_session", table_name="memories")
    op.drop_index("ix_memories_event_time", table_name="memories")
    op.drop_index(
        "ix_memories_active", table_name="memories", postgresql_where=sa.text("superseded_by IS NULL")
    )
    op.drop_table("memories")
