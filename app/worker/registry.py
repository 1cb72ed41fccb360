"""The job registry: which handler runs each job kind, filled by the `@registry.job(Payload)` decorator.

A handler is `async def handle(ctx: JobContext, job: JobInfo, payload: ThatPayload) -> JobResult`. The
modules that hold the product's handlers are listed in `JOB_MODULES` and imported on first use (by path,
so the worker package depends on no domain package; the domains depend on it). Tests and tools register
their own kinds the same way, on the global registry or on a `Registry()` of their own.

A module may also register a loop (`@registry.loop`): work that is not a job of the queue but runs beside it
in every worker, started and stopped with it (the webhook dispatcher, which leases endpoints rather than
jobs). A loop is `async def run(ctx: JobContext, worker_id: str, stopping: asyncio.Event) -> None` and
returns soon after `stopping` is set.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import ValidationError

from app.worker.context import JobContext, JobInfo, PermanentJobError
from app.worker.kinds import JobPayload, JobResult

P = TypeVar("P", bound=JobPayload)
Handler = Callable[[JobContext, JobInfo, P], Awaitable[JobResult]]
# Work the loop does on each round besides claiming jobs (the event subscribers: app.events.dispatch);
# returns whether it found any, so that `Worker.drain` goes on until none is left.
RoundTask = Callable[[JobContext], Awaitable[bool]]
Loop = Callable[[JobContext, str, asyncio.Event], Coroutine[Any, Any, None]]

# Where the product's handlers live; a new job kind adds its module here.
JOB_MODULES = (
    # Follow-up work subscribes to the event outbox (its subscribers live with their jobs below).
    "app.events.dispatch",
    "app.memories.extraction_job",
    "app.profiles.purge_job",
    "app.sessions.compaction_job",
    "app.embeddings.job",
    "app.webhooks.dispatcher",
    # Not a handler: it installs the system-prompt renderer the `compact` job re-renders with (the
    # context domain sits above sessions, see app.sessions.system_prompt).
    "app.context.prompt",
)


@dataclass(frozen=True)
class RegisteredJob:
    kind: str
    payload_type: type[JobPayload]
    handler: Callable[[JobContext, JobInfo, Any], Awaitable[JobResult]]

    def parse(self, payload: dict[str, Any]) -> JobPayload:
        try:
            return self.payload_type.model_validate(payload)
        except ValidationError as exc:
            raise PermanentJobError(f"bad {self.kind} payload: {exc.errors()[:3]}") from exc


class Registry:
    def __init__(self, modules: tuple[str, ...] = ()) -> None:
        self._jobs: dict[str, RegisteredJob] = {}
        self._rounds: list[RoundTask] = []
        self._channels: set[str] = set()
        self._loops: dict[str, Loop] = {}
        self._modules = modules
        self._loaded = not modules

    def job(self, payload_type: type[P]) -> Callable[[Handler[P]], Handler[P]]:
        """Decorator: run the decorated handler for jobs of `payload_type.kind`."""

        def register(handler: Handler[P]) -> Handler[P]:
            kind = payload_type.kind
            if kind in self._jobs and self._jobs[kind].handler is not handler:
                raise ValueError(f"job kind {kind!r} already has a handler")
            self._jobs[kind] = RegisteredJob(kind, payload_type, handler)
            return handler

        return register

    def every_round(self, task: RoundTask, *, wake_on: str | None = None) -> RoundTask:
        """Have the loop run `task` on each round (and `drain` until it finds nothing); a NOTIFY on
        `wake_on` wakes the loop for it, as one on the jobs' channel does for jobs."""
        if task not in self._rounds:
            self._rounds.append(task)
        if wake_on is not None:
            self._channels.add(wake_on)
        return task

    def round_tasks(self) -> list[RoundTask]:
        self.load()
        return list(self._rounds)

    def wake_channels(self) -> list[str]:
        self.load()
        return sorted(self._channels)

    def loop(self, run: Loop) -> Loop:
        """Decorator: run `run` beside the job loop in every worker of this registry."""
        self._loops[f"{run.__module__}.{run.__qualname__}"] = run
        return run

    def loops(self) -> list[Loop]:
        self.load()
        return list(self._loops.values())

    def get(self, kind: str) -> RegisteredJob | None:
        self.load()
        return self._jobs.get(kind)

    def kinds(self) -> list[str]:
        self.load()
        return sorted(self._jobs)

    def claim_delays(self) -> dict[str, float]:
        """The kinds claimed behind the others, and by how much (`JobPayload.claim_delay_seconds`)."""
        self.load()
        return {
            k: j.payload_type.claim_delay_seconds
            for k, j in self._jobs.items()
            if j.payload_type.claim_delay_seconds
        }

    def load(self) -> None:
        """Import the handler modules once (they register themselves as they are imported)."""
        if self._loaded:
            return
        self._loaded = True
        for module in self._modules:
            importlib.import_module(module)


registry = Registry(JOB_MODULES)
