"""A real `agent-memory worker` process whose extract jobs stall before storing, so a test can kill it mid-job."""

from __future__ import annotations

import asyncio
from typing import Any

from app.cli import main
from app.worker import handlers, queue
from app.worker.handlers import JobContext


async def _stalled_extraction(
    ctx: JobContext, profile_id: int | None, sid: str | None, payload: dict[str, Any]
) -> int:
    print("claimed", flush=True)
    await asyncio.sleep(3600)
    return 0


handlers.load_handlers()
handlers.HANDLERS[queue.EXTRACT] = _stalled_extraction
main()
