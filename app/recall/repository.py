"""SQL of recall. Every channel first narrows to the profile's rows (a MATERIALIZED CTE keyed on
`profile_id`), then ranks only those: the plan never ranks the whole table.

Full-text ranking is BM25-like: each query term weighs `ln(1 + (N − df + ½)/(df + ½))` (its rarity in the
profile) times `ts_rank` of that term (summary weighted above content, length-normalised), summed over the
terms a row matches — an OR of terms, so a question matches without repeating every word.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

_ANALYSE = text(
    """
    SELECT
      coalesce((SELECT array_agg(lexeme ORDER BY positions[1])
                FROM unnest(to_tsvector('english', :q))), '{}') AS lexemes,
      coalesce((SELECT array_agg(lexeme) FROM unnest(to_tsvector('english', :related))), '{}') AS related,
      coalesce((SELECT array_agg(pq::text) FROM (
                  SELECT phraseto_tsquery('english', ph) AS pq FROM unnest(CAST(:phrases AS text[])) AS ph) x
                WHERE numnode(pq) > 0), '{}') AS phrases
    """
)

# {rows} is a table expression of the profile's candidate rows with (id, tsv).
_RANK = """
    WITH pm AS MATERIALIZED ({rows}),
    terms AS (
        SELECT CAST(t.q AS tsquery) AS q, t.w FROM unnest(CAST(:terms AS text[]), CAST(:weights AS float8[])) AS t(q, w)
    ),
    hits AS MATERIALIZED (SELECT id, tsv FROM pm WHERE tsv @@ CAST(:anyq AS tsquery)),
    stats AS MATERIALIZED (
        SELECT terms.q, terms.w,
               (SELECT count(*) FROM hits WHERE hits.tsv @@ terms.q) AS df,
               (SELECT count(*) FROM pm) AS n
        FROM terms
    )
    SELECT h.id, sum(s.w * ln(1 + (s.n - s.df + 0.5) / (s.df + 0.5)) * ts_rank(h.tsv, s.q)) AS score
    FROM hits h JOIN stats s ON h.tsv @@ s.q
    GROUP BY h.id
    ORDER BY score DESC, h.id DESC
    LIMIT :width
"""

_MEMORY_FTS = text(
    _RANK.format(rows="SELECT id, tsv FROM memories WHERE profile_id = :p AND superseded_by IS NULL")
)

_MESSAGE_FTS = text(
    "WITH ranked AS ("
    + _RANK.format(rows="SELECT id, tsv FROM messages WHERE profile_id = :p")
    + """)
    SELECT s.memory_id AS id, max(r.score) AS score
    FROM ranked r
    JOIN memory_sources s ON s.profile_id = :p AND s.message_id = r.id
    JOIN memories m ON m.profile_id = :p AND m.id = s.memory_id AND m.superseded_by IS NULL
    GROUP BY s.memory_id
    ORDER BY score DESC, s.memory_id DESC
    LIMIT :width
    """
)

_TOPICS = text(
    "SELECT id, topic_key FROM memories "
    "WHERE profile_id = :p AND superseded_by IS NULL AND topic_key IS NOT NULL ORDER BY id DESC LIMIT 2000"
)

_WINDOW = text(
    """
    SELECT id FROM memories
    WHERE profile_id = :p AND superseded_by IS NULL AND event_time >= :start AND event_time < :end
    ORDER BY event_time DESC, id DESC LIMIT :width
    """
)

_DETAILS = text(
    """
    SELECT id, type, summary, content, session_id, event_time, created_at
    FROM memories WHERE profile_id = :p AND id = ANY(CAST(:ids AS text[])) AND superseded_by IS NULL
    """
)

_SOURCES = text(
    "SELECT memory_id, message_id FROM memory_sources WHERE profile_id = :p AND memory_id = ANY(CAST(:ids AS text[]))"
)

_LATEST_SESSION = text("SELECT id FROM sessions WHERE profile_id = :p ORDER BY updated_at DESC, id LIMIT 1")


async def analyse(
    db: AsyncSession, query: str, phrases: list[str], related: str
) -> tuple[list[str], list[str], list[str]]:
    """The query's stemmed lexemes (stopwords out), its phrases as tsquery text and the lexemes of its
    related words: all made by PostgreSQL, so they match the stored tsvectors exactly."""
    row = (await db.execute(_ANALYSE, {"q": query, "phrases": phrases, "related": related})).one()
    return list(row.lexemes), list(row.phrases), list(row.related)


def _params(profile_id: int, terms: list[str], weights: list[float], width: int) -> dict[str, Any]:
    return {
        "p": profile_id,
        "terms": terms,
        "weights": weights,
        "anyq": " | ".join(f"({t})" for t in terms),
        "width": width,
    }


async def rank_memories(
    db: AsyncSession, profile_id: int, terms: list[str], weights: list[float], width: int
) -> list[tuple[str, float]]:
    rows = await db.execute(_MEMORY_FTS, _params(profile_id, terms, weights, width))
    return [(r.id, float(r.score)) for r in rows]


async def rank_by_messages(
    db: AsyncSession, profile_id: int, terms: list[str], weights: list[float], width: int
) -> list[tuple[str, float]]:
    rows = await db.execute(_MESSAGE_FTS, _params(profile_id, terms, weights, width))
    return [(r.id, float(r.score)) for r in rows]


async def topic_keys(db: AsyncSession, profile_id: int) -> list[tuple[str, str]]:
    return [(r.id, r.topic_key) for r in await db.execute(_TOPICS, {"p": profile_id})]


async def in_window(
    db: AsyncSession, profile_id: int, start: datetime, end: datetime, width: int
) -> list[str]:
    rows = await db.execute(_WINDOW, {"p": profile_id, "start": start, "end": end, "width": width})
    return [r.id for r in rows]


async def details(db: AsyncSession, profile_id: int, ids: list[str]) -> dict[str, dict[str, Any]]:
    rows = await db.execute(_DETAILS, {"p": profile_id, "ids": ids})
    return {r.id: dict(r._mapping) for r in rows}


async def sources(db: AsyncSession, profile_id: int, ids: list[str]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for row in await db.execute(_SOURCES, {"p": profile_id, "ids": ids}):
        found.setdefault(row.memory_id, set()).add(row.message_id)
    return found


async def latest_session(db: AsyncSession, profile_id: int) -> str | None:
    return (await db.execute(_LATEST_SESSION, {"p": profile_id})).scalar_one_or_none()
