"""ASGI middleware: request ids, access log and metrics, and the request-body guard (size limit, NUL text).

The body guard reads the body before any parsing: a body over the limit is answered 413 as soon as the
limit is crossed (never buffered whole), and JSON text containing NUL is refused with 422.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.errors import problem_response
from app.core.logging import request_id_var
from app.core.metrics import REQUEST_SECONDS, REQUESTS

logger = logging.getLogger("agent_memory.http")

MIB = 1024 * 1024
INGEST_BODY_LIMIT = 20 * MIB
DEFAULT_BODY_LIMIT = 1 * MIB


def body_limit_for(path: str) -> int:
    return INGEST_BODY_LIMIT if path.endswith("/ingest") else DEFAULT_BODY_LIMIT


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


class RequestContextMiddleware:
    """Request id (from `X-Request-Id` or new), access log line, request count and latency by route."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        incoming = headers.get(b"x-request-id", b"").decode("latin-1")[:100]
        request_id = incoming or uuid.uuid4().hex
        token = request_id_var.set(request_id)
        started = time.perf_counter()
        status = 500

        async def send_wrapper(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", request_id.encode())]
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
        finally:
            elapsed = time.perf_counter() - started
            route = scope.get("route")
            template = getattr(route, "path", None) or "unmatched"
            method = scope["method"]
            REQUESTS.labels(method, template, str(status)).inc()
            REQUEST_SECONDS.labels(method, template).observe(elapsed)
            logger.info(
                "%s %s %s",
                method,
                scope["path"],
                status,
                extra={"status": status, "route": template, "ms": round(elapsed * 1000, 2)},
            )
            request_id_var.reset(token)


class BodyGuardMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS", "DELETE"):
            await self.app(scope, receive, send)
            return
        limit = body_limit_for(scope["path"])
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await self._too_large(scope, receive, send, limit)
            return

        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await self._too_large(scope, receive, send, limit)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)

        # JSON can only carry NUL escaped as \u0000; parse (cheaply, only then) to be sure it is in a string.
        if b"\\u0000" in body or b"\x00" in body:
            try:
                nul = b"\x00" in body or _has_nul(json.loads(body))
            except ValueError:
                nul = False
            if nul:
                response = problem_response(
                    422,
                    "validation_failed",
                    "text must not contain NUL (\\u0000) characters",
                    "Validation failed",
                    errors=[{"loc": ["body"], "msg": "text must not contain NUL (\\u0000) characters"}],
                )
                await response(scope, receive, send)
                return

        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    @staticmethod
    async def _too_large(scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        response = problem_response(
            413, "payload_too_large", f"request body exceeds the limit of {limit} bytes", "Payload too large"
        )
        await response(scope, receive, send)
