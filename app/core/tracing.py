"""OpenTelemetry traces, on only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (the standard variable; the
other standard `OTEL_*` variables apply too): a server span per request continuing an incoming
`traceparent`, a span per SQL statement, per job, per webhook delivery attempt and per batch of events a
subscriber follows up. Unset, nothing of OpenTelemetry is imported and every hook here is a no-op.

Without OpenTelemetry, an incoming `traceparent` still ties the access log to the caller's trace: its
trace id goes on the request's log lines (`trace_id`).
"""

from __future__ import annotations

import logging
import os
import re
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import FastAPI
    from sqlalchemy.ext.asyncio import AsyncEngine

logger = logging.getLogger("agent_memory.tracing")

ENDPOINT_VARIABLE = "OTEL_EXPORTER_OTLP_ENDPOINT"
# W3C Trace Context: version-traceid-parentid-flags; an all-zero trace id is invalid.
_TRACEPARENT = re.compile(r"^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$")

_provider: Any = None


def enabled() -> bool:
    return bool(os.environ.get(ENDPOINT_VARIABLE, "").strip())


def trace_id_of(traceparent: str) -> str | None:
    """The trace id of a valid `traceparent` header value, else None."""
    match = _TRACEPARENT.match(traceparent.strip().lower())
    if match is None or match.group(1) == "0" * 32:
        return None
    return match.group(1)


def setup(service_name: str = "agent-memory") -> bool:
    """Install the tracer provider with an OTLP/HTTP exporter, once per process; False when off."""
    global _provider
    if not enabled():
        return False
    if _provider is not None:
        return True
    from opentelemetry import trace
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import OTELResourceDetector, Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    resource = Resource.create({"service.name": service_name}).merge(OTELResourceDetector().detect())
    provider = TracerProvider(resource=resource)
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    trace.set_tracer_provider(provider)
    _provider = provider
    logger.info("OpenTelemetry tracing on", extra={"endpoint": os.environ[ENDPOINT_VARIABLE]})
    return True


def instrument_app(app: FastAPI) -> None:
    """Server spans for every request (an incoming `traceparent` becomes the parent)."""
    if not setup():
        return
    from opentelemetry.instrumentation.fastapi import FastAPIInstrumentor

    FastAPIInstrumentor.instrument_app(app, excluded_urls="healthz,readyz,metrics")


def instrument_engine(engine: AsyncEngine) -> None:
    """A client span per SQL statement on this engine."""
    if not setup():
        return
    from opentelemetry.instrumentation.sqlalchemy import SQLAlchemyInstrumentor

    # The instrumentation declares SQLAlchemy < 2.1 and would do nothing on 2.1; the engine events it
    # hooks are unchanged in 2.1, which the test of these spans checks.
    SQLAlchemyInstrumentor().instrument(
        engine=engine.sync_engine, enable_commenter=False, skip_dep_check=True
    )


def _span(tracer: str, name: str, kind: str, attributes: dict[str, Any]) -> AbstractContextManager[Any]:
    """A span of this tracer around a block, of a `SpanKind` by name (no-op when tracing is off)."""
    if _provider is None:
        return nullcontext()
    from opentelemetry import trace

    return trace.get_tracer(tracer).start_as_current_span(
        name, kind=trace.SpanKind[kind], attributes=attributes
    )


def job_span(kind: str, job_id: str, profile_id: int | None, attempt: int) -> AbstractContextManager[Any]:
    """A span around one run of a job."""
    return _span(
        "agent_memory.worker",
        f"job {kind}",
        "CONSUMER",
        {
            "agent_memory.job.id": job_id,
            "agent_memory.job.kind": kind,
            "agent_memory.job.attempt": attempt,
            "agent_memory.profile_id": profile_id if profile_id is not None else -1,
        },
    )


def webhook_span(
    endpoint_id: str, event_type: str, message_id: str, attempt: int
) -> AbstractContextManager[Any]:
    """A span around one webhook delivery attempt."""
    return _span(
        "agent_memory.webhooks",
        f"webhook {event_type}",
        "CLIENT",
        {
            "agent_memory.webhook.endpoint_id": endpoint_id,
            "agent_memory.webhook.event_type": event_type,
            "agent_memory.webhook.message_id": message_id,
            "agent_memory.webhook.attempt": attempt,
        },
    )


def events_span(
    subscriber: str, namespace_id: int, first_id: int, last_id: int
) -> AbstractContextManager[Any]:
    """A span around one batch of events followed up by a subscriber."""
    return _span(
        "agent_memory.worker",
        f"events {subscriber}",
        "CONSUMER",
        {
            "agent_memory.events.subscriber": subscriber,
            "agent_memory.namespace_id": namespace_id,
            "agent_memory.events.first_id": first_id,
            "agent_memory.events.last_id": last_id,
        },
    )


def shutdown() -> None:
    """Flush what is buffered (at process exit)."""
    if _provider is not None:
        _provider.force_flush(timeout_millis=5000)
