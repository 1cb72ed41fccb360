"""SQL of recall. Every channel first narrows to the profile's rows (a MATERIALIZED CTE keyed on
`profile_id`), then ranks only those: the plan never ranks the whole table.

Full-text ranking is BM25 over PostgreSQL's own lexemes: each query term weighs
`ln(1 + (N − df + ½)/(df + ½))` (its rarity in the profile) times a saturating count of its occurrences
(summary weighted above content), summed over the terms a row matches — an OR of terms, so a question
matches without repeating every word.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.metadata import filter_sql
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

# Term statistics come from unnesting the matching rows' tsvectors and hash-joining them with the query's
# lexemes, so the cost grows with the rows that match, not with rows × terms.
# BM25 constants: no length normalisation (b = 0): chat statements are short, and normalising hurt ranking.
K1 = 1.2
B = 0.0
# Weight of each occurrence by tsvector label: memories weigh summary (A) above content (B, mostly the same
# words again); the context (D: the turn a memory answers, its referents, generated keywords) above content,
# since a reply rarely repeats the words of the question it answers (weights chosen on the development sets).
# Messages carry no labels and count every occurrence fully.
_MEMORY_TF = (
    "1.0 * cardinality(array_positions(u.weights, 'A')) + 0.2 * cardinality(array_positions(u.weights, 'B'))"
    " + 0.3 * cardinality(array_positions(u.weights, 'C')) + 0.5 * cardinality(array_positions(u.weights, 'D'))"
)
_MESSAGE_TF = "cardinality(u.positions)"
# Message ids are unique per session, so a message is "session/id" here (session ids hold no '/').
_MESSAGE_ROWS = "SELECT session_id || '/' || id AS id, tsv FROM messages WHERE profile_id = :p"


def _ranked(name: str, rows: str, tf: str) -> str:
    """CTEs `{name}_…` ending in `{name}` (id, score): BM25 over `rows` (id, tsv), best first."""
    return f"""
    {name}_pm AS MATERIALIZED ({rows}),
    {name}_hits AS MATERIALIZED (
        SELECT id, tsv, length(tsv) AS dl FROM {name}_pm WHERE tsv @@ CAST(:anyq AS tsquery)),
    {name}_unnested AS MATERIALIZED (
        SELECT h.id, h.dl, u.lexeme, {tf} AS wtf
        FROM {name}_hits h CROSS JOIN LATERAL unnest(h.tsv) AS u(lexeme, positions, weights)),
    {name}_matches AS MATERIALIZED (
        SELECT x.id, x.dl, t.lexeme, t.w, x.wtf FROM {name}_unnested x JOIN terms t ON t.lexeme = x.lexeme
        UNION ALL
        SELECT x.id, x.dl, t.lexeme, t.w, x.wtf
        FROM {name}_unnested x JOIN prefixes t ON starts_with(x.lexeme, t.lexeme)
        UNION ALL
        SELECT h.id, h.dl, p.lexeme, p.w, 1.0 FROM {name}_hits h JOIN phrases p ON h.tsv @@ p.q),
    {name}_df AS (SELECT lexeme, count(DISTINCT id) AS df FROM {name}_matches GROUP BY lexeme),
    {name}_stats AS (SELECT count(*) AS n, greatest(avg(length(tsv)), 1) AS avgdl FROM {name}_pm),
    {name} AS (
        SELECT m.id,
               sum(m.w * ln(1 + (s.n - d.df + 0.5) / (d.df + 0.5))
                   * m.wtf * ({K1} + 1) / (m.wtf + {K1} * (1 - {B} + {B} * m.dl / s.avgdl))) AS score
        FROM {name}_matches m JOIN {name}_df d USING (lexeme) CROSS JOIN {name}_stats s
        GROUP BY m.id
        ORDER BY score DESC, m.id DESC
        LIMIT :width)"""


# All channels in one round trip: memory full text, raw-message full text mapped to the memories those
# messages sourced, topic keys sharing a word with the question, events inside the time window and,
# after them, memories told inside it (their source messages' time: "what did I do yesterday?" is
# answered by what was said yesterday too), plus the profile's document frequency of each query term
# for the second stage.
_CHANNELS_SQL = f"""
    WITH
    terms AS (SELECT * FROM unnest(CAST(:lexemes AS text[]), CAST(:weights AS float8[])) AS t(lexeme, w)),
    prefixes AS (SELECT * FROM unnest(CAST(:prefixes AS text[]), CAST(:prefix_weights AS float8[])) AS t(lexeme, w)),
    phrases AS (
        SELECT CAST(t.q AS tsquery) AS q, t.q AS lexeme, t.w
        FROM unnest(CAST(:phrases AS text[]), CAST(:phrase_weights AS float8[])) AS t(q, w)),
    {_ranked("mem", "SELECT id, tsv FROM memories WHERE profile_id = :p AND {live}", _MEMORY_TF)},
    {_ranked("msg", _MESSAGE_ROWS, _MESSAGE_TF)},
    msg_memories AS (
        SELECT s.memory_id AS id, max(r.score) AS score
        FROM msg r
        JOIN memory_sources s ON s.profile_id = :p AND s.session_id = split_part(r.id, '/', 1)
                             AND s.message_id = substr(r.id, strpos(r.id, '/') + 1)
        JOIN memories m ON m.profile_id = :p AND m.id = s.memory_id AND {{live_m}}
        GROUP BY s.memory_id
        ORDER BY score DESC, s.memory_id DESC
        LIMIT :width)
    SELECT 'memory' AS channel, id, score, NULL AS topic_key FROM mem
    UNION ALL
    SELECT 'message', id, score, NULL FROM msg_memories
    UNION ALL
    (SELECT 'topic', id, 0, topic_key FROM memories
     WHERE profile_id = :p AND {{live}} AND topic_key IS NOT NULL
       AND regexp_split_to_array(topic_key, '[._]') && CAST(:words AS text[])
     ORDER BY id DESC LIMIT 500)
    UNION ALL
    (SELECT 'window', id, extract(epoch FROM event_time), NULL FROM memories
     WHERE :has_window AND profile_id = :p AND {{live}}
       AND event_time >= :start AND event_time < :end
     ORDER BY event_time DESC, id DESC LIMIT :width)
    UNION ALL
    (SELECT 'told', s.memory_id, extract(epoch FROM max(g.created_at)), NULL
     FROM messages g
     JOIN memory_sources s ON s.profile_id = :p AND s.session_id = g.session_id AND s.message_id = g.id
     JOIN memories m ON m.profile_id = :p AND m.id = s.memory_id AND {{live_m}}
     WHERE :has_window AND g.profile_id = :p AND g.created_at >= :start AND g.created_at < :end
     GROUP BY s.memory_id
     ORDER BY 3 DESC, 2 DESC LIMIT :width)
    UNION ALL
    SELECT 'df', lexeme, df, NULL FROM mem_df
    UNION ALL
    SELECT 'n', '', n, NULL FROM mem_stats
    """


@dataclass(frozen=True)
class Visible:
    """Which memories recall may return: the active ones (default), those valid at `as_of`, and only those
    whose metadata matches `metadata` exactly on every key. Applied inside the profile-scoped rows, before
    any ranking."""

    as_of: datetime | None = None
    metadata: dict[str, Any] | None = None

    def sql(self, alias: str, params: dict[str, Any]) -> str:
        col = f"{alias}." if alias else ""
        if self.as_of is None:
            clause = f"{col}superseded_by IS NULL"
        else:
            params["as_of"] = self.as_of
            clause = f"{col}created_at <= :as_of AND ({col}valid_to IS NULL OR {col}valid_to > :as_of)"
        if self.metadata:
            clause += " AND " + filter_sql(f"{col}metadata", self.metadata, params, prefix=f"mf{alias}")
        return clause


def _with_visible(sql: str, visible: Visible, params: dict[str, Any]) -> str:
    return sql.replace("{live}", visible.sql("", params)).replace("{live_m}", visible.sql("m", params))


# The fused candidates, with their source messages and the profile's newest session (for the task prior),
# and for the second stage: which query terms the memory's own text (summary, content, context) holds,
# which its source messages hold, and where its sources sit in their session (seq) and in time.
_DETAILS_SQL = """
    SELECT m.id, m.type, m.summary, m.content, m.session_id, m.event_time, m.created_at,
           coalesce(src.sources, '{}') AS sources, src.seq, src.told_at,
           ARRAY(SELECT l FROM unnest(tsvector_to_array(m.tsv)) l
                 WHERE l = ANY(CAST(:terms AS text[]))) AS memory_terms,
           ARRAY(SELECT DISTINCT u.lexeme FROM memory_sources s2
                 JOIN messages g2 ON g2.profile_id = :p AND g2.session_id = s2.session_id
                                  AND g2.id = s2.message_id
                 CROSS JOIN LATERAL unnest(g2.tsv) AS u(lexeme, positions, weights)
                 WHERE s2.profile_id = :p AND s2.memory_id = m.id
                   AND u.lexeme = ANY(CAST(:terms AS text[]))) AS message_terms,
           (SELECT id FROM sessions WHERE profile_id = :p ORDER BY updated_at DESC, id LIMIT 1) AS latest_session
    FROM memories m
    LEFT JOIN LATERAL (
        SELECT array_agg(s.session_id || '/' || s.message_id) AS sources, min(g.seq) AS seq,
               max(g.created_at) AS told_at
        FROM memory_sources s
        JOIN messages g ON g.profile_id = :p AND g.session_id = s.session_id AND g.id = s.message_id
        WHERE s.profile_id = :p AND s.memory_id = m.id) src ON true
    WHERE m.profile_id = :p AND m.id = ANY(CAST(:ids AS text[])) AND {live_m}
    """


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


@dataclass
class Channels:
    """Each channel's memory ids, best first; topic hits come with their keys."""

    memory: list[str] = field(default_factory=list)
    message: list[str] = field(default_factory=list)
    topic: list[tuple[str, str]] = field(default_factory=list)
    window: list[str] = field(default_factory=list)
    told: list[str] = field(default_factory=list)
    df: dict[str, int] = field(default_factory=dict)  # memories of the profile holding each query term
    n: int = 0  # active memories of the profile


