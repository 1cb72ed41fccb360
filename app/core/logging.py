"""Stdlib logging set-up: JSON lines (default) or console, with the request id on every line."""

from __future__ import annotations

import json
import logging
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

request_id_var: ContextVar[str | None] = ContextVar("request_id", default=None)
# The caller's trace (from an incoming `traceparent`), so log lines join the trace they belong to.
trace_id_var: ContextVar[str | None] = ContextVar("trace_id", default=None)

_RESERVED = set(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {"message", "asctime"}


class _RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id_var.get()
        trace_id = trace_id_var.get()
        if trace_id is not None:
            record.trace_id = trace_id
        return True


class _QuietRefusal(logging.Filter):
    """A refusal to start (`StartupRefused`) is logged once, as one line, by the app itself: drop the
    traceback uvicorn would print after it, and its closing 'startup failed' line."""

    refused = False

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name != "uvicorn.error":
            return True
        text = record.getMessage()
        if "StartupRefused" in text:
            _QuietRefusal.refused = True
            return False
        return not (_QuietRefusal.refused and text.startswith("Application startup failed"))


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in _RESERVED and key != "color_message" and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


class ConsoleFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)-7s %(name)s [%(request_id)s] %(message)s")


def configure_logging(fmt: str = "json", level: str = "INFO") -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else ConsoleFormatter())
    handler.addFilter(_RequestIdFilter())
    handler.addFilter(_QuietRefusal())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # uvicorn's own access log would duplicate ours; its error log goes through the root handler.
    logging.getLogger("alembic").setLevel(max(root.level, logging.WARNING))
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = name != "uvicorn.access"
