"""Recall's round trips to PostgreSQL, counted on the wire: a loopback proxy between the app and the test
database reads the frontend protocol and counts what ends a round trip (Sync of an extended query, or a
simple Query such as BEGIN and COMMIT)."""

from __future__ import annotations

import asyncio
import contextlib
import struct
from collections.abc import AsyncIterator
from urllib.parse import urlsplit, urlunsplit

import httpx

from tests.conftest import admin_client, make_settings, new_namespace, started_app

# Frontend message types that end a round trip: the client waits for the server's answer after them.
_SYNC = ord("S")
_QUERY = ord("Q")


class CountingProxy:
    """TCP proxy to PostgreSQL counting the client's round trips since the last `reset`."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.round_trips = 0
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port: int = self.server.sockets[0].getsockname()[1]
        return port

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()

    def reset(self) -> None:
        self.round_trips = 0

    async def _serve(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        server_reader, server_writer = await asyncio.open_connection(*self.target)
        try:
            await asyncio.gather(
                self._client_to_server(client_reader, server_writer),
                self._pipe(server_reader, client_writer),
            )
        finally:
            for writer in (client_writer, server_writer):
                with contextlib.suppress(Exception):
                    writer.close()

    async def _client_to_server(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
            # Startup (and an SSL request before it) has no type byte: a length, then the body.
            while True:
                length = struct.unpack("!I", await reader.readexactly(4))[0]
                body = await reader.readexactly(length - 4)
                writer.write(struct.pack("!I", length) + body)
                await writer.drain()
                if body[:4] != b"\x04\xd2\x16\x2f":  # not an SSL request: that was the startup message
                    break
            while True:
                kind = (await reader.readexactly(1))[0]
                length = struct.unpack("!I", await reader.readexactly(4))[0]
                body = await reader.readexactly(length - 4)
                if kind in (_SYNC, _QUERY):
                    self.round_trips += 1
                writer.write(bytes([kind]) + struct.pack("!I", length) + body)
                await writer.drain()
        writer.close()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError):
            while chunk := await reader.read(65536):
                writer.write(chunk)
                await writer.drain()
        writer.close()


@contextlib.asynccontextmanager
async def proxied_client(database_url: str) -> AsyncIterator[tuple[httpx.AsyncClient, CountingProxy]]:
    parts = urlsplit(database_url)
    proxy = CountingProxy(parts.hostname or "127.0.0.1", parts.port or 5432)
    port = await proxy.start()
    netloc = (parts.username + "@" if parts.username else "") + f"127.0.0.1:{port}"
    try:
        settings = make_settings(urlunsplit(parts._replace(netloc=netloc)))
        async with started_app(settings) as app, admin_client(app) as client:
            yield client, proxy
    finally:
        await proxy.close()


async def test_recall_takes_two_round_trips(database_url: str) -> None:
    async with proxied_client(database_url) as (client, proxy):
        url = f"/v1/namespaces/{await new_namespace(client)}/profiles/alice"
        for content in ("I adopted a grey cat called Miso.", "My sister Ana lives in Porto."):
            remembered = await client.post(f"{url}/remember", json={"content": content})
            assert remembered.status_code == 201, remembered.text
        queries = (
            "What is my cat called?",
            "Where does Ana live, and what did I do yesterday?",
            # A relation: the names the profile gives it are read in the first statement too.
            "Where does the user's sister live?",
        )
        for query in queries:
            # The first run prepares the statements (one more round trip each); later runs reuse them.
            for _ in range(2):
                await client.post(f"{url}/recall", json={"query": query})
            proxy.reset()
            response = await client.post(f"{url}/recall", json={"query": query})
            assert response.status_code == 200, response.text
            assert response.json()["count"] >= 1
            # The profile resolved with the question's analysis, then every channel with the candidates'
            # details; no BEGIN and COMMIT around them.
            assert proxy.round_trips == 2, (query, proxy.round_trips)
        assert "Porto" in response.json()["candidates"][0]["summary"]


async def test_recall_of_a_missing_profile_or_namespace_is_404(database_url: str) -> None:
    async with proxied_client(database_url) as (client, _):
        namespace = await new_namespace(client)
        missing = await client.post(
            f"/v1/namespaces/{namespace}/profiles/nobody/recall", json={"query": "cat?"}
        )
        assert missing.status_code == 404, missing.text
        assert missing.json()["code"] == "profile_not_found"
        gone = await client.post("/v1/namespaces/no-such-ns/profiles/alice/recall", json={"query": "cat?"})
        assert gone.status_code == 404, gone.text
        assert gone.json()["code"] == "namespace_not_found"
