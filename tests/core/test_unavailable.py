"""The database being away is a prompt 503 `unavailable` with Retry-After, never a 500, for every kind of
unavailability: refused, reset, starting up, shutting down, too many connections, a connection terminated
under the pool, the pool exhausted past its bounded wait. `/readyz` answers whatever the pool does.

The failures are real: a closed port, a tiny PostgreSQL-protocol server on loopback that answers the
startup packet with the server's own error, `pg_terminate_backend`, a pool whose one connection is held.
"""

from __future__ import annotations

import asyncio
import re
import struct
import time
from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from app.core.db import answer_reserve, create_engine, create_sessionmaker, wait_budget
from app.core.settings import Settings, to_async_url
from app.main import create_app
from app.ops.readiness import ReadinessProbe
from bench.harness import free_port
from tests.conftest import ADMIN_KEY, make_settings

SSL_REQUEST = 80877103
GSS_REQUEST = 80877104


def _error_response(sqlstate: str, message: str) -> bytes:
    fields = b"".join(
        code + value.encode() + b"\0"
        for code, value in ((b"S", "FATAL"), (b"V", "FATAL"), (b"C", sqlstate), (b"M", message))
    )
    body = fields + b"\0"
    return b"E" + struct.pack("!I", len(body) + 4) + body


class FakePostgres:
    """Speaks just enough of the PostgreSQL protocol to refuse a connection as a real server does."""

    def __init__(self, sqlstate: str | None, message: str = "") -> None:
        self.sqlstate = sqlstate  # None: accept, then drop the connection without a word
        self.message = message
        self.server: asyncio.Server | None = None

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            if self.sqlstate is None:
                return
            while True:
                length, code = struct.unpack("!II", await reader.readexactly(8))
                await reader.readexactly(length - 8)
                if code in (SSL_REQUEST, GSS_REQUEST):
                    writer.write(b"N")
                    await writer.drain()
                    continue
                writer.write(_error_response(self.sqlstate, self.message))
                await writer.drain()
                return
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        port = self.server.sockets[0].getsockname()[1]
        return f"postgresql+asyncpg://postgres@127.0.0.1:{port}/test"

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


@pytest.fixture(scope="module")
async def own_app(database_url: str) -> AsyncIterator[FastAPI]:
    """An app of this module's own, whose database tests may point elsewhere."""
    settings = make_settings(database_url, db_pool_timeout_seconds=0.3, db_connect_timeout_seconds=2.0)
    application = create_app(settings, run_worker=False)
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture
async def own_client(own_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    real = own_app.state.sessionmaker
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=own_app),
        base_url="http://test",
        headers={"Authorization": f"Bearer {ADMIN_KEY}"},
    ) as c:
        yield c
    own_app.state.sessionmaker = real


def _point_at(app: FastAPI, url: str, **overrides: object) -> AsyncEngine:
    settings: Settings = app.state.settings
    engine = create_engine(url, settings.model_copy(update=overrides))
    app.state.sessionmaker = create_sessionmaker(engine)
    return engine


def _assert_unavailable(response: httpx.Response) -> None:
    assert response.status_code == 503, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == "unavailable"
    assert int(response.headers["retry-after"]) > 0


PROFILE = "/v1/namespaces/nowhere/profiles/alice"


async def test_connection_refused_is_503(own_app: FastAPI, own_client: httpx.AsyncClient) -> None:
    port = free_port()
    engine = _point_at(own_app, f"postgresql+asyncpg://postgres@127.0.0.1:{port}/test")
    _assert_unavailable(await own_client.get(PROFILE))
    _assert_unavailable(await own_client.post("/v1/namespaces", json={"name": "refused"}))
    await engine.dispose()


