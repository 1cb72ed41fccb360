"""The ops files say what the README says: compose services, commands, healthchecks and restart policies,
the worker's own health port, the Dockerfile basics, .dockerignore, the CI script."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _compose() -> dict[str, object]:
    compose: dict[str, object] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return compose


def test_compose_file_parses_and_names_the_services() -> None:
    services = _compose()["services"]
    assert isinstance(services, dict)
    assert set(services) == {"postgres", "migrate", "api", "worker", "prometheus"}
    assert services["postgres"]["image"].startswith("pgvector/pgvector:")
    assert "healthcheck" in services["postgres"]
    assert services["migrate"]["command"] == ["agent-memory", "migrate"]
    assert services["api"]["command"][:2] == ["agent-memory", "serve"]
    assert "--no-worker" in services["api"]["command"]
    for name in ("api", "worker"):
        assert services[name]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        assert services[name]["environment"]["AGENT_MEMORY_DATABASE_URL"].startswith("postgresql://")


def test_long_running_services_restart_and_one_shots_do_not() -> None:
    services = _compose()["services"]
    assert isinstance(services, dict)
    for name in ("postgres", "api", "worker", "prometheus"):
        assert services[name]["restart"] == "unless-stopped", name
    assert services["migrate"]["restart"] == "no"
    assert services["migrate"]["healthcheck"] == {"disable": True}


def test_worker_has_its_own_health_port_and_healthcheck() -> None:
    services = _compose()["services"]
    assert isinstance(services, dict)
    worker = services["worker"]
    command = worker["command"]
    assert command[:2] == ["agent-memory", "worker"]
    port = command[command.index("--metrics-port") + 1]
    assert command[command.index("--metrics-host") + 1] == "0.0.0.0"
    # Not the image's API healthcheck (the worker serves no API): its own port's /healthz.
    assert f"127.0.0.1:{port}/healthz" in " ".join(worker["healthcheck"]["test"])
    assert "127.0.0.1:8080/healthz" in " ".join(services["api"]["healthcheck"]["test"])
    scrape = _compose()["configs"]["prometheus"]["content"]  # type: ignore[index]
    assert f"worker:{port}" in scrape and "api:8080" in scrape
    assert services["prometheus"]["profiles"] == ["metrics"]


def test_compose_starts_without_a_preset_key_and_documents_the_one_liner() -> None:
    text = (ROOT / "docker-compose.yml").read_text()
    services = _compose()["services"]
    assert isinstance(services, dict)
    assert services["api"]["environment"]["AGENT_MEMORY_ADMIN_KEY"] == "${AGENT_MEMORY_ADMIN_KEY:-}"
    one_liner = "docker compose run --rm -T api agent-memory keys create --admin --env >> .env"
    assert one_liner in text and one_liner in (ROOT / "docs" / "operations.md").read_text()


def test_dockerfile_runs_as_non_root() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "\nUSER agent\n" in dockerfile
    assert 'CMD ["agent-memory", "serve"]' in dockerfile


def test_dockerignore_keeps_the_build_context_small() -> None:
    ignored = (ROOT / ".dockerignore").read_text().split()
    for entry in (".git", ".venv", ".agent-memory", ".ci/sdk/node_modules", ".env"):
        assert entry in ignored


def test_readme_commands_exist() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "agent-memory serve" in readme
    assert "pytest" in readme and "pytest" in (ROOT / ".ci" / "run").read_text()
    assert "sdk_check.sh" in (ROOT / ".ci" / "run").read_text()


def test_scaled_compose_file_wires_primary_replica_pooler_two_apis_and_two_workers() -> None:
    """docker-compose.scaled.yml (docs/scale-out.md): what each process connects to. Its syntax is checked
    as YAML here; `docker compose config` is the check where Docker Compose is installed."""
    compose: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.scaled.yml").read_text())
    services = compose["services"]
    assert set(services) == {
        "primary", "replica", "pgbouncer", "migrate", "api-1", "api-2", "worker-1", "worker-2", "lb"
    }  # fmt: skip
    assert "pg_basebackup -h primary" in " ".join(services["replica"]["entrypoint"]) and "-R" in " ".join(
        services["replica"]["entrypoint"]
    )
    assert "pool_mode = transaction" in compose["configs"]["pgbouncer-ini"]["content"]
    assert "host replication" in compose["configs"]["allow-replication"]["content"]
    for name in ("migrate", "api-1", "api-2", "worker-1", "worker-2"):
        env = services[name]["environment"]
        assert "@pgbouncer:6432/" in env["AGENT_MEMORY_DATABASE_URL"], name
        assert env["AGENT_MEMORY_DB_TRANSACTION_POOLER"] == "true", name
        assert "@primary:5432/" in env["AGENT_MEMORY_LISTEN_DATABASE_URL"], name
        assert "@replica:5432/" in env["AGENT_MEMORY_READ_DATABASE_URLS"], name
    for name in ("api-1", "api-2"):
        assert (
            services[name]["command"][:2] == ["agent-memory", "serve"]
            and "--no-worker" in services[name]["command"]
        )
        assert services[name]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    for name in ("worker-1", "worker-2"):
        assert services[name]["command"][:2] == ["agent-memory", "worker"]
    upstream = compose["configs"]["nginx"]["content"]
    assert "api-1:8080" in upstream and "api-2:8080" in upstream
    assert services["lb"]["ports"] == ["8080:8080"]
