"""The header cap of the server `serve` runs (app.core.header_cap): a real uvicorn on loopback, raw bytes."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import uvicorn

from app.core.header_cap import MAX_HEADER_BYTES, server_options


async def _ok(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


@contextlib.asynccontextmanager
async def _server() -> AsyncIterator[int]:
    config = uvicorn.Config(
        _ok, host="127.0.0.1", port=0, log_config=None, lifespan="off", **server_options()
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    try:
        yield server.servers[0].sockets[0].getsockname()[1]
    finally:
        server.should_exit = True
        await task


async def _request(port: int, authorization_bytes: int) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = b"GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\nauthorization: Bearer "
    value = b"a" * authorization_bytes

    async def send() -> None:
        with contextlib.suppress(ConnectionError):  # the server stops reading once past the cap
            writer.write(head)
            for start in range(0, len(value), 64 * 1024):
                writer.write(value[start : start + 64 * 1024])
                await writer.drain()
            writer.write(b"\r\n\r\n")
            await writer.drain()

    sending = asyncio.create_task(send())
    try:
        return await asyncio.wait_for(
            reader.readuntil(b"}") if authorization_bytes > MAX_HEADER_BYTES else reader.read(), 10
        )
    finally:
        sending.cancel()
        writer.close()


async def test_oversized_headers_are_431_before_they_are_read_whole() -> None:
    # Regression: a 64 MB Authorization header was read whole (8.3 s, +180 MB), the server had no cap.
    async with _server() as port:
        assert (await _request(port, 2_000)).startswith(b"HTTP/1.1 200")
        refused = await _request(port, 8 * 1024 * 1024)
        assert refused.startswith(b"HTTP/1.1 431"), refused[:100]
        assert b'"code": "request_header_fields_too_large"' in refused
        assert str(MAX_HEADER_BYTES).encode() in refused
        # Headers just under the cap still pass.
        assert (await _request(port, MAX_HEADER_BYTES - 1024)).startswith(b"HTTP/1.1 200")
