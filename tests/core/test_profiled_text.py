"""Profile keys (migration 0011, `app.core.profiled_text`): the index finds a profile's rows by their own
lexemes, whatever a lexeme holds, never another profile's rows, and is the plan recall and search use.
The `app` fixture is there for its migrations."""

from __future__ import annotations

import asyncpg
import httpx
import pytest
from fastapi import FastAPI

from app.core.profiled_text import (
    KEY_CHARS,
    all_keys_query,
    key_query,
    lexemes_of,
    phrase_query,
    profile_lexemes,
    quote_lexeme,
)
from tests.sessions.helpers import append, new_session, text_message

# Lexemes that tsquery syntax would read as operators, weights or escapes, a long one and non-ASCII ones.
ODD_WORDS = ["o'neil", "back\\slash", "a:b", "x&y|z", "ünïcödé", "中文", "w" * 300]
LONG_WORD = "q" * 2040  # near PostgreSQL's 2,047-byte lexeme limit: its key must be cut, not refused


async def _keys_match(conn: asyncpg.Connection, profile: int, text: str, query: str) -> bool:
    """Whether a row of `profile` holding `text` matches the key query."""
    matched: bool = await conn.fetchval(
        f"SELECT {profile_lexemes()} @@ CAST($3 AS tsquery)"
        " FROM (SELECT CAST($1 AS bigint) AS profile_id, to_tsvector('simple', $2) AS tsv) row",
        profile,
        text,
        query,
    )
    return matched


async def test_every_lexeme_is_found_by_its_key_in_its_own_profile_only(
    app: FastAPI, database_url: str
) -> None:
    conn = await asyncpg.connect(database_url)
    try:
        short = " ".join(ODD_WORDS)
        long_row = short + " " + LONG_WORD + " " + " ".join(f"filler{n}" for n in range(300))
        for text in (short, long_row):
            for word in [*ODD_WORDS, *([LONG_WORD] if text is long_row else [])]:
                for lexeme in await conn.fetchval(
                    "SELECT tsvector_to_array(to_tsvector('simple', $1))", word
                ):
                    assert await _keys_match(conn, 42, text, key_query(42, lexeme)), (lexeme[:20], len(text))
                    # The row is profile 42's: profile 4's and 421's keys never reach it.
                    assert not await _keys_match(conn, 42, text, key_query(4, lexeme))
                    assert not await _keys_match(conn, 42, text, key_query(421, lexeme))
        # In a long row a long key is cut to KEY_CHARS characters; the query asks for it whole and cut.
        cut = await conn.fetchval(
            f"SELECT tsvector_to_array({profile_lexemes()})"
            " FROM (SELECT 42::bigint AS profile_id, to_tsvector('simple', $1) AS tsv) row",
            long_row,
        )
        assert max(len(key) for key in cut) == KEY_CHARS
        phrase = await conn.fetchval("SELECT CAST(phraseto_tsquery('simple', $1) AS text)", "O'Neil back")
        assert await _keys_match(conn, 42, short, phrase_query(42, phrase))
        assert not await _keys_match(conn, 42, "o neil", phrase_query(42, phrase))
        # Phrases come as PostgreSQL prints tsquery text: quotes doubled, backslashes escaped.
        odd = ["it's", "a\\b", "c:d"]
        printed = await conn.fetchval(
            "SELECT CAST(tsquery_phrase(tsquery_phrase(CAST($1 AS tsquery), CAST($2 AS tsquery)), CAST($3 AS tsquery))"
            " AS text)",
            *[quote_lexeme(x) for x in odd],
        )
        assert lexemes_of(printed) == odd, printed
        all_keys = all_keys_query("CAST(42 AS text)", "to_tsvector('simple', $1)")
        every = await conn.fetchval(f"SELECT CAST({all_keys} AS text)", short)
        assert await _keys_match(conn, 42, short, every)
        assert not await _keys_match(conn, 42, "o'neil", every)  # every word must be there
    finally:
        await conn.close()


async def test_a_message_with_a_word_near_the_lexeme_limit_is_stored_and_searched(
    client: httpx.AsyncClient, profile_url: str
) -> None:
    session = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{session}"
    await append(client, url, text_message("m1", "user", f"{LONG_WORD} deploy notes " + "words " * 400))
    await append(client, url, text_message("m2", "user", "deploy notes elsewhere"))
    hits = (await client.get(f"{url}/search", params={"q": f"{LONG_WORD[:1000]} notes"})).json()["results"]
    assert [h["id"] for h in hits] == []  # a different, shorter word
    hits = (await client.get(f"{url}/search", params={"q": "deploy notes"})).json()["results"]
    assert {h["id"] for h in hits} == {"m1", "m2"}
    ingest = await client.post(
        f"{profile_url}/ingest", json={"messages": [{"role": "user", "content": f"I saw {LONG_WORD} today."}]}
    )
    assert ingest.status_code == 202, ingest.text


@pytest.mark.parametrize("table", ["memories", "messages"])
async def test_the_profile_key_lookup_is_answered_by_the_index(
    app: FastAPI, database_url: str, table: str
) -> None:
    conn = await asyncpg.connect(database_url)
    try:
        await conn.execute("SET enable_seqscan = off")
        plan = "\n".join(
            row[0]
            for row in await conn.fetch(
                f"EXPLAIN SELECT 1 FROM {table} WHERE {profile_lexemes()} @@ CAST($1 AS tsquery)",
                key_query(1, "marathon"),
            )
        )
        assert f"ix_{table}_profile_lexemes" in plan, plan
    finally:
        await conn.close()
