"""Full text per language: each memory and message is analysed with its own language's configuration, and
Chinese, Japanese, Korean, emoji and symbols become searchable words.

`language` (regconfig, `english` by default: the rows stored before keep the analysis they had) is the
configuration the writer detected (`app.language.detect`): a snowball stemmer where PostgreSQL has one,
`simple` otherwise. The `tsv` columns are rebuilt with it, plus:

- `symbol_tsvector(text)`: what PostgreSQL's parser cannot split or drops. A run of Han, kana or Hangul is
  one "word" to the parser (`我下个月要去东京出差`), so it is also given as its overlapping character bigrams
  (`东京 京出 出差`; a lone character as itself), the segmentation of CJK full text that needs no dictionary
  and no extension (the embedded server has none). An emoji or symbol is dropped by the parser, so it is
  also given as a word naming its code point (`🦄` → `u1f984`). Rows with neither pay one regular-expression
  test and add nothing: an English row's tsvector is the one it had.
- `plain_tsvector(language, text)`: for a row in another language than English, its words unstemmed too
  (`simple`), at the lowest weight, so an English question naming `Tiago` or `sushi` finds the Spanish
  statement whose stemmer made `tiag` of it, and a question misread as English still meets its words.

Memories weigh the symbols as `C` (the recall's BM25 counts `C` as it counts the summary) and the plain
words as `D` (as the context).

Revision ID: 0013
Revises: 0012
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Han (with extensions A and compatibility), kana (with half-width katakana) and Hangul syllables / jamo.
_CJK = r"\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f\uac00-\ud7af\u1100-\u11ff\u3130-\u318f"
# Arrows, technical symbols, enclosed alphanumerics, shapes, dingbats, miscellaneous symbols and emoji.
_SYMBOLS = r"\u2190-\u21ff\u2300-\u23ff\u2460-\u24ff\u25a0-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff"

_SYMBOL_TSVECTOR = rf"""
CREATE FUNCTION symbol_tsvector(t text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT CASE WHEN t !~ '[{_CJK}{_SYMBOLS}]' THEN ''::tsvector ELSE to_tsvector('simple', concat_ws(' ',
          (SELECT string_agg(CASE WHEN length(m[1]) = 1 THEN m[1] ELSE substr(m[1], i, 2) END, ' ')
           FROM regexp_matches(t, '[{_CJK}]+', 'g') AS m,
                generate_series(1, greatest(length(m[1]) - 1, 1)) AS i),
          (SELECT string_agg('u' || to_hex(ascii(s[1])), ' ')
           FROM regexp_matches(t, '[{_SYMBOLS}]', 'g') AS s))) END $$
"""
_PLAIN_TSVECTOR = """
CREATE FUNCTION plain_tsvector(language regconfig, t text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT CASE WHEN language::text IN ('english', 'simple') THEN ''::tsvector
                  ELSE to_tsvector('simple', t) END $$
"""

_MEMORY_TSV = (
    "setweight(to_tsvector(language, summary), 'A') || setweight(to_tsvector(language, content), 'B') || "
    "setweight(to_tsvector(language, context), 'D') || setweight(symbol_tsvector(content), 'C') || "
    "setweight(plain_tsvector(language, content), 'D')"
)
_MESSAGE_TSV = (
    "to_tsvector(language, text_content) || symbol_tsvector(text_content) || "
    "plain_tsvector(language, text_content)"
)
_OLD_MEMORY_TSV = (
    "setweight(to_tsvector('english'::regconfig, summary), 'A') || "
    "setweight(to_tsvector('english'::regconfig, content), 'B') || "
    "setweight(to_tsvector('english'::regconfig, context), 'D')"
)
_OLD_MESSAGE_TSV = "to_tsvector('english'::regconfig, text_content)"


def _rebuild_tsv(table: str, expression: str) -> None:
    op.drop_index(f"ix_{table}_profile_lexemes", table_name=table)
    op.execute(f"ALTER TABLE {table} DROP COLUMN tsv")
    op.execute(f"ALTER TABLE {table} ADD COLUMN tsv tsvector GENERATED ALWAYS AS ({expression}) STORED")
    op.execute(
        f"CREATE INDEX ix_{table}_profile_lexemes ON {table} USING gin (profile_lexemes(profile_id, tsv))"
    )


def upgrade() -> None:
    op.execute(_SYMBOL_TSVECTOR)
    op.execute(_PLAIN_TSVECTOR)
    for table, expression in (("memories", _MEMORY_TSV), ("messages", _MESSAGE_TSV)):
        op.execute(f"ALTER TABLE {table} ADD COLUMN language regconfig NOT NULL DEFAULT 'english'")
        _rebuild_tsv(table, expression)


def downgrade() -> None:
    for table, expression in (("memories", _OLD_MEMORY_TSV), ("messages", _OLD_MESSAGE_TSV)):
        _rebuild_tsv(table, expression)
        op.execute(f"ALTER TABLE {table} DROP COLUMN language")
    op.execute("DROP FUNCTION plain_tsvector(regconfig, text)")
    op.execute("DROP FUNCTION symbol_tsvector(text)")
