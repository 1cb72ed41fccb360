"""Jobs: a typed handler result stored as JSON (`result`) instead of the extraction-only `memories_created`.

Revision ID: 0005
Revises: 0004
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("jobs", sa.Column("result", JSONB, nullable=True))
    op.execute(
        "UPDATE jobs SET result = jsonb_build_object('memoriesCreated', memories_created) "
        "WHERE status = 'done'"
    )
    op.drop_column("jobs", "memories_created")


def downgrade() -> None:
    op.add_column(
        "jobs", sa.Column("memories_created", sa.Integer(), nullable=False, server_default=sa.text("0"))
    )
    op.execute(
        "UPDATE jobs SET memories_created = coalesce((result ->> 'memoriesCreated')::int, 0) "
        "WHERE result IS NOT NULL"
    )
    op.drop_column("jobs", "result")
