"""How much of a request's heavy work one API process runs at a time, and where its CPU-bound part runs.

Recall is the heavy request: its statements keep PostgreSQL busy (≈ 55 ms of the database's CPU a recall on
a 2,000-memory profile, ≈ 5 ms of the process's own) and its ranking is Python. Unbounded, 20 concurrent
recalls put 20 busy backends beside the API's event loop on two cores, and the loop waited for a core:
`/healthz` p99 0.4–0.6 s, up to 3.7 s. A process now runs at most `slots` of them (twice its cores by
default: measured on two cores, 20 concurrent recalls with `/healthz` p99 57 ms and more recalls served
than unbounded, where one per core kept p99 at 14 ms but served a quarter fewer); the others wait, no
longer than the request's database wait bound (`AGENT_MEMORY_DB_POOL_TIMEOUT_SECONDS`, counted from its
arrival as the pool counts it), then are answered 503 within it. The ranking runs in a thread (`run`), so
the event loop only hands it over and takes the result back.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import time
from collections.abc import AsyncIterator, Callable
from typing import ParamSpec, TypeVar

from app.core.db import answer_reserve, request_received_var
from app.core.errors import Unavailable
from app.core.metrics import BUSY_SHED

P = ParamSpec("P")
T = TypeVar("T")


def default_slots() -> int:
    """Twice the cores this process may use: one statement waits on the network or the disk while another
    computes, so fewer left cores idle (one per core served a quarter fewer recalls)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return 2 * max(1, cores)


class WorkSlots:
    """At most `slots` requests' heavy work at a time in this process; a request waits for a slot no longer
    than its bound, counted from its arrival, and is then answered 503 within it."""

    def __init__(self, slots: int, bound: float) -> None:
        self.slots = slots
        self.bound = bound
        self._free = asyncio.Semaphore(slots)
        self.shed = 0  # requests answered 503 for want of a slot

    @contextlib.asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """One slot for the block; `Unavailable` (503) once the request's bound is near."""
        received = request_received_var.get()
        wait = (
            None
            if received is None
            else received + self.bound - answer_reserve(self.bound) - time.monotonic()
        )
        try:
            if wait is None:
                await self._free.acquire()
            else:
                async with asyncio.timeout(max(0.0, wait)):
                    await self._free.acquire()
        except TimeoutError:
            self.shed += 1
            BUSY_SHED.inc()
            raise Unavailable("this server is busy: retry shortly") from None
        try:
            yield
        finally:
            self._free.release()

    @staticmethod
    async def run(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """`fn(*args, **kwargs)` in a thread, off the event loop (call it holding a slot)."""
        return await asyncio.to_thread(functools.partial(fn, *args, **kwargs))
