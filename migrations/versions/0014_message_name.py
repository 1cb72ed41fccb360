"""A message's speaker: `name` on messages (OpenAI's chat convention), given at ingest.

In a chat between two people the roles `user` / `assistant` say only which side a message came from; the
name says who spoke, and extraction, summaries and recall use it instead of User / Assistant. NULL when no
name was given (a `Name: text` prefix in the content still names the speaker). Adding a nullable column
without a default rewrites nothing.

Revision ID: 0014
Revises: 0012
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("ALTER TABLE messages ADD COLUMN name text")


def downgrade() -> None:
    op.execute("ALTER TABLE messages DROP COLUMN name")
