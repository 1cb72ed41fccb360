"""SQL of memories: bulk idempotent insert with sources, supersession by topic key, reads (current or as of
an instant), edits and deletes that archive the state they end into `memory_versions`, and history.

One module per kind of work, all re-exported here (`from app.memories import repository` is the way in):
`records` (the rows), `inserts` (new memories and supersession), `reads`, `changes` (edits and deletes,
archived), `tombstones`, `speakers` (who said a memory) and `summary_reads` (what the profile summary
draws from)."""

from __future__ import annotations

from app.memories.repository.changes import (
    archive,
    content_taken,
    delete_memory,
    delete_session,
    edit,
    revive,
)
from app.memories.repository.inserts import (
    Remembered,
    RememberItem,
    insert_memories,
    insert_one,
    remember_many,
    remember_one,
)
from app.memories.repository.reads import (
    deleted_state,
    get,
    get_active,
    get_as_of,
    get_by_hash,
    get_for_edit,
    history,
    list_as_of,
    list_memories,
    shared_sources,
    source_keys,
    sources,
)
from app.memories.repository.records import (
    EditableMemory,
    ListedMemory,
    MemoryRow,
    MemoryState,
    NewMemory,
    SourceMessage,
    Speaker,
)
from app.memories.repository.speakers import (
    FirstSource,
    agent_words,
    first_sources,
    set_speakers,
)
from app.memories.repository.summary_reads import (
    FACTS_WALK,
    MemoryLine,
    dated_since,
    memory_sessions,
    newest_of_type,
    session_memories,
    topic_keyed_first,
)
from app.memories.repository.tombstones import (
    TombstoneRow,
    kept_sources_of_deleted,
    lift_tombstone,
    lift_tombstones_of,
    list_tombstones,
    tombstone,
    tombstone_of,
)

__all__ = [
    "EditableMemory",
    "FACTS_WALK",
    "FirstSource",
    "ListedMemory",
    "MemoryLine",
    "MemoryRow",
    "MemoryState",
    "NewMemory",
    "RememberItem",
    "Remembered",
    "SourceMessage",
    "Speaker",
    "TombstoneRow",
    "agent_words",
    "archive",
    "content_taken",
    "dated_since",
    "delete_memory",
    "delete_session",
    "deleted_state",
    "edit",
    "first_sources",
    "get",
    "get_active",
    "get_as_of",
    "get_by_hash",
    "get_for_edit",
    "history",
    "insert_memories",
    "insert_one",
    "kept_sources_of_deleted",
    "lift_tombstone",
    "lift_tombstones_of",
    "list_as_of",
    "list_memories",
    "list_tombstones",
    "memory_sessions",
    "newest_of_type",
    "remember_many",
    "remember_one",
    "revive",
    "session_memories",
    "set_speakers",
    "shared_sources",
    "source_keys",
    "sources",
    "tombstone",
    "tombstone_of",
    "topic_keyed_first",
]
