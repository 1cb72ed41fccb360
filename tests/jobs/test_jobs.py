"""A profile's jobs over HTTP: the newest-first list with its status filter and cursor, and retrying a
failed job (only a failed one; scoped to the profile's namespace)."""

from __future__ import annotations

from typing import Any, ClassVar

import httpx
from sqlalchemy import text

from app.core.settings import Settings
from app.worker.context import JobContext, JobInfo
from app.worker.kinds import JobPayload, JobResult
from app.worker.queue import enqueue
from app.worker.registry import registry
from app.worker.runner import Worker

# Tags whose job fails; a retried job succeeds once its tag is taken out.
FAILING: set[str] = set()


class FlakyPayload(JobPayload):
    kind: ClassVar[str] = "test_flaky"
    tag: str


@registry.job(FlakyPayload)
async def flaky(ctx: JobContext, job: JobInfo, payload: FlakyPayload) -> JobResult:
    if payload.tag in FAILING:
        raise RuntimeError(f"the upstream refused ({payload.tag})")
    return JobResult()


async def _profile_id(app: Any, ns: str, profile: str) -> int:
    async with app.state.sessionmaker() as db:
        row = await db.execute(
            text(
                "SELECT p.id FROM profiles p JOIN namespaces n ON n.id = p.namespace_id "
                "WHERE n.name = :ns AND p.name = :p AND p.deleted_at IS NULL AND n.deleted_at IS NULL"
            ),
            {"ns": ns, "p": profile},
        )
        return int(row.scalar_one())


async def _failed_job(
    app: Any, settings: Settings, profile_id: int, tag: str, dedupe: str | None = None
) -> str:
    FAILING.add(tag)
    async with app.state.sessionmaker() as db:
        job_id = await enqueue(
            db, FlakyPayload(tag=tag), profile_id=profile_id, max_attempts=1, dedupe_key=dedupe
        )
        await db.commit()
    await _drain(app, settings)
    return job_id


async def _drain(app: Any, settings: Settings) -> None:
    worker = Worker(settings, app.state.sessionmaker, settings.database_url or "", name="jobs-test")
    await worker.drain()
    await worker.stop()


async def test_list_filter_page_and_retry(
    app: Any, settings: Settings, client: httpx.AsyncClient, ns: str, profile_url: str
) -> None:
    ingested = await client.post(
        f"{profile_url}/ingest", json={"messages": [{"role": "user", "content": "I grow tomatoes."}]}
    )
    extraction = ingested.json()["jobId"]
    await _drain(app, settings)
    failed = await _failed_job(app, settings, await _profile_id(app, ns, "alice"), "one")

    listed = (await client.get(f"{profile_url}/jobs")).json()
    assert [j["id"] for j in listed["jobs"]] == [failed, extraction] and "cursor" not in listed
    assert listed["jobs"][1]["status"] == "done" and listed["jobs"][1]["memoriesCreated"] == 1
    only_failed = (await client.get(f"{profile_url}/jobs", params={"status": "failed"})).json()["jobs"]
    assert [j["id"] for j in only_failed] == [failed]
    assert only_failed[0]["error"] and "the upstream refused (one)" in only_failed[0]["error"]
    first = (await client.get(f"{profile_url}/jobs", params={"limit": 1})).json()
    second = (await client.get(f"{profile_url}/jobs", params={"limit": 1, "cursor": first["cursor"]})).json()
    assert [j["id"] for j in first["jobs"] + second["jobs"]] == [failed, extraction]

    # Retry: a failed job is queued again from its first attempt; then it runs and is done.
    retried = await client.post(f"{profile_url}/jobs/{failed}/retry")
    assert retried.status_code == 200
    assert retried.json()["status"] == "queued" and retried.json()["attempts"] == 0
    again = await client.post(f"{profile_url}/jobs/{failed}/retry")
    assert again.status_code == 409 and again.json()["code"] == "job_not_failed"
    FAILING.discard("one")
    await _drain(app, settings)
    done = (await client.get(f"{profile_url}/jobs/{failed}")).json()
    assert done["status"] == "done" and done["attempts"] == 1 and done.get("error") is None
    done_twice = await client.post(f"{profile_url}/jobs/{extraction}/retry")
    assert done_twice.status_code == 409

    unknown = await client.post(f"{profile_url}/jobs/01NOSUCHJOB0000000000000000/retry")
    assert unknown.status_code == 404 and unknown.json()["code"] == "job_not_found"


async def test_retry_beside_a_queued_job_of_the_same_scope(
    app: Any, settings: Settings, client: httpx.AsyncClient, ns: str, profile_url: str
) -> None:
    """A failed job's dedupe key may be held by a newer queued job of its scope: the retry still queues it."""
    await client.put(profile_url)
    profile_id = await _profile_id(app, ns, "alice")
    failed = await _failed_job(app, settings, profile_id, "scoped", dedupe=f"test_flaky:{profile_id}")
    async with app.state.sessionmaker() as db:
        newer = await enqueue(
            db, FlakyPayload(tag="newer"), profile_id=profile_id, dedupe_key=f"test_flaky:{profile_id}"
        )
        await db.commit()
    retried = await client.post(f"{profile_url}/jobs/{failed}/retry")
    assert retried.status_code == 200 and retried.json()["status"] == "queued"
    queued = (await client.get(f"{profile_url}/jobs", params={"status": "queued"})).json()["jobs"]
    assert {j["id"] for j in queued} == {failed, newer}
    FAILING.discard("scoped")
    await _drain(app, settings)


async def test_jobs_are_namespace_scoped(
    app: Any,
    settings: Settings,
    client: httpx.AsyncClient,
    anon: httpx.AsyncClient,
    ns: str,
    profile_url: str,
) -> None:
    await client.put(profile_url)
    failed = await _failed_job(app, settings, await _profile_id(app, ns, "alice"), "scope")
    other = (await client.post("/v1/namespaces", json={"name": ns + "-o"})).json()["name"]
    key = (await client.post(f"/v1/namespaces/{other}/keys", json={"name": "k"})).json()["key"]
    auth = {"Authorization": f"Bearer {key}"}
    assert (await anon.get(f"{profile_url}/jobs", headers=auth)).status_code == 404
    refused = await anon.post(f"{profile_url}/jobs/{failed}/retry", headers=auth)
    assert refused.status_code == 404
    still = (await client.get(f"{profile_url}/jobs/{failed}")).json()
    assert still["status"] == "failed"
    FAILING.discard("scope")
