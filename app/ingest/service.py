"""Rules of ingest: message identity, derived session ids, one transaction for the messages and the job."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncSession

from app.ingest import repository
from app.ingest.schemas import IngestRequest, IngestResult
from app.models import Profile
from app.worker import queue

UNIT_SEPARATOR = "\x1f"


def message_identity(session_id: str, role: str, content: str) -> str:
    """sha256(sessionId ␟ role ␟ content), first 128 bits as hex: the timestamp is not part of it."""
    digest = hashlib.sha256(UNIT_SEPARATOR.join((session_id, role, content)).encode("utf-8")).hexdigest()
    return digest[:32]


def derived_session_id(role: str, content: str) -> str:
    """A session id from the first message alone, so the same conversation extended later keeps it."""
    return "ses_" + message_identity("", role, content)[:24]


async def ingest(db: AsyncSession, profile: Profile, request: IngestRequest) -> IngestResult:
    first = request.messages[0]
    session_id = request.session_id or derived_session_id(first.role, first.content)
    now = datetime.now(UTC)

    ids: list[str] = []
    seen: set[str] = set()
    keep = []
    for message in request.messages:
        identity = message_identity(session_id, message.role, message.content)
        if identity in seen:  # the same message twice in one batch is one message
            continue
        seen.add(identity)
        ids.append(identity)
        keep.append(message)

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
    new_ids = [i for i in ids if i in inserted]
    job_id = await queue.enqueue_extraction(db, profile.id, session_id, new_ids) if new_ids else None
    return IngestResult(
        session_id=session_id,
        job_id=job_id,
        messages_received=len(request.messages),
        messages_new=len(new_ids),
    )
