"""What "the database is unavailable" means: shutting down, starting up, unreachable, the connection lost,
the pool exhausted past its bounded wait.

The API answers every such failure with 503 `unavailable` and `Retry-After` (app.core.errors); the worker
releases the job it was running for a prompt retry and reconnects with backoff (app.worker.runner).
"""

from __future__ import annotations

import asyncpg
from asyncpg.exceptions._base import InternalClientError
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

# SQLSTATEs that mean the server cannot serve now, whatever the statement: admin shutdown (fast or
# immediate restart), crash shutdown, "the database system is starting up / shutting down", too many
# connections. Class 08 (connection exceptions) is matched by its prefix.
UNAVAILABLE_SQLSTATES = frozenset({"57P01", "57P02", "57P03", "53300"})

# What clients are told to wait: a fast restart takes about a second, a saturated pool clears as fast.
RETRY_AFTER_SECONDS = 2


def _unavailable_here(exc: BaseException) -> bool:
    if isinstance(exc, PoolTimeout):  # every connection busy past the pool's bounded wait
        return True
    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return True
    if isinstance(exc, OperationalError | InterfaceError):
        return True
    # Refused, reset, broken pipe, a connect timeout (TimeoutError is an OSError): asyncpg raises them
    # as they are, not wrapped, when the pool opens a new connection.
    if isinstance(exc, OSError):
        return True
    # InternalClientError: the connection's protocol state broke, as when the backend's farewell arrives
    # mid-statement (the pooled connection is dropped for it, `app.core.db`).
    if isinstance(exc, asyncpg.PostgresConnectionError | asyncpg.InterfaceError | InternalClientError):
        return True
    sqlstate = getattr(exc, "sqlstate", None)
    return isinstance(sqlstate, str) and (sqlstate in UNAVAILABLE_SQLSTATES or sqlstate.startswith("08"))


def database_unavailable(exc: BaseException) -> bool:
    """True when `exc`, or what caused it, says the database cannot be reached or used right now."""
    seen: set[int] = set()
    stack: list[BaseException | None] = [exc]
    while stack:
        current = stack.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        if _unavailable_here(current):
            return True
        orig = getattr(current, "orig", None)
        stack.extend(
            [orig if isinstance(orig, BaseException) else None, current.__cause__, current.__context__]
        )
    return False
