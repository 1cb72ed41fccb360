"""`serve`'s worker: a child process (`agent-memory worker`) started with the API, restarted with backoff
if it dies, stopped when the API stops. Extraction (CPU-bound with the default extractor) therefore never
runs on the API's event loop.

The child is given the database URL the API resolved (the embedded server's included, so it never starts a
second one) and the API's pid: should the API be killed outright, the child notices it was orphaned and
stops cleanly on its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
import time

from app.core.settings import Settings, to_plain_url

logger = logging.getLogger("agent_memory.supervisor")

RESTART_MIN_SECONDS = 0.5
# A child that ran this long before dying was healthy: its next restart starts the backoff over.
HEALTHY_RUN_SECONDS = 60.0
STOP_GRACE_SECONDS = 15.0


class WorkerSupervisor:
    def __init__(self, settings: Settings, database_url: str) -> None:
        self.settings = settings
        self.database_url = database_url
        self.process: asyncio.subprocess.Process | None = None
        self.restarts = 0
        self._stopping = False
        self._task: asyncio.Task[None] | None = None

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None and self.process.returncode is None else None

    def _command(self) -> list[str]:
        # -P: the working directory is not put first on the child's sys.path, so a directory holding a
        # package of its own named `app` (a common name for a user's project) cannot shadow this one.
        return [sys.executable, "-P", "-m", "app", "worker", "--parent-pid", str(os.getpid())]

    def _env(self) -> dict[str, str]:
        env = dict(os.environ)
        # The API processes' shared metrics directory is theirs: the worker serves its own /metrics.
        env.pop("PROMETHEUS_MULTIPROC_DIR", None)
        # Settings given in code (tests, embedding apps) reach the child too; the environment's own
        # values are already in `env`.
        for key, value in self.settings.as_environment().items():
            if key not in env and key not in ("AGENT_MEMORY_DATABASE_URL", "AGENT_MEMORY_DATA_DIR"):
                env[key] = value
        env["AGENT_MEMORY_DATABASE_URL"] = to_plain_url(self.database_url)
        return env

    async def _spawn(self) -> None:
        self.process = await asyncio.create_subprocess_exec(*self._command(), env=self._env())
        logger.info("worker process %d started", self.process.pid, extra={"worker_pid": self.process.pid})

    async def start(self) -> None:
        await self._spawn()
        self._task = asyncio.create_task(self._watch(), name="worker-supervisor")

    async def _watch(self) -> None:
        delay = RESTART_MIN_SECONDS
        while not self._stopping:
            assert self.process is not None
            started = time.monotonic()
            code = await self.process.wait()
            if self._stopping:
                return
            if time.monotonic() - started >= HEALTHY_RUN_SECONDS:
                delay = RESTART_MIN_SECONDS
            logger.warning(
                "worker process %d exited with code %s; restarting in %.1fs",
                self.process.pid,
                code,
                delay,
                extra={"worker_pid": self.process.pid, "exit_code": code},
            )
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.settings.worker_restart_max_seconds)
            if self._stopping:
                return
            try:
                await self._spawn()
                self.restarts += 1
            except Exception:
                logger.exception("could not start the worker process; retrying")

    async def stop(self) -> None:
        """SIGTERM the child (it finishes or releases its jobs), SIGKILL it after a grace period."""
        self._stopping = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        process = self.process
        if process is None or process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), timeout=STOP_GRACE_SECONDS)
        except TimeoutError:
            logger.warning("worker process %d did not stop in time; killing it", process.pid)
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