async def channels(
    db: AsyncSession,
    profile_id: int,
    terms: Terms,
    words: list[str],
    window: tuple[datetime, datetime] | None,
    width: int,
    visible: Visible = Visible(),
) -> Channels:
    params: dict[str, Any] = {
        "p": profile_id,
        "lexemes": [x for x, _ in terms.lexemes],
        "weights": [w for _, w in terms.lexemes],
        "prefixes": [x for x, _ in terms.prefixes],
        "prefix_weights": [w for _, w in terms.prefixes],
        "phrases": [x for x, _ in terms.phrases],
        "phrase_weights": [w for _, w in terms.phrases],
        "anyq": terms.any_query(),
        "words": words,
        "has_window": window is not None,
        "start": window[0] if window else None,
        "end": window[1] if window else None,
        "width": width,
    }
    found = Channels()
    for row in await db.execute(text(_with_visible(_CHANNELS_SQL, visible, params)), params):
        if row.channel == "memory":
            found.memory.append(row.id)
        elif row.channel == "message":
            found.message.append(row.id)
        elif row.channel == "topic":
            found.topic.append((row.id, row.topic_key))
        elif row.channel == "window":
            found.window.append(row.id)
        elif row.channel == "told":
            found.told.append(row.id)
        elif row.channel == "df":
            found.df[row.id] = int(row.score)
        else:
            found.n = int(row.score)
    return found


async def details(
    db: AsyncSession, profile_id: int, ids: list[str], terms: list[str], visible: Visible = Visible()
) -> dict[str, dict[str, Any]]:
    params: dict[str, Any] = {"p": profile_id, "ids": ids, "terms": terms}
    rows = await db.execute(text(_with_visible(_DETAILS_SQL, visible, params)), params)
    return {r.id: dict(r._mapping) for r in rows}
