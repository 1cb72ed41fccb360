"""The collector and a long-running process: what startup built is moved out of the collector's reach.

A process that has imported FastAPI, pydantic, SQLAlchemy and the routes holds some 200,000 tracked
objects that live as long as it does. Every full (oldest-generation) collection scanned them all: one took
250–300 ms on the two-core bench machine, and showed as a /healthz stall while the worker child
extracted. `gc.freeze()` after startup leaves them out of every later collection, so a full collection
only scans what requests and jobs created since.
"""

from __future__ import annotations

import gc

_frozen = False


def freeze_startup_objects() -> None:
    """Collect once, then freeze what survives. Once per process: apps created later (tests create many)
    keep their objects collectable."""
    global _frozen
    if _frozen:
        return
    _frozen = True
    gc.collect()
    gc.freeze()
