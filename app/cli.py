"""The `agent-memory` command: serve, worker, migrate, keys, openapi, export, import."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from pydantic import ValidationError

from app.core.settings import Settings

if TYPE_CHECKING:
    from rich.console import Console

cli = typer.Typer(help="agent-memory: a self-hosted memory service for AI agents.", no_args_is_help=True)
keys_cli = typer.Typer(help="Manage API keys.", no_args_is_help=True)
cli.add_typer(keys_cli, name="keys")

OPENAPI_PATH = Path(__file__).resolve().parents[1] / "openapi" / "openapi.json"
T = TypeVar("T")


def load_settings(**overrides: Any) -> Settings:
    """Settings from the environment plus command-line overrides; a bad value ends the command clearly."""
    try:
        return Settings(**{k: v for k, v in overrides.items() if v is not None})
    except ValidationError as exc:
        lines = [
            f"  AGENT_MEMORY_{'_'.join(str(p) for p in e['loc']).upper()}: {e['msg']}" for e in exc.errors()
        ]
        typer.echo("agent-memory: invalid configuration:\n" + "\n".join(lines), err=True)
        raise typer.Exit(2) from None


def _configure(settings: Settings) -> None:
    from app.core.logging import configure_logging

    configure_logging(settings.log_format, settings.log_level)


@asynccontextmanager
async def database(settings: Settings) -> AsyncIterator[tuple[Any, str]]:
    """An engine on the configured database, or on the embedded server (started and stopped here)."""
    from app.core.db import create_engine
    from app.core.embedded import EmbeddedPostgres

    embedded = None
    url = settings.async_database_url
    if url is None:
        embedded = EmbeddedPostgres(settings.data_dir)
        url = await asyncio.to_thread(embedded.start)
    engine = create_engine(url, settings)
    try:
        yield engine, url
    finally:
        await engine.dispose()
        if embedded is not None:
            await asyncio.to_thread(embedded.stop)


def _run(coro_fn: Callable[[], Awaitable[T]]) -> T:
    async def main() -> T:
        return await coro_fn()

    return asyncio.run(main())


@cli.command()
def serve(
    host: Annotated[str | None, typer.Option(help="Bind address (AGENT_MEMORY_HOST).")] = None,
    port: Annotated[int | None, typer.Option(help="Port (AGENT_MEMORY_PORT).")] = None,
    worker: Annotated[
        bool | None,
        typer.Option("--worker/--no-worker", help="Start a supervised worker process with the API."),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            min=1,
            max=64,
            help="API processes (AGENT_MEMORY_WORKERS). Default: one per core with an external database, "
            "one on the embedded server.",
        ),
    ] = None,
) -> None:
    """Run the API (and, by default, a worker). With no database URL, on the embedded PostgreSQL."""
    settings = load_settings(host=host, port=port, run_worker=worker, workers=workers)
    _configure(settings)
    processes = settings.api_processes(os.cpu_count())
    if processes == 1:
        _serve_one(settings)
    else:
        from app.main import serve_processes

        if not serve_processes(settings, processes):
            raise typer.Exit(1)


def _serve_one(settings: Settings) -> None:
    import uvicorn

    from app.core.middleware import HEADERS_LIMIT
    from app.main import create_app

    app = create_app(settings)
    config = uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        log_config=None,
        access_log=False,
        lifespan="on",
        # With the h11 parser, a request's headers past this size are refused while they arrive; the
        # app's guard refuses them too (app.core.middleware.HEADERS_LIMIT) whichever parser runs.
        h11_max_incomplete_event_size=HEADERS_LIMIT,
    )
    server = uvicorn.Server(config)
    server.run()
    if not server.started:
        raise typer.Exit(1)


@cli.command("worker")
def worker_command(
    parent_pid: Annotated[
        int | None, typer.Option(hidden=True, help="Stop when this process (serve) is gone.")
    ] = None,
    metrics_port: Annotated[
        int | None,
        typer.Option(help="Serve /healthz and /metrics on this port (AGENT_MEMORY_WORKER_METRICS_PORT)."),
    ] = None,
    metrics_host: Annotated[
        str | None, typer.Option(help="Bind address of that port (AGENT_MEMORY_WORKER_METRICS_HOST).")
    ] = None,
) -> None:
    """Run a worker process (run several to scale out). Stops cleanly on SIGTERM/SIGINT."""
    settings = load_settings(worker_metrics_port=metrics_port, worker_metrics_host=metrics_host)
    _configure(settings)
    from app.core import tracing
    from app.worker.process import run_worker_process

    tracing.setup("agent-memory-worker")
    try:
        _run(
            lambda: run_worker_process(
                settings, parent_pid=parent_pid, metrics_port=settings.worker_metrics_port
            )
        )
    finally:
        tracing.shutdown()


@cli.command()
def migrate() -> None:
    """Bring the database schema to the newest migration."""
    settings = load_settings()
    _configure(settings)

    async def main() -> None:
        from app.core.migrations import current_revision, upgrade_to_head

        async with database(settings) as (engine, _):
            await upgrade_to_head(engine)
            typer.echo(f"schema at {await current_revision(engine)}")

    _run(main)


async def _with_keys_db(settings: Settings, action: Callable[[Any], Awaitable[T]]) -> T:
    """Run `action(db)` on the configured database (schema brought to head), commit; an AppError ends
    the command with its message and exit status 1."""
    from app.core.db import create_sessionmaker
    from app.core.errors import AppError
    from app.core.migrations import upgrade_to_head

    async with database(settings) as (engine, _):
        await upgrade_to_head(engine)
        async with create_sessionmaker(engine)() as db:
            try:
                result = await action(db)
            except AppError as exc:
                typer.echo(f"agent-memory: {exc.detail}", err=True)
                raise typer.Exit(1) from None
            await db.commit()
            return result


@keys_cli.command("create")
def keys_create(
    admin: Annotated[bool, typer.Option("--admin", help="An admin key (everything).")] = False,
    namespace: Annotated[
        str | None, typer.Option("--namespace", help="A key scoped to this namespace.")
    ] = None,
    name: Annotated[str, typer.Option(help="A label for the key.")] = "cli",
    env: Annotated[
        bool,
        typer.Option("--env", help="Print an env line (AGENT_MEMORY_ADMIN_KEY=… / AGENT_MEMORY_KEY=…)."),
    ] = False,
) -> None:
    """Create an API key and print it (shown once). A running server honours it at once: the first admin
    key ends open mode within seconds, without a restart."""
    if admin == (namespace is not None):
        typer.echo("give exactly one of --admin or --namespace NS", err=True)
        raise typer.Exit(2)
    settings = load_settings()

    async def create(db: Any) -> str:
        from app.namespaces import service

        if namespace is not None:
            return await service.create_scoped_key(db, settings, namespace, name)
        return await service.create_admin_key(db, name)

    token = _run(lambda: _with_keys_db(settings, create))
    if env:
        typer.echo(f"{'AGENT_MEMORY_ADMIN_KEY' if admin else 'AGENT_MEMORY_KEY'}={token}")
    else:
        typer.echo(token)


@keys_cli.command("list")
def keys_list(
    namespace: Annotated[str | None, typer.Option("--namespace", help="Only this namespace's keys.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON lines instead of a table.")] = False,
) -> None:
    """List API keys (never their secrets): id, name, namespace (or admin), created, revoked."""
    settings = load_settings()

    async def list_keys(db: Any) -> list[Any]:
        from app.namespaces import service

        return await service.list_all_keys(db, namespace)

    keys = _run(lambda: _with_keys_db(settings, list_keys))
    if as_json:
        for key in keys:
            typer.echo(key.model_dump_json(by_alias=True))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table("id", "name", "namespace", "created", "revoked")
    for key in keys:
        table.add_row(
            key.id,
            key.name,
            key.namespace or "(admin)",
            key.created_at.isoformat(timespec="seconds"),
            key.revoked_at.isoformat(timespec="seconds") if key.revoked_at else "",
        )
    Console().print(table)


@keys_cli.command("revoke")
def keys_revoke(key_id: Annotated[str, typer.Argument(help="The key's id (amk_<keyId>_…).")]) -> None:
    """Revoke a key; servers refuse it within seconds (their key cache's lifetime)."""
    settings = load_settings()

    async def revoke(db: Any) -> Any:
        from app.core.auth import parse_key
        from app.namespaces import service

        parsed = parse_key(key_id)  # the whole key works too
        return await service.revoke_any_key(db, parsed[0] if parsed else key_id)

    key = _run(lambda: _with_keys_db(settings, revoke))
    typer.echo(f"revoked {key.id}", err=True)


def render_openapi() -> str:
    from app.main import create_app

    document = create_app(Settings()).openapi()
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


@cli.command()
def openapi(
    write: Annotated[bool, typer.Option("--write", help=f"Write {OPENAPI_PATH.name} into openapi/.")] = False,
) -> None:
    """Print the OpenAPI document, or write the committed copy with --write."""
    document = render_openapi()
    if write:
        OPENAPI_PATH.parent.mkdir(parents=True, exist_ok=True)
        OPENAPI_PATH.write_text(document, encoding="utf-8")
        typer.echo(f"wrote {OPENAPI_PATH}", err=True)
    else:
        sys.stdout.write(document)


ServerUrl = Annotated[
    str,
    typer.Option("--url", envvar="AGENT_MEMORY_URL", help="Base URL of the agent-memory server."),
]
ApiKey = Annotated[
    str | None,
    typer.Option("--key", envvar="AGENT_MEMORY_API_KEY", help="API key (admin or scoped to the namespace)."),
]


@contextmanager
def _transfer_console(command: str) -> Iterator[Console]:
    """The progress console of `export`/`import` (stderr); a failure inside prints one line and exits 1."""
    from rich.console import Console

    from app.transfer.client import TransferFailed

    console = Console(stderr=True)
    try:
        yield console
    except (TransferFailed, OSError) as exc:
        console.print(f"agent-memory {command}: {exc}")
        raise typer.Exit(1) from None
    except Exception as exc:  # httpx's connection errors, among others
        console.print(f"agent-memory {command}: {type(exc).__name__}: {exc}")
        raise typer.Exit(1) from None


@cli.command("export")
def export_command(
    namespace: Annotated[str, typer.Argument(help="The namespace to export.")],
    output: Annotated[str, typer.Option("--output", "-o", help="File to write; - for stdout.")] = "-",
    profile: Annotated[str | None, typer.Option("--profile", help="Export only this profile.")] = None,
    url: ServerUrl = "http://127.0.0.1:8080",
    key: ApiKey = None,
) -> None:
    """Export a namespace (or one profile) as NDJSON through the HTTP API, with a progress bar on stderr."""
    from app.transfer.client import export_to

    with _transfer_console("export") as console:
        if output == "-":
            outcome = export_to(url, key, namespace, profile, sys.stdout.buffer, console)
        else:
            with open(output, "wb") as out:
                outcome = export_to(url, key, namespace, profile, out, console)
    console.print(f"exported {outcome.records:,} records ({outcome.bytes:,} bytes)")


@cli.command("import")
def import_command(
    namespace: Annotated[str, typer.Argument(help="The namespace to import into (it must exist).")],
    input_path: Annotated[str, typer.Option("--input", "-i", help="File to read; - for stdin.")] = "-",
    url: ServerUrl = "http://127.0.0.1:8080",
    key: ApiKey = None,
) -> None:
    """Import an NDJSON export through the HTTP API: idempotent, all-or-nothing; progress on stderr."""
    from app.transfer.client import file_size, import_from

    with _transfer_console("import") as console:
        if input_path == "-":
            outcome = import_from(url, key, namespace, sys.stdin.buffer, None, console)
        else:
            with open(input_path, "rb") as source:
                outcome = import_from(url, key, namespace, source, file_size(source), console)
    console.print(f"imported {outcome.detail}")


def main() -> None:
    cli()
