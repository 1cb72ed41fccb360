"""ASGI middleware: request ids, trace context, access log and metrics, hardening headers, CORS, the request guard (body
size, text PostgreSQL cannot store), and the browser guard of an open server (Host, Origin, content type).

The guard refuses with 422 a path or query string holding NUL (`%00`), before any route sees it. It reads
the body before any parsing: a body over the limit is answered 413 as soon as the limit is crossed (never
buffered whole); a body that is not UTF-8, or JSON text containing NUL or a lone surrogate (`"\\ud800"`),
is refused with 422.
"""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core import json_input
from app.core.auth import early_refusal
from app.core.db import request_received_var
from app.core.errors import AppError, problem_response
from app.core.logging import request_id_var, trace_id_var
from app.core.metrics import REQUEST_SECONDS, REQUESTS
from app.core.text import storable_text
from app.core.tracing import trace_id_of

logger = logging.getLogger("agent_memory.http")

MIB = 1024 * 1024
INGEST_BODY_LIMIT = 20 * MIB
DEFAULT_BODY_LIMIT = 1 * MIB
# Every header of a request together (an API key is ~60 bytes): checked before the body is read.
HEADERS_LIMIT = 32 * 1024


def body_limit_for(path: str) -> int:
    # /mcp carries the ingest tool's conversations: the ingest limit. Session messages may carry large tool
    # outputs (history can truncate them on read, as the reference does): the ingest limit too.
    if path.endswith("/ingest") or path == "/mcp" or ("/sessions/" in path and "/messages" in path):
        return INGEST_BODY_LIMIT
    return DEFAULT_BODY_LIMIT


def is_streamed_upload(path: str) -> bool:
    return path.startswith("/v1/namespaces/") and path.endswith("/import")


UNSTORABLE_TEXT = "text must not contain NUL (\\u0000) characters or unpaired surrogates"
NOT_UTF8 = "the body must be JSON encoded in UTF-8"
SLASH_IN_ID = "ids in a path (namespace, profile, session, message, label, key) must not contain '/' (%2F)"

# Bytes that may hide unstorable text once parsed: NUL, raw or escaped, or a surrogate escape.
# Only a body holding one of them is parsed here.
_SUSPECT = re.compile(rb"\x00|\\u0000|\\u[dD][89a-fA-F]")


