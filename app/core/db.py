"""Database engine and the request's unit of work: one AsyncSession per request, committed by its dependency.

The pool's wait and a new connection's handshake are bounded by settings, so a saturated or restarting
database fails a request within seconds (503, see `app.core.unavailable`) instead of half a minute. The
pool's wait is a budget per request, not per checkout: a request that checks out twice (recall lets its
connection go while the query is embedded, then takes one again) waits for connections at most the bound
in all, counted from when the request arrived (its time queued behind other requests on a busy event
loop included) and ending a little before it (`answer_reserve`), so a saturated pool has answered it 503
within the bound. Also the
one database limit a client can reach with text of an allowed size: a full-text index entry (`tsvector`)
over 1 MiB, turned into a 422 where such text is written.
"""

from __future__ import annotations

import functools
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Annotated, Any

import asyncpg
from asyncpg.exceptions._base import InternalClientError
from fastapi import Depends, Request
from sqlalchemy import event, text
from sqlalchemy.dialects.postgresql.asyncpg import PGDialect_asyncpg
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.pool import AsyncAdaptedQueuePool, ConnectionPoolEntry, QueuePool

from app.core.errors import ValidationFailed
from app.core.settings import Settings
from app.core.unavailable import database_unavailable

__all__ = [
    "DbSession",
    "Reads",
    "ReleaseDb",
    "database_unavailable",
    "driver_connection",
    "driver_fetch",
    "indexed_text_fits",
    "read_connection",
]

# SQLSTATE program_limit_exceeded: here "string is too long for tsvector" (the index of one text > 1 MiB).
PROGRAM_LIMIT_EXCEEDED = "54000"


class TextTooLarge(ValidationFailed):
    def __init__(self, loc: list[str | int]) -> None:
        detail = "text too large to index for search: its full-text index would pass PostgreSQL's 1 MiB limit"
        super().__init__(detail, [{"loc": loc, "msg": detail}], code="text_too_large")


@contextmanager
def indexed_text_fits(loc: list[str | int]) -> Iterator[None]:
    """Around a write of full-text indexed text: the index's size cannot be told from the text's length
    (hyphenated words index several times), so PostgreSQL's own refusal is what tells it is too large."""
    try:
        yield
    except DBAPIError as exc:
        if getattr(exc.orig, "sqlstate", None) == PROGRAM_LIMIT_EXCEEDED:
            raise TextTooLarge(loc) from exc
        raise
    except asyncpg.PostgresError as exc:  # a statement run on the driver's connection (`driver_connection`)
        if getattr(exc, "sqlstate", None) == PROGRAM_LIMIT_EXCEEDED:
            raise TextTooLarge(loc) from exc
        raise


@dataclass
class WaitBudget:
    """The current unit of work's time for waiting on pooled connections: the pool's bound, counted from
    `since` (monotonic seconds); None: the count starts afresh at the next checkout."""

    since: float | None


# Set by `get_db` for the request's unit of work; a checkout outside one counts from the request's arrival
# (`request_received_var`), or, outside a request (the worker, the CLI), waits the plain bound.
_wait_budget: ContextVar[WaitBudget | None] = ContextVar("db_wait_budget", default=None)
# When the request reached the app (monotonic), set by `app.core.middleware.RequestContextMiddleware`.
request_received_var: ContextVar[float | None] = ContextVar("request_received", default=None)


@contextmanager
def wait_budget(since: float | None) -> Iterator[WaitBudget]:
    """Within: every checkout from a `RequestBoundedPool` shares one wait, the pool's bound from `since`."""
    budget = WaitBudget(since)
    token = _wait_budget.set(budget)
    try:
        yield budget
    finally:
        _wait_budget.reset(token)


def answer_reserve(bound: float) -> float:
    """How much earlier than the bound a request stops waiting for a connection, so that its 503 is also
    answered within the bound: when a saturated pool sheds a burst, every request of it times out at
    once and their answers go out one after another (measured: 112 answers ≈ 50 ms)."""
    return min(0.1, 0.05 * bound)


class RequestBoundedPool(AsyncAdaptedQueuePool):
    """The async queue pool, its wait (`timeout`, the bound) shared by the checkouts of a unit of work.

    `QueuePool._do_get` reads `_timeout` for its wait at once, before it can yield to another request
    (all of them share one event loop), so setting it just before is setting it for this checkout."""

    def __init__(self, creator: Any, *, timeout: float = 30.0, **kw: Any) -> None:
        super().__init__(creator, timeout=timeout, **kw)
        self.bound = timeout

    def recreate(self) -> QueuePool:
        self._timeout = self.bound  # what `recreate` passes on is the bound, not the last checkout's wait
        return super().recreate()

    def _do_get(self) -> ConnectionPoolEntry:
        now = time.monotonic()
        budget = _wait_budget.get()
        if budget is None:
            # Outside a unit of work: a request's own checkouts (authentication's read, remember's one
            # statement) still count from its arrival; the worker's and the CLI's each wait the bound.
            since = request_received_var.get()
        else:
            if budget.since is None:
                budget.since = now
            since = budget.since
        # Zero still takes a connection that is free at once; it only refuses to wait for one.
        self._timeout = (
            self.bound if since is None else max(0.0, since + self.bound - answer_reserve(self.bound) - now)
        )
        return super()._do_get()


