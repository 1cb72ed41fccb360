"""Full-text indexes whose keys are the profile's own lexemes, so a look-up reads only the profile's
posting lists.

0010 indexed each row's tsvector plus one lexeme naming its profile and ANDed that lexeme into every
query: correct and profile-scoped, but the index still walked each query term's posting list over every
profile (a common word's list spans the whole table) to intersect it with the profile's. Recall's first
stage asks for forty-odd terms at once (the question's words, their expansions and nearest words), and at
1M memories over 1,000 profiles the recall statement ran 0.83–0.91× the time at the median without them
(and 7.3–8.5 ms against 9.3–15.8 ms on average; README, Recall at scale).

`profile_lexemes(profile_id, tsv)` is the row's lexemes each prefixed with its profile (`7:marathon`): the
digits before the first ':' are the profile, whatever the lexeme holds, so no two profiles share a key.
A query for profile 7 asks for `'7:marathon' | '7:race'`, each key's posting list holds that profile's
rows only, and the index answers from them alone. Positions and weights are left out (the index only
finds rows; ranking reads the row's own tsvector). The function is plain SQL with no subquery (lexemes
never hold a space, the parser splits on it), so the planner inlines it and matches the index expression.

A lexeme may be 2,047 bytes long, and the prefix would push it past PostgreSQL's limit: in a row whose
tsvector is 1,900 bytes or more (or stored compressed, its size unknown without decompressing it), keys are
cut to 255 characters (`app.core.profiled_text.key_query` asks for a long key both whole and cut); the test
is two header reads, the cut a regular expression only long rows pay.

Revision ID: 0011
Revises: 0010
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        """
        CREATE FUNCTION profile_lexemes(profile_id bigint, tsv tsvector) RETURNS tsvector
        LANGUAGE sql IMMUTABLE PARALLEL SAFE
        AS $$ SELECT array_to_tsvector(string_to_array(CASE
                  WHEN pg_column_size(tsv) < 1900 AND pg_column_compression(tsv) IS NULL
                  THEN profile_id::text || ':'
                       || array_to_string(tsvector_to_array(tsv), ' ' || profile_id::text || ':')
                  ELSE regexp_replace(profile_id::text || ':'
                       || array_to_string(tsvector_to_array(tsv), ' ' || profile_id::text || ':'),
                       '(\\S{255})\\S+', '\\1', 'g')
                  END, ' ')) $$
        """
    )
    op.execute(
        "CREATE INDEX ix_memories_profile_lexemes ON memories USING gin (profile_lexemes(profile_id, tsv))"
    )
    op.execute(
        "CREATE INDEX ix_messages_profile_lexemes ON messages USING gin (profile_lexemes(profile_id, tsv))"
    )
    op.drop_index("ix_memories_profiled_tsv", table_name="memories")
    op.drop_index("ix_messages_profiled_tsv", table_name="messages")
    op.execute("DROP FUNCTION profiled_tsv(bigint, tsvector)")


def downgrade() -> None:
    op.execute(
        """
        CREATE FUNCTION profiled_tsv(profile_id bigint, tsv tsvector) RETURNS tsvector
        LANGUAGE sql IMMUTABLE PARALLEL SAFE
        AS $$ SELECT tsv || array_to_tsvector(ARRAY[' p' || profile_id::text]) $$
        """
    )
    op.execute("CREATE INDEX ix_memories_profiled_tsv ON memories USING gin (profiled_tsv(profile_id, tsv))")
    op.execute("CREATE INDEX ix_messages_profiled_tsv ON messages USING gin (profiled_tsv(profile_id, tsv))")
    op.drop_index("ix_messages_profile_lexemes", table_name="messages")
    op.drop_index("ix_memories_profile_lexemes", table_name="memories")
    op.execute("DROP FUNCTION profile_lexemes(bigint, tsvector)")
