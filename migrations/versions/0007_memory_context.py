"""Memories: a `context` column (the turn a memory answers, resolved referents, generated keywords),
folded into the full-text vector at weight D; messages indexed by time for time-only recall.

Revision ID: 0007
Revises: 0006
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TSV = (
    "setweight(to_tsvector('english'::regconfig, summary), 'A') || "
    "setweight(to_tsvector('english'::regconfig, content), 'B') || "
    "setweight(to_tsvector('english'::regconfig, context), 'D')"
)
_OLD_TSV = (
    "setweight(to_tsvector('english'::regconfig, summary), 'A') || "
    "setweight(to_tsvector('english'::regconfig, content), 'B')"
)


def _replace_tsv(expression: str) -> None:
    # A generated column's expression cannot be altered in place: drop it (and its index), add it again.
    op.drop_index("ix_memories_tsv", table_name="memories")
    op.drop_column("memories", "tsv")
    op.add_column(
        "memories",
        sa.Column("tsv", postgresql.TSVECTOR(), sa.Computed(expression, persisted=True), nullable=False),
    )
    op.create_index("ix_memories_tsv", "memories", ["tsv"], unique=False, postgresql_using="gin")


def upgrade() -> None:
    op.add_column("memories", sa.Column("context", sa.Text(), server_default=sa.text("''"), nullable=False))
    _replace_tsv(_TSV)
    op.create_index("ix_messages_created", "messages", ["profile_id", "created_at"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_messages_created", table_name="messages")
    _replace_tsv(_OLD_TSV)
    op.drop_column("memories", "context")
