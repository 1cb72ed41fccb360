"""Prometheus metrics of the API and the worker, exposed at /metrics.

Under `serve --workers N` the API processes share a metrics directory (prometheus_client's multiprocess
mode: PROMETHEUS_MULTIPROC_DIR, made by `serve` before the processes start), so any process's /metrics
answers the sum over all of them.
"""

from __future__ import annotations

import os

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest, multiprocess

REQUESTS = Counter(
    "agent_memory_http_requests_total",
    "HTTP requests by route template and status",
    ["method", "route", "status"],
)
REQUEST_SECONDS = Histogram(
    "agent_memory_http_request_seconds",
    "HTTP request latency by route template",
    ["method", "route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
JOBS = Gauge("agent_memory_jobs", "Jobs in the queue by status", ["status"])
JOBS_FINISHED = Counter(
    "agent_memory_jobs_finished_total", "Jobs finished by kind and outcome", ["kind", "outcome"]
)
JOB_SECONDS = Histogram(
    "agent_memory_job_seconds",
    "Time to process one job, by kind",
    ["kind"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
)
MEMORIES_CREATED = Counter("agent_memory_memories_created_total", "Memories created by type", ["type"])
# Counted once each by the worker that reads it from the outbox (its `metrics` subscriber).
EVENTS_WRITTEN = Counter("agent_memory_events_total", "Events written to the outbox, by type", ["type"])
EVENTS_PURGED = Counter("agent_memory_events_purged_total", "Events deleted past their retention")
EVENT_FEED_WAITS = Counter(
    "agent_memory_event_feed_waits_total",
    "Feed requests that waited for events, by how the wait ended",
    ["outcome"],
)
REMEMBER_STATEMENT_ITEMS = Histogram(
    "agent_memory_remember_statement_items",
    "Remembers stored by one statement (concurrent remembers of a process share one: group commit)",
    buckets=(1, 2, 4, 8, 16, 32, 64),
)

WEBHOOK_DELIVERIES_QUEUED = Counter(
    "agent_memory_webhook_deliveries_queued_total",
    "Webhook deliveries made (an event for an endpoint, a test event, a redelivery), by kind",
    ["kind"],
)
WEBHOOK_ATTEMPTS = Counter(
    "agent_memory_webhook_attempts_total",
    "Webhook delivery attempts by outcome: delivered, retried (failed, tried again later), failed (given up)",
    ["outcome"],
)
WEBHOOK_ATTEMPT_SECONDS = Histogram(
    "agent_memory_webhook_attempt_seconds",
    "Time of one webhook delivery attempt, from resolving the host to the answer's status",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)
WEBHOOK_DELIVERIES = Gauge(
    "agent_memory_webhook_deliveries", "Webhook deliveries in the log by status", ["status"]
)
BUSY_SHED = Counter(
    "agent_memory_busy_shed_total",
    "Requests answered 503 because every work slot of the process stayed busy past the request's bound",
)


MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"


def exposition() -> bytes:
    """The text /metrics answers: this process's metrics, or every API process's when they share a
    directory."""
    if os.environ.get(MULTIPROC_ENV):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry)
    return generate_latest()


def process_exited() -> None:
    """An API process stopping: its live gauges leave the shared directory (counters stay, as totals)."""
    if os.environ.get(MULTIPROC_ENV):
        multiprocess.mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]