def _has_unstorable_text(value: Any) -> bool:
    # Iterative: JSON nests as deep as the parser allows, deeper than a recursive walk may go.
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not storable_text(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _refused(where: str, message: str = UNSTORABLE_TEXT) -> JSONResponse:
    return problem_response(
        422, "validation_failed", message, "Validation failed", errors=[{"loc": [where], "msg": message}]
    )


class _HttpMiddleware:
    """A pure ASGI middleware that acts on HTTP requests (`handle`) and passes everything else through."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.handle(scope, receive, send)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        raise NotImplementedError


# A browser never guesses another type than the one declared (a JSON body holding HTML is not a page); API
# answers (keyed data) are never kept by a browser or a proxy cache; /docs is never framed by another page
# (on an open server its "Try it out" runs same-origin), as /ui is not (app.ui.router's policy).
NOSNIFF = (b"x-content-type-options", b"nosniff")
NO_STORE = (b"cache-control", b"no-store")
DOCS_FRAMING = [(b"content-security-policy", b"frame-ancestors 'none'"), (b"x-frame-options", b"DENY")]


def _is_api(path: str) -> bool:
    return path.startswith("/v1/") or path in (
        "/v1",
        "/mcp",
        "/healthz",
        "/readyz",
        "/metrics",
        "/openapi.json",
    )


def hardening_headers(path: str, present: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """The headers every answer gets unless its route set them itself."""
    names = {name.lower() for name, _ in present}
    wanted = [NOSNIFF]
    if _is_api(path):
        wanted.append(NO_STORE)
    if path == "/docs":
        wanted += DOCS_FRAMING
    return [(name, value) for name, value in wanted if name not in names]


class RequestContextMiddleware(_HttpMiddleware):
    """Request id (from `X-Request-Id` or new), the caller's trace id (from `traceparent`), access log
    line, request count and latency by route."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope.get("headers") or [])
        incoming = headers.get(b"x-request-id", b"").decode("latin-1")[:100]
        request_id = incoming or uuid.uuid4().hex
        token = request_id_var.set(request_id)
        traceparent = headers.get(b"traceparent", b"").decode("latin-1")
        trace_token = trace_id_var.set(trace_id_of(traceparent) if traceparent else None)
        started = time.perf_counter()
        received_token = request_received_var.set(time.monotonic())  # the pool's wait counts from here
        status = 500

        path = scope["path"]

        async def send_wrapper(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message.setdefault("headers", [])
                message["headers"] = [
                    *message["headers"],
                    (b"x-request-id", request_id.encode()),
                    *hardening_headers(path, message["headers"]),
                ]
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
            trace_id_var.reset(trace_token)
            request_received_var.reset(received_token)


class AuthRefusalMiddleware(_HttpMiddleware):
    """Answers before routing the 429 an address past its failed-authentication budget gets for a key this
    process never verified (`app.core.auth.early_refusal`): a flood of made-up keys costs the HTTP work of
    its answers, not the routes' dependencies and error handlers. Only `/v1/` and `/mcp` read keys."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope["path"]
        authorization = dict(scope.get("headers") or []).get(b"authorization")
        if authorization is not None and path.startswith(("/v1/", "/mcp")):
            scheme, _, token = authorization.decode("latin-1").partition(" ")
            client = scope.get("client")
            if scheme.lower() == "bearer" and token:
                try:
                    await early_refusal(scope["app"].state, token.strip(), client[0] if client else None)
                except AppError as refused:
                    answer = problem_response(
                        refused.status, refused.code, refused.detail, refused.title, headers=refused.headers()
                    )
                    await answer(scope, receive, send)
                    return
        await self.app(scope, receive, send)


class BodyGuardMiddleware(_HttpMiddleware):
    """The request guard: NUL in the path or query, the body's size, unstorable text in a JSON body."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers_size = sum(len(k) + len(v) for k, v in scope.get("headers") or [])
        if headers_size > HEADERS_LIMIT:
            await problem_response(
                431,
                "headers_too_large",
                f"request headers exceed the limit of {HEADERS_LIMIT} bytes",
                "Request header fields too large",
            )(scope, receive, send)
            return
        # Paths and query strings are percent-decoded with replacement, so NUL is the one thing in them
        # the database refuses; refusing it here covers every path and query parameter at once.
        query = scope.get("query_string", b"")
        if "\x00" in scope["path"] or b"%00" in query or b"\x00" in query:
            await _refused("path" if "\x00" in scope["path"] else "query")(scope, receive, send)
            return
        # An id holding '/' (sent as %2F) would split into two path segments and reach no route, or the
        # wrong one: no id that goes into a path may hold '/', so say so instead of answering 404.
        if b"%2f" in (scope.get("raw_path") or b"").split(b"?", 1)[0].lower():
            await _refused("path", SLASH_IN_ID)(scope, receive, send)
            return
        if scope["method"] in ("GET", "HEAD", "OPTIONS", "DELETE"):
            await self.app(scope, receive, send)
            return
        if scope["method"] == "POST" and is_streamed_upload(scope["path"]):
            # An import is read line by line as it arrives and checks every line itself: no size cap
            # and no buffering here, which would hold the whole file in memory.
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

        # JSON travels in UTF-8 (RFC 8259); anything else would fail parsing further in as a 400, and
        # UTF-8-encoded surrogates would get through it ('surrogatepass').
        if not body.isascii():
            try:
                body.decode("utf-8")
            except UnicodeDecodeError:
                await _refused("body", NOT_UTF8)(scope, receive, send)
                return

        # The API's one JSON rule (app.core.json_input): no NaN, Infinity, 1e999 or deep nesting, which
        # Python's parser takes (or fails on with a RecursionError) and the routes would answer 500.
        if json_input.suspect(body):
            try:
                json_input.loads(body)
            except json_input.JsonRefused as exc:
                await _refused("body", f"the body is not JSON this API accepts: {exc}")(scope, receive, send)
                return
            except ValueError:
                pass  # not JSON at all: the route's own parsing answers it

        # Parse (only when the bytes look suspect) to be sure the text is inside a JSON string.
        if _SUSPECT.search(body):
            try:
                bad = b"\x00" in body or _has_unstorable_text(json.loads(body))
            except (ValueError, RecursionError):
                bad = False  # not JSON we can read: the route's own parsing answers it
            if bad:
                await _refused("body")(scope, receive, send)
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


# The names a loopback server is reached by, on any port: the only Host (and, with the listed CORS origins,
# the only browser Origin) an open server accepts, so a web page can neither rebind a public name onto it
# (DNS rebinding) nor post to it from another site.
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]"})
# What a state-changing request's body must declare: a web page can send a form or text/plain body to any
# site without asking first (no CORS preflight), but never one of these. application/octet-stream is the
# import body as the OpenAPI document declares it (a generated client sends it); it needs a preflight too.
JSON_TYPES = ("application/json", "application/x-ndjson", "application/jsonl", "application/octet-stream")
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _host_name(authority: str) -> str:
    """`host[:port]` → host, lower case (`[::1]:8080` → `[::1]`)."""
    authority = authority.strip().lower()
    if authority.startswith("["):
        return authority[: authority.find("]") + 1]
    return authority.rsplit(":", 1)[0] if authority.count(":") == 1 else authority


def is_loopback_origin(origin: str) -> bool:
    scheme, sep, rest = origin.partition("://")
    return bool(sep) and scheme in ("http", "https") and _host_name(rest.split("/", 1)[0]) in LOOPBACK_NAMES


class BrowserGuardMiddleware(_HttpMiddleware):
    """While the server runs open (no key: nothing else protects it), a request is refused when its `Host`
    is not a loopback name (421), its `Origin` is neither loopback nor listed in `AGENT_MEMORY_CORS_ORIGINS`
    (403), or it changes state with a body that is not JSON (415). REST and `/mcp` alike. A keyed server
    is protected by its keys, which a browser never sends by itself."""

    def __init__(self, app: ASGIApp, is_open: Callable[[], bool], origins: list[str]) -> None:
        super().__init__(app)
        self.is_open = is_open
        self.origins = frozenset(o.rstrip("/").lower() for o in origins)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.is_open():
            refusal = self.refusal(scope)
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def refusal(self, scope: Scope) -> JSONResponse | None:
        headers = {k.lower(): v.decode("latin-1") for k, v in scope.get("headers") or []}
        host = headers.get(b"host")
        if host is not None and _host_name(host) not in LOOPBACK_NAMES:
            return problem_response(
                421,
                "misdirected_request",
                "an open server answers only to a loopback Host (127.0.0.1, localhost, [::1])",
                "Misdirected request",
            )
        origin = headers.get(b"origin")
        if origin is not None and not (
            origin.rstrip("/").lower() in self.origins or is_loopback_origin(origin)
        ):
            return problem_response(
                403,
                "forbidden",
                f"origin '{origin[:200]}' is not allowed: list it in AGENT_MEMORY_CORS_ORIGINS",
                "Forbidden",
            )
        has_body = headers.get(b"content-length", "0") not in ("", "0") or b"transfer-encoding" in headers
        if scope["method"] in STATE_CHANGING and has_body:
            media = headers.get(b"content-type", "").split(";", 1)[0].strip().lower()
            if not (media in JSON_TYPES or (media.startswith("application/") and media.endswith("+json"))):
                return problem_response(
                    415,
                    "unsupported_media_type",
                    "a request body must be JSON (content-type: application/json; "
                    "application/x-ndjson or application/octet-stream for an import)",
                    "Unsupported media type",
                )
        return None


def install_cors(app: FastAPI, origins: list[str]) -> None:
    """CORS for browser apps on the listed origins (none: no CORS headers, preflights are not answered).
    Keys travel in the Authorization header, not cookies, so credentials mode is not needed."""
    if not origins:
        return
    app.add_middleware(
        CORSMiddleware,
        allow_origins=origins,
        allow_methods=["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
        allow_headers=[
            "authorization",
            "content-type",
            "x-request-id",
            "traceparent",
            "tracestate",
            "mcp-session-id",
            "mcp-protocol-version",
            "x-agent-memory-profile",
            "x-agent-memory-namespace",
            "last-event-id",
        ],
        expose_headers=["x-request-id", "retry-after", "mcp-session-id"],
        max_age=600,
    )
