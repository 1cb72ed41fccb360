"""A real worker process whose extract jobs stall before storing, so a test can kill it mid-job.

It runs the product's worker entry point with a registry of its own, where `extract` is a handler that
announces the claim and then waits forever.
"""

from __future__ import annotations

import asyncio

from app.core.logging import configure_logging
from app.core.settings import Settings
from app.worker.context import JobContext, JobInfo
from app.worker.kinds import ExtractPayload, ExtractResult
from app.worker.process import run_worker_process
from app.worker.registry import Registry

jobs = Registry()


@jobs.job(ExtractPayload)
async def stalled_extraction(ctx: JobContext, job: JobInfo, payload: ExtractPayload) -> ExtractResult:
    print("claimed", flush=True)
    await asyncio.sleep(3600)
    return ExtractResult()


if __name__ == "__main__":
    settings = Settings()
    configure_logging(settings.log_format, settings.log_level)
    asyncio.run(run_worker_process(settings, jobs=jobs))
