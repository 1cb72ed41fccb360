"""The MCP server (official `mcp` SDK, Streamable HTTP, stateless JSON responses) mounted at `/mcp`.

Every tool call is one unit of work, as a REST request is: authenticate the bearer key (open mode on
loopback exactly as REST), resolve namespace and profile, call the same service the REST route calls,
commit. The namespace comes from the call's `namespace` argument, else the one a scoped key implies, else
the `X-Agent-Memory-Namespace` header; the profile from `profile`, else `X-Agent-Memory-Profile`. A failure
is an MCP tool error (`isError`) whose text starts with the problem's `code` and whose structured content
is the problem document (`code`, `status`, `detail`).

Here: the server built from the tools (`app.mcp.tools`), its annotations and instructions, and the
endpoint mounted at `/mcp`. What a tool returns, and its errors, are in `app.mcp.results`.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
from fastapi import FastAPI
from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from mcp_types import CallToolResult, ToolAnnotations
from starlette.routing import Route
from starlette.types import Message, Receive, Scope, Send

from app import __version__
from app.core.auth import authenticate
from app.core.errors import AppError, problem_response
from app.mcp.results import CodedToolErrors
from app.mcp.tools import McpTools, _bearer

# How long a GET /mcp event stream stays open (nothing is ever sent on it: the server is stateless).
STREAM_IDLE_SECONDS = 60.0

INSTRUCTIONS = """\
Long-term memory for this user or agent, kept across conversations.
- At the start of a task, call `get_summary` (or `recall` with a question) to load what is known.
- When the user states a durable fact, preference, instruction or task, call `remember` with one short
  statement; to keep a whole exchange, call `ingest` with its messages (memories are extracted in the
  background).
- To answer a question about the past, call `recall` with the question in plain words.
- `list_memories`, `get_memory` and `delete_memory` inspect and correct what is stored.
- `search_sessions` finds words in stored conversation messages; `get_history` reads one conversation.
Every tool takes `namespace` (implied by a namespace-scoped key) and `profile` (whose memory: one user or
agent); either may instead be set once by the client in the X-Agent-Memory-Namespace / -Profile headers.
"""


READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
IDEMPOTENT_WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True)
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False)


def _registered(tools: McpTools) -> list[tuple[Callable[..., Awaitable[CallToolResult]], ToolAnnotations]]:
    """Every tool the server offers, in the order they are listed, with its hints."""
    return [
        (tools.remember, IDEMPOTENT_WRITE),
        (tools.recall, READ_ONLY),
        (tools.ingest, IDEMPOTENT_WRITE),
        (tools.list_memories, READ_ONLY),
        (tools.get_memory, READ_ONLY),
        (tools.delete_memory, DESTRUCTIVE),
        (tools.get_summary, READ_ONLY),
        (tools.search_sessions, READ_ONLY),
        (tools.get_history, READ_ONLY),
    ]


def _arguments_of(tool: Callable[..., Any]) -> dict[str, bool]:
    """A tool's argument names, each with whether it is required."""
    return {
        name: parameter.default is inspect.Parameter.empty
        for name, parameter in inspect.signature(tool).parameters.items()
        if name != "ctx"
    }


def build_server(app: FastAPI) -> MCPServer:
    """The MCP server with the memory tools, bound to `app`."""
    tools = McpTools(app)
    # The SDK calls logging.basicConfig, which would install its own root handler where none exists yet
    # (a test, `agent-memory openapi`); a placeholder keeps logging ours.
    root = logging.getLogger()
    placeholder = logging.NullHandler()
    root.addHandler(placeholder)
    try:
        server: MCPServer = MCPServer(
            "agent-memory",
            title="agent-memory",
            description="Self-hosted long-term memory for AI agents.",
            instructions=INSTRUCTIONS,
            version=__version__,
            log_level="WARNING",
        )
    finally:
        root.removeHandler(placeholder)
    registered = _registered(tools)
    for tool, hints in registered:
        # The docstring's lines joined: the description reads as one paragraph.
        server.add_tool(tool, description=" ".join((tool.__doc__ or "").split()), annotations=hints)
    server.middleware.append(CodedToolErrors({tool.__name__: _arguments_of(tool) for tool, _ in registered}))
    return server


class McpEndpoint:
    """The `/mcp` ASGI endpoint: refuses a request without an acceptable key with 401 problem+json (as
    REST does), then hands it to the SDK's Streamable HTTP session manager."""

    def __init__(self, app: FastAPI, server: MCPServer) -> None:
        self.app = app
        self.server = server

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers") or []}
        state = self.app.state
        client = scope.get("client")
        try:
            await authenticate(state, _bearer(headers), address=client[0] if client else None)
        except AppError as exc:
            response = problem_response(exc.status, exc.code, exc.detail, exc.title, headers=exc.headers())
            response.headers["www-authenticate"] = "Bearer"
            await response(scope, receive, send)
            return
        if scope["method"] != "GET":
            await self.server.session_manager.handle_request(scope, receive, send)
            return
        # A stateless server never sends on the GET event stream: it is closed after STREAM_IDLE_SECONDS
        # rather than held open for as long as the client likes (a connection each, forever).
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        with anyio.move_on_after(STREAM_IDLE_SECONDS):
            await self.server.session_manager.handle_request(scope, receive, tracking_send)
            return
        if started:
            await send({"type": "http.response.body", "body": b"", "more_body": False})


def install_mcp(app: FastAPI) -> None:
    """Mount `/mcp` on the app; `mcp_lifespan(app)` must wrap the app's running time."""
    server = build_server(app)
    server.streamable_http_app(
        stateless_http=True,
        json_response=True,
        # Host, Origin and content type are checked for REST and /mcp alike by the app's browser guard
        # (app.core.middleware.BrowserGuardMiddleware).
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        max_request_body_size=21 << 20,
    )
    app.state.mcp = server
    app.router.routes.append(
        Route("/mcp", endpoint=McpEndpoint(app, server), methods=["GET", "POST", "DELETE"])
    )


@asynccontextmanager
async def mcp_lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Run the SDK's session manager while the app runs. Its task group lives in a task of its own, so
    the host may enter and leave this context from different tasks (as test fixtures do)."""
    started, stop = asyncio.Event(), asyncio.Event()

    async def keep_running() -> None:
        async with app.state.mcp.session_manager.run():
            started.set()
            await stop.wait()

    task = asyncio.create_task(keep_running(), name="mcp-session-manager")
    waiter = asyncio.create_task(started.wait())
    await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        waiter.cancel()
        task.result()  # it failed to start: raise why
    try:
        yield
    finally:
        stop.set()
        await task