@pytest.mark.parametrize(
    ("sqlstate", "message"),
    [
        ("57P03", "the database system is starting up"),
        ("57P03", "the database system is shutting down"),
        ("57P01", "terminating connection due to administrator command"),
        ("53300", "sorry, too many clients already"),
        (None, ""),  # accepted, then reset without a word
    ],
)
async def test_server_refusing_connections_is_503(
    own_app: FastAPI, own_client: httpx.AsyncClient, sqlstate: str | None, message: str
) -> None:
    fake = FakePostgres(sqlstate, message)
    engine = _point_at(own_app, await fake.start())
    try:
        _assert_unavailable(await own_client.get(PROFILE))
        _assert_unavailable(await own_client.put(PROFILE))
    finally:
        await engine.dispose()
        await fake.stop()


async def test_connection_terminated_under_the_pool_is_503_then_recovers(
    own_app: FastAPI, own_client: httpx.AsyncClient, database_url: str
) -> None:
    name = "am-test-terminated"
    engine = create_async_engine(
        to_async_url(database_url),
        pool_size=1,
        max_overflow=0,
        connect_args={"server_settings": {"application_name": name}},
    )
    own_app.state.sessionmaker = create_sessionmaker(engine)
    created = await own_client.put("/v1/namespaces/x/profiles/y")
    assert created.status_code == 404  # the pool's one connection is open (and idle) now
    async with create_async_engine(to_async_url(database_url)).connect() as admin:
        killed = await admin.execute(
            text("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = :n"),
            {"n": name},
        )
        assert killed.scalar_one() == 1
    _assert_unavailable(await own_client.get(PROFILE))
    # The pool dropped the dead connection: the next request gets a new one.
    assert (await own_client.get(PROFILE)).json()["code"] == "namespace_not_found"
    await engine.dispose()


async def test_connection_the_server_closed_is_replaced_at_checkout(
    own_app: FastAPI, own_client: httpx.AsyncClient, database_url: str
) -> None:
    """A database restart (or an idle timeout) closes pooled connections while they sit idle: the app's
    pool notices at checkout and takes a new one, so the first request afterwards is answered, not 503."""
    settings: Settings = own_app.state.settings
    engine = create_engine(
        to_async_url(database_url), settings.model_copy(update={"db_pool_size": 1, "db_max_overflow": 0})
    )
    own_app.state.sessionmaker = create_sessionmaker(engine)
    async with engine.connect() as conn:  # the pool's one connection, which the app's requests use too
        pid = (await conn.execute(text("SELECT pg_backend_pid()"))).scalar_one()
    assert (await own_client.get(PROFILE)).json()["code"] == "namespace_not_found"
    async with create_async_engine(to_async_url(database_url)).connect() as admin:
        killed = await admin.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        assert killed.scalar_one() is True
    await asyncio.sleep(0.05)  # the server's goodbye reaches the idle connection
    assert (await own_client.get(PROFILE)).json()["code"] == "namespace_not_found"
    await engine.dispose()


async def test_exhausted_pool_sheds_with_503_and_readyz_still_answers(
    own_app: FastAPI, own_client: httpx.AsyncClient, database_url: str
) -> None:
    engine = _point_at(own_app, to_async_url(database_url), db_pool_size=1, db_max_overflow=0)
    async with engine.connect() as held:  # the pool's only connection, busy
        await held.execute(text("SELECT 1"))
        _assert_unavailable(await own_client.get(PROFILE))
        ready = await own_client.get("/readyz")
        assert ready.status_code == 200 and ready.json()["status"] == "ready"
    assert (await own_client.get(PROFILE)).json()["code"] == "namespace_not_found"
    await engine.dispose()


