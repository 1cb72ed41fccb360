"""One HTTP attempt of a delivery: resolve and check the target, connect to the checked address, POST the
signed body, read at most a few KB of the answer, and say how it went.

Never follows a redirect (a 3xx is a failure naming where it pointed), never waits past the timeout
(connecting, sending and reading together), never pools a connection (a pooled TLS connection is keyed by
address, and two hosts on one address must each get their own handshake). Nothing secret is in what it
returns: the signature headers carry signatures, never the secret.
"""

from __future__ import annotations

import asyncio
import ipaddress
import time
from dataclasses import dataclass

import httpx

from app.core.outbound_http import CONNECT_TIMEOUT_CAP_SECONDS, excerpt
from app.webhooks import targets

# The answer is only looked at for its status and a few words for the log.
MAX_RESPONSE_BYTES = 4096
USER_AGENT = "agent-memory-webhooks/1"


@dataclass(frozen=True)
class Attempt:
    """How one attempt went: `error` None means delivered (a 2xx)."""

    status: int | None  # the HTTP status, None when there was no answer
    error: str | None
    milliseconds: int

    @property
    def delivered(self) -> bool:
        return self.error is None

    @property
    def gone(self) -> bool:
        """410 Gone: the receiver asks never to be sent anything again."""
        return self.status == 410


class Sender:
    """The HTTP client of deliveries (one per dispatcher; closed with it)."""

    def __init__(self, allow: targets.AllowPrivate, timeout_seconds: float) -> None:
        self.allow = allow
        self.timeout_seconds = timeout_seconds
        self._http = httpx.AsyncClient(
            timeout=httpx.Timeout(timeout_seconds, connect=min(timeout_seconds, CONNECT_TIMEOUT_CAP_SECONDS)),
            follow_redirects=False,
            trust_env=False,  # a proxy from the environment would connect where the check did not look
            limits=httpx.Limits(max_keepalive_connections=0),
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    async def send(self, url: str, headers: dict[str, str], body: bytes) -> Attempt:
        started = time.perf_counter()

        def elapsed() -> int:
            return round((time.perf_counter() - started) * 1000)

        try:
            target = targets.parse(url)
            address = await targets.resolve(target, self.allow)
        except targets.TargetRefused as exc:
            return Attempt(None, str(exc), elapsed())
        try:
            async with asyncio.timeout(self.timeout_seconds):
                status, answer, location = await self._post(target, address, headers, body)
        except TimeoutError:
            return Attempt(None, f"no answer within {self.timeout_seconds:g}s", elapsed())
        except httpx.HTTPError as exc:
            problem = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
            return Attempt(None, problem, elapsed())
        if 200 <= status < 300:
            return Attempt(status, None, elapsed())
        if 300 <= status < 400:
            where = f" to {excerpt(location, 200)}" if location else ""
            return Attempt(status, f"HTTP {status}: redirect{where} not followed", elapsed())
        text = excerpt(answer.decode("utf-8", "replace"))
        return Attempt(status, f"HTTP {status}" + (f": {text}" if text else ""), elapsed())

    async def _post(
        self, target: targets.Target, address: targets.IPAddress, headers: dict[str, str], body: bytes
    ) -> tuple[int, bytes, str | None]:
        """POST to the checked address, the Host header and TLS name (SNI, certificate) the URL's host."""
        literal = f"[{address}]" if isinstance(address, ipaddress.IPv6Address) else str(address)
        default_port = 443 if target.scheme == "https" else 80
        host = f"[{target.host}]" if ":" in target.host else target.host
        host_header = host if target.port == default_port else f"{host}:{target.port}"
        request_headers = {
            "content-type": "application/json",
            "user-agent": USER_AGENT,
            "host": host_header,
            **headers,
        }
        extensions = {"sni_hostname": target.host} if target.scheme == "https" else {}
        url = f"{target.scheme}://{literal}:{target.port}{target.path}"
        async with self._http.stream(
            "POST", url, content=body, headers=request_headers, extensions=extensions
        ) as response:
            answer = bytearray()
            async for chunk in response.aiter_raw():
                answer += chunk
                if len(answer) >= MAX_RESPONSE_BYTES:
                    break  # the rest is never read: closing the stream drops the connection
            return response.status_code, bytes(answer[:MAX_RESPONSE_BYTES]), response.headers.get("location")
