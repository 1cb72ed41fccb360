"""The worker's own HTTP port (`agent-memory worker --metrics-port N`): `GET /healthz` (200 while the
worker loop runs, 503 once it stopped) and `GET /metrics` (Prometheus: jobs by kind and outcome, job
seconds, memories created). A few lines of asyncio, not a web framework: the worker serves nothing else."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable

from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

logger = logging.getLogger("agent_memory.worker.health")

_REASONS = {
    200: "OK",
    400: "Bad Request",
    404: "Not Found",
    405: "Method Not Allowed",
    503: "Service Unavailable",
}


class HealthServer:
    """Serves /healthz and /metrics on `host:port`; `alive()` says whether the worker loop still runs."""

    def __init__(self, host: str, port: int, alive: Callable[[], bool], worker_id: str) -> None:
        self.host, self.port = host, port
        self.alive = alive
        self.worker_id = worker_id
        self._server: asyncio.Server | None = None

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._handle, self.host, self.port)
        sockets = self._server.sockets or ()
        if sockets:
            self.port = int(sockets[0].getsockname()[1])
        logger.info(
            "worker health and metrics on http://%s:%d", self.host, self.port, extra={"port": self.port}
        )

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None

    def _answer(self, method: str, path: str) -> tuple[int, str, bytes]:
        path = path.split("?", 1)[0]
        if method not in ("GET", "HEAD"):
            return 405, "application/json", b'{"status": "method not allowed"}'
        if path == "/healthz":
            ok = self.alive()
            body = json.dumps({"status": "ok" if ok else "stopped", "worker": self.worker_id}).encode()
            return (200 if ok else 503), "application/json", body
        if path == "/metrics":
            return 200, CONTENT_TYPE_LATEST, generate_latest()
        return 404, "application/json", b'{"status": "not found"}'

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            request_line = await asyncio.wait_for(reader.readline(), timeout=5)
            while (await asyncio.wait_for(reader.readline(), timeout=5)) not in (b"\r\n", b"\n", b""):
                pass  # headers: nothing here needs them
            parts = request_line.decode("latin-1").split()
            if len(parts) < 2:
                status, media, body = 400, "application/json", b'{"status": "bad request"}'
            else:
                status, media, body = self._answer(parts[0].upper(), parts[1])
            head = (
                f"HTTP/1.1 {status} {_REASONS.get(status, '')}\r\n"
                f"Content-Type: {media}\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
            )
            writer.write(head.encode("latin-1") + (b"" if parts[:1] == ["HEAD"] else body))
            await writer.drain()
        except (TimeoutError, ConnectionError):
            pass
        finally:
            writer.close()
