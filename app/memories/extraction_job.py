"""The `extract` job: turn newly stored messages of a session into memories with the configured extractor."""

from __future__ import annotations

from datetime import UTC
from typing import Any

from app.embeddings.job import enqueue_embedding
from app.extraction.types import Extractor, InputMessage
from app.memories import repository, service
from app.worker.handlers import JobContext, PermanentJobError

# Earlier messages given to the extractor as context (e.g. the question a short answer replies to).
CONTEXT_MESSAGES = 6


def extractor_for(ctx: JobContext) -> Extractor:
    """One extractor per worker, built on first use: the LLM one when an endpoint is configured."""
    extractor: Extractor | None = ctx.cache.get("extractor")
    if extractor is None:
        client = ctx.llm()
        if client is not None:
            from app.extraction.llm import LlmExtractor

            extractor = LlmExtractor(client)
        else:
            from app.extraction.default import DefaultExtractor

            extractor = DefaultExtractor()
        ctx.cache["extractor"] = extractor
    return extractor


async def run_extraction(
    ctx: JobContext, profile_id: int | None, session_id: str | None, payload: dict[str, Any]
) -> int:
    if profile_id is None or session_id is None:
        raise PermanentJobError("extract job needs a profile and a session")
    message_ids = [str(i) for i in payload.get("messageIds", [])]
    async with ctx.sessionmaker() as db:
        if not await repository.profile_is_live(db, profile_id):
            return 0  # deleted meanwhile: the purge job removes everything
        rows, new_from = await repository.window_messages(
            db, profile_id, session_id, message_ids, CONTEXT_MESSAGES
        )
    if len(rows) <= new_from:
        return 0  # every message was deleted before we got here
    inputs = [
        InputMessage(
            id=r["id"], role=r["role"], content=r["text_content"], timestamp=r["created_at"].astimezone(UTC)
        )
        for r in rows
    ]
    # No database connection is held while the extractor runs (it may call an LLM).
    extracted = await extractor_for(ctx).extract(inputs, new_from=new_from)
    async with ctx.sessionmaker() as db:
        created = await service.store(db, profile_id, service.new_memories(extracted, session_id))
        if created and ctx.settings.embeddings != "none":
            await enqueue_embedding(db, profile_id)  # vectors for them, committed with them
        await db.commit()
    return created
