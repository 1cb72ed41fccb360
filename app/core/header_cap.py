"""A cap on a request's header section, for the server `serve` runs (uvicorn).

uvicorn's default HTTP parser (httptools) has no limit of its own: a 64 MB `Authorization` header was read
whole (8.3 s, +180 MB) before the app could refuse it. `HeaderCappedHttpTools` counts the bytes received
while a request's headers are incomplete and, past `MAX_HEADER_BYTES`, answers 431 and closes the
connection; with the pure-Python parser (`--http h11`) uvicorn's own `h11_max_incomplete_event_size` holds
the same bound.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

# Headers of a real client are a few hundred bytes (a key is ~70); nginx allows 32 KiB in all by default.
MAX_HEADER_BYTES = 32 * 1024
_LINGER_SECONDS = 1.0

_DETAIL = f"the request's headers exceed {MAX_HEADER_BYTES} bytes"
_BODY = json.dumps(
    {
        "type": "https://agent-memory.dev/problems/request_header_fields_too_large",
        "title": "Request Header Fields Too Large",
        "status": 431,
        "detail": _DETAIL,
        "code": "request_header_fields_too_large",
    }
).encode()
_RESPONSE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
    b"content-type: application/problem+json\r\n"
    b"content-length: " + str(len(_BODY)).encode() + b"\r\n"
    b"connection: close\r\n\r\n" + _BODY
)


class HeaderCappedHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol with a bound on the bytes a request's header section may take."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._in_headers = False
        self._header_bytes = 0

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_headers = True
        self._header_bytes = 0

    def on_headers_complete(self) -> None:
        self._in_headers = False
        super().on_headers_complete()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._in_headers:  # this chunk ended inside a header section: it counts in whole
            self._header_bytes += len(data)
            if self._header_bytes > MAX_HEADER_BYTES:
                self.logger.warning("refused a request: %s", _DETAIL)
                self.transport.write(_RESPONSE)
                # Read nothing more, and close a moment later: closing with unread bytes pending resets
                # the connection at once, and the client would lose the 431 it has not read yet.
                self.transport.pause_reading()
                self._in_headers = False
                asyncio.get_running_loop().call_later(_LINGER_SECONDS, self.transport.close)


def server_options() -> dict[str, Any]:
    """The options every uvicorn server of `serve` takes (one process or several)."""
    return {"http": HeaderCappedHttpTools, "h11_max_incomplete_event_size": MAX_HEADER_BYTES}
