"""The `embed` job: vectors for a profile's memories that have none of the configured model yet.

Queued (one per profile: queued jobs coalesce) by the extraction job when it created memories and by
remember, in the transaction that wrote them; never run on a request path. It works in rounds — read a batch
of memories still without a vector, embed them with no database connection held, store the vectors — until
none is left, so it also backfills after the model changes. Idempotent: a re-run stores nothing new.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.embeddings import repository
from app.embeddings.service import Semantic, text_of
from app.worker import queue
from app.worker.handlers import JobContext, PermanentJobError

EMBED = "embed"
# Memories read per round: a few provider batches, so a round's work stays small and its vectors are
# committed before the next round reads.
ROUND_BATCHES = 4


async def enqueue_embedding(db: AsyncSession, profile_id: int) -> str:
    """Queue vectors for the profile's new memories, in the caller's transaction (callers check first that
    embeddings are configured: with none, nothing is queued)."""
    return await queue.enqueue(db, EMBED, profile_id=profile_id, dedupe_key=f"embed:{profile_id}")


def semantic_for(ctx: JobContext) -> Semantic | None:
    """The worker's embedder, built on first use (the API process hands its own to its worker)."""
    if "semantic" not in ctx.cache:
        ctx.cache["semantic"] = Semantic.from_settings(ctx.settings)
    semantic: Semantic | None = ctx.cache["semantic"]
    return semantic


async def run_embedding(
    ctx: JobContext, profile_id: int | None, _session_id: str | None, _payload: dict[str, Any]
) -> int:
    if profile_id is None:
        raise PermanentJobError("embed job without a profile")
    semantic = semantic_for(ctx)
    if semantic is None:
        return 0  # embeddings were turned off after the job was queued
    per_round = ctx.settings.embeddings_batch_size * ROUND_BATCHES
    # The count a job reports is of memories created: vectors are not memories.
    while True:
        async with ctx.sessionmaker() as db:
            store = await semantic.vector_store(db)
            pending = await repository.missing(db, profile_id, semantic.model, per_round)
        if not pending:
            return 0
        # No database connection is held while the texts are embedded (an HTTP call or CPU work).
        vectors = await semantic.embedder.embed([text_of(m, semantic.input_mode) for m in pending])
        async with ctx.sessionmaker() as db:
            written = await repository.store_vectors(
                db,
                profile_id,
                semantic.model,
                {m.id: v for m, v in zip(pending, vectors, strict=True)},
                store,
            )
            await db.commit()
        if written == 0:
            return 0  # all of them went meanwhile; a later round would read the same nothing again
