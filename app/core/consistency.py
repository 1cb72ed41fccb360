"""Read-your-writes across read replicas: the consistency token, and the routing of reads that may lag.

With read replicas configured (`app.core.replicas`), every successful write answers the header
`Agent-Memory-Consistency`: an opaque token holding the primary's WAL position once the write committed.
A client that sends its latest token back on a read is served by a replica that has replayed at least that
far, or by the primary; so a recall right after a remember finds the memory without pinning every read to
the primary. A read without a token may be served by any replica within the lag bound.

Which routes may be served by a replica is said where the route is declared (`dependencies=[ReplicaRead]`):
recall, list and get of memories, the summary, session reads, export. Everything else (writes, keys,
jobs, and reads that store something on the way, such as a session's frozen system prompt) uses the
primary. Without replicas nothing here costs a round trip, and no token is sent: every read is then the
primary's, which has every write.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.db import driver_connection
from app.core.replicas import READ_ROUTING, ReplicaSet
from app.core.unavailable import database_unavailable

logger = logging.getLogger("agent_memory.consistency")

HEADER = "Agent-Memory-Consistency"
_HEADER_KEY = HEADER.lower().encode()
# "v1." then the WAL position in hexadecimal. Clients treat it as opaque: the version lets its form change.
_TOKEN = re.compile(r"v1\.([0-9a-f]{1,16})")
# A position no replica has replayed: what an unreadable token stands for, so its read goes to the primary.
_UNKNOWN = 1 << 64
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# The insert position, not the flushed one: at least the end of this request's commit record whatever
# synchronous_commit says (a replica reaches it once it is flushed and sent).
_POSITION = "SELECT (pg_current_wal_insert_lsn() - '0/0')::bigint"


def encode(position: int) -> str:
    return f"v1.{position:x}"


def decode(token: str) -> int:
    """The WAL position a token holds; a token this server cannot read (malformed, or of a later version)
    stands for a position no replica has reached, so the read it comes with is the primary's."""
    match = _TOKEN.fullmatch(token.strip())
    return int(match.group(1), 16) if match else _UNKNOWN


@dataclass
class _RequestConsistency:
    written_at: int | None  # the token the client sent, decoded; None: it sent none
    read_only: bool = False  # the route is declared a read that may lag (it gets no token back)


_current: ContextVar[_RequestConsistency | None] = ContextVar("request_consistency", default=None)


async def primary_position(engine: AsyncEngine) -> int:
    async with driver_connection(engine) as conn:
        position: int = await conn.fetchval(_POSITION)
    return position


class PositionReader:
    """The primary's WAL position for the tokens of concurrent writes, read once for many of them.

    A read sent after a write committed is at or past its commit; one already in flight when the write
    finished may not be. So a write that finds a read in flight waits for the next one, which starts when
    that one ends and serves every write that arrived meanwhile: under load, one statement per round trip
    rather than one per write."""

    def __init__(
        self, engine: AsyncEngine, read: Callable[[AsyncEngine], Awaitable[int]] = primary_position
    ) -> None:
        self.engine = engine
        self.read = read
        self._current: asyncio.Future[int] | None = None
        self._next: asyncio.Future[int] | None = None

    async def position(self) -> int:
        if self._current is None:
            self._current = self._start()
            return await asyncio.shield(self._current)
        if self._next is None:
            self._next = asyncio.get_running_loop().create_future()
        return await asyncio.shield(self._next)

    def _start(self) -> asyncio.Future[int]:
        read = asyncio.ensure_future(self.read(self.engine))
        read.add_done_callback(self._finished)
        return read

    def _finished(self, read: asyncio.Future[int]) -> None:
        if not read.cancelled():
            read.exception()  # retrieved here: the writers that awaited it saw it already
        waiting, self._next = self._next, None
        if waiting is None:
            self._current = None
            return
        self._current = self._start()
        self._current.add_done_callback(lambda done: _settle(waiting, done))


def _settle(waiting: asyncio.Future[int], done: asyncio.Future[int]) -> None:
    if waiting.done():
        return
    if done.cancelled():
        waiting.cancel()
    elif done.exception() is not None:
        waiting.set_exception(done.exception())  # type: ignore[arg-type]
    else:
        waiting.set_result(done.result())


class ConsistencyMiddleware:
    """Reads the token a request carries; answers every successful write with a fresh one."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._readers: dict[AsyncEngine, PositionReader] = {}  # by primary engine (one per app's life)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        state = scope["app"].state if "app" in scope else None
        replicas: ReplicaSet | None = getattr(state, "replicas", None)
        if scope["type"] != "http" or replicas is None:
            await self.app(scope, receive, send)
            return
        sent = next((v for k, v in scope.get("headers") or [] if k == _HEADER_KEY), None)
        current = _RequestConsistency(decode(sent.decode("latin-1")) if sent is not None else None)
        reset = _current.set(current)
        writes = scope["method"] not in _SAFE_METHODS
        reader = self._readers.get(replicas.primary)
        if reader is None:
            self._readers = {replicas.primary: (reader := PositionReader(replicas.primary))}

        async def send_with_token(message: Message) -> None:
            if (
                message["type"] == "http.response.start"
                and writes
                and not current.read_only
                and message["status"] < 400
            ):
                # Sent after the request's unit of work committed (its session commits before the answer
                # starts), so the position read now is at or past its commit.
                try:
                    token = encode(await reader.position())
                except Exception as exc:
                    # Committed all the same: the answer stands; the client's next read carries its
                    # previous token and may miss this write on a replica within the lag bound.
                    logger.warning("no consistency token for this write: %s", exc)
                else:
                    message["headers"] = [*message.get("headers", []), (_HEADER_KEY, token.encode())]
            await send(message)

        try:
            await self.app(scope, receive, send_with_token)
        finally:
            _current.reset(reset)


async def _route_read(request: Request) -> None:
    """Choose the database of a read that may lag, before the route's session is made (`get_db` takes it
    from here); with no replica usable, the primary."""
    current = _current.get()
    if current is not None:
        current.read_only = True
    replicas: ReplicaSet | None = getattr(request.app.state, "replicas", None)
    if replicas is None:
        return
    engine, reason = replicas.choose(current.written_at if current is not None else None)
    if engine is not replicas.primary:
        try:
            # A checkout finds a replica that went away since its last check (its pooled connections
            # closed, a new one refused) before the route's statements would, and the read goes to the
            # primary instead of failing.
            async with engine.connect():
                pass
        except Exception as exc:
            if not database_unavailable(exc):
                raise
            replicas.replica_failed(engine, exc)
            engine, reason = replicas.primary, "replica_down"
    READ_ROUTING.labels("replica" if engine is not replicas.primary else "primary", reason).inc()
    if engine is not replicas.primary:
        request.state.read_engine = engine
        request.state.read_sessionmaker = replicas.sessionmaker(engine)


ReplicaRead: Any = Depends(_route_read)
"""`dependencies=[ReplicaRead]` on a route: its reads may be served by a replica (see the module)."""


def read_engine(request: Request) -> AsyncEngine:
    """The engine a `ReplicaRead` route reads on outside its session (recall, export)."""
    engine: AsyncEngine = getattr(request.state, "read_engine", None) or request.app.state.engine
    return engine
