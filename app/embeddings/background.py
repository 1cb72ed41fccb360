"""The embedding backlog's threads: every core the requests leave idle, none they need.

The `embed` job's CPU work (the local model embedding memories) runs here, split across a pool of threads
(`AGENT_MEMORY_EMBEDDINGS_BACKGROUND_THREADS`, default one per core this process may use). Each thread
lowers its own scheduling priority when it starts (`AGENT_MEMORY_EMBEDDINGS_BACKGROUND_PRIORITY`):

- `idle` (the default): Linux's SCHED_IDLE: the thread runs only on a core nothing else wants, so a request
  (the API, PostgreSQL, the worker's own loop, extraction) takes the core back at once; with the API idle
  the backlog has every core.
- `low`: nice 19 for the thread (a share of about 1.5 % against a normal thread, not nothing).
- `normal`: as the rest of the process.

Only these threads are lowered (on Linux priority is per thread): the worker's event loop, which renews
leases and claims jobs, and extraction keep theirs. The model's engine releases the GIL while it computes,
so the threads embed in parallel. A round's texts are split evenly between the threads, and the `embed` job
sizes its rounds to about half a second of the pool's work (`app.embeddings.job.ROUND_SECONDS`): no thread's
call outlasts a round. Elsewhere than Linux, or where lowering
is refused, the threads run at the process's priority (logged once).

A provider that is not CPU-bound in this process (an OpenAI-compatible endpoint) is called as before.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Literal, Protocol, runtime_checkable

from app.embeddings.types import Embedder

logger = logging.getLogger("agent_memory.embeddings")

Priority = Literal["idle", "low", "normal"]
LOW_NICENESS = 19


@runtime_checkable
class BlockingEmbedder(Protocol):
    """A local model that embeds memories on the calling thread (`passages`), safe to call from several
    threads at once (`parallel`: whether that actually runs them in parallel)."""

    parallel: bool

    def passages(self, texts: list[str]) -> list[list[float]]: ...


def usable_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def lower_this_thread(priority: Priority) -> bool:
    """Lower the calling thread's scheduling priority; whether it was (Linux only: elsewhere `setpriority`
    would lower the whole process, the event loop included)."""
    if priority == "normal" or not sys.platform.startswith("linux"):
        return False
    try:
        if priority == "idle" and hasattr(os, "SCHED_IDLE"):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))  # 0: this thread
        else:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), LOW_NICENESS)
        return True
    except OSError as exc:
        logger.warning("embedding threads keep the process's priority: %s", exc)
        return False


class BackgroundPool:
    """The worker's embedding threads (created on first use, closed with the worker)."""

    def __init__(self, threads: int, priority: Priority, intra_op: int = 1) -> None:
        # By default a thread per core, each call on `intra_op` engine threads of its own
        # (AGENT_MEMORY_EMBEDDINGS_THREADS): together no more threads than cores, none left waiting.
        self.threads = threads if threads > 0 else max(1, usable_cores() // max(1, intra_op))
        self.priority = priority
        self._executor = ThreadPoolExecutor(
            max_workers=self.threads,
            thread_name_prefix="embed-backlog",
            initializer=lower_this_thread,
            initargs=(priority,),
        )

    async def embed(self, embedder: Embedder, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in order: a local model's work split across the pool's threads."""
        if not isinstance(embedder, BlockingEmbedder) or not texts:
            return await embedder.embed(texts)
        ways = self.threads if embedder.parallel else 1
        size = -(-len(texts) // ways)  # ceiling: at most `ways` parts, as even as can be
        parts = [list(texts[start : start + size]) for start in range(0, len(texts), size)]
        loop = asyncio.get_running_loop()
        # The threads hold the GIL only around each engine call (encoding the texts, reading the vectors
        # back): a lowered thread preempted there holds up this process's event loop for as long as the
        # machine keeps it waiting, so nothing more is done on them.
        done = await asyncio.gather(
            *(loop.run_in_executor(self._executor, embedder.passages, part) for part in parts)
        )
        return [vector for part in done for vector in part]

    async def aclose(self) -> None:
        # A thread in the middle of a call finishes it (the engine cannot be interrupted); none is awaited.
        self._executor.shutdown(wait=False, cancel_futures=True)
