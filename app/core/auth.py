"""Bearer API keys (`amk_<keyId>_<secret>`, SHA-256 at rest): parsing, minting and the request's principal.

A key is admin (namespace NULL) or scoped to one namespace, with a scope there: read, write or admin of the
namespace (`app.core.scopes`; every REST route's principal is checked against what its operation needs). With no admin key configured the server runs
open, which `serve` allows only on a loopback bind: a request without a key, or with any bearer token that
is not a live key (generated SDK clients always send one), then acts as admin, while a live key is still
honoured, so scoped keys behave the same in both modes. Open mode ends, without a restart, once an admin
key exists: `OpenMode` asks the database again at most every `KEY_CACHE_SECONDS`.

Several API processes (`serve --workers N`) each cache verified keys; a revocation (or a namespace's
deletion) is announced with NOTIFY, and every process's `KeyChangeListener` drops that key at once. While
a process's listener is not connected, its cache is not trusted: every key is checked in the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Annotated, Any, cast

import asyncpg
from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.ext.asyncio import AsyncSession

from app.core import keys
from app.core.errors import Forbidden, Unauthorized
from app.core.refusals import AUTH_REFUSED, AuthRefusals
from app.core.scopes import Scope, allows, needed

logger = logging.getLogger("agent_memory.auth")

KEY_PREFIX = "amk"


@dataclass(frozen=True)
class Principal:
    key_id: str | None
    namespace_id: int | None  # None: admin
    scope: Scope = "admin"  # of its namespace (app.core.scopes); a server admin key may do everything

    @property
    def is_admin(self) -> bool:
        return self.namespace_id is None

    def require_admin(self) -> None:
        if not self.is_admin:
            raise Forbidden("this operation needs an admin key", code="forbidden")

    def require(self, need: Scope, what: str) -> None:
        """403 unless this key's scope allows `need` (a server admin key allows everything)."""
        if not self.is_admin and not allows(self.scope, need):
            raise Forbidden(f"{what} needs a key with the {need} scope; this key's scope is {self.scope}")


ADMIN = Principal(key_id=None, namespace_id=None)


@dataclass(frozen=True)
class MintedKey:
    key_id: str
    secret: str
    secret_sha256: bytes

    @property
    def token(self) -> str:
        return f"{KEY_PREFIX}_{self.key_id}_{self.secret}"


def hash_secret(secret: str) -> bytes:
    return hashlib.sha256(secret.encode()).digest()


def mint_key() -> MintedKey:
    key_id = secrets.token_hex(6)
    secret = secrets.token_hex(24)
    return MintedKey(key_id, secret, hash_secret(secret))


# What an unknown key id's secret is compared with: the hash of no secret any key has.
_NO_KEY_SHA256 = hash_secret(secrets.token_hex(24))


def parse_key(token: str) -> tuple[str, str] | None:
    parts = token.split("_")
    if len(parts) != 3 or parts[0] != KEY_PREFIX or not parts[1] or not parts[2]:
        return None
    return parts[1], parts[2]


# How long a verified key is trusted without asking the database again. Revoking a key or deleting its
# namespace clears it here at once, and in other API processes when the NOTIFY reaches them (at commit);
# this bound is for what a notification cannot cover (one lost with a connection that then recovered).
KEY_CACHE_SECONDS = 5.0


@dataclass
class KeyCache:
    """Verified keys of this process: key id → (secret hash, namespace id, expiry on the monotonic clock);
    and keys refused lately, answered 401 again without a lookup for `ttl` seconds.

    `trusted` is False until this process listens for key changes (and whenever it stops listening): the
    cache then answers nothing, so each request checks its key in the database. An expired entry is kept
    (replaced at the next verification): it says the process verified that key before
    (`verified_before`), which spares it the bounds on made-up keys (`app.core.refusals`)."""

    ttl: float = KEY_CACHE_SECONDS
    entries: dict[str, tuple[bytes, int | None, Scope, float]] = field(default_factory=dict)
    unknown: dict[str, float] = field(default_factory=dict)  # key id + secret hash → refused until
    trusted: bool = False

    def get(self, key_id: str) -> tuple[bytes, int | None, Scope] | None:
        if not self.trusted:
            return None
        entry = self.entries.get(key_id)
        if entry is None or entry[3] < time.monotonic():
            return None
        return entry[0], entry[1], entry[2]

    def verified_before(self, key_id: str) -> bool:
        return key_id in self.entries

    def put(self, key_id: str, secret_sha256: bytes, namespace_id: int | None, scope: Scope) -> None:
        if len(self.entries) > 10_000:  # bounded: forget everything rather than grow without limit
            self.entries.clear()
        self.entries[key_id] = (secret_sha256, namespace_id, scope, time.monotonic() + self.ttl)

    def refused_lately(self, key_id: str, secret_sha256: bytes) -> bool:
        """This very key (id and secret) was refused less than `ttl` ago. Trusted only while key changes
        are heard (a key made since is announced: `forget`). Keyed by the whole key, not its id, so that a
        wrong secret of a real id and an unknown id still cost the same (no timing tells them apart)."""
        until = self.unknown.get(key_id + secret_sha256.hex())
        if until is None or not self.trusted:
            return False
        if until < time.monotonic():
            del self.unknown[key_id + secret_sha256.hex()]
            return False
        return True

    def refused(self, key_id: str, secret_sha256: bytes) -> None:
        if len(self.unknown) > 10_000:
            self.unknown.clear()
        self.unknown[key_id + secret_sha256.hex()] = time.monotonic() + self.ttl

    def forget(self, key_id: str | None = None) -> None:
        """Drop one key, or every key (a namespace was deleted); and every key refused lately (a key
        changed: rare, and any refused one may be it)."""
        self.unknown.clear()
        if key_id is None:
            self.entries.clear()
        else:
            self.entries.pop(key_id, None)


