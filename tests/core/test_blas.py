"""BLAS runs on one thread in the API process (app.core.blas): its spinning threads took CPU from
PostgreSQL and the other requests."""

from __future__ import annotations

from fastapi import FastAPI
from threadpoolctl import threadpool_info

from app.core.blas import blas_threads


def _blas_threads() -> set[int]:
    return {pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"}


async def test_the_api_process_runs_blas_on_one_thread(app: FastAPI) -> None:
    # numpy is loaded by recall's related words, so its OpenBLAS is there to be limited.
    assert _blas_threads() == {1}
    with blas_threads(2):  # the local embedder's forward pass takes the threads it is configured with
        assert _blas_threads() == {2}
    assert _blas_threads() == {1}
