"""SQL of recall, in two round trips: `analyse` (the profile, the question's lexemes and the profile's
statistics) and `channels` (every lexical channel at once, with what the later stages read of every
candidate); with the semantic channel, a third, `details`, for the candidates only it found.

Full-text ranking is BM25 over PostgreSQL's own lexemes: each query term weighs
`ln(1 + (N − df + ½)/(df + ½))` (its rarity in the profile) times a saturating count of its occurrences
(summary weighted above content), summed over the terms a row matches — an OR of terms, so a question
matches without repeating every word.

**Cost follows the matches, not the profile.** Rows are found through the GIN index whose keys are the
profile's own lexemes (`app.core.profiled_text`). A profile up to `Settings.recall_exact_rows` rows is ranked
exactly: every row matching any term is a candidate, and df and N are counted. A larger profile is ranked
on bounded work: the rarest terms are looked up in the index while their estimated rows (from PostgreSQL's
own statistics, `pg_stats`, read once a minute) add up to `LOOKUP_BUDGET`; the common ones — their posting
lists grow with the profile — are matched only in the profile's newest `WALK_ROWS` rows, and their df and
the profile's N are those estimates.
"""

from __future__ import annotations

import functools
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from app.core.db import Reads, driver_fetch
from app.core.metadata import filter_sql
from app.core.profiled_text import (
    QUERY_CONFIG,
    any_keys_query,
    key_query,
    phrase_query,
    profile_lexemes,
    query_vector,
    quote_lexeme,
)
from app.language.detect import ENGLISH, Language
from app.memories.repository import agent_words
from app.profiles.repository import TARGET_CTE
from app.recall.relations import Relations

if TYPE_CHECKING:
    from app.profiles.service import Named

# Profiles up to `Settings.recall_exact_rows` rows (memories, and messages, each on its own; 5,000 by
# default) are ranked exactly: counting them costs at most that many index entries (≈ 1 ms), below ranking
# a profile that size.
# In a larger profile, the index looks up the rarest terms first, as long as their estimated rows add up to
# at most this many: the candidates that decide a ranking, at a bounded cost (finding, weighing and scoring
# a candidate costs ≈ 10 µs, so this is ≈ 6 ms a channel). The other terms are "common": their posting
# lists grow with the profile, and their low IDF rarely decides a ranking.
LOOKUP_BUDGET = 600
# Common terms are matched in the profile's newest rows only: recent memories first, at bounded cost
# (≈ 3 µs a row walked).
WALK_ROWS = 1_000
# At most this many index hits per channel in a large profile, should the statistics (global and sampled)
# underestimate a term in this profile.
HIT_CAP = 2 * LOOKUP_BUDGET
# PostgreSQL's statistics change only when ANALYZE runs (autovacuum repeats it as a table grows by a
# tenth): each process reads them again at most this often.
CATALOG_SECONDS = 60.0

_ANALYSE = """
    WITH
    {target},
    {named}
    q AS (SELECT {question_vector} AS v, to_tsvector('english', :related) AS r)
    SELECT
      (SELECT namespace_id FROM target) AS namespace_id,
      (SELECT id FROM target) AS profile_id,
      coalesce((SELECT array_agg(lexeme ORDER BY positions[1]) FROM q, unnest(q.v)), '{{}}') AS lexemes,
      coalesce((SELECT array_agg(lexeme) FROM q, unnest(q.r)), '{{}}') AS related,
      coalesce((SELECT array_agg(pq::text) FROM (
                  SELECT phraseto_tsquery({config}, ph) AS pq FROM unnest(CAST(:phrases AS text[])) AS ph) x
                WHERE numnode(pq) > 0), '{{}}') AS phrases,
      (SELECT count(*) FROM (SELECT 1 FROM memories WHERE profile_id = {p} AND superseded_by IS NULL
                             LIMIT :exact_rows) x) AS memories,
      (SELECT count(*) FROM (SELECT 1 FROM messages WHERE profile_id = {p} LIMIT :exact_rows) x) AS messages
    """
# The profile of the statement: known (`:p`), or resolved by the statement itself from the names in the
# request (`profiles.repository.TARGET_CTE`), which saves recall a round trip.
_TARGET_BY_ID = "target AS (SELECT CAST(NULL AS bigint) AS namespace_id, CAST(:p AS bigint) AS id)"
_PROFILE = "(SELECT id FROM target)"
# A question naming a relation ("the user's husband", `app.recall.relations`): the names the profile gives
# with the relation's words ("my husband Sam"), read from (at most RELATION_ROWS of) its memories holding
# one of them, are words of the question too. Unordered, the index look-up stops at the limit, so a common
# word ("dog") in a large profile costs no more than in a small one.
RELATION_ROWS = 200
_NAMED = f"""named AS (
        SELECT coalesce(string_agg(DISTINCT coalesce(m[1], m[2], m[3]), ' '), '') AS names FROM (
            SELECT content FROM memories
            WHERE profile_id = {_PROFILE} AND {{live}}
              AND {profile_lexemes()} @@ {any_keys_query(_PROFILE, "CAST(:looked_up AS text[])")}
            LIMIT {RELATION_ROWS}) x
        CROSS JOIN LATERAL regexp_matches(x.content, :pattern, 'g') AS m),"""


