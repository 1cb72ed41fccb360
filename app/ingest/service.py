"""Rules of ingest: message identity, derived session ids, one transaction for the messages and the job;
messages a deleted memory took with it are not stored again."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncSession

from app.ingest import repository
from app.ingest.schemas import IngestRequest, IngestResult
from app.models import Profile
from app.quotas.service import held_to_quotas
from app.worker import queue

UNIT_SEPARATOR = "\x1f"


def message_identity(session_id: str, role: str, speaker: str | None, content: str) -> str:
    """sha256(sessionId ␟ role ␟ speaker ␟ content), first 128 bits as hex: two people saying the same
    words are two messages; the timestamp is not part of it.

    A message without a speaker hashes as sha256(sessionId ␟ role ␟ content), the identity every message had
    before speakers were part of it: the ids stored then stay the ids a re-sent conversation computes
    (migration 0016 recomputed the few stored with a name). The speaker is the message's `name`; a
    `Name: text` prefix is part of the content already, so it tells speakers apart without being parsed
    into the identity (a parser's rules may change; an identity must not).
    """
    parts = (session_id, role, speaker, content) if speaker else (session_id, role, content)
    return hashlib.sha256(UNIT_SEPARATOR.join(parts).encode("utf-8")).hexdigest()[:32]


def derived_session_id(role: str, content: str) -> str:
    """A session id from the first message's words alone (not its speaker, as before speakers were part of
    a message's identity), so the same conversation extended later keeps it."""
    return "ses_" + message_identity("", role, None, content)[:24]


async def ingest(db: AsyncSession, profile: Profile, request: IngestRequest) -> IngestResult:
    first = request.messages[0]
    session_id = request.session_id or derived_session_id(first.role, first.content)
    now = datetime.now(UTC)

    ids: list[str] = []
    seen: set[str] = set()
    keep = []
    for message in request.messages:
        identity = message_identity(session_id, message.role, message.name, message.content)
        if identity in seen:  # the same message twice in one batch is one message
            continue
        seen.add(identity)
        ids.append(identity)
        keep.append(message)

    # Held to the namespace's quotas on what it really stored (a re-sent conversation adds nothing).
    async with held_to_quotas(db, profile.namespace_id, "messages", "bytes"):
        inserted = await repository.store_batch(
            db,
            profile.id,
            session_id,
            ids,
            [m.role for m in keep],
            [m.name for m in keep],
            [m.content for m in keep],
            [m.timestamp or now for m in keep],
            [json.dumps(m.metadata) if m.metadata else None for m in keep],
        )
    # Not inserted: stored already, or a message a deleted memory took with it (its tombstone stands), which
    # counts as known: re-sending a conversation does not bring back what was forgotten.
    new_ids = [i for i in ids if i in inserted]
    job_id = await queue.enqueue_extraction(db, profile.id, session_id, new_ids) if new_ids else None
    return IngestResult(
        session_id=session_id,
        job_id=job_id,
        messages_received=len(request.messages),
        messages_new=len(new_ids),
    )
