"""Recall's first round trip, `analyse`: the profile (known, or resolved by the statement from its names),
the question's lexemes and phrases, and the profile's statistics (exact counts in a small profile,
PostgreSQL's own estimates, read once a minute, in a large one) that decide which terms are looked up in
the index and which are only walked; and `Visible`, which memories recall may return."""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from app.core.db import Reads, driver_fetch
from app.core.metadata import filter_sql
from app.core.profiled_text import (
    QUERY_CONFIG,
    any_keys_query,
    profile_lexemes,
    query_vector,
)
from app.language.detect import ENGLISH, Language
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