async def test_a_key_read_from_the_database_needs_no_second_connection(
    own_app: FastAPI, own_client: httpx.AsyncClient, database_url: str
) -> None:
    """A key not in the cache is read on a connection of authentication's own, before the route's session
    takes one (a read-only route's too, recall): a pool of one connection still serves the request, where
    holding one while asking for another would wait out the bound and answer 503."""
    assert (await own_client.post("/v1/namespaces", json={"name": "onepool"})).status_code == 201
    minted = await own_client.post("/v1/namespaces/onepool/keys", json={"name": "agent"})
    key = minted.json()["key"]
    engine = _point_at(own_app, to_async_url(database_url), db_pool_size=1, db_max_overflow=0)
    try:
        for method, path, body in (
            ("POST", "/v1/namespaces/onepool/profiles/p/remember", {"content": "I like tea."}),
            ("POST", "/v1/namespaces/onepool/profiles/p/recall", {"query": "tea"}),
            ("GET", "/v1/namespaces/onepool/profiles/p/memories", None),
        ):
            own_app.state.key_cache.forget()  # every request reads its key from the database
            answer = await own_client.request(
                method, path, json=body, headers={"Authorization": f"Bearer {key}"}
            )
            assert answer.status_code in (200, 201), answer.text
    finally:
        await engine.dispose()


async def test_pool_wait_is_one_bound_per_request_not_per_checkout(
    own_app: FastAPI, database_url: str
) -> None:
    """A request that lets its connection go and takes one again (recall around embedding the query)
    waits the bound once in all: a checkout after the request's wait is spent does not wait again. The
    wait a checkout was given is read from the pool's error (no timers asserted)."""
    settings: Settings = own_app.state.settings
    engine = create_engine(
        to_async_url(database_url), settings.model_copy(update={"db_pool_size": 1, "db_max_overflow": 0})
    )
    bound = settings.db_pool_timeout_seconds
    try:
        with wait_budget(time.monotonic() - 60) as budget:  # the request's wait is spent
            async with engine.connect() as free:  # a free connection is still taken at once
                await free.execute(text("SELECT 1"))
            async with engine.connect() as held:
                await held.execute(text("SELECT 1"))
                with pytest.raises(PoolTimeout, match=r"timeout 0\.00"):
                    await engine.connect().start()
                # After an outside call (ReleaseDb) the next checkout's wait starts afresh: the bound,
                # less the time kept to answer within it.
                budget.since = None
                with pytest.raises(PoolTimeout) as waited:
                    await engine.connect().start()
                given = float(re.search(r"timeout (\d+\.\d+)", str(waited.value)).group(1))  # type: ignore[union-attr]
                # The pool prints the wait to two decimals: 0.285 less a few ns of float error may print 0.29.
                assert bound - answer_reserve(bound) - 0.01 <= given <= bound - answer_reserve(bound) + 0.005
        async with engine.connect() as held:  # outside a request (worker, CLI): the bound per checkout
            await held.execute(text("SELECT 1"))
            with pytest.raises(PoolTimeout, match=rf"timeout {bound:.2f}"):
                await engine.connect().start()
    finally:
        await engine.dispose()


async def test_readyz_is_503_when_the_database_is_away(
    own_app: FastAPI, own_client: httpx.AsyncClient
) -> None:
    fake = FakePostgres("57P03", "the database system is starting up")
    url = await fake.start()
    real = own_app.state.database_url
    own_app.state.database_url = url
    probe: ReadinessProbe = own_app.state.readiness
    try:
        await probe.check()  # what the background check does each second, now
        _assert_unavailable(await own_client.get("/readyz"))
    finally:
        own_app.state.database_url = real
        await fake.stop()
    await probe.check()
    assert (await own_client.get("/readyz")).status_code == 200


async def test_readyz_reads_the_background_checks_state_and_opens_no_connection(
    own_app: FastAPI, own_client: httpx.AsyncClient
) -> None:
    """Any number of probes cost nothing: with the background check paused, 400 concurrent /readyz all
    answer from its last finding, and no check (no connection) was made for them."""
    probe: ReadinessProbe = own_app.state.readiness
    await probe.stop()
    try:
        checks = probe.checks
        answers = await asyncio.gather(*(own_client.get("/readyz") for _ in range(400)))
        assert {a.status_code for a in answers} == {200}
        assert probe.checks == checks
    finally:
        await probe.start()


async def test_json_nested_too_deeply_is_422(client: httpx.AsyncClient) -> None:
    body = '{"name": ' + "[" * 5000 + "]" * 5000 + "}"
    response = await client.post("/v1/namespaces", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "validation_failed"