def _drop_closed_connection(dbapi_connection: Any, record: ConnectionPoolEntry, proxy: Any) -> None:
    """At checkout: a pooled connection the server has closed (a restart, an idle timeout, a terminated
    backend) is replaced before the request uses it, so a request after a database restart is not the
    one that finds out. asyncpg knows without a round trip: the server's goodbye, or the socket's end,
    already closed it. (A connection that died silently still fails its request with 503, as without
    pings; the pool then drops it.)"""
    if dbapi_connection.driver_connection.is_closed():
        raise DisconnectionError("the server closed this pooled connection")  # the pool takes another


def _pooler_args(settings: Settings) -> dict[str, Any]:
    """Behind a pooler in transaction mode, consecutive transactions of one connection may run on different
    server connections: a prepared statement cached on one would be missing on the next, and two clients'
    statements named alike (`__asyncpg_stmt_1__`) would collide on one. So nothing is cached, SQLAlchemy's
    statements get names no other can take, and asyncpg's own are unnamed (parsed and run in one exchange)."""
    if not settings.db_transaction_pooler:
        return {}
    return {
        "statement_cache_size": 0,
        "prepared_statement_cache_size": 0,
        "prepared_statement_name_func": lambda: f"__am_{uuid.uuid4().hex}__",
    }


def create_engine(url: str, settings: Settings) -> AsyncEngine:
    engine = create_async_engine(
        url,
        poolclass=RequestBoundedPool,
        # Every connection the pool opens is kept (up to pool size + overflow), none closed when a burst
        # ends: SQLAlchemy closes an overflow connection on return whenever `pool_size` sit idle, and
        # under load that meant a reconnect (TCP, SSL attempt, auth, the driver's setup queries, every
        # statement prepared again) for a good share of requests.
        pool_size=settings.db_pool_size + settings.db_max_overflow,
        max_overflow=0,
        # A saturated pool sheds load: past this wait a request answers 503 instead of queueing for 30 s.
        pool_timeout=settings.db_pool_timeout_seconds,
        # A server that accepts TCP but never finishes the handshake (starting up, overloaded) fails
        # the request within this bound rather than asyncpg's default minute.
        connect_args={"timeout": settings.db_connect_timeout_seconds, **_pooler_args(settings)},
        # No ping before every checkout (a round trip per request): a connection the server closed is
        # replaced at checkout without one (`_drop_closed_connection`), one that died silently fails its
        # request with 503 and the pool drops it; recycling keeps idle connections from going stale.
        pool_pre_ping=False,
        pool_recycle=1800,
        # A failed statement's error (and so the ERROR log line) names the statement, never its values:
        # they are clients' data (metadata, content).
        hide_parameters=True,
    )
    event.listen(engine.sync_engine.pool, "checkout", _drop_closed_connection)
    return engine


# Where a hot path's reads go (`driver_fetch`): the request's session, or a connection of its own
# (`read_connection`).
Reads = AsyncSession | AsyncConnection


@functools.lru_cache(maxsize=8)
def _autocommit(engine: AsyncEngine) -> AsyncEngine:
    return engine.execution_options(isolation_level="AUTOCOMMIT")


@asynccontextmanager
async def read_connection(engine: AsyncEngine) -> AsyncIterator[AsyncConnection]:
    """A pooled connection in autocommit for a request that only reads: each statement runs on its own
    snapshot, with no BEGIN and COMMIT round trips, and no session to begin and commit (recall's hot path:
    measured ≈ 0.6–1 ms of CPU less a recall than the request's session). Only for reads that need not
    agree with each other to the row. The connection is checked out until the block ends."""
    async with _autocommit(engine).connect() as conn:
        yield conn


@asynccontextmanager
async def driver_connection(engine: AsyncEngine) -> AsyncIterator[Any]:
    """A pooled connection's own asyncpg connection, for a hot path that is one autocommit statement.

    No BEGIN/COMMIT round trips and no SQLAlchemy statement processing: what remember needs to stay near
    a raw INSERT's cost. The statement is its own unit of work (it commits on its own); anything that must
    be atomic with it runs inside `conn.transaction()`. Typed `Any` because asyncpg ships no type hints for
    its connection's methods.
    """
    async with engine.connect() as conn:
        driver = await _driver(conn)
        async with _dropped_if_closed(conn, driver):
            yield driver


