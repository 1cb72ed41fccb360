"""SQL of recall. Every channel first narrows to the profile's rows (a MATERIALIZED CTE keyed on
`profile_id`), then ranks only those: the plan never ranks the whole table.

Full-text ranking is BM25-like: each query term weighs `ln(1 + (N − df + ½)/(df + ½))` (its rarity in the
profile) times `ts_rank` of that term (summary weighted above content, length-normalised), summed over the
terms a row matches — an OR of terms, so a question matches without repeating every word.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.recall.query import quote_lexeme

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

# {rows} is a table expression of the profile's candidate rows with (id, tsv). Term statistics come from
# unnesting the matching rows' tsvectors and joining on the query's lexemes (a hash join), so the cost grows
# with the rows that match, not with rows × terms.
_RANK = """
    WITH pm AS MATERIALIZED ({rows}),
    terms AS (SELECT * FROM unnest(CAST(:lexemes AS text[]), CAST(:weights AS float8[])) AS t(lexeme, w)),
    prefixes AS (SELECT * FROM unnest(CAST(:prefixes AS text[]), CAST(:prefix_weights AS float8[])) AS t(lexeme, w)),
    phrases AS (
        SELECT CAST(t.q AS tsquery) AS q, t.q AS lexeme, t.w
        FROM unnest(CAST(:phrases AS text[]), CAST(:phrase_weights AS float8[])) AS t(q, w)
    ),
    hits AS MATERIALIZED (SELECT id, tsv, length(tsv) AS dl FROM pm WHERE tsv @@ CAST(:anyq AS tsquery)),
    unnested AS MATERIALIZED (
        SELECT h.id, h.dl, u.lexeme,
               CAST(:wa AS float8) * cardinality(array_positions(u.weights, 'A')) + CAST(:wb AS float8) * cardinality(array_positions(u.weights, 'B'))
             + CAST(:wc AS float8) * cardinality(array_positions(u.weights, 'C')) + CAST(:wd AS float8) * cardinality(array_positions(u.weights, 'D'))
               AS wtf
        FROM hits h CROSS JOIN LATERAL unnest(h.tsv) AS u(lexeme, positions, weights)
    ),
    matches AS MATERIALIZED (
        SELECT x.id, x.dl, t.lexeme, t.w, x.wtf FROM unnested x JOIN terms t ON t.lexeme = x.lexeme
        UNION ALL
        SELECT x.id, x.dl, t.lexeme, t.w, x.wtf FROM unnested x JOIN prefixes t ON starts_with(x.lexeme, t.lexeme)
        UNION ALL
        SELECT h.id, h.dl, p.lexeme, p.w, CAST(:wa AS float8) FROM hits h JOIN phrases p ON h.tsv @@ p.q
    ),
    df AS (SELECT lexeme, count(DISTINCT id) AS df FROM matches GROUP BY lexeme),
    stats AS (SELECT count(*) AS n, greatest(avg(length(tsv)), 1) AS avgdl FROM pm)
    SELECT m.id,
           sum(m.w * ln(1 + (s.n - d.df + 0.5) / (d.df + 0.5))
               * m.wtf * (CAST(:k1 AS float8) + 1) / (m.wtf + CAST(:k1 AS float8) * (1 - CAST(:b AS float8) + CAST(:b AS float8) * m.dl / s.avgdl))) AS score
    FROM matches m JOIN df d USING (lexeme) CROSS JOIN stats s
    GROUP BY m.id
    ORDER BY score DESC, m.id DESC
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


@dataclass(frozen=True)
class Terms:
    """A query's terms with their weights: plain lexemes, prefixes (`lexeme:*`) and phrases (tsquery text)."""

    lexemes: list[tuple[str, float]]
    prefixes: list[tuple[str, float]]
    phrases: list[tuple[str, float]]

    def any_query(self) -> str:
        """One OR tsquery of every term, to find the rows worth scoring."""
        parts = [quote_lexeme(x) for x, _ in self.lexemes] + [
            quote_lexeme(x) + ":*" for x, _ in self.prefixes
        ]
        return " | ".join(parts + [f"({q})" for q, _ in self.phrases])


# BM25 constants and the weight of each tsvector label: memories weigh summary (A) above content (B);
# messages carry no labels (D) and count every occurrence fully.
K1 = 1.2
B = 0.0
MEMORY_LABELS = {"wa": 1.0, "wb": 0.2, "wc": 0.3, "wd": 0.2}
MESSAGE_LABELS = {"wa": 1.0, "wb": 1.0, "wc": 1.0, "wd": 1.0}


def _params(profile_id: int, terms: Terms, width: int, labels: dict[str, float]) -> dict[str, Any]:
    return {
        "p": profile_id,
        "lexemes": [x for x, _ in terms.lexemes],
        "weights": [w for _, w in terms.lexemes],
        "prefixes": [x for x, _ in terms.prefixes],
        "prefix_weights": [w for _, w in terms.prefixes],
        "phrases": [x for x, _ in terms.phrases],
        "phrase_weights": [w for _, w in terms.phrases],
        "anyq": terms.any_query(),
        "width": width,
        "k1": K1,
        "b": B,
        **labels,
    }


async def rank_memories(
    db: AsyncSession, profile_id: int, terms: Terms, width: int
) -> list[tuple[str, float]]:
    rows = await db.execute(_MEMORY_FTS, _params(profile_id, terms, width, MEMORY_LABELS))
    return [(r.id, float(r.score)) for r in rows]


async def rank_by_messages(
    db: AsyncSession, profile_id: int, terms: Terms, width: int
) -> list[tuple[str, float]]:
    rows = await db.execute(_MESSAGE_FTS, _params(profile_id, terms, width, MESSAGE_LABELS))
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
