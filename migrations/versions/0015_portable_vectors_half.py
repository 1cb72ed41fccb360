"""The portable vector store keeps each vector as half-precision floats in one `bytea` (was `real[]`).

Recall reads a profile's vectors on every question when the server has no pgvector. Sent as `real[]`, each
element travels as its own length and value, converted one by one (≈ 17 ms for 1,000 vectors on an idle
machine); raw half floats are one copy on each side, a quarter of the bytes (measured 3.5 times faster
under the same load), and numpy reads them as they are. Half precision changes a cosine similarity by
about 1e-4, far below what separates two memories.

The stored `real[]` vectors are dropped, not converted: vectors are derived data, and the API's start
queues the embedding jobs of every profile left without vectors of its model. pgvector's `vector` column
is left as it is.

Revision ID: 0015
Revises: 0012
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_COLUMN_TYPE = """
    SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
    WHERE a.attrelid = 'memory_embeddings'::regclass AND a.attname = 'embedding' AND NOT a.attisdropped
"""


def _column_type() -> str:
    return str(op.get_bind().exec_driver_sql(_COLUMN_TYPE).scalar_one())


def upgrade() -> None:
    if _column_type() != "real[]":
        return  # pgvector
    op.execute("DELETE FROM memory_embeddings")
    op.execute("ALTER TABLE memory_embeddings ALTER COLUMN embedding TYPE bytea USING NULL")
    # Already under 2 kB a row; compressing 768 bytes of floats gains nothing and costs every read.
    op.execute("ALTER TABLE memory_embeddings ALTER COLUMN embedding SET STORAGE EXTERNAL")


def downgrade() -> None:
    if _column_type() != "bytea":
        return
    op.execute("DELETE FROM memory_embeddings")
    op.execute("ALTER TABLE memory_embeddings ALTER COLUMN embedding SET STORAGE EXTENDED")
    op.execute("ALTER TABLE memory_embeddings ALTER COLUMN embedding TYPE real[] USING NULL")
