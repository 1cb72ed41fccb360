"""The Google ADK adapter (agent_memory_client.integrations.google_adk) with ADK's own classes against a live
`agent-memory serve`. ADK pins `websockets<16`, older than the service's, so it is not in the service's
venv: this test makes a venv of its own, installs `./clients/python[google-adk]` there (from PyPI, at the
extra's pinned range: google-adk 2.15.0), and runs tests/clients/google_adk_check.py in it, which checks the
adapter through ADK's Runner, sessions, events and PreloadMemoryTool, then runs
docs/integrations/google-adk.md's example as written, twice."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.clients.conftest import client_venv

ROOT = Path(__file__).resolve().parents[2]
ADK_VERSION = "2.15.0"  # the version the extra's range is tested with


def test_google_adk_memory_service(live_server: str, tmp_path: Path) -> None:
    python = client_venv(tmp_path, "google-adk", timeout=900)
    version = subprocess.run(
        [str(python), "-c", "from importlib.metadata import version; print(version('google-adk'))"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert version.stdout.strip() == ADK_VERSION, version.stdout

    env = {k: v for k, v in os.environ.items() if not k.startswith(("AGENT_MEMORY_", "GOOGLE_"))}
    env["AGENT_MEMORY_URL"] = live_server
    ran = subprocess.run(
        [
            str(python),
            str(ROOT / "tests" / "clients" / "google_adk_check.py"),
            str(ROOT / "docs" / "integrations" / "google-adk.md"),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert ran.returncode == 0, ran.stdout[-4000:] + ran.stderr[-4000:]
    assert "google-adk checks: all passed" in ran.stdout, ran.stdout
    assert ran.stdout.count("ok: ") == 18, ran.stdout  # every check ran
