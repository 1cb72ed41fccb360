"""The one harness of the benchmarks, also used by the tests that run the service as a process: a throw-away
database on a PostgreSQL server, the service (or any HTTP process) on a free loopback port until it answers
ready, the common command-line flags, and tables printed (and kept for `--json`).

Everything talks to 127.0.0.1 only. The benchmarks' PostgreSQL is `--database-url` (default
AGENT_MEMORY_BENCH_SERVER_URL, else postgresql://postgres@127.0.0.1:5432/test): each run creates its own
database there and drops it at the end. `Server()` with no AGENT_MEMORY_DATABASE_URL in its environment
serves from the embedded PostgreSQL instead (under AGENT_MEMORY_DATA_DIR).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Self
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import httpx

ROOT = Path(__file__).resolve().parents[1]
BENCH_SERVER_URL = os.environ.get(
    "AGENT_MEMORY_BENCH_SERVER_URL", "postgresql://postgres@127.0.0.1:5432/test"
)
ADMIN_KEY = "amk_benchadmin_" + secrets.token_hex(16)
# `python -m app serve` on the loopback; "{port}" in a server's arguments stands for its port.
SERVE = ("-m", "app", "serve", "--host", "127.0.0.1", "--port", "{port}")


def free_port() -> int:
    """A loopback port nothing listens on (at the moment of asking)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def with_database(url: str, database: str) -> str:
    """The same server's URL for another database."""
    return urlunsplit(urlsplit(url)._replace(path="/" + database))


async def _admin(server_url: str, statement: str) -> None:
    admin = await asyncpg.connect(server_url)
    try:
        await admin.execute(statement)
    finally:
        await admin.close()


async def create_database(server_url: str, prefix: str, *, exact: bool = False) -> tuple[str, str]:
    """A new, empty database on the server of `server_url`, named `prefix` and a random suffix (or just
    `prefix` when `exact`); returns (name, its URL)."""
    name = prefix if exact else f"{prefix}_{os.getpid()}_{secrets.token_hex(3)}"
    await _admin(server_url, f'CREATE DATABASE "{name}"')
    return name, with_database(server_url, name)


