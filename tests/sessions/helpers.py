"""Shared helpers for Session API tests: creating sessions and building UIMessages."""

from __future__ import annotations

from typing import Any

import httpx


def text_message(message_id: str, role: str, text: str) -> dict[str, Any]:
    return {"id": message_id, "role": role, "parts": [{"type": "text", "text": text}]}


async def new_session(client: httpx.AsyncClient, profile_url: str, **body: Any) -> str:
    response = await client.post(f"{profile_url}/sessions", json={"name": "chat", **body})
    assert response.status_code == 201, response.text
    session_id: str = response.json()["id"]
    return session_id


async def append(
    client: httpx.AsyncClient, session_url: str, message: dict[str, Any], **extra: Any
) -> httpx.Response:
    response = await client.post(f"{session_url}/messages", json={"message": message, **extra})
    assert response.status_code in (200, 201), response.text
    return response


async def history_ids(client: httpx.AsyncClient, session_url: str, **params: Any) -> list[str]:
    response = await client.get(f"{session_url}/history", params=params)
    assert response.status_code == 200, response.text
    return [m["id"] for m in response.json()["messages"]]
