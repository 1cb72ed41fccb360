"""The `agent-memory` command: serve, worker, migrate, keys, openapi."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from pydantic import ValidationError

from app.core.settings import Settings

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
) -> None:
    """Run the API (and, by default, a worker). With no database URL, on the embedded PostgreSQL."""
    import uvicorn

    from app.main import create_app

    settings = load_settings(host=host, port=port, run_worker=worker)
    _configure(settings)
    app = create_app(settings)
    config = uvicorn.Config(
        app, host=settings.host, port=settings.port, log_config=None, access_log=False, lifespan="on"
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
) -> None:
    """Run a worker process (run several to scale out). Stops cleanly on SIGTERM/SIGINT."""
    settings = load_settings()
    _configure(settings)
    from app.worker.process import run_worker_process

    _run(lambda: run_worker_process(settings, parent_pid=parent_pid))


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


@keys_cli.command("create")
def keys_create(
    admin: Annotated[bool, typer.Option("--admin", help="An admin key (everything).")] = False,
    namespace: Annotated[
        str | None, typer.Option("--namespace", help="A key scoped to this namespace.")
    ] = None,
    name: Annotated[str, typer.Option(help="A label for the key.")] = "cli",
) -> None:
    """Create an API key and print it (shown once)."""
    if admin == (namespace is not None):
        typer.echo("give exactly one of --admin or --namespace NS", err=True)
        raise typer.Exit(2)
    settings = load_settings()

    async def main() -> str:
        from app.core.db import create_sessionmaker
        from app.core.errors import AppError
        from app.core.migrations import upgrade_to_head
        from app.namespaces import service

        async with database(settings) as (engine, _):
            await upgrade_to_head(engine)
            async with create_sessionmaker(engine)() as db:
                try:
                    if namespace is not None:
                        token = await service.create_scoped_key(db, namespace, name)
                    else:
                        token = await service.create_admin_key(db, name)
                except AppError as exc:
                    typer.echo(f"agent-memory: {exc.detail}", err=True)
                    raise typer.Exit(1) from None
                await db.commit()
                return token

    typer.echo(_run(main))


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


def main() -> None:
    cli()
