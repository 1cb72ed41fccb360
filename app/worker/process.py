"""A worker as its own process (`agent-memory worker`, and the child that `serve` supervises).

Migrates the schema, runs the loop until SIGTERM or SIGINT, then stops cleanly: claims nothing more,
finishes or releases in-flight jobs, exits 0.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal

from app.core.blas import one_blas_thread
from app.core.db import create_sessionmaker
from app.core.embedded import Database
from app.core.heap import freeze_startup_objects
from app.core.migrations import upgrade_to_head
from app.core.quotas import QuotaBook
from app.core.settings import Settings
from app.worker.health import HealthServer
from app.worker.registry import Registry, registry
from app.worker.runner import Worker

logger = logging.getLogger("agent_memory.worker")

# Connecting at start while the database is still coming up (a child started with `serve`, a container
# started with its database): retry instead of exiting.
START_RETRY_SECONDS = 1.0
START_ATTEMPTS = 30
PARENT_CHECK_SECONDS = 1.0
SERVE_CHILD_NICENESS = 10


async def _watch_parent(parent_pid: int, stop: asyncio.Event) -> None:
    """Stop when orphaned: the API that started this worker was killed without stopping it."""
    while not stop.is_set():
        if os.getppid() != parent_pid:
            logger.warning("parent process %d is gone; stopping", parent_pid)
            stop.set()
            return
        await asyncio.sleep(PARENT_CHECK_SECONDS)


async def run_worker_process(
    settings: Settings,
    *,
    jobs: Registry = registry,
    name: str = "worker",
    parent_pid: int | None = None,
    metrics_port: int | None = None,
) -> None:
    """`metrics_port`: serve /healthz and /metrics there (app.worker.health) while the worker runs."""
    if parent_pid is not None:
        # `serve`'s child shares the machine with the API: extraction is CPU-bound and must not take
        # the API's turn on the CPU (health checks stay prompt while large batches are extracted).
        os.nice(SERVE_CHILD_NICENESS)
    one_blas_thread()
    database = await Database.open(settings)
    engine, url = database.engine, database.url
    health: HealthServer | None = None
    try:
        for attempt in range(1, START_ATTEMPTS + 1):
            try:
                await upgrade_to_head(engine)
                break
            except Exception as exc:
                if attempt == START_ATTEMPTS:
                    raise
                logger.warning("database not ready (%s); retrying", type(exc).__name__)
                await asyncio.sleep(START_RETRY_SECONDS)
        worker = Worker(
            settings,
            create_sessionmaker(engine, QuotaBook.from_settings(settings)),
            settings.listen_url(url),
            name=name,
            jobs=jobs,
        )
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        watcher = asyncio.create_task(_watch_parent(parent_pid, stop)) if parent_pid else None
        freeze_startup_objects()  # its own loop (leases, LISTEN) is not held up by full collections either
        await worker.start()
        logger.info("worker %s running", worker.id, extra={"worker_id": worker.id})
        if metrics_port is not None:
            health = HealthServer(
                settings.worker_metrics_host, metrics_port, lambda: worker.running, worker.id
            )
            await health.start()
        await stop.wait()
        await worker.stop()
        if watcher is not None:
            watcher.cancel()
    finally:
        if health is not None:
            await health.stop()
        await database.close()