@asynccontextmanager
async def _dropped_if_closed(conn: AsyncConnection, driver: Any) -> AsyncIterator[None]:
    """Around statements sent to the driver's connection itself: SQLAlchemy never sees their errors, so
    when one finds the connection gone (the server restarted, the backend was terminated) the pooled
    connection is invalidated here, or the pool would hand the dead connection out again."""
    try:
        yield
    except InternalClientError as exc:  # its protocol lost track (an error from a backend that is going)
        await conn.invalidate(exc)
        raise
    except (OSError, asyncpg.InterfaceError, asyncpg.PostgresError) as exc:
        if driver.is_closed():
            await conn.invalidate(exc)
        raise


async def _driver(conn: AsyncConnection) -> Any:
    raw = await conn.get_raw_connection()
    return raw.driver_connection


@dataclass(frozen=True)
class _Compiled:
    sql: str  # in asyncpg's form ($1, $2…)
    names: tuple[str, ...]  # the parameter of each position


# The dialect the engine uses (asyncpg), for compiling to its positional form; its class is unannotated.
_DIALECT = PGDialect_asyncpg()  # type: ignore[no-untyped-call]


@functools.lru_cache(maxsize=256)
def _compiled(sql: str) -> _Compiled:
    # Parsing the bind parameters out of a long statement costs milliseconds (recall's ≈ 2 ms); a hot
    # path's variants are few, so each is parsed once.
    compiled = text(sql).compile(dialect=_DIALECT)
    return _Compiled(compiled.string, tuple(compiled.positiontup or ()))


async def driver_fetch(
    db: Reads, sql: str, params: dict[str, Any], timeout: float | None = None
) -> list[Any]:
    """Run a hot path's statement (`:name` parameters) on the asyncpg connection under `db` (a session or
    a connection): the rows come straight from the driver, without SQLAlchemy's statement and row
    processing (measured on recall: 1.5–2 ms less a request, 10 % more throughput). Meant for reads in
    autocommit (`read_connection`): SQLAlchemy's asyncpg adapter sends BEGIN lazily, with its own first
    statement, so in a transaction that has not run one yet, a statement sent here would run outside it.
    Past `timeout` seconds the driver cancels the statement and raises TimeoutError (the database is
    unavailable: 503)."""
    compiled = _compiled(sql)
    conn = db if isinstance(db, AsyncConnection) else await db.connection()
    driver = await _driver(conn)
    async with _dropped_if_closed(conn, driver):
        rows: list[Any] = await driver.fetch(
            compiled.sql, *[params[name] for name in compiled.names], timeout=timeout
        )
    return rows


def create_sessionmaker(
    engine: AsyncEngine, quotas: object | None = None
) -> async_sessionmaker[AsyncSession]:
    """Sessions of the engine; `quotas` (the process's `core.quotas.QuotaBook`) rides on each as
    `session.info["quotas"]`, so whatever writes finds the namespace's limits."""
    if quotas is None:
        return async_sessionmaker(engine, expire_on_commit=False)
    return async_sessionmaker(engine, expire_on_commit=False, info={"quotas": quotas})


async def get_db(request: Request) -> AsyncIterator[AsyncSession]:
    """The request's unit of work: committed before the response is sent, rolled back on any error."""
    # A read that may lag was routed to a replica (`app.core.consistency.ReplicaRead`); else the primary.
    maker: async_sessionmaker[AsyncSession] = (
        getattr(request.state, "read_sessionmaker", None) or request.app.state.sessionmaker
    )
    with wait_budget(request_received_var.get() or time.monotonic()):
        # The session takes its connection at its first statement, not here: nothing holds a connection
        # while the route's other dependencies run (authentication may check a key out of the cache on a
        # connection of its own).
        session = maker()
        try:
            try:
                yield session
                # A session that never began a transaction holds no connection and nothing to write:
                # the hot paths that send their statement on the driver's own connection (remember) and
                # a key found in the cache leave it unused, and its commit and close would cost them
                # ≈ 80 µs of CPU a request (each a greenlet round and a shielded task).
                if session.in_transaction():
                    await session.commit()
            except BaseException:
                if session.in_transaction():
                    await session.rollback()
                raise
        finally:
            if session.in_transaction() or session.identity_map:
                await session.close()


# scope="function": the commit happens before the response is sent, so a 2xx means committed.
DbSession = Annotated[AsyncSession, Depends(get_db, scope="function")]


async def release(db: AsyncSession) -> None:
    """End the database part of the request's unit of work before an outside (LLM) call.

    Commits what the request did so far and returns the connection to the pool, so the slow call that
    follows holds none. The request's session stays usable: a later statement starts a new transaction,
    committed (or rolled back) by `get_db` as usual.
    """
    await db.commit()
    # What follows is an outside call of its own length: a later checkout waits the full bound again.
    budget = _wait_budget.get()
    if budget is not None:
        budget.since = None


async def get_release(db: DbSession) -> Callable[[], Awaitable[None]]:
    """`release` of the request's session, as a route parameter (`ReleaseDb`)."""
    return functools.partial(release, db)


ReleaseDb = Annotated[Callable[[], Awaitable[None]], Depends(get_release)]
