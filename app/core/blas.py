"""BLAS threads: one per process, raised only around the work that asks for more.

numpy's OpenBLAS starts a thread per core and, after each parallel call, keeps them spinning a while. The
matrix products of a recall (`app.recall.related_words`) are small, and on a small machine those spinning
threads take the CPU from PostgreSQL and the other requests: at 1M memories and 32 connections, 4 runs each
interleaved, recall answered 176–219 requests/s (median 192) with a thread per core and 203–213 (median
210) with one; callgrind, which runs threads one at a time, counted 270M → 13M instructions a recall.
The local embedder's forward pass takes `AGENT_MEMORY_EMBEDDINGS_THREADS` (`blas_threads` around it).
"""

from __future__ import annotations

from contextlib import AbstractContextManager

from threadpoolctl import threadpool_limits


def one_blas_thread() -> None:
    """Limit every BLAS library loaded in this process to one thread, from now on (a process's start)."""
    threadpool_limits(limits=1, user_api="blas")


def blas_threads(threads: int) -> AbstractContextManager[object]:
    """Within: BLAS may use `threads` threads (back to what it was after)."""
    limits: AbstractContextManager[object] = threadpool_limits(limits=threads, user_api="blas")
    return limits
