"""The SQL of recall's channels, built once per shape and cached: BM25 over PostgreSQL's lexemes for
memories and messages (exact, or index look-up of the rare terms and a walk of the newest rows for the
common ones), the memories sourced by matched or told messages, the time window, the type channel, the
neighbouring turns, and the details every later stage reads of a candidate."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from app.core.profiled_text import (
    profile_lexemes,
)
from app.memories.repository import agent_words

if TYPE_CHECKING:
    pass
from app.recall.repository.analysis import WALK_ROWS

# BM25 constants: no length normalisation (b = 0): chat statements are short, and normalising hurt ranking
# (so the length of a row never enters the score).
K1 = 1.2
# A term's weight in a memory by the tsvector labels of its occurrences: the summary (A) above the content
# (B, mostly the same words again); the context (D: the turn a memory answers, its referents, generated
# keywords) above content, since a reply rarely repeats the words of the question it answers (weights
# chosen on the development sets); CJK bigrams and symbols (C, migration 0013) as the summary, since they are
# all a CJK row can match on. Messages carry no labels and count every occurrence fully.
# In an exact profile every occurrence counts: the candidates' tsvectors are unnested (≈ 25 µs a row).
# In a large one each label counts once, tested with `@@` in C on the row's sorted lexemes (≈ 1 µs a row):
# an approximation that cost 1 point of any@10 on the development set, for a 25-fold cheaper candidate.
_MEMORY_TF = (
    "1.0 * cardinality(array_positions(u.weights, 'A')) + 0.2 * cardinality(array_positions(u.weights, 'B'))"
    " + 1.0 * cardinality(array_positions(u.weights, 'C')) + 0.5 * cardinality(array_positions(u.weights, 'D'))"
)
_MEMORY_LABELS_TF = (
    "1.0 * (h.tsv @@ t.qa)::int + 0.2 * (h.tsv @@ t.qb)::int + 1.0 * (h.tsv @@ t.qc)::int"
    " + 0.5 * (h.tsv @@ t.qd)::int"
)
_MESSAGE_TF = "cardinality(u.positions)"
_MESSAGE_LABELS_TF = "1.0"
_LIVE_MEMORIES = "SELECT id, tsv FROM memories WHERE profile_id = :p AND {live}"
# Message ids are unique per session, so a message is "session/id" here (session ids hold no '/').
_MESSAGE_ROWS = "SELECT session_id || '/' || id AS id, tsv FROM messages WHERE profile_id = :p"


@dataclass(frozen=True)
class Shape:
    """Which parts of a `_ranked` channel run, written into its SQL as it is built (not passed as
    parameters): a generic plan then holds only the parts that run, so PostgreSQL can keep reusing it
    instead of planning the whole statement afresh for every recall of a large profile."""

    exact: bool  # every occurrence counted (exact profile) or each label once (large profile)
    gin: bool  # some terms are looked up in the profile-keyed index
    walk: bool  # some terms are matched in the newest rows only


def _ranked(name: str, rows: str, newest: str, tf: str, labels_tf: str, shape: Shape) -> str:
    """CTEs `{name}_…` ending in `{name}` (id, score): BM25 over the candidates of `rows` (id, tsv, filtered
    by its own WHERE clause), best first.

    Candidates: the rows the profile-keyed index finds for `:{name}_gin` (every term in an exact profile,
    the rare ones in a large one), and the newest WALK_ROWS rows that match any term (in a large profile
    with common terms). Only the candidates are weighed, against the query's terms only (see `_MEMORY_TF`).
    df is counted among the candidates (exact for every term looked up in the index), unless the term's
    estimate is given (`:{name}_est`: a common term of a large profile); N is `:{name}_n`."""
    found = []
    if shape.gin:
        found.append(
            f"(SELECT id, tsv FROM ({rows} AND {profile_lexemes()} @@ CAST(:{name}_gin AS tsquery)) g"
            f" LIMIT :{name}_cap)"
        )
    if shape.walk:
        found.append(
            f"SELECT id, tsv FROM ({rows} ORDER BY {newest} DESC LIMIT {WALK_ROWS}) w"
            " WHERE tsv @@ CAST(:anyq AS tsquery)"
        )
    hits = (
        "\n        UNION\n        ".join(found)
        or "SELECT NULL::text AS id, NULL::tsvector AS tsv WHERE false"
    )
    if shape.exact:
        # Every hit's lexemes first (OFFSET 0 keeps them one set), then one hash join with the terms: joined
        # inside the lateral, the terms were scanned again for every hit (3–5 % of the statement with
        # forty-odd terms, replayed at 1M memories).
        weighed = f"""SELECT u.id, t.lexeme, t.w, {tf} AS wtf
        FROM (SELECT h.id, u.lexeme, u.positions, u.weights
              FROM {name}_hits h CROSS JOIN LATERAL unnest(h.tsv) AS u(lexeme, positions, weights) OFFSET 0) u
        JOIN terms t ON t.lexeme = u.lexeme"""
    else:
        weighed = (
            f"SELECT h.id, t.lexeme, t.w, {labels_tf} AS wtf FROM {name}_hits h JOIN terms t ON h.tsv @@ t.q"
        )
    return f"""
    {name}_hits AS MATERIALIZED (
        {hits}),
    {name}_matches AS MATERIALIZED (
        {weighed}
        UNION ALL
        SELECT h.id, p.lexeme, p.w, 1.0 FROM {name}_hits h JOIN phrases p ON h.tsv @@ p.q),
    {name}_df AS (
        SELECT m.lexeme, coalesce(e.df, count(DISTINCT m.id)) AS df
        FROM {name}_matches m
        LEFT JOIN unnest(CAST(:lexemes AS text[]), CAST(:{name}_est AS float8[])) AS e(lexeme, df)
               ON e.lexeme = m.lexeme
        GROUP BY m.lexeme, e.df),
    {name} AS (
        SELECT m.id,
               sum(m.w * ln(1 + greatest(CAST(:{name}_n AS float8) - d.df + 0.5, 0.5) / (d.df + 0.5))
                   * m.wtf * ({K1} + 1) / (m.wtf + {K1})) AS score
        FROM {name}_matches m JOIN {name}_df d USING (lexeme)
        GROUP BY m.id
        ORDER BY score DESC, m.id DESC
        LIMIT :width)"""


# The query's terms (`Terms.lexemes`: `:lexemes`, `:weights`, `:lexeme_queries`), each as a tsquery, and
# restricted to each tsvector label.
_TERMS = """terms AS (
        SELECT t.lexeme, t.w, CAST(t.q AS tsquery) AS q, CAST(t.q || '\\:A' AS tsquery) AS qa,
               CAST(t.q || '\\:B' AS tsquery) AS qb, CAST(t.q || '\\:C' AS tsquery) AS qc,
               CAST(t.q || '\\:D' AS tsquery) AS qd
        FROM unnest(CAST(:lexemes AS text[]), CAST(:weights AS float8[]), CAST(:lexeme_queries AS text[]))
             AS t(lexeme, w, q))"""


# What the fusion, the second stage and the answer need of every candidate (`wanted`: each channel's hits,
# or the semantic channel's): its text, its source messages, and where they sit in their session (seq) and
# in time; which query terms the memory's own text (summary, content, context) holds, and which its source
# messages hold. The memory channel has already matched its hits against the terms (`mem_matches`, empty
# in a statement without that channel): their terms are taken from there, and only the other candidates
# are tested (the same terms, so the same sets; at 1M memories, replayed, 0.9–1.0 ms less of a 11–12 ms
# statement. Taking the message terms from the message channel's matches the same way made the planner join
# them per source message, at twice the statement's time).
def _details(wanted: str) -> str:
    return f"""
    mem_terms AS (
        SELECT mm.id, array_agg(DISTINCT mm.lexeme) AS lexemes
        FROM mem_matches mm JOIN terms t USING (lexeme)
        GROUP BY mm.id),
    wanted AS MATERIALIZED ({wanted}),
    details AS MATERIALIZED (
        SELECT m.id AS memory_id, m.type, m.summary, m.content, m.session_id, m.event_time, m.created_at,
               coalesce(src.sources, '{{}}') AS sources, src.seq, src.told_at,
               coalesce(mt.lexemes, ARRAY(SELECT t.lexeme FROM terms t WHERE m.tsv @@ t.q)) AS memory_terms,
               coalesce(src.message_terms, '{{}}') AS message_terms, {agent_words("m")} AS by_agent,
               m.speaker
        FROM wanted w
        -- Each wanted memory looked up by its key (LIMIT 1 keeps the planner from turning this into a join
        -- it may start from the profile's every memory when its statistics are stale or missing).
        CROSS JOIN LATERAL (SELECT * FROM memories m
                            WHERE m.profile_id = :p AND m.id = w.id AND {{live_m}} LIMIT 1) m
        LEFT JOIN mem_terms mt ON mt.id = m.id
        -- One pass over the memory's source messages, each tested against every term.
        LEFT JOIN LATERAL (
            SELECT array_agg(DISTINCT s.session_id || '/' || s.message_id) AS sources, min(g.seq) AS seq,
                   max(g.created_at) AS told_at,
                   array_agg(DISTINCT t.lexeme) FILTER (WHERE t.lexeme IS NOT NULL) AS message_terms
            FROM memory_sources s
            JOIN messages g ON g.profile_id = :p AND g.session_id = s.session_id AND g.id = s.message_id
            LEFT JOIN terms t ON g.tsv @@ t.q
            WHERE s.profile_id = :p AND s.memory_id = m.id) src ON true)
"""


_NO_DETAILS = ", ".join(["NULL"] * 14)  # as many as the columns of details


# The live memories one message sourced, looked up from that message (OFFSET 0 keeps the planner from
# flattening the lookup into a join it may start from the profile's every memory when its statistics are
# stale or missing, as in a profile just written).
_SOURCED = """SELECT s.memory_id FROM memory_sources s
                    JOIN memories m ON m.profile_id = :p AND m.id = s.memory_id AND {{live_m}}
                    WHERE s.profile_id = :p AND s.session_id = {session} AND s.message_id = {message}
                    OFFSET 0"""
# A message hit is "session/id" (`_MESSAGE_ROWS`); a message told in the window is a row of messages (g).
_SOURCED_BY_MESSAGE_HIT = _SOURCED.format(
    session="split_part(r.id, '/', 1)", message="substr(r.id, strpos(r.id, '/') + 1)"
)
_SOURCED_BY_TOLD = _SOURCED.format(session="g.session_id", message="g.id")


# Events inside the question's time window, newest first (soonest first in a window that lies ahead: "what
# is coming up?"), and after them the memories told inside it (by their source messages' time): only in the
# statement of a question that names a time.
def _window_parts(ahead: bool) -> str:
    score, order = (
        ("-extract(epoch FROM event_time)", "ASC") if ahead else ("extract(epoch FROM event_time)", "DESC")
    )
    return f"""
        UNION ALL
        (SELECT 'window', id, {score}, NULL FROM memories
         WHERE profile_id = :p AND {{live}}
           AND event_time >= :start AND event_time < :end
         ORDER BY event_time {order}, id DESC LIMIT :width)
        UNION ALL
        (SELECT 'told', s.memory_id, extract(epoch FROM max(g.created_at)), NULL
         FROM (SELECT session_id, id, created_at FROM messages
               WHERE profile_id = :p AND created_at >= :start AND created_at < :end
               ORDER BY created_at DESC LIMIT {WALK_ROWS}) g  -- its newest messages, as many as a walk reads
         CROSS JOIN LATERAL ({_SOURCED_BY_TOLD}) s
         GROUP BY s.memory_id
         ORDER BY 3 DESC, 2 DESC LIMIT :width)"""


# The newest memories of the types the question names as a kind ("What's on my to-do list?"), among the
# profile's newest TYPE_WALK_ROWS (a bounded walk of the (profile, id) index, whatever the profile's size):
# only in the statement of such a question.
TYPE_WALK_ROWS = 5_000
_TYPE_PART = f"""
        UNION ALL
        (SELECT 'type', id, 0, NULL FROM (
             SELECT id, type FROM memories WHERE profile_id = :p AND {{live}}
             ORDER BY id DESC LIMIT {TYPE_WALK_ROWS}) m
         WHERE type = ANY(CAST(:types AS text[]))
         ORDER BY id DESC LIMIT :width)"""


# The near channel: the neighbours of each full-text channel's best NEAR_SEEDS hits, NEAR_TURNS turns on
# either side in their session (chosen on the three development sets: 3 seeds or 1 turn found less).
NEAR_SEEDS = 5
NEAR_TURNS = 2


# All channels in one round trip: memory full text, raw-message full text mapped to the memories those
# messages sourced, topic keys sharing a word with the question, events inside the time window and,
# after them, memories told inside it (their source messages' time: "what did I do yesterday?" is
# answered by what was said yesterday too), the turns beside the best full-text hits (`near`), plus the
# profile's document frequency of each query term for the second stage. Every part reads a bounded number
# of rows: the full-text parts as `_ranked` says, topics and the window through their (profile, …)
# indexes, the newest rows first. Which parts run is written into the statement as it is built (see
# `Shape`; the window's two parts only when the question names a time, the type part when it names a type).
@functools.lru_cache(maxsize=64)
def _channels_sql(
    mem: Shape, msg: Shape, window: Literal["behind", "ahead"] | None, types: bool = False
) -> str:
    return f"""
    WITH
    {_TERMS},
    phrases AS (
        SELECT CAST(t.q AS tsquery) AS q, t.q AS lexeme, t.w
        FROM unnest(CAST(:phrases AS text[]), CAST(:phrase_weights AS float8[])) AS t(q, w)),
    {_ranked("mem", _LIVE_MEMORIES, "id", _MEMORY_TF, _MEMORY_LABELS_TF, mem)},
    {_ranked("msg", _MESSAGE_ROWS, "created_at", _MESSAGE_TF, _MESSAGE_LABELS_TF, msg)},
    msg_memories AS (
        SELECT s.memory_id AS id, max(r.score) AS score
        FROM msg r CROSS JOIN LATERAL ({_SOURCED_BY_MESSAGE_HIT}) s
        GROUP BY s.memory_id
        ORDER BY score DESC, s.memory_id DESC
        LIMIT :width),
    -- The turns next to the best hits of both full-text channels: an answer often sits beside the turn
    -- that matches the question (a reply to it, the next sentence of one story) without its words.
    near_seeds AS MATERIALIZED (
        SELECT id, row_number() OVER (ORDER BY score DESC, id DESC) AS rank FROM (
            (SELECT id, score FROM mem ORDER BY score DESC, id DESC LIMIT {NEAR_SEEDS})
            UNION ALL
            (SELECT id, score FROM msg_memories ORDER BY score DESC, id DESC LIMIT {NEAR_SEEDS})) x),
    near AS (
        SELECT n.memory_id AS id, -min(ns.rank * 10 + abs(nb.place)) AS score
        FROM near_seeds ns
        -- From each seed outward, by key, whatever the planner estimates (OFFSET 0 keeps each lateral a
        -- lookup per row: flattened, a profile missing from the statistics got a plan that joined every
        -- memory of it with every message, for minutes).
        CROSS JOIN LATERAL (
            SELECT g.session_id, g.seq FROM memory_sources s
            JOIN messages g ON g.profile_id = :p AND g.session_id = s.session_id AND g.id = s.message_id
            WHERE s.profile_id = :p AND s.memory_id = ns.id
            OFFSET 0) src
        CROSS JOIN LATERAL (
            (SELECT b.id, -1 AS place FROM messages b
             WHERE b.profile_id = :p AND b.session_id = src.session_id AND b.seq < src.seq
             ORDER BY b.seq DESC LIMIT {NEAR_TURNS})
            UNION ALL
            (SELECT a.id, 1 FROM messages a
             WHERE a.profile_id = :p AND a.session_id = src.session_id AND a.seq > src.seq
             ORDER BY a.seq LIMIT {NEAR_TURNS})) nb
        CROSS JOIN LATERAL (
            SELECT s2.memory_id FROM memory_sources s2
            JOIN memories m ON m.profile_id = :p AND m.id = s2.memory_id AND {{live_m}}
            WHERE s2.profile_id = :p AND s2.session_id = src.session_id AND s2.message_id = nb.id
            OFFSET 0) n
        WHERE n.memory_id NOT IN (SELECT id FROM near_seeds)
        GROUP BY n.memory_id
        ORDER BY score DESC, n.memory_id DESC
        LIMIT :width),
    found AS (
        SELECT 'memory' AS channel, id, score, NULL AS topic_key FROM mem
        UNION ALL
        SELECT 'near', id, score, NULL FROM near
        UNION ALL
        SELECT 'message', id, score, NULL FROM msg_memories
        UNION ALL
        (SELECT 'topic', id, 0, topic_key FROM memories
         WHERE profile_id = :p AND {{live}} AND topic_key IS NOT NULL
           AND regexp_split_to_array(topic_key, '[._]') && CAST(:words AS text[])
         ORDER BY id DESC LIMIT 500)
{_window_parts(window == "ahead") if window else ""}{_TYPE_PART if types else ""}),
    {_details("SELECT DISTINCT id FROM found")},
    -- A memory several channels found comes with its details once (half of a recall's rows repeat one).
    found_once AS (SELECT f.*, row_number() OVER (PARTITION BY f.id) = 1 AS first FROM found f)
    SELECT f.channel, f.id, f.score, f.topic_key, NULL AS latest_session, d.*
    FROM found_once f LEFT JOIN details d ON f.first AND d.memory_id = f.id
    UNION ALL
    SELECT 'df', lexeme, df, NULL, NULL, {_NO_DETAILS} FROM mem_df
    UNION ALL
    (SELECT 'latest', '', 0, NULL, id, {_NO_DETAILS} FROM sessions WHERE profile_id = :p
     ORDER BY updated_at DESC, id LIMIT 1)
    """


# The details of memories no lexical channel found (the semantic channel's, asked once the question's
# vector is in), as `channels` reads its own candidates'.
_SEMANTIC_DETAILS = f"""
    WITH
    {_TERMS},
    mem_matches AS (SELECT CAST(NULL AS text) AS id, CAST(NULL AS text) AS lexeme WHERE false),
    {_details("SELECT DISTINCT unnest(CAST(:ids AS text[])) AS id")}
    SELECT d.* FROM details d
    """
