"""Open mode on loopback: any bearer token accepted; a namespace key cannot be the first key (refused, with
how to make the admin key); the first admin key (made with the CLI, as an operator would while the server
runs) ends open mode without a restart; what the server says at start; `keys list` and `keys revoke` from
the CLI."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from app.main import create_app
from tests.conftest import fresh_database, make_settings


@pytest.fixture
async def open_db() -> AsyncIterator[str]:
    async with fresh_database("am_open") as url:
        yield url


def cli(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENT_MEMORY_")}
    env["AGENT_MEMORY_DATABASE_URL"] = url
    return subprocess.run(
        [sys.executable, "-m", "app", "keys", *args], env=env, capture_output=True, text=True, timeout=120
    )


async def test_open_mode_ends_when_the_cli_creates_an_admin_key(open_db: str) -> None:
    app: FastAPI = create_app(make_settings(open_db, admin_key=None), run_worker=False)
    async with app.router.lifespan_context(app):
        app.state.open_mode.ttl = 0.0  # re-check on every request instead of every few seconds
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            assert (await http.post("/v1/namespaces", json={"name": "open"})).status_code == 201
            # Generated SDK clients always send a token: in open mode any token is accepted.
            dummy = {"authorization": "Bearer anything"}
            assert (await http.get("/v1/namespaces", headers=dummy)).status_code == 200
            # A namespace key cannot be the first key (it would close the server with no admin key to get
            # back in): refused, by the API and by the CLI, saying how to make the admin key first.
            first = await http.post("/v1/namespaces/open/keys", json={"name": "a"})
            assert first.status_code == 409, first.text
            assert first.headers["content-type"].startswith("application/problem+json")
            assert first.json()["code"] == "admin_key_required"
            assert "agent-memory keys create --admin" in first.json()["detail"]
            by_cli = cli(open_db, "create", "--namespace", "open")
            assert by_cli.returncode == 1 and by_cli.stdout == ""
            assert "agent-memory keys create --admin" in by_cli.stderr
            assert (await http.get("/v1/namespaces", headers=dummy)).status_code == 200  # still open

            created = cli(open_db, "create", "--admin", "--env")
            assert created.returncode == 0, created.stderr
            name, _, admin_key = created.stdout.strip().partition("=")
            assert name == "AGENT_MEMORY_ADMIN_KEY" and admin_key.startswith("amk_")

            refused = await http.get("/v1/namespaces")
            assert refused.status_code == 401 and refused.json()["code"] == "unauthorized"
            assert (await http.get("/v1/namespaces", headers=dummy)).status_code == 401
            admin = {"authorization": f"Bearer {admin_key}"}
            assert (await http.get("/v1/namespaces", headers=admin)).status_code == 200
            # With the admin key made, namespace keys are made as usual, and keep their scope.
            scoped = (await http.post("/v1/namespaces/open/keys", json={"name": "a"}, headers=admin)).json()[
                "key"
            ]
            assert (
                await http.post("/v1/namespaces", json={"name": "other"}, headers=admin)
            ).status_code == 201
            outside = await http.get("/v1/namespaces/other", headers={"authorization": f"Bearer {scoped}"})
            assert outside.status_code == 404
            assert (
                await http.get("/v1/namespaces/open", headers={"authorization": f"Bearer {scoped}"})
            ).status_code == 200

            listed = cli(open_db, "list", "--json")
            assert listed.returncode == 0, listed.stderr
            keys = [json.loads(line) for line in listed.stdout.splitlines()]
            admin_id = admin_key.split("_")[1]
            assert [k["namespace"] for k in keys] == [None, "open"]
            assert keys[0]["id"] == admin_id and keys[0]["revokedAt"] is None

            revoked = cli(open_db, "revoke", admin_key)
            assert revoked.returncode == 0, revoked.stderr
            app.state.key_cache.forget()  # another process revoked it: this one forgets by the cache's expiry
            after = await http.get("/v1/namespaces", headers=admin)
            assert after.status_code == 401
            # Open mode does not come back by itself once ended.
            assert (await http.get("/v1/namespaces")).status_code == 401
            assert cli(open_db, "revoke", "nosuchkey").returncode == 1

    # Restarted without an admin key, a server that has keys stays closed (it ran OPEN before): the scoped
    # key still works, no key (or any token) lists nothing.
    again: FastAPI = create_app(make_settings(open_db, admin_key=None), run_worker=False)
    async with again.router.lifespan_context(again):
        assert not again.state.open_mode.active
        transport = httpx.ASGITransport(app=again)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            assert (await http.get("/v1/namespaces")).status_code == 401
            assert (await http.get("/v1/namespaces", headers=dummy)).status_code == 401
            mine = await http.get("/v1/namespaces/open", headers={"authorization": f"Bearer {scoped}"})
            assert mine.status_code == 200


async def test_start_says_open_or_closed_and_how_to_get_in(
    open_db: str, caplog: pytest.LogCaptureFixture
) -> None:
    """What `serve` logs at start, in each of the ways a server can start."""

    async def started(**overrides: object) -> str:
        caplog.clear()
        app = create_app(make_settings(open_db, **overrides), run_worker=False)
        with caplog.at_level(logging.INFO, logger="agent_memory.app"):
            async with app.router.lifespan_context(app):
                pass
        return "\n".join(r.getMessage() for r in caplog.records if r.name == "agent_memory.app")

    said = await started(admin_key=None)
    assert "running OPEN" in said and "/ui" in said and "agent-memory keys create --admin" in said
    said = await started()  # AGENT_MEMORY_ADMIN_KEY set
    assert "running CLOSED" in said and "AGENT_MEMORY_ADMIN_KEY" in said
    created = cli(open_db, "create", "--admin")
    assert created.returncode == 0, created.stderr
    said = await started(admin_key=None)
    assert "running CLOSED" in said and "agent-memory keys create --admin" in said
    assert cli(open_db, "revoke", created.stdout.strip()).returncode == 0
    said = await started(admin_key=None)
    assert "running CLOSED with no live admin key" in said and "agent-memory keys create --admin" in said


def test_keys_create_table_output(open_db: str) -> None:
    created = cli(open_db, "create", "--admin", "--name", "ops")
    assert created.returncode == 0 and created.stdout.startswith("amk_")
    table = cli(open_db, "list")
    assert table.returncode == 0 and "ops" in table.stdout and "(admin)" in table.stdout
