"""The ops files say what the README says: compose services and commands, Dockerfile basics, CI script."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def test_compose_file_parses_and_names_the_services() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert set(services) == {"postgres", "migrate", "api", "worker"}
    assert services["postgres"]["image"].startswith("pgvector/pgvector:")
    assert "healthcheck" in services["postgres"]
    assert services["migrate"]["command"] == ["agent-memory", "migrate"]
    assert services["api"]["command"][:2] == ["agent-memory", "serve"]
    assert services["worker"]["command"] == ["agent-memory", "worker"]
    for name in ("api", "worker"):
        assert services[name]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        assert services[name]["environment"]["AGENT_MEMORY_DATABASE_URL"].startswith("postgresql://")


def test_dockerfile_runs_as_non_root() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "\nUSER agent\n" in dockerfile
    assert 'CMD ["agent-memory", "serve"]' in dockerfile


def test_readme_commands_exist() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "agent-memory serve" in readme
    assert "pytest" in readme and "pytest" in (ROOT / ".ci" / "run").read_text()
