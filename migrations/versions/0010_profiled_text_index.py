"""Full-text indexes keyed by profile and text together, so recall's cost follows the rows that match in
one profile, not the whole table nor the whole profile.

`profiled_tsv(profile_id, tsv)` is the row's tsvector plus one lexeme naming its profile (`' p<id>'`: a
space never occurs in a lexeme the parser makes, so no text can collide with it). A GIN index on it answers
`profiled_tsv(profile_id, tsv) @@ (' p<id>' & (a | b))` by intersecting posting lists, rarest first: the
same plan a composite `(profile_id, tsv)` GIN gives where `btree_gin` exists, but with no extension, so the
embedded server has it too. The function is plain SQL, inlined by the planner, so queries written with it
match the index expression. The global `tsv` GIN indexes it replaces were never used by profile-scoped
queries.

Revision ID: 0010
Revises: 0009
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        """
        CREATE FUNCTION profiled_tsv(profile_id bigint, tsv tsvector) RETURNS tsvector
        LANGUAGE sql IMMUTABLE PARALLEL SAFE
        AS $$ SELECT tsv || array_to_tsvector(ARRAY[' p' || profile_id::text]) $$
        """
    )
    op.drop_index("ix_memories_tsv", table_name="memories")
    op.drop_index("ix_messages_tsv", table_name="messages")
    op.execute("CREATE INDEX ix_memories_profiled_tsv ON memories USING gin (profiled_tsv(profile_id, tsv))")
    op.execute("CREATE INDEX ix_messages_profiled_tsv ON messages USING gin (profiled_tsv(profile_id, tsv))")


def downgrade() -> None:
    op.drop_index("ix_messages_profiled_tsv", table_name="messages")
    op.drop_index("ix_memories_profiled_tsv", table_name="memories")
    op.execute("CREATE INDEX ix_memories_tsv ON memories USING gin (tsv)")
    op.execute("CREATE INDEX ix_messages_tsv ON messages USING gin (tsv)")
    op.execute("DROP FUNCTION profiled_tsv(bigint, tsvector)")
