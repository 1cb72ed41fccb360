"""Jobs: max_attempts NULL means the worker's AGENT_MEMORY_JOB_MAX_ATTEMPTS.

Revision ID: 0004
Revises: 0003
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.alter_column("jobs", "max_attempts", existing_type=sa.Integer(), nullable=True, server_default=None)
    # Jobs still waiting take the configured limit from now on.
    op.execute(
        "UPDATE jobs SET max_attempts = NULL WHERE status IN ('queued', 'running') AND max_attempts = 5"
    )


def downgrade() -> None:
    op.execute("UPDATE jobs SET max_attempts = 5 WHERE max_attempts IS NULL")
    op.alter_column(
        "jobs", "max_attempts", existing_type=sa.Integer(), nullable=False, server_default=sa.text("5")
    )
