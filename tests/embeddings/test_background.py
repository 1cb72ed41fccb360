"""The worker's embedding threads (app.embeddings.background): a round's texts split across them give each text
the vector one call gives it, with the real local model; the threads, and only they, run at the configured
scheduling priority (Linux). What that does to recall beside a backlog is measured in `bench backlog`."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from app.embeddings.background import BackgroundPool, usable_cores
from app.embeddings.e5 import E5Embedder

TEXTS = [
    "We adopted a grey kitten last week.",
    "I work night shifts at the hospital.",
    "Ich habe im Mai in Lissabon gewohnt.",
    "Mi hermana vive en Valencia con sus dos hijos.",
    "The garden needs tomatoes and basil next spring.",
    "私は毎朝コーヒーを飲みます。",
    "ok",
]

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread priority is Linux's")


async def test_split_across_threads_each_text_gets_the_vector_one_call_gives() -> None:
    embedder = E5Embedder()
    alone = await embedder.embed(TEXTS)
    for threads in (1, 3, len(TEXTS) + 2):
        pool = BackgroundPool(threads, "idle")
        try:
            assert await pool.embed(embedder, TEXTS) == alone
            assert await pool.embed(embedder, []) == []
        finally:
            await pool.aclose()


class SeenThreads:
    """A local model stand-in recording, per call, the thread it ran on and that thread's priority."""

    parallel = True

    def __init__(self, parts: int) -> None:
        self.calls: list[tuple[int, int, int]] = []
        self.lock = threading.Lock()
        self.together = threading.Barrier(parts, timeout=60)  # every part at once: one thread each

    def passages(self, texts: list[str]) -> list[list[float]]:
        self.together.wait()
        tid = threading.get_native_id()
        with self.lock:
            self.calls.append((tid, os.sched_getscheduler(0), os.getpriority(os.PRIO_PROCESS, tid)))
        return [[float(len(t))] for t in texts]

    async def embed(self, texts: list[str]) -> list[list[float]]:
        raise AssertionError("a local model's texts go through `passages` on the pool")


@linux_only
@pytest.mark.parametrize("priority", ["idle", "low", "normal"])
async def test_the_threads_and_only_they_run_at_the_priority(priority: str) -> None:
    here = (os.sched_getscheduler(0), os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
    model = SeenThreads(2)
    pool = BackgroundPool(2, priority)  # type: ignore[arg-type]
    try:
        vectors = await pool.embed(model, TEXTS)  # type: ignore[arg-type]
    finally:
        await pool.aclose()
    assert vectors == [[float(len(t))] for t in TEXTS]  # in order, across the parts
    assert len(model.calls) == 2 and len({tid for tid, _, _ in model.calls}) == 2  # both threads at work
    assert threading.get_native_id() not in {tid for tid, _, _ in model.calls}
    policies = {(policy, nice) for _, policy, nice in model.calls}
    if priority == "idle":
        assert policies == {(os.SCHED_IDLE, here[1])}
    elif priority == "low":
        assert policies == {(here[0], 19)}
    else:
        assert policies == {here}
    # The calling thread (the worker's event loop) keeps its own.
    assert (os.sched_getscheduler(0), os.getpriority(os.PRIO_PROCESS, threading.get_native_id())) == here


def test_one_thread_per_core_by_default_and_no_more_than_the_cores_in_all() -> None:
    assert BackgroundPool(0, "idle").threads == usable_cores() >= 1
    # Each call on 2 engine threads: half as many calls at once (at least one).
    assert BackgroundPool(0, "idle", intra_op=2).threads == max(1, usable_cores() // 2)
    assert BackgroundPool(3, "idle", intra_op=2).threads == 3  # as set
