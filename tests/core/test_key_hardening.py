"""Keys: a configured admin key must be a real key; whether a key id exists cannot be told from the work a
wrong key costs (the same database reads either way)."""

from __future__ import annotations

import secrets

import httpx
import pytest
from fastapi import FastAPI
from pydantic import ValidationError
from sqlalchemy import event

from app.core.settings import Settings


@pytest.mark.parametrize(
    "weak",
    ["amk_a_b", "amk_admin_password", "amk_x_" + "a" * 64, "amk_x_" + "ab" * 32, "amk_x_" + "0123456789" * 2],
)
def test_a_weak_admin_key_is_refused(weak: str) -> None:
    with pytest.raises(ValidationError, match="too weak"):
        Settings(admin_key=weak)


def test_a_minted_admin_key_is_accepted() -> None:
    key = f"amk_{secrets.token_hex(6)}_{secrets.token_hex(24)}"
    assert Settings(admin_key=key).admin_key == key


async def test_a_wrong_secret_costs_what_an_unknown_key_id_costs(
    app: FastAPI, client: httpx.AsyncClient, ns: str
) -> None:
    key = (await client.post(f"/v1/namespaces/{ns}/keys", json={"name": "agent"})).json()["key"]
    _, key_id, secret = key.split("_")
    statements: list[str] = []

    def count(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        statements.append(statement)

    engine = app.state.engine.sync_engine
    event.listen(engine, "before_cursor_execute", count)
    try:

        async def reads(token: str) -> int:
            statements.clear()
            response = await client.get(f"/v1/namespaces/{ns}", headers={"authorization": f"Bearer {token}"})
            assert response.status_code == (200 if token == key else 401)
            return len(statements)

        await reads(key)  # the key is now in this process's cache
        wrong_secret = await reads(f"amk_{key_id}_{secret[::-1]}")
        unknown_id = await reads(f"amk_{secrets.token_hex(6)}_{secret}")
        assert wrong_secret == unknown_id >= 1
    finally:
        event.remove(engine, "before_cursor_execute", count)
