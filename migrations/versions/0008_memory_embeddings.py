"""Memory embeddings: one vector per memory and model, in pgvector's `vector` where the extension can be
created (the embedded server ships it), else in a portable `real[]` searched by an exact profile-scoped scan.

Revision ID: 0008
Revises: 0007
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _pgvector() -> bool:
    """Create the `vector` extension if this server has it and lets us; False means portable storage."""
    bind = op.get_bind()
    available = bind.execute(sa.text("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")).first()
    if available is None:
        return False
    savepoint = bind.begin_nested()
    try:
        bind.execute(sa.text("CREATE EXTENSION IF NOT EXISTS vector"))
    except sa.exc.DBAPIError:  # e.g. not allowed to create extensions: store portably instead
        savepoint.rollback()
        return False
    savepoint.commit()
    return True


def upgrade() -> None:
    column = "vector" if _pgvector() else "real[]"
    # Keyed (profile, memory, model): a memory's delete cascades through the key's prefix, and a change of
    # model adds vectors beside the old ones instead of mixing two spaces.
    op.execute(
        f"""
        CREATE TABLE memory_embeddings (
            profile_id bigint NOT NULL,
            memory_id varchar(26) NOT NULL,
            model varchar(200) NOT NULL,
            embedding {column} NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (profile_id, memory_id, model),
            FOREIGN KEY (profile_id, memory_id) REFERENCES memories (profile_id, id) ON DELETE CASCADE
        )
        """
    )


def downgrade() -> None:
    op.execute("DROP TABLE memory_embeddings")
