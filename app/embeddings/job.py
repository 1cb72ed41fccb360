"""The `embed` job: vectors for a profile's memories that have none of the configured model yet.

Queued (one per profile: queued jobs coalesce) when a memory is created or edited, by the subscriber below
reading the event outbox (app.events.dispatch): whichever way the memory was written (REST, MCP, the
Session API's extraction, import, an edit), its event queues its vectors; never run on a request path. It works in rounds — read a batch
of memories still without a vector, embed them with no database connection held, store the vectors — until
none is left, so it also backfills after the model changes. Idempotent: a re-run stores nothing new.

Extraction comes first: it is what makes a memory recallable (the lexical channel finds it once stored), and
the vectors improve recall when they follow. The kind is claimed behind the others (`claim_delay_seconds`),
and a running job gives way between two rounds (of about `ROUND_SECONDS`) when jobs of another kind are
queued and due: it queues the rest of the profile's work as a new job and ends. That job is claimed once the others are, or once it has
waited the claim delay, whichever comes first: a queue that never empties still gets its vectors, a round
at least per delay.

A round's texts are embedded on the worker's background pool (app.embeddings.background): with the local
model, one thread per core at the lowest scheduling priority, so the backlog takes the cores requests leave
idle and gives them back the moment a request needs one.
"""

from __future__ import annotations

import time

from sqlalchemy.ext.asyncio import AsyncSession

from app.embeddings import repository
from app.embeddings.background import BackgroundPool
from app.embeddings.service import Semantic, text_of
from app.events.dispatch import subscriber
from app.events.types import EventRow, EventType
from app.worker import queue
from app.worker.context import JobContext, JobInfo
from app.worker.kinds import EmbedPayload, EmbedResult
from app.worker.registry import registry

EMBED = EmbedPayload.kind
# How long a round may last, about: how long a due job of another kind waits for this one to give way. The
# local model takes ~0.1 s of CPU a memory (embedded with the turn before it), and costs the same per token
# one text at a time or 96 (it packs a batch's texts, no padding): its rounds hold a few memories. A remote
# endpoint answers a batch in about the time of one text: its rounds stay whole batches.
ROUND_SECONDS = 0.5
# Memories in a job's first round, which measures the pace.
FIRST_ROUND = 4


async def enqueue_embedding(db: AsyncSession, profile_id: int) -> str:
    """Queue vectors for the profile's new memories, in the caller's transaction (callers check first that
    embeddings are configured: with none, nothing is queued)."""
    return await queue.enqueue_coalesced(db, EmbedPayload(), profile_id)


async def enqueue_backfill(db: AsyncSession, semantic: Semantic) -> int:
    """Queue vectors for every profile that has memories but none of `semantic`'s vectors (embeddings were
    off when they were written, or the model or its input changed): run when the API starts. Vectors of
    another model are never compared with this one's, so until the jobs ran such a profile is recalled
    lexically, never with two spaces mixed. Returns how many profiles were queued."""
    profiles = await repository.profiles_without_vectors(db, semantic.model)
    for profile_id in profiles:
        await enqueue_embedding(db, profile_id)
    return len(profiles)


@subscriber("embeddings", [EventType.MEMORY_CREATED, EventType.MEMORY_UPDATED])
async def embed_written_memories(ctx: JobContext, db: AsyncSession, events: list[EventRow]) -> None:
    """Vectors for the profiles whose memories were created or edited (an edit of the statement dropped its
    vectors; an edit of anything else leaves them, and the job finds nothing to do)."""
    if ctx.settings.embeddings == "none":
        return
    for profile_id in sorted({e.profile_id for e in events if e.profile_id is not None}):
        await enqueue_embedding(db, profile_id)


def semantic_for(ctx: JobContext) -> Semantic | None:
    """The worker's embedder, built on first use and closed when the worker stops."""
    return ctx.shared("semantic", lambda: Semantic.from_settings(ctx.settings))


def pool_for(ctx: JobContext) -> BackgroundPool:
    """The worker's embedding threads, low priority (app.embeddings.background)."""
    settings = ctx.settings
    pool = ctx.shared(
        "embedding-pool",
        lambda: BackgroundPool(
            settings.embeddings_background_threads,
            settings.embeddings_background_priority,
            settings.embeddings_threads,
        ),
    )
    assert pool is not None
    return pool


@registry.job(EmbedPayload)
async def run_embedding(ctx: JobContext, job: JobInfo, _payload: EmbedPayload) -> EmbedResult:
    profile_id = job.require_profile()
    semantic = semantic_for(ctx)
    if semantic is None:
        return EmbedResult()  # embeddings were turned off after the job was queued
    pool = pool_for(ctx)
    batch = ctx.settings.embeddings_batch_size
    per_round = min(batch, FIRST_ROUND)  # then sized to last about ROUND_SECONDS, at the last round's pace
    stored = 0
    after = ""  # the last memory read: the next round reads past it
    while True:
        async with ctx.transaction() as db:
            store = await semantic.vector_store(db)
            pending = await repository.missing(db, profile_id, semantic.model, per_round, after)
        if not pending:
            return EmbedResult(vectors_stored=stored)
        after = pending[-1].id
        texts = [text_of(m, semantic.input_mode) for m in pending]
        # Memories split from one turn share their source text: each distinct text is embedded once.
        unique = list(dict.fromkeys(texts))
        # No database connection is held while the texts are embedded (an HTTP call, or CPU work on the
        # pool's low-priority threads).
        started = time.perf_counter()
        by_text = dict(zip(unique, await pool.embed(semantic.embedder, unique), strict=True))
        pace = (time.perf_counter() - started) / len(unique)
        per_round = max(1, min(batch, int(ROUND_SECONDS / pace) if pace > 0 else batch))
        vectors = {m.id: by_text[t] for m, t in zip(pending, texts, strict=True)}
        async with ctx.transaction() as db:
            stored += await repository.store_vectors(db, profile_id, semantic.model, vectors, store)
            if await queue.undelayed_jobs_due(db):
                await enqueue_embedding(db, profile_id)  # the rest, behind the jobs waiting
                return EmbedResult(vectors_stored=stored)