@functools.lru_cache(maxsize=4)
def _analyse_sql(by_name: bool, relations: bool) -> str:
    question = ":q || ' ' || (SELECT names FROM named)" if relations else ":q"
    return _ANALYSE.format(
        target=TARGET_CTE if by_name else _TARGET_BY_ID,
        named=_NAMED if relations else "",
        question_vector=query_vector(question),
        config=QUERY_CONFIG,
        p=_PROFILE,
    )


# A table's statistics as ANALYZE left them: its rows, the most common profiles with their share of the
# rows, and the most common lexemes of its tsvector with theirs (followed, in the frequencies, by the least
# and greatest of them and the share of NULLs).
_CATALOG = """
    SELECT (SELECT reltuples FROM pg_class WHERE oid = CAST(CAST(:table AS text) AS regclass)) AS reltuples,
           p.most_common_vals::text::bigint[] AS profiles, p.most_common_freqs AS profile_freqs,
           t.most_common_elems::text::text[] AS lexemes, t.most_common_elem_freqs AS lexeme_freqs
    FROM (SELECT 1) one
    LEFT JOIN pg_stats p ON p.schemaname = current_schema() AND p.tablename = :table AND p.attname = 'profile_id'
    LEFT JOIN pg_stats t ON t.schemaname = current_schema() AND t.tablename = :table AND t.attname = 'tsv'
    """


@dataclass(frozen=True)
class Catalog:
    """One table's statistics from PostgreSQL's catalogue (see `_CATALOG`)."""

    rows: float
    profiles: dict[int, float]  # profile id → its share of the rows, for the most common profiles
    lexemes: dict[str, float]  # lexeme → the share of rows holding it, for the most common lexemes
    least: float  # a lexeme missing from `lexemes` is in fewer than this share of the rows


_catalogs: dict[str, tuple[float, Catalog]] = {}


async def catalog(db: Reads, table: str) -> Catalog:
    """The table's statistics, read from the catalogue at most once every CATALOG_SECONDS per process."""
    now = time.monotonic()
    cached = _catalogs.get(table)
    if cached is not None and now - cached[0] < CATALOG_SECONDS:
        return cached[1]
    [row] = await driver_fetch(db, _CATALOG, {"table": table})
    freqs = list(row["lexeme_freqs"] or [])
    lexemes = list(row["lexemes"] or [])
    found = Catalog(
        rows=max(float(row["reltuples"] or 0), 0.0),
        profiles=dict(zip(row["profiles"] or [], row["profile_freqs"] or [], strict=False)),
        lexemes=dict(zip(lexemes, freqs, strict=False)),
        least=float(freqs[len(lexemes)]) if len(freqs) > len(lexemes) else 0.0,
    )
    _catalogs[table] = (now, found)
    return found


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


@dataclass(frozen=True)
class TableStats:
    """One table's statistics for a profile: its rows (exact up to `exact_rows`, else estimated) and, in a
    large profile, PostgreSQL's estimate of the share of rows holding each lexeme."""

    rows: int
    exact: bool
    cap: int  # index hits taken at most
    freqs: dict[str, float] = field(default_factory=dict)
    least: float = 0.0  # a lexeme missing from `freqs` is in fewer than this share of the rows

    @staticmethod
    async def of(db: Reads, table: str, profile_id: int | None, count: int, exact_rows: int) -> TableStats:
        if count < exact_rows:
            return TableStats(rows=count, exact=True, cap=exact_rows)
        # Never analysed, or the profile is not among the most common values: it has at least exact_rows
        # rows, and with no lexeme known to be common every term is looked up (at most HIT_CAP rows).
        stats = await catalog(db, table)
        share = stats.profiles.get(profile_id, 0.0) if profile_id is not None else 0.0
        estimated = int(share * stats.rows)
        return TableStats(
            rows=max(estimated, count), exact=False, cap=HIT_CAP, freqs=stats.lexemes, least=stats.least
        )

    def estimate(self, lexeme: str) -> float:
        # Missing from the list: somewhere below its least frequency; half of it is the even guess.
        return self.freqs.get(lexeme, self.least / 2) * self.rows

    def common(self, lexemes: list[str]) -> dict[str, float]:
        """The lexemes left out of the index look-up, with their estimated rows: all but the rarest ones
        whose estimates add up to at most LOOKUP_BUDGET (none in an exact profile)."""
        if self.exact:
            return {}
        spent = 0.0
        common: dict[str, float] = {}
        for lexeme in sorted(lexemes, key=self.estimate):
            estimate = self.estimate(lexeme)
            if spent + estimate <= LOOKUP_BUDGET:
                spent += estimate
            else:
                common[lexeme] = estimate
        return common


