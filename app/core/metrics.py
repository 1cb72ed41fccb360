"""Prometheus metrics of the API and the worker, exposed at /metrics."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

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
