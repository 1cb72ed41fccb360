# agent-memory service image: slim, non-root, dependencies in their own cached layer.
FROM python:3.11-slim AS base

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /srv/agent-memory

# Dependencies first: this layer is reused until pyproject.toml changes.
COPY pyproject.toml README.md ./
RUN --mount=type=cache,target=/root/.cache/pip \
    mkdir -p app && touch app/__init__.py \
    && pip install . \
    && pip uninstall -y agent-memory

COPY alembic.ini ./
COPY migrations ./migrations
COPY openapi ./openapi
COPY app ./app
RUN --mount=type=cache,target=/root/.cache/pip pip install --no-deps -e .

RUN useradd --create-home --uid 10001 agent && mkdir -p /data && chown agent /data
USER agent

ENV AGENT_MEMORY_HOST=0.0.0.0 \
    AGENT_MEMORY_PORT=8080 \
    AGENT_MEMORY_DATA_DIR=/data
# 8080: the API (and /mcp); 9091: `agent-memory worker --metrics-port 9091` (health and metrics).
EXPOSE 8080 9091
HEALTHCHECK --interval=10s --timeout=3s --retries=5 \
    CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8080/healthz').status != 200)"
CMD ["agent-memory", "serve"]
