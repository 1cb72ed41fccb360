"""A throw-away PgBouncer in transaction mode in front of a throw-away cluster (bench/faults/cluster.py).

The Debian package's binary (`/usr/sbin/pgbouncer`, `apt-get install pgbouncer`), run as `postgres`
when this process is root (PgBouncer refuses to run as root), on a free loopback port, trusting every
client as the cluster does. Stopped and its directory deleted at the end.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from bench.faults.cluster import Cluster
from bench.harness import free_port

BINARY = os.environ.get("AGENT_MEMORY_PGBOUNCER", shutil.which("pgbouncer") or "/usr/sbin/pgbouncer")


class Bouncer:
    def __init__(self, cluster: Cluster, pool_size: int = 60) -> None:
        self.cluster = cluster
        self.root = Path(tempfile.mkdtemp(prefix="am-pgbouncer-"))
        self.port = free_port()
        self.pool_size = pool_size
        self.process: subprocess.Popen[bytes] | None = None

    def database_url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        (self.root / "users.txt").write_text('"postgres" ""\n')
        (self.root / "pgbouncer.ini").write_text(
            f"""[databases]
* = host=127.0.0.1 port={self.cluster.port}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {self.port}
unix_socket_dir =
auth_type = trust
auth_file = {self.root / "users.txt"}
pool_mode = transaction
max_client_conn = 2000
default_pool_size = {self.pool_size}
server_login_retry = 1
logfile = {self.root / "pgbouncer.log"}
"""
        )
        command = [BINARY, str(self.root / "pgbouncer.ini")]
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
            for child in self.root.iterdir():
                shutil.chown(child, "postgres", "postgres")
            command = ["runuser", "-u", "postgres", "--", *command]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if "listening on 127.0.0.1" in self.log():
                return
            time.sleep(0.05)
        raise RuntimeError(f"pgbouncer did not start:\n{self.log()}")

    def log(self) -> str:
        path = self.root / "pgbouncer.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        shutil.rmtree(self.root, ignore_errors=True)
