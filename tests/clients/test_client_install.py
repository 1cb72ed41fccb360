"""The README's Python client section as a new user follows it: a fresh venv, `pip install ./clients/python`
(from PyPI for its dependencies, nothing of the service's venv), then the README's example run as written
against `agent-memory serve` (its address through AGENT_MEMORY_URL, as the example's comment says), after the
walk-through's first line made the namespace `demo`."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import httpx

from tests.clients.conftest import client_venv

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def client_section() -> str:
    start = README.index("## Clients and framework integrations")
    return README[start : README.find("\n## ", start + 3)]


def test_readme_client_example_in_a_fresh_venv(live_server: str, tmp_path: Path) -> None:
    section = client_section()
    assert "pip install ./clients/python" in section
    (example,) = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert len([line for line in example.splitlines() if line.strip() and not line.startswith("from ")]) == 3

    python = client_venv(tmp_path)
    # Installed, not read from the checkout: run from elsewhere, and the module lives in the venv.
    where = subprocess.run(
        [str(python), "-c", "import agent_memory_client; print(agent_memory_client.__file__)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert where.stdout.startswith(str(python.parents[1])), where

    assert httpx.post(f"{live_server}/v1/namespaces", json={"name": "demo"}).status_code in (201, 409)
    script = tmp_path / "example.py"
    script.write_text(example)
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENT_MEMORY_")}
    env["AGENT_MEMORY_URL"] = live_server
    for _ in range(2):  # a second run over the first's state answers the same
        ran = subprocess.run(
            [str(python), str(script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
        )
        assert ran.returncode == 0, ran.stderr
        assert "peanuts" in ran.stdout, ran.stdout
