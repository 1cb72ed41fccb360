"""The full-text query of the Session API's searches (messages, search blocks): every term must match.

As the reference's FTS5 search, `deploy production` finds only text holding both words; a quoted part
(`"blue car"`) must match as a phrase. Words become lexemes (stemmed, stopwords out) and are quoted as
tsquery literals, so no input can make the query a syntax error; a query without any lexeme is NULL and
matches nothing. Search blocks are English; messages are stored in their own language (migration 0013),
and a message search reads the query in its language: Chinese, Japanese and Korean as the character bigrams
the messages are indexed with, emoji and symbols as the words they are indexed as.
"""

from __future__ import annotations

import re
from typing import Any

from app.core.profiled_text import QUERY_CONFIG, query_vector, quoted_sql
from app.language.detect import detect

_PHRASE = re.compile(r'"([^"]*)"')


def _all_terms_query(words_vector: str, config: str) -> str:
    """SQL for the tsquery of (:words, :phrases): the AND of the words' lexemes and of each phrase."""
    return f"""
    (SELECT CAST(string_agg('(' || part || ')', ' & ') AS tsquery) FROM (
        SELECT string_agg({quoted_sql("lexeme")}, ' & ') AS part
        FROM unnest({words_vector})
      UNION ALL
        SELECT CAST(pq AS text) FROM (
            SELECT phraseto_tsquery({config}, ph) AS pq FROM unnest(CAST(:phrases AS text[])) AS ph) x
        WHERE numnode(pq) > 0
     ) parts WHERE part IS NOT NULL)
"""


# Search blocks' entries are English text.
ALL_TERMS_QUERY = _all_terms_query("to_tsvector('english', CAST(:words AS text))", "'english'")
MESSAGE_TERMS_QUERY = _all_terms_query(query_vector("CAST(:words AS text)"), QUERY_CONFIG)


def language_params(query: str) -> dict[str, Any]:
    """The parameters `MESSAGE_TERMS_QUERY` and `query_vector` read: the query's language."""
    language = detect(query)
    return {"config": language.config, "cjk": language.unspaced}


def split_query(query: str) -> tuple[str, list[str]]:
    """(the words outside quotes, the quoted phrases); an unpaired quote is just a word separator."""
    phrases = [p for p in _PHRASE.findall(query) if p.strip()]
    words = _PHRASE.sub(" ", query).replace('"', " ")
    return words, phrases
