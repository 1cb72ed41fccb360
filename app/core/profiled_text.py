"""Profile keys: how a full-text query is scoped to one profile inside the GIN index.

Migration 0011 indexes `profile_lexemes(profile_id, tsv)`: the row's lexemes, each prefixed with its
profile (`7:marathon`). A query for profile 7 asks for those keys (`'7:marathon' | '7:race'`), each of
which lists that profile's rows only, so a search never reads rows of other profiles nor the profile's
rows that match nothing. Write the match as `{profile_lexemes()} @@ :keys` so the planner sees the index
expression; the keys find rows, and the row's own `tsv` ranks them and checks phrases.

A key longer than `KEY_CHARS` characters is cut to that length in rows whose text may hold one (a row
whose tsvector could hold a lexeme near PostgreSQL's 2,047-byte limit, which the prefix would push over):
a query asks for a long key both whole and cut (`key_query`).
"""

from __future__ import annotations

import re

KEY_CHARS = 255  # the cut the migration's function applies in long rows (its regular expression's bound)

# One lexeme of tsquery text as PostgreSQL prints it: quoted, quotes doubled, backslashes escaped.
_QUOTED = re.compile(r"'((?:[^'\\]|''|\\.)*)'")
_UNESCAPE = re.compile(r"''|\\(.)")


def profile_lexemes(alias: str = "") -> str:
    """The indexed expression, for a table alias ('' for none)."""
    col = f"{alias}." if alias else ""
    return f"profile_lexemes({col}profile_id, {col}tsv)"


def quote_lexeme(lexeme: str) -> str:
    """A lexeme as a tsquery operand: quoted, with quotes and backslashes escaped."""
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


def key_query(profile_id: int, lexeme: str) -> str:
    """tsquery text matching the profile's rows that hold `lexeme`, through the index."""
    key = f"{profile_id}:{lexeme}"
    if len(key) <= KEY_CHARS:
        return quote_lexeme(key)
    return f"({quote_lexeme(key)} | {quote_lexeme(key[:KEY_CHARS])})"


def lexemes_of(tsquery_text: str) -> list[str]:
    """The lexemes of tsquery text as PostgreSQL prints it (a phrase: `'half' <-> 'marathon'`)."""
    return [
        _UNESCAPE.sub(lambda m: "'" if m.group(0) == "''" else m.group(1), quoted)
        for quoted in _QUOTED.findall(tsquery_text)
    ]


def phrase_query(profile_id: int, tsquery_text: str) -> str:
    """tsquery text matching the profile's rows holding every lexeme of a phrase (the index cannot see
    word order: the row's own tsvector checks the phrase)."""
    return "(" + " & ".join(key_query(profile_id, x) for x in lexemes_of(tsquery_text)) + ")"


def quoted_sql(sql: str) -> str:
    """SQL quoting a text expression as a tsquery operand, as `quote_lexeme` does."""
    return f"'''' || replace(replace({sql}, '\\', '\\\\'), '''', '''''') || ''''"


def _keys_query(profile_sql: str, lexemes_sql: str, operator: str) -> str:
    key = f"{profile_sql} || ':' || k"
    whole, cut = quoted_sql(key), quoted_sql(f"left({key}, {KEY_CHARS})")
    return (
        f"(SELECT CAST(string_agg('(' || {whole} || ' | ' || {cut} || ')', ' {operator} ') AS tsquery)"
        f" FROM unnest({lexemes_sql}) AS k)"
    )


def all_keys_query(profile_sql: str, tsvector_sql: str) -> str:
    """SQL for the tsquery of the profile's rows holding every lexeme of a tsvector (each key asked whole
    and cut, as `key_query` does); NULL when the tsvector is empty. Both arguments are SQL expressions."""
    return _keys_query(profile_sql, f"tsvector_to_array({tsvector_sql})", "&")


def any_keys_query(profile_sql: str, lexemes_sql: str) -> str:
    """SQL for the tsquery of the profile's rows holding any of the lexemes of a text[] (each key asked
    whole and cut, as `key_query` does), for a statement that learns the profile's id itself; NULL when
    there are none. Both arguments are SQL expressions."""
    return _keys_query(profile_sql, lexemes_sql, "|")


# A query's text-search configuration, from its `:config` parameter (`app.language.detect.search_config`).
QUERY_CONFIG = "CAST(CAST(:config AS text) AS regconfig)"


def query_vector(text_sql: str) -> str:
    """SQL for the lexemes of a query's text (`text_sql`) as rows are indexed (migration 0013): in the
    query's language (`:config`), with its emoji and symbols as words; for Chinese, Japanese or Korean
    (`:cjk`) its character bigrams alone (a run of characters is one word to the parser, which a row holds
    only when it has the very same run)."""
    return (
        f"CASE WHEN CAST(:cjk AS boolean) THEN symbol_tsvector({text_sql})"
        f" ELSE to_tsvector({QUERY_CONFIG}, {text_sql}) || symbol_tsvector({text_sql}) END"
    )
