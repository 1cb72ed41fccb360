"""Who said a memory: the first source each memory was read from, the stored speaker set on memories and
their archived states, and the SQL test for the agent's own words."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

# ---------------------------------------------------------------- speakers of memories stored without one
# (an import of an export written before speakers were stored): each memory with its first source message.
_FIRST_SOURCES = text(
    """
    SELECT m.id, m.content, f.role, f.name, f.text_content AS said
    FROM memories m
    LEFT JOIN LATERAL (
        SELECT g.role, g.name, g.text_content FROM memory_sources s
        JOIN messages g ON g.profile_id = s.profile_id AND g.session_id = s.session_id AND g.id = s.message_id
        WHERE s.profile_id = m.profile_id AND s.memory_id = m.id
        ORDER BY g.seq LIMIT 1) f ON true
    WHERE m.profile_id = :p AND m.id = ANY(CAST(:ids AS text[]))
    """
)
_SET_SPEAKERS = text(
    """
    WITH u AS (SELECT * FROM unnest(CAST(:ids AS text[]), CAST(:speakers AS text[]), CAST(:roles AS text[]))
                             AS u(id, speaker, role)),
    archived AS (
        UPDATE memory_versions v SET speaker = u.speaker, speaker_role = u.role FROM u
        WHERE v.profile_id = :p AND v.memory_id = u.id AND v.speaker IS NULL AND v.speaker_role IS NULL)
    UPDATE memories m SET speaker = u.speaker, speaker_role = u.role FROM u
    WHERE m.profile_id = :p AND m.id = u.id AND m.speaker IS NULL AND m.speaker_role IS NULL
    """
)


@dataclass(frozen=True)
class FirstSource:
    """A memory's content and its first source message (None: remembered), to read its speaker from."""

    id: str
    content: str
    role: str | None
    name: str | None
    said: str | None


async def first_sources(db: AsyncSession, profile_id: int, memory_ids: list[str]) -> list[FirstSource]:
    rows = await db.execute(_FIRST_SOURCES, {"p": profile_id, "ids": memory_ids})
    return [FirstSource(**r) for r in rows.mappings()]


async def set_speakers(
    db: AsyncSession, profile_id: int, speakers: list[tuple[str, str | None, str | None]]
) -> None:
    """Store (memory id, speaker, role) on each memory and on its archived states that have none."""
    if speakers:
        params = {
            "p": profile_id,
            "ids": [i for i, _, _ in speakers],
            "speakers": [s for _, s, _ in speakers],
            "roles": [r for _, _, r in speakers],
        }
        await db.execute(_SET_SPEAKERS, params)


def agent_words(memory: str) -> str:
    """SQL: whether the memory (table alias `memory`) is the agent's own words: said in an assistant
    message under no name or as "Assistant" (in a transcript between two people, the second one's turns are
    theirs, not an agent's). Recall ranks such memories below what the people said, and the summary lists
    them after the people's facts. Read from the stored speaker, never from the text."""
    m = memory
    return f"({m}.speaker_role = 'assistant' AND ({m}.speaker IS NULL OR lower({m}.speaker) = 'assistant'))"
