"""Open mode on loopback: any bearer token accepted, scoped keys still scoped; the first admin key (made
with the CLI, as an operator would while the server runs) ends it without a restart; `keys list` and
`keys revoke` from the CLI."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import subprocess
import sys
from collections import Counter
from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy.ext.asyncio import AsyncSession

from app.core import auth, keys
from app.core.auth import mint_key
from app.core.settings import Settings
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
            scoped = (await http.post("/v1/namespaces/open/keys", json={"name": "a"})).json()["key"]
            other = await http.post("/v1/namespaces", json={"name": "other"})
            assert other.status_code == 201
            # A live scoped key keeps its scope in open mode.
            outside = await http.get("/v1/namespaces/other", headers={"authorization": f"Bearer {scoped}"})
            assert outside.status_code == 404

            created = cli(open_db, "create", "--admin", "--env")
            assert created.returncode == 0, created.stderr
            name, _, admin_key = created.stdout.strip().partition("=")
            assert name == "AGENT_MEMORY_ADMIN_KEY" and admin_key.startswith("amk_")

            refused = await http.get("/v1/namespaces")
            assert refused.status_code == 401 and refused.json()["code"] == "unauthorized"
            assert (await http.get("/v1/namespaces", headers=dummy)).status_code == 401
            ok = await http.get("/v1/namespaces", headers={"authorization": f"Bearer {admin_key}"})
            assert ok.status_code == 200
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
            after = await http.get("/v1/namespaces", headers={"authorization": f"Bearer {admin_key}"})
            assert after.status_code == 401
            # Open mode does not come back by itself once ended.
            assert (await http.get("/v1/namespaces")).status_code == 401
            assert cli(open_db, "revoke", "nosuchkey").returncode == 1


def test_keys_create_table_output(open_db: str) -> None:
    created = cli(open_db, "create", "--admin", "--name", "ops")
    assert created.returncode == 0 and created.stdout.startswith("amk_")
    table = cli(open_db, "list")
    assert table.returncode == 0 and "ops" in table.stdout and "(admin)" in table.stdout


async def test_revoking_the_last_admin_key_never_reopens_the_server(
    open_db: str, caplog: pytest.LogCaptureFixture
) -> None:
    # Regression: with the last admin key revoked, a restart ran OPEN although namespace keys existed, and
    # a request without a key then listed every namespace.
    created = cli(open_db, "create", "--admin", "--env")
    assert created.returncode == 0, created.stderr
    admin_key = created.stdout.strip().partition("=")[2]
    admin = {"authorization": f"Bearer {admin_key}"}
    first: FastAPI = create_app(make_settings(open_db, admin_key=None), run_worker=False)
    transport = httpx.ASGITransport(app=first)
    async with (
        first.router.lifespan_context(first),
        httpx.AsyncClient(transport=transport, base_url="http://x") as http,
    ):
        assert (await http.post("/v1/namespaces", json={"name": "kept"}, headers=admin)).status_code == 201
        scoped = await http.post("/v1/namespaces/kept/keys", json={"name": "a"}, headers=admin)
        assert scoped.status_code == 201
    assert cli(open_db, "revoke", admin_key).returncode == 0

    caplog.set_level("WARNING", logger="agent_memory.app")
    restarted: FastAPI = create_app(make_settings(open_db, admin_key=None), run_worker=False)
    async with restarted.router.lifespan_context(restarted):
        assert restarted.state.open_mode.active is False
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=restarted), base_url="http://x"
        ) as http:
            assert (await http.get("/v1/namespaces")).status_code == 401
            assert (
                await http.get("/v1/namespaces", headers={"authorization": "Bearer x"})
            ).status_code == 401
            key = {"authorization": f"Bearer {scoped.json()['key']}"}
            assert (await http.get("/v1/namespaces/kept", headers=key)).status_code == 200
    assert "agent-memory keys create --admin" in caplog.text
    assert "running OPEN" not in caplog.text


@pytest.mark.parametrize(
    ("key", "fragment"),
    [
        ("amk_a_b", "at least 32 characters"),
        ("amk_ops_" + "ab" * 20, "too regular"),
        ("amk_ops_" + "a" * 40, "too regular"),
        ("amk_ops_" + "é" * 40, "hex or base64url"),
        ("amk-ops-" + "0123456789abcdef" * 3, "amk_<keyId>_<secret>"),
    ],
)
def test_a_configured_admin_key_must_be_a_real_key(key: str, fragment: str) -> None:
    # Regression: AGENT_MEMORY_ADMIN_KEY=amk_a_b was accepted, even on 0.0.0.0.
    with pytest.raises(ValueError, match="admin_key") as refused:
        Settings(admin_key=key)
    assert fragment in str(refused.value)
    assert "agent-memory keys create --admin" in str(refused.value)
    minted = mint_key().token
    assert Settings(admin_key=minted).admin_key == minted


async def test_a_wrong_key_id_costs_what_a_wrong_secret_costs(
    app: FastAPI, client: httpx.AsyncClient, ns: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Regression: a key id that does not exist was answered without hashing the secret and went to the
    # database every time (2.95 ms against 0.69 ms for a wrong secret): whether an id exists could be timed.
    # Counted, not timed: the same hashes and database lookups either way.
    real = (await client.post(f"/v1/namespaces/{ns}/keys", json={"name": "k"})).json()["key"]
    await asyncio.wait_for(app.state.key_listener.connected.wait(), 10)
    key_id = real.split("_")[1]
    wrong_secret = f"amk_{key_id}_{secrets.token_hex(24)}"
    wrong_id = f"amk_{secrets.token_hex(6)}_{secrets.token_hex(24)}"
    work: Counter[str] = Counter()
    real_hash, real_lookup = auth.hash_secret, keys.lookup

    def counted_hash(secret: str) -> bytes:
        work["hash"] += 1
        return real_hash(secret)

    async def counted_lookup(db: AsyncSession, key_id: str) -> keys.KeyLookup | None:
        work["lookup"] += 1
        return await real_lookup(db, key_id)

    monkeypatch.setattr(auth, "hash_secret", counted_hash)
    monkeypatch.setattr(keys, "lookup", counted_lookup)
    done: dict[str, list[Counter[str]]] = {}
    for name, token in [("wrong secret", wrong_secret), ("wrong id", wrong_id)]:
        app.state.key_cache.forget()
        done[name] = []
        for _ in range(2):  # the first request looks the id up, the second finds it in the cache
            work.clear()
            response = await client.get("/v1/key", headers={"authorization": f"Bearer {token}"})
            assert response.status_code == 401, response.text
            done[name].append(Counter(work))
    assert done["wrong secret"] == done["wrong id"] == [Counter(hash=1, lookup=1), Counter(hash=1)]
