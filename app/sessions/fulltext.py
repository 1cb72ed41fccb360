"""The full-text query of the Session API's searches (messages, search blocks): every term must match.

As the reference's FTS5 search, `deploy production` finds only text holding both words; a quoted part
(`"blue car"`) must match as a phrase. Words become English lexemes (stemmed, stopwords out) and are quoted
as tsquery literals, so no input can make the query a syntax error; a query without any lexeme is NULL and
matches nothing.
"""

from __future__ import annotations

import re

from app.core.profiled_text import quoted_sql

_PHRASE = re.compile(r'"([^"]*)"')

# SQL for the tsquery of (:words, :phrases): the AND of the words' lexemes and of each phrase.
ALL_TERMS_QUERY = f"""
    (SELECT CAST(string_agg('(' || part || ')', ' & ') AS tsquery) FROM (
        SELECT string_agg({quoted_sql("lexeme")}, ' & ') AS part
        FROM unnest(to_tsvector('english', CAST(:words AS text)))
      UNION ALL
        SELECT CAST(pq AS text) FROM (
            SELECT phraseto_tsquery('english', ph) AS pq FROM unnest(CAST(:phrases AS text[])) AS ph) x
        WHERE numnode(pq) > 0
     ) parts WHERE part IS NOT NULL)
"""


def split_query(query: str) -> tuple[str, list[str]]:
    """(the words outside quotes, the quoted phrases); an unpaired quote is just a word separator."""
    phrases = [p for p in _PHRASE.findall(query) if p.strip()]
    words = _PHRASE.sub(" ", query).replace('"', " ")
    return words, phrases