@dataclass(frozen=True)
class Analysis:
    """The question as PostgreSQL parses it, and the profile's statistics for its terms; the profile the
    statement resolved (None: not found; `namespace_id` None: no such namespace for the caller)."""

    namespace_id: int | None
    profile_id: int | None
    lexemes: list[str]
    phrases: list[str]  # tsquery text
    related: list[str]
    memories: TableStats
    messages: TableStats


async def analyse(
    db: Reads,
    profile: int | Named,
    query: str,
    phrases: list[str],
    related: str,
    exact_rows: int,
    timeout: float | None = None,
    *,
    language: Language = ENGLISH,
    relations: Relations | None = None,
    visible: Visible = Visible(),
) -> Analysis:
    """The query's lexemes in its `language` (stemmed, stopwords out; its CJK
    bigrams and symbols as migration 0013 indexes them; with `relations`, the names the profile gives them too),
    its phrases as tsquery text and the lexemes of its related words — all made by PostgreSQL, so they
    match the stored tsvectors exactly — with the profile's row counts (and, for a large profile,
    PostgreSQL's estimates). `profile`: its id, or its names, for the statement to resolve (then the
    analysis says what it found: `Named.resolved` applies the rules)."""
    params: dict[str, Any] = {
        "q": query, "phrases": phrases, "related": related, "exact_rows": exact_rows,
        "config": language.config, "cjk": language.unspaced
    }  # fmt: skip
    if isinstance(profile, int):
        params["p"] = profile
    else:
        params.update(profile.params())
    if relations is not None:
        params["looked_up"] = relations.lexemes
        params["pattern"] = relations.pattern
    sql = _analyse_sql(not isinstance(profile, int), relations is not None)
    if relations is not None:
        sql = _with_visible(sql, visible, params)
    namespace_id, profile_id, lexemes, related_lexemes, phrase_queries, memories, messages = (
        await driver_fetch(db, sql, params, timeout)
    )[0]
    return Analysis(
        namespace_id=namespace_id,
        profile_id=profile_id,
        lexemes=list(lexemes),
        phrases=list(phrase_queries),
        related=list(related_lexemes),
        memories=await TableStats.of(db, "memories", profile_id, int(memories), exact_rows),
        messages=await TableStats.of(db, "messages", profile_id, int(messages), exact_rows),
    )


@dataclass(frozen=True)
class Terms:
    """A query's terms with their weights: lexemes and phrases (tsquery text)."""

    lexemes: list[tuple[str, float]]
    phrases: list[tuple[str, float]]

    def params(self) -> dict[str, Any]:
        """The lexemes as `_TERMS` takes them."""
        return {
            "lexemes": [x for x, _ in self.lexemes],
            "weights": [w for _, w in self.lexemes],
            "lexeme_queries": [quote_lexeme(x) for x, _ in self.lexemes],
        }

    def any_query(self) -> str:
        """One OR tsquery of every term, to find the rows worth scoring."""
        return _or([quote_lexeme(x) for x, _ in self.lexemes] + [f"({q})" for q, _ in self.phrases])

    def scan(self, name: str, profile_id: int, stats: TableStats) -> tuple[Shape, dict[str, Any]]:
        """The shape and parameters of one `_ranked` channel: which terms the index looks up, whether the
        common ones are matched in the newest rows, their df estimates, and N."""
        common = stats.common([x for x, _ in self.lexemes])
        rare = [key_query(profile_id, x) for x, _ in self.lexemes if x not in common]
        looked_up = _or(rare + [phrase_query(profile_id, q) for q, _ in self.phrases])
        shape = Shape(exact=stats.exact, gin=bool(looked_up), walk=bool(common))
        return shape, {
            f"{name}_gin": looked_up or None,
            f"{name}_cap": stats.cap,
            f"{name}_est": [common.get(x) for x, _ in self.lexemes],
            f"{name}_n": stats.rows,
        }


def _or(parts: list[str]) -> str:
    return " | ".join(parts)


