"""The FastAPI application: lifespan (database, migrations, the supervised worker process), middleware, routers."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from app import __version__
from app.context.schemas import BlockKind
from app.core import tracing
from app.core.auth import KeyCache, KeyChangeListener, OpenMode
from app.core.blas import one_blas_thread
from app.core.consistency import ConsistencyMiddleware
from app.core.db import create_sessionmaker
from app.core.docs import install_docs
from app.core.embedded import Database
from app.core.errors import error_responses, install_error_handlers
from app.core.heap import freeze_startup_objects
from app.core.metrics import process_exited
from app.core.middleware import (
    STATE_CHANGING,
    AuthRefusalMiddleware,
    BodyGuardMiddleware,
    BrowserGuardMiddleware,
    RequestContextMiddleware,
    install_cors,
)
from app.core.migrations import upgrade_to_head
from app.core.openapi_shape import named_literals, shape_for_sdks
from app.core.quotas import QuotaBook
from app.core.refusals import AuthRefusals
from app.core.replicas import ReplicaSet
from app.core.scopes import Scope as KeyScope
from app.core.settings import Settings, get_settings, to_plain_url
from app.core.work_slots import WorkSlots, default_slots
from app.embeddings import repository
from app.embeddings.job import enqueue_backfill
from app.embeddings.service import Semantic
from app.llm.client import LlmClient
from app.mcp.server import install_mcp, mcp_lifespan
from app.memories.batching import RememberBatcher
from app.ops.readiness import ReadinessProbe
from app.recall.schemas import ResponseLength, ThinkingLevel
from app.routers import ROUTERS, TAGS
from app.sessions.parts import ToolState
from app.sessions.schemas import Role
from app.ui.router import install_ui

logger = logging.getLogger("agent_memory.app")


class StartupRefused(RuntimeError):
    """The server will not start as configured; the reason is logged as one line, without a traceback."""


def log_access(settings: Settings, *, open_mode: bool, live_admin_key: bool) -> None:
    """Say once, at start, whether the server is open or closed and how to get in (`agent-memory serve`
    prints it; one line, at WARNING when nothing but a key made by hand lets anyone in)."""
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    ui = f"http://{host}:{settings.port}/ui"
    if open_mode:
        logger.warning(
            "running OPEN on loopback %s:%s: no key needed, every request acts as admin and %s opens on "
            "the namespaces. The first admin key (`agent-memory keys create --admin`) closes the server, "
            "at once and after every restart",
            host,
            settings.port,
            ui,
        )
    elif settings.admin_key is not None:
        logger.info(
            "running CLOSED: every request needs a key (Authorization: Bearer amk_…); AGENT_MEMORY_ADMIN_KEY "
            "is an admin key, also for signing in to %s",
            ui,
        )
    elif live_admin_key:
        logger.info(
            "running CLOSED: every request needs a key (Authorization: Bearer amk_…), also for signing in "
            "to %s; a lost admin key is replaced with `agent-memory keys create --admin` "
            "(`agent-memory keys list` lists the keys)",
            ui,
        )
    else:
        logger.warning(
            "running CLOSED with no live admin key: every request needs a key, and only a namespace key, if "
            "any, gets in; make an admin key with `agent-memory keys create --admin` and use it (or set it "
            "as AGENT_MEMORY_ADMIN_KEY) to reach everything, %s included",
            ui,
        )


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    from app.core.keys import has_admin_key, starts_open
    from app.worker.supervisor import WorkerSupervisor

    settings: Settings = app.state.settings
    one_blas_thread()
    database = await Database.open(settings)
    engine, url = database.engine, database.url
    app.state.engine = engine
    app.state.database_url = url
    app.state.sessionmaker = create_sessionmaker(engine, app.state.quotas)
    batcher = app.state.remember_batcher = RememberBatcher(engine)
    # None without AGENT_MEMORY_READ_DATABASE_URLS: every read is the primary's.
    replicas = ReplicaSet.from_settings(settings, engine)
    # None when no LLM is configured; compaction (and recall answers) then take their offline paths.
    llm = app.state.llm = LlmClient.from_settings(settings)
    # None with AGENT_MEMORY_EMBEDDINGS=none: recall stays lexical and no embedding job is ever queued.
    semantic = app.state.semantic = Semantic.from_settings(settings)
    supervisor: WorkerSupervisor | None = None
    listener: KeyChangeListener | None = None
    readiness = app.state.readiness = ReadinessProbe(lambda: app.state.database_url)
    # How many recalls run at a time in this process, their ranking off the event loop (app.core.work_slots).
    app.state.work_slots = WorkSlots(
        settings.recall_slots or default_slots(), settings.db_pool_timeout_seconds
    )
    try:
        if app.state.migrate_on_start:
            await upgrade_to_head(engine)
        if replicas is not None:
            await replicas.start()
            app.state.replicas = replicas
        await readiness.start()
        async with app.state.sessionmaker() as db:
            # One of `serve`'s API processes takes the open or closed start `serve` decided, once for all of
            # them: a process started later (a slow start, a restart) must not start closed beside open
            # siblings over a key in the table that did not close them. An admin key did close them.
            decided = app.state.started_open
            live_admin_key = await has_admin_key(db)
            open_mode = (
                await starts_open(db, settings) if decided is None else decided
            ) and not live_admin_key
        app.state.open_mode = OpenMode(active=open_mode, has_admin_key=has_admin_key)
        # Revocations made by other processes (API processes, the CLI) reach this one's key cache.
        listener = app.state.key_listener = KeyChangeListener(
            settings.listen_url(url), app.state.key_cache, app.state.open_mode
        )
        listener.start()
        if open_mode and not settings.binds_loopback():
            reason = (
                f"refusing to serve on {settings.host} without an API key: set AGENT_MEMORY_ADMIN_KEY "
                "(see `agent-memory keys create --admin`) or bind to 127.0.0.1"
            )
            logger.error(reason)
            raise StartupRefused(reason)
        if decided is None:  # else `serve` said it, once for all its API processes
            log_access(settings, open_mode=open_mode, live_admin_key=live_admin_key)
        if semantic is not None:
            async with app.state.sessionmaker() as db:
                app.state.vector_store = await repository.vector_store(db)
                # Memories written while embeddings were off, or vectors of another model: queued now.
                backfill = await enqueue_backfill(db, semantic) if app.state.vector_store else 0
                await db.commit()
            if backfill:
                logger.info("%d profile(s) queued for vectors of %s", backfill, semantic.model)
            await semantic.embedder.load()  # the local model's weights now, not on the first recall
        if app.state.run_worker:
            # Its own process: extraction is CPU-bound and must never run on the API's event loop.
            supervisor = WorkerSupervisor(settings, url)
            await supervisor.start()
            app.state.worker_supervisor = supervisor
        async with mcp_lifespan(app):
            freeze_startup_objects()  # full collections stop scanning startup's objects (app.core.heap)
            yield
    finally:
        await readiness.stop()
        if supervisor is not None:
            await supervisor.stop()
        if listener is not None:
            await listener.stop()
        if llm is not None:
            await llm.aclose()
        if semantic is not None:
            await semantic.aclose()
        await batcher.close()
        if replicas is not None:
            app.state.replicas = None
            await replicas.close()
        await database.close()
        tracing.shutdown()
        process_exited()


def create_app(
    settings: Settings | None = None,
    *,
    run_worker: bool | None = None,
    migrate_on_start: bool = True,
    started_open: bool | None = None,
) -> FastAPI:
    """The application; `started_open`: whether it starts in open mode, when `serve` decided it for all its
    API processes (None: decided at start from the keys in the database, `keys.starts_open`)."""
    settings = settings or get_settings()
    app = FastAPI(
        title="agent-memory",
        version=__version__,
        summary="Self-hosted memory for AI agents: the Agent Memory API and the Session API over REST.",
        lifespan=lifespan,
        separate_input_output_schemas=False,
        # operationId = the endpoint function's name, so generated SDKs read naturally.
        generate_unique_id_function=lambda route: route.name,
        # /docs from the package's own Swagger UI assets (install_docs); no CDN-loaded pages.
        docs_url=None,
        redoc_url=None,
        # FastAPI's own OpenTelemetry hooks off: tracing is app.core.tracing's (OTEL_EXPORTER_OTLP_ENDPOINT),
        # and the native check asks the global providers again on every request (~5% of remember's CPU).
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    app.state.settings = settings
    app.state.key_cache = KeyCache()
    app.state.auth_refusals = AuthRefusals()
    app.state.quotas = QuotaBook.from_settings(settings)
    app.state.run_worker = settings.run_worker if run_worker is None else run_worker
    app.state.migrate_on_start = migrate_on_start
    app.state.started_open = started_open
    app.state.replicas = None
    install_error_handlers(app)
    # Innermost: a request the guards refuse neither routes a read nor gets a token.
    app.add_middleware(ConsistencyMiddleware)
    app.add_middleware(BodyGuardMiddleware)
    install_cors(app, settings.cors_origin_list)  # outside the guard: a preflight is answered before it
    app.add_middleware(
        BrowserGuardMiddleware,
        is_open=lambda: bool(getattr(app.state, "open_mode", None) and app.state.open_mode.active),
        origins=settings.cors_origin_list,
    )
    # Inside the request context (its answers logged, counted, given a request id and the hardening
    # headers), outside everything else: a refused made-up key costs next to nothing.
    app.add_middleware(AuthRefusalMiddleware)
    app.add_middleware(RequestContextMiddleware)
    for router in ROUTERS:
        app.include_router(router)
    install_mcp(app)
    install_docs(app)
    install_ui(app)
    tracing.instrument_app(app)  # no-op unless OTEL_EXPORTER_OTLP_ENDPOINT is set
    app.openapi = lambda: build_openapi(app)  # type: ignore[method-assign]
    return app


# How `serve` tells its API processes whether the server started open (not a setting: `serve` writes it).
STARTED_OPEN_ENV = "AGENT_MEMORY_SERVE_STARTED_OPEN"


def serve_processes(settings: Settings, processes: int) -> bool:
    """`serve --workers N`: N uvicorn processes on one socket, with what must happen once done here, once.

    This process starts the embedded server if there is no database URL, migrates, refuses an open server
    off loopback, and supervises the one worker process; the API processes (`create_process_app`) get the
    resolved URL and these settings through the environment, and share a fresh Prometheus multiprocess
    directory, removed at exit. Returns False when the server could not start.
    """
    import shutil
    import tempfile
    import threading

    import uvicorn
    from uvicorn.supervisors import Multiprocess

    from app.core.keys import has_admin_key, starts_open
    from app.worker.supervisor import WorkerSupervisor

    metrics_dir = tempfile.mkdtemp(prefix="agent-memory-metrics-")
    loop = asyncio.new_event_loop()
    # The supervisor's child watching needs a running loop; uvicorn's own supervision needs the main thread.
    thread = threading.Thread(target=loop.run_forever, name="serve-supervision", daemon=True)
    thread.start()
    database: Database | None = None
    supervisor: WorkerSupervisor | None = None

    async def start() -> tuple[str, bool]:
        nonlocal database, supervisor
        database = await Database.open(settings)
        url = database.url
        await upgrade_to_head(database.engine)
        async with create_sessionmaker(database.engine)() as db:
            open_mode = await starts_open(db, settings)
            live_admin_key = await has_admin_key(db)
        # The API processes open their own pools; this one only kept the embedded server, if any.
        await database.engine.dispose()
        if open_mode and not settings.binds_loopback():
            raise StartupRefused(
                f"refusing to serve on {settings.host} without an API key: set AGENT_MEMORY_ADMIN_KEY "
                "(see `agent-memory keys create --admin`) or bind to 127.0.0.1"
            )
        log_access(settings, open_mode=open_mode, live_admin_key=live_admin_key)
        if settings.run_worker:
            supervisor = WorkerSupervisor(settings, url)
            await supervisor.start()
        return url, open_mode

    async def stop() -> None:
        if supervisor is not None:
            await supervisor.stop()
        if database is not None:
            await database.close()

    try:
        try:
            url, open_mode = asyncio.run_coroutine_threadsafe(start(), loop).result()
        except StartupRefused as exc:
            logger.error("%s", exc)
            return False
        os.environ.update(settings.as_environment())
        os.environ["AGENT_MEMORY_DATABASE_URL"] = to_plain_url(url)
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
        os.environ[STARTED_OPEN_ENV] = "1" if open_mode else "0"
        config = uvicorn.Config(
            "app.main:create_process_app",
            factory=True,
            host=settings.host,
            port=settings.port,
            workers=processes,
            log_config=None,
            access_log=False,
            lifespan="on",
        )
        logger.info("serving with %d API processes", processes)
        Multiprocess(config, sockets=[config.bind_socket()]).run()
        return True
    finally:
        asyncio.run_coroutine_threadsafe(stop(), loop).result()
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=5)
        shutil.rmtree(metrics_dir, ignore_errors=True)


def _stop_with_parent() -> None:
    """An API process ends (SIGTERM: uvicorn's graceful shutdown) when `serve` dies, even by SIGKILL.
    Left running, orphans kept the port, so a restarted `serve` could not bind it, and kept answering with
    no worker behind them (seen in the fault suite's api-kill). Linux only (prctl PR_SET_PDEATHSIG)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    pr_set_pdeathsig = 1
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


def create_process_app() -> FastAPI:
    """One of `serve --workers N`'s API processes (uvicorn's factory): settings from the environment `serve`
    prepared; the database is migrated, and the worker supervised, by `serve` itself, once."""
    from app.core.logging import configure_logging

    _stop_with_parent()
    settings = Settings()
    configure_logging(settings.log_format, settings.log_level)
    started_open = os.environ.get(STARTED_OPEN_ENV)
    return create_app(
        settings,
        run_worker=False,
        migrate_on_start=False,
        started_open=None if started_open is None else started_open == "1",
    )


def build_openapi(app: FastAPI) -> dict[str, object]:
    """The OpenAPI document: operationIds are the endpoint names; ops endpoints need no key."""
    if app.openapi_schema:
        return app.openapi_schema
    schema = get_openapi(
        title=app.title,
        version=app.version,
        summary=app.summary,
        routes=app.routes,
        tags=TAGS,
        separate_input_output_schemas=False,
    )
    for path, item in schema.get("paths", {}).items():
        for method, operation in item.items():
            if path in ("/healthz", "/readyz", "/metrics"):
                operation["security"] = []
            # The guards in front of every route (app.core.middleware): headers past their limit, and an
            # open server's rules for what a web page may send.
            guards = [403, 421, 431, *([415] if method.upper() in STATE_CHANGING else [])]
            if path not in ("/healthz", "/readyz", "/metrics", "/openapi.json"):
                guards.append(
                    429
                )  # a namespace's requests per minute (app.core.quotas), failed authentications
            responses = operation.setdefault("responses", {})
            for status, response in error_responses(*guards).items():
                responses.setdefault(str(status), {k: v for k, v in response.items() if k != "model"})
    shape_for_sdks(
        schema,
        named_literals(
            ThinkingLevel=ThinkingLevel,
            ResponseLength=ResponseLength,
            MessageRole=Role,
            ToolState=ToolState,
            BlockKind=BlockKind,
            KeyScope=KeyScope,
        ),
    )
    app.openapi_schema = schema
    return schema
