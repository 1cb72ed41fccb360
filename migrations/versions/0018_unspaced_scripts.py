"""Thai, Lao, Khmer and Myanmar are searched as character bigrams, as Chinese, Japanese and Korean are.

These scripts write no spaces between words: a run of them is one "word" to PostgreSQL's parser, which a
question shares only when it repeats the very same run, so a statement in Thai was found by no question
that did not quote it. `symbol_tsvector` (migration 0013) now also gives a run of these scripts as its
overlapping character bigrams (their combining vowel and tone marks are characters of the run), and a
question detected in one of these languages (`app.language.detect`: `Language.unspaced`) is read the same
way. The rows that hold such text are rewritten in place so their stored `tsv` is computed again.

Revision ID: 0018
Revises: 0017
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Han (with extensions A and compatibility), kana (with half-width katakana) and Hangul syllables / jamo.
_CJK = r"\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f\uac00-\ud7af\u1100-\u11ff\u3130-\u318f"
# Thai, Lao, Myanmar (with its extensions A and B) and Khmer (with its symbols).
_UNSPACED = r"\u0e00-\u0e7f\u0e80-\u0eff\u1000-\u109f\uaa60-\uaa7f\ua9e0-\ua9ff\u1780-\u17ff\u19e0-\u19ff"
# Arrows, technical symbols, enclosed alphanumerics, shapes, dingbats, miscellaneous symbols and emoji.
_SYMBOLS = r"\u2190-\u21ff\u2300-\u23ff\u2460-\u24ff\u25a0-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff"


def _symbol_tsvector(bigram_scripts: str) -> str:
    return rf"""
CREATE OR REPLACE FUNCTION symbol_tsvector(t text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT CASE WHEN t !~ '[{bigram_scripts}{_SYMBOLS}]' THEN ''::tsvector ELSE to_tsvector('simple', concat_ws(' ',
          (SELECT string_agg(CASE WHEN length(m[1]) = 1 THEN m[1] ELSE substr(m[1], i, 2) END, ' ')
           FROM regexp_matches(t, '[{bigram_scripts}]+', 'g') AS m,
                generate_series(1, greatest(length(m[1]) - 1, 1)) AS i),
          (SELECT string_agg('u' || to_hex(ascii(s[1])), ' ')
           FROM regexp_matches(t, '[{_SYMBOLS}]', 'g') AS s))) END $$
"""


def _recompute() -> None:
    # A stored generated column is computed again whenever its row is updated.
    for table, column in (("memories", "content"), ("messages", "text_content")):
        op.execute(f"UPDATE {table} SET {column} = {column} WHERE {column} ~ '[{_UNSPACED}]'")


def upgrade() -> None:
    op.execute(_symbol_tsvector(_CJK + _UNSPACED))
    _recompute()


def downgrade() -> None:
    op.execute(_symbol_tsvector(_CJK))
    _recompute()