async def drop_database(server_url: str, name: str) -> None:
    await _admin(server_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.asynccontextmanager
async def fresh_database(server_url: str, prefix: str, *, keep: bool = False) -> AsyncIterator[str]:
    """A new database for as long as the block lasts (its URL), dropped at the end unless `keep`."""
    name, url = await create_database(server_url, prefix)
    try:
        yield url
    finally:
        if keep:
            print(f"kept database {name}", file=sys.stderr)
        else:
            await drop_database(server_url, name)


def serve_args(*extra: str, worker: bool = True) -> tuple[str, ...]:
    """`python -m app serve` on the loopback with these arguments; `worker=False`: without its worker."""
    return (*SERVE, *(() if worker else ("--no-worker",)), *extra)


@dataclass
class Server:
    """A Python process that answers HTTP on a free loopback port (by default `agent-memory serve`), its
    output kept in a file for when it dies. Use it as a context manager (`with` or `async with`): started,
    ready, then stopped; or `spawn()`, `wait_ready()` and `stop()` for timing them.

    `env` is added to this process's environment; with `inherit_settings=False` the caller's own
    AGENT_MEMORY_* and OTEL_* variables are left out (a test must not pick up the developer's
    configuration)."""

    env: dict[str, str] = field(default_factory=dict)
    args: Sequence[str] = SERVE
    ready_path: str = "/readyz"
    # The working directory: `serve --workers N` starts its API processes with it first on their sys.path,
    # so a checkout served through PYTHONPATH must be served from its own directory as well.
    cwd: Path = ROOT
    inherit_settings: bool = True
    # A further condition for ready, checked once the ready path answers 200.
    ready_when: Callable[[], bool] | None = None
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    log_path: Path | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def spawn(self) -> float:
        """Start the process; returns the monotonic time it was spawned."""
        command = [sys.executable, *(a.replace("{port}", str(self.port)) for a in self.args)]
        env = dict(os.environ)
        if not self.inherit_settings:
            env = {k: v for k, v in env.items() if not k.startswith(("AGENT_MEMORY_", "OTEL_"))}
        env.update(self.env)
        self.log_path = Path(tempfile.gettempdir()) / f"agent-memory-harness-{self.port}.log"
        with self.log_path.open("wb") as log:
            started = time.monotonic()
            self.process = subprocess.Popen(
                command, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=self.cwd
            )
        return started

    def wait_ready(self, timeout: float = 60.0) -> float:
        """Poll the ready path until 200 (and `ready_when`); returns the monotonic time it first was."""
        deadline = time.monotonic() + timeout
        with httpx.Client(base_url=self.base_url, timeout=2.0) as client:
            while time.monotonic() < deadline:
                if self.process is not None and self.process.poll() is not None:
                    raise RuntimeError(
                        f"{self.args} exited with {self.process.returncode}:\n{self.log_tail()}"
                    )
                with contextlib.suppress(httpx.TransportError):
                    if client.get(self.ready_path).status_code == 200 and (
                        self.ready_when is None or self.ready_when()
                    ):
                        return time.monotonic()
                time.sleep(0.02)
        raise TimeoutError(f"{self.args} not ready after {timeout}s:\n{self.log_tail()}")

    async def ready(self, timeout: float = 60.0) -> float:
        """`wait_ready` from async code: the polling blocks, so in a thread (the caller's loop runs on)."""
        return await asyncio.to_thread(self.wait_ready, timeout)

    def log_tail(self, lines: int = 30) -> str:
        if self.log_path is None or not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def stop(self, timeout: float = 30.0) -> int | None:
        """SIGTERM, then SIGKILL after `timeout`; returns the exit code (None if it was never started)."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode

    def __enter__(self) -> Self:
        self.spawn()
        try:
            self.wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.stop()
        if error is None and self.log_path is not None:
            # Kept only when the block failed: that is when it is read.
            self.log_path.unlink(missing_ok=True)

    async def __aenter__(self) -> Self:
        self.spawn()
        try:
            await self.ready()
        except BaseException:
            self.stop()
            raise
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.__exit__(kind, error, trace)


def service(
    database_url: str,
    *,
    worker: bool = True,
    extra_args: Sequence[str] = (),
    env: dict[str, str] | None = None,
    cwd: Path = ROOT,
) -> Server:
    """`agent-memory serve` on `database_url` with the bench's admin key, quiet logs; `env`: more environment
    for it, `cwd`: the directory it runs in."""
    return Server(
        env={
            "AGENT_MEMORY_DATABASE_URL": database_url,
            "AGENT_MEMORY_ADMIN_KEY": ADMIN_KEY,
            "AGENT_MEMORY_LOG_LEVEL": "WARNING",
            **(env or {}),
        },
        args=serve_args(*extra_args, worker=worker),
        cwd=cwd,
    )


async def scoped_key(base_url: str, namespace: str) -> str:
    """Create the namespace and a key scoped to it, as an agent deployment would use."""
    async with httpx.AsyncClient(
        base_url=base_url, headers={"Authorization": f"Bearer {ADMIN_KEY}"}, timeout=30
    ) as client:
        created = await client.post("/v1/namespaces", json={"name": namespace})
        assert created.status_code in (201, 409), created.text
        key = await client.post(f"/v1/namespaces/{namespace}/keys", json={"name": "bench"})
        assert key.status_code == 201, key.text
        return str(key.json()["key"])


async def created_profile(base_url: str, key: str, database_url: str, namespace: str, profile: str) -> int:
    """Create the profile through the API (as any write would) and return its database id, for loading it
    in bulk with COPY."""
    async with httpx.AsyncClient(base_url=base_url, headers={"Authorization": f"Bearer {key}"}) as client:
        created = await client.put(f"/v1/namespaces/{namespace}/profiles/{profile}")
        assert created.status_code in (200, 201), created.text
    conn = await asyncpg.connect(database_url)
    try:
        found = await conn.fetchval(
            "SELECT p.id FROM profiles p JOIN namespaces n ON n.id = p.namespace_id "
            "WHERE n.name = $1 AND n.deleted_at IS NULL AND p.name = $2 AND p.deleted_at IS NULL",
            namespace,
            profile,
        )
    finally:
        await conn.close()
    return int(found)


# -- flags and output -----------------------------------------------------------------------------


def parser(doc: str | None, *, database: bool = True, json_output: bool = True) -> argparse.ArgumentParser:
    """A benchmark's argument parser with the shared flags: `--database-url` and `--keep` (where it makes a
    throw-away database) and `--json` (where its figures are tables). Its description is the module's
    docstring."""
    p = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    if database:
        p.add_argument(
            "--database-url",
            default=BENCH_SERVER_URL,
            help="PostgreSQL server to create the throw-away database(s) on (default %(default)s)",
        )
        p.add_argument("--keep", action="store_true", help="keep the database(s) at the end")
    if json_output:
        p.add_argument(
            "--json", default=None, metavar="PATH", help="also write the printed tables here as JSON"
        )
    return p


def load_flags(
    p: argparse.ArgumentParser, *, connections: int, seconds: float, rounds: int, workers: int | None = None
) -> None:
    """The flags of the load benchmarks, named and meant alike in each (older names kept as aliases):
    `--connections` keep-alive connections, `--seconds` counted per figure, `--rounds` (medians
    reported), and `--workers`, the API processes of each server (`serve --workers`; 0: its default)."""
    p.add_argument(
        "--connections",
        "--concurrency",
        type=int,
        default=connections,
        help="concurrent keep-alive connections",
    )
    p.add_argument("--seconds", type=float, default=seconds, help="counted seconds per figure")
    p.add_argument(
        "--rounds", "--runs", type=int, default=rounds, help="rounds of each figure (medians reported)"
    )
    if workers is not None:
        p.add_argument("--workers", type=int, default=workers, help="API processes of each server")


def run_benchmark(
    p: argparse.ArgumentParser,
    run: Callable[[argparse.Namespace], Coroutine[Any, Any, object]],
    argv: Sequence[str] | None,
) -> int:
    """A benchmark's `main`: parse its flags, run it (on uvloop where installed: the service runs on it
    too), write `--json`."""
    args = p.parse_args(argv)
    try:
        import uvloop
    except ImportError:
        asyncio.run(run(args))
    else:
        uvloop.run(run(args))
    write_json(getattr(args, "json", None))
    return 0


# Every table printed in this process, for `--json`.
TABLES: list[dict[str, Any]] = []


def print_table(title: str, headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    TABLES.append({"title": title, "headers": list(headers), "rows": [list(r) for r in rows]})
    cells = [[_cell(v) for v in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(headers)]
    print(f"\n{title}")
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for row in cells:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))
    sys.stdout.flush()


def _cell(value: Any) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return "-"
        return f"{value:,.2f}" if abs(value) < 100 else f"{value:,.0f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def write_json(path: str | None, **extra: Any) -> None:
    """With `--json PATH`: the tables printed so far, the command and the load average, in one file."""
    if path is None:
        return
    document = {"command": sys.argv, "load_average": load_average(), "tables": TABLES, **extra}
    Path(path).write_text(json.dumps(document, indent=1, default=str), encoding="utf-8")
    print(f"wrote {path}", file=sys.stderr)