# Not frozen: a frozen dataclass sets each field through `object.__setattr__`, eight times the cost of a
# slotted one's plain stores, for a hundred candidates a recall (≈ 0.25 ms).
@dataclass(slots=True)
class Candidate:
    """A memory some channel found, with what the fusion, the second stage and the answer read of it."""

    id: str
    type: str
    summary: str
    content: str
    session_id: str | None
    event_time: datetime | None
    created_at: datetime
    sources: list[str]  # "session/message" ids
    seq: int | None  # its first source's place in its session
    told_at: datetime | None
    memory_terms: list[str]  # query terms its own text holds
    message_terms: list[str]  # query terms its source messages hold
    by_agent: bool = False  # the agent's own words (`app.memories.repository.agent_words`)
    speaker: str | None = None  # who said it (stored at ingest; None: no name was given)


@dataclass
class Channels:
    """Each channel's memory ids, best first (topic hits with their keys), and every candidate's details
    (the semantic channel's added from `details`)."""

    memory: list[str] = field(default_factory=list)
    message: list[str] = field(default_factory=list)
    topic: list[tuple[str, str]] = field(default_factory=list)
    window: list[str] = field(default_factory=list)
    told: list[str] = field(default_factory=list)
    near: list[str] = field(default_factory=list)  # next to the best full-text hits in their sessions
    typed: list[str] = field(default_factory=list)  # of the types the question names, newest first
    df: dict[str, int] = field(default_factory=dict)  # memories of the profile holding each query term
    candidates: dict[str, Candidate] = field(default_factory=dict)
    latest_session: str | None = None  # the profile's most recently active session


async def channels(
    db: Reads,
    profile_id: int,
    terms: Terms,
    analysis: Analysis,
    words: list[str],
    window: tuple[datetime, datetime] | None,
    width: int,
    visible: Visible = Visible(),
    timeout: float | None = None,
    *,
    ahead: bool = False,
    types: list[str] | None = None,
) -> Channels:
    """Every channel's hits and the candidates' details, in one statement. `ahead`: the window lies after
    the question's today, so its events come soonest first; `types`: the types the question names."""
    params: dict[str, Any] = {
        "p": profile_id,
        **terms.params(),
        "phrases": [x for x, _ in terms.phrases],
        "phrase_weights": [w for _, w in terms.phrases],
        "anyq": terms.any_query(),
        "words": words,
        "start": window[0] if window else None,
        "end": window[1] if window else None,
        "width": width,
        "types": types or [],
    }
    mem_shape, mem_params = terms.scan("mem", profile_id, analysis.memories)
    msg_shape, msg_params = terms.scan("msg", profile_id, analysis.messages)
    params.update(mem_params)
    params.update(msg_params)
    found = Channels()
    result = await driver_fetch(
        db,
        _with_visible(
            _channels_sql(
                mem_shape, msg_shape, None if window is None else "ahead" if ahead else "behind", bool(types)
            ),
            visible,
            params,
        ),
        params,
        timeout,
    )
    hits: dict[str, list[tuple[float, str, str | None]]] = defaultdict(list)
    # Unpacked by position (the channel's columns, then the details' in Candidate's field order): a hundred
    # rows a recall, where lookups by name cost a millisecond.
    for channel, memory_id, score, topic_key, latest_session, *detail in result:
        if channel == "df":
            found.df[memory_id] = int(score)
        elif channel == "latest":
            found.latest_session = latest_session
        else:
            hits[channel].append((score, memory_id, topic_key))
            if detail[0] is not None and memory_id not in found.candidates:
                found.candidates[memory_id] = Candidate(*detail)
    # Each channel best first, as its SQL ranked it (score, then the newer id): the rows of a UNION ALL and
    # its joins come in no promised order.
    for ranked in hits.values():
        ranked.sort(reverse=True)
    found.memory = [memory_id for _, memory_id, _ in hits["memory"]]
    found.message = [memory_id for _, memory_id, _ in hits["message"]]
    found.window = [memory_id for _, memory_id, _ in hits["window"]]
    found.told = [memory_id for _, memory_id, _ in hits["told"]]
    found.near = [memory_id for _, memory_id, _ in hits["near"]]
    found.typed = [memory_id for _, memory_id, _ in hits["type"]]
    found.topic = [(memory_id, key) for _, memory_id, key in hits["topic"] if key is not None]
    return found


async def details(
    db: Reads,
    profile_id: int,
    terms: Terms,
    ids: list[str],
    visible: Visible = Visible(),
    timeout: float | None = None,
) -> dict[str, Candidate]:
    """The details of memories `channels` did not find (the semantic channel's `ids`), as it reads its own
    candidates', in one statement; a memory the visibility rules leave out has none."""
    params: dict[str, Any] = {"p": profile_id, **terms.params(), "ids": ids}
    rows = await driver_fetch(db, _with_visible(_SEMANTIC_DETAILS, visible, params), params, timeout)
    return {row[0]: Candidate(*row) for row in rows}
