"""The profile lexeme: how a full-text query is scoped to one profile inside the GIN index.

Migration 0010 indexes `profiled_tsv(profile_id, tsv)`, the row's tsvector plus the lexeme `' p<id>'`.
ANDing that lexeme into a query (`' p7' & (a | b)`) lets the index intersect the profile's posting list
with the terms' (rarest first), so a search never reads rows of other profiles nor the profile's rows
that match nothing. Write the match as `{PROFILED_TSV} @@ :query` so the planner sees the index expression.
"""

from __future__ import annotations


def profiled_tsv(alias: str = "") -> str:
    """The indexed expression, for a table alias ('' for none)."""
    col = f"{alias}." if alias else ""
    return f"profiled_tsv({col}profile_id, {col}tsv)"


def profile_term(profile_id: int) -> str:
    """The profile's lexeme as a tsquery operand: AND it into a query to keep the query in the profile."""
    # The space keeps it apart from every lexeme the text parser makes.
    return quote_lexeme(f" p{profile_id}")


def quote_lexeme(lexeme: str) -> str:
    """A lexeme as a tsquery operand: quoted, with quotes and backslashes escaped."""
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


def in_profile(profile_id: int, query: str) -> str:
    """tsquery text matching `query` (tsquery text) within one profile only."""
    return f"{profile_term(profile_id)} & ({query})"