# Reconnecting the listener: from this delay, doubling up to the cap.
LISTEN_RETRY_SECONDS = 0.5
LISTEN_RETRY_MAX_SECONDS = 10.0


class KeyChangeListener:
    """LISTENs for key changes on a connection of its own and applies them to this process's cache."""

    def __init__(self, database_url: str, cache: KeyCache, open_mode: OpenMode) -> None:
        self.database_url = database_url
        self.cache = cache
        self.open_mode = open_mode
        self.connected = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._conn: Any = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="key-change-listener")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self.cache.trusted = False

    def _on_change(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        if payload == keys.ADMIN_KEY_EXISTS:
            self.open_mode.end()
        elif payload == keys.EVERY_KEY:
            self.cache.forget()
        else:
            self.cache.forget(payload)

    async def _run(self) -> None:
        delay = LISTEN_RETRY_SECONDS
        while True:
            try:
                conn = await asyncpg.connect(self.database_url, timeout=5)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as exc:
                logger.warning(
                    "key change listener cannot connect (%s); keys are checked in the database", exc
                )
                await asyncio.sleep(delay)
                delay = min(delay * 2, LISTEN_RETRY_MAX_SECONDS)
                continue
            lost = asyncio.Event()
            conn.add_termination_listener(lambda _c, lost=lost: lost.set())
            try:
                await conn.add_listener(keys.KEYS_CHANNEL, self._on_change)
                # What was cached while nobody listened may be stale.
                self.cache.forget()
                self.cache.trusted = True
                self.connected.set()
                delay = LISTEN_RETRY_SECONDS
                await lost.wait()
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
                pass
            finally:
                self.cache.trusted = False
                self.connected.clear()
                with contextlib.suppress(Exception):
                    await conn.close(timeout=1)
            logger.warning("key change listener lost its connection; reconnecting")
            await asyncio.sleep(delay)


# Where authentication reads the database: a session for the few requests that need one (a key not in the
# cache, open mode's periodic check), so that the usual request, a cached key, opens none.
SessionSource = Callable[[], AbstractAsyncContextManager[AsyncSession]]


@dataclass
class OpenMode:
    """Whether this process serves open. It only ever goes from open to closed: an admin key created by
    this process ends it at once (`end`), one created elsewhere (the CLI, another API process) within
    `ttl` seconds, when a request finds the last check stale and asks the database."""

    active: bool
    # Whether an admin key exists: `core.keys.has_admin_key`, the app passes it in.
    has_admin_key: Callable[[AsyncSession], Awaitable[bool]]
    ttl: float = KEY_CACHE_SECONDS
    checked_at: float = field(default_factory=time.monotonic)

    async def is_open(self, session: SessionSource) -> bool:
        if self.active and time.monotonic() - self.checked_at >= self.ttl:
            self.checked_at = time.monotonic()
            async with session() as db:
                if await self.has_admin_key(db):
                    self.end()
        return self.active

    def end(self) -> None:
        if self.active:
            logger.warning("an admin key exists: open mode ended, every request now needs a key")
        self.active = False


_bearer = HTTPBearer(auto_error=False, description="An API key: `Authorization: Bearer amk_<keyId>_<secret>`")


async def get_principal(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Principal:
    token = credentials.credentials if credentials is not None else None
    address = request.client.host if request.client is not None else None
    principal = await authenticate(request.app.state, token, address=address)
    route = request.scope.get("route")
    operation = getattr(route, "name", None)
    if operation is not None:
        principal.require(needed(operation, request.method), operation)
    # The namespace's requests per minute (app.core.quotas), counted once the key is known to be good.
    quotas = getattr(request.app.state, "quotas", None)
    if quotas is not None:
        await quotas.count_request(request.app.state.sessionmaker, principal.namespace_id)
    return principal


async def authenticate(
    state: Any, token: str | None, db: AsyncSession | None = None, *, address: str | None = None
) -> Principal:
    """The principal of a bearer token (None: no Authorization header), for REST and MCP alike.

    `state` is the app's state: settings, key cache, open mode, refusals and sessionmaker. `db`: the
    caller's session for the reads it may need; without one (REST), a session of its own is opened only
    when a read is needed, not for a key found in the cache. `address`: the client's, whose failed
    authentications are counted (`app.core.refusals`)."""
    admin_key: str | None = state.settings.admin_key
    open_mode: OpenMode = state.open_mode
    session: SessionSource = state.sessionmaker if db is None else (lambda: contextlib.nullcontext(db))
    if token is None:
        if await open_mode.is_open(session):
            return ADMIN
        raise Unauthorized("missing bearer API key")
    # An open server accepts any bearer token: nothing to bound there.
    refusals: AuthRefusals | None = None if open_mode.active else state.auth_refusals
    try:
        return await _verify(state, session, token, admin_key, refusals, address)
    except Unauthorized:
        # Open mode accepts any bearer token as it accepts none; a live key keeps its scope.
        if await open_mode.is_open(session):
            return ADMIN
        if refusals is not None:
            refusals.failed(address)
        raise


async def early_refusal(state: Any, token: str | None, address: str | None) -> None:
    """Raise, before routing, the 429 that authentication would answer without reading anything: a bearer
    token this process never verified, from an address past its failed-authentication budget, on a server
    with keys (`app.core.refusals`). Raises nothing in any other case: the route authenticates as usual."""
    open_mode: OpenMode | None = getattr(state, "open_mode", None)
    if token is None or address is None or open_mode is None or open_mode.active:
        return
    admin_key: str | None = state.settings.admin_key
    if admin_key is not None and hmac.compare_digest(token.encode(), admin_key.encode()):
        return
    parsed = parse_key(token)
    if parsed is not None and state.key_cache.verified_before(parsed[0]):
        return
    refusals: AuthRefusals = state.auth_refusals
    await refusals.check_address(address, take=False)


async def _verify(
    state: Any,
    session: SessionSource,
    token: str,
    admin_key: str | None,
    refusals: AuthRefusals | None,
    address: str | None,
) -> Principal:
    if admin_key is not None and hmac.compare_digest(token.encode(), admin_key.encode()):
        return ADMIN
    parsed = parse_key(token)
    if parsed is None:
        raise Unauthorized("malformed API key: expected amk_<keyId>_<secret>")
    key_id, secret = parsed
    secret_sha256 = hash_secret(secret)
    cache: KeyCache = state.key_cache
    cached = cache.get(key_id)
    if cached is not None and hmac.compare_digest(cached[0], secret_sha256):
        return Principal(key_id=key_id, namespace_id=cached[1], scope=cached[2])
    # Not cached, or cached with another secret: asked of the database either way, and compared with a
    # stand-in hash when the id is unknown, so a wrong secret costs what an unknown key id costs (whether
    # a key id exists cannot be timed). A key this process never verified is bounded first (made-up keys
    # must stay cheap): unknown a moment ago, its address past its failures, or too many lookups at once.
    if refusals is None or cache.verified_before(key_id):
        row = await _lookup(session, key_id)
    else:
        if cache.refused_lately(key_id, secret_sha256):
            AUTH_REFUSED.labels("unknown_cached").inc()
            raise Unauthorized("unknown or revoked API key")
        await refusals.check_address(address)
        # Every lookup slot busy (503): the failure taken stays spent, or a flood kept busy never runs out.
        async with refusals.lookup_slot():
            try:
                row = await _lookup(session, key_id)
            finally:
                refusals.refund(address)
    matches = hmac.compare_digest(row.secret_sha256 if row is not None else _NO_KEY_SHA256, secret_sha256)
    if row is None or not row.live or not matches:
        cache.refused(key_id, secret_sha256)
        AUTH_REFUSED.labels("unknown").inc()
        raise Unauthorized("unknown or revoked API key")
    scope = cast(Scope, row.scope)
    cache.put(key_id, row.secret_sha256, row.namespace_id, scope)
    return Principal(key_id=key_id, namespace_id=row.namespace_id, scope=scope)


async def _lookup(session: SessionSource, key_id: str) -> keys.KeyLookup | None:
    async with session() as db:
        return await keys.lookup(db, key_id)


CurrentPrincipal = Annotated[Principal, Depends(get_principal)]
