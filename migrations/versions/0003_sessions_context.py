"""Session API: context blocks and their entries (full text), compaction overlays, sessions.loaded_skills.

Revision ID: 0003
Revises: 0002
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "context_blocks",
        sa.Column("profile_id", sa.BigInteger(), nullable=False),
        sa.Column("label", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("max_tokens", sa.Integer(), nullable=True),
        sa.Column("content", sa.Text(), server_default=sa.text("''"), nullable=False),
        sa.Column("seq", sa.BigInteger(), sa.Identity(always=False), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.ForeignKeyConstraint(
            ["profile_id"],
            ["profiles.id"],
            name=op.f("fk_context_blocks_profile_id_profiles"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("profile_id", "label", name=op.f("pk_context_blocks")),
    )
    op.create_index("ix_context_blocks_profile_seq", "context_blocks", ["profile_id", "seq"], unique=False)
    op.create_table(
        "compactions",
        sa.Column("profile_id", sa.BigInteger(), nullable=False),
        sa.Column("id", sa.String(length=26), nullable=False),
        sa.Column("session_id", sa.String(length=64), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("from_message_id", sa.String(length=128), nullable=False),
        sa.Column("to_message_id", sa.String(length=128), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("seq", sa.BigInteger(), sa.Identity(always=False), nullable=False),
        sa.ForeignKeyConstraint(
            ["profile_id", "session_id"],
            ["sessions.profile_id", "sessions.id"],
            name=op.f("fk_compactions_profile_id_session_id_sessions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("profile_id", "id", name=op.f("pk_compactions")),
    )
    op.create_index(
        "ix_compactions_session_seq", "compactions", ["profile_id", "session_id", "seq"], unique=False
    )
    op.create_table(
        "context_entries",
        sa.Column("profile_id", sa.BigInteger(), nullable=False),
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
            ["profile_id", "label"],
            ["context_blocks.profile_id", "context_blocks.label"],
            name=op.f("fk_context_entries_profile_id_label_context_blocks"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("profile_id", "label", "key", name=op.f("pk_context_entries")),
    )
    op.create_index(
        "ix_context_entries_tsv", "context_entries", ["tsv"], unique=False, postgresql_using="gin"
    )
    op.add_column(
        "sessions",
        sa.Column(
            "loaded_skills",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'[]'::jsonb"),
            nullable=False,
        ),
    )


def downgrade() -> None:
    op.drop_column("sessions", "loaded_skills")
    op.drop_index("ix_context_entries_tsv", table_name="context_entries", postgresql_using="gin")
    op.drop_table("context_entries")
    op.drop_index("ix_compactions_session_seq", table_name="compactions")
    op.drop_table("compactions")
    op.drop_index("ix_context_blocks_profile_seq", table_name="context_blocks")
    op.drop_table("context_blocks")
