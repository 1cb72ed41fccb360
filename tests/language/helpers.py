"""The end-to-end check of a language added as a module and its registration alone, over HTTP: its small
talk is left out, its statements typed and dated as listed, and its time questions get their windows and
their memories first. Each added language's test gives its own statements and questions."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import httpx

from app.worker.runner import Worker

# (statement, when it was said, type or None for small talk, event day or None)
Statement = tuple[str, str, str | None, str | None]
# (question, window [start, end), the index of the statement whose memory comes first)
Question = tuple[str, tuple[str, str], int]


async def check_language_end_to_end(
    client: httpx.AsyncClient,
    profile_url: str,
    worker: Worker,
    statements: Sequence[Statement],
    questions: Sequence[Question],
    *,
    now: str,
    language: str | None = None,
) -> None:
    """Ingest `statements`, then ask `questions` at `now`; `language`, when given, is the one the trace
    must read the questions in."""
    messages = [{"role": "user", "content": text, "timestamp": at} for text, at, _, _ in statements]
    response = await client.post(f"{profile_url}/ingest", json={"sessionId": "s1", "messages": messages})
    assert response.status_code == 202, response.text
    await worker.drain()
    listed = (await client.get(f"{profile_url}/memories", params={"limit": 100})).json()["memories"]
    by_summary = {m["summary"]: m for m in listed}
    for text, _, kind, day in statements:
        memory = by_summary.get(text)
        if kind is None:
            assert memory is None, f"small talk is left out: {text}"
            continue
        assert memory is not None and memory["type"] == kind, (text, memory, list(by_summary))
        assert (memory["eventTime"] or "")[:10] == (day or ""), (text, memory)
    for question, (start, end), index in questions:
        query = {"query": question, "referenceDate": now, "trace": True}
        found = (await client.post(f"{profile_url}/recall", json=query)).json()
        analysis = found["trace"]["analysis"]
        window = analysis["timeWindow"]
        assert window is not None, (question, found["trace"])
        if language is not None:
            assert analysis["language"] == language, (question, analysis)
        got = (datetime.fromisoformat(window["start"]).date(), datetime.fromisoformat(window["end"]).date())
        assert tuple(d.isoformat() for d in got) == (start, end), (question, window)
        assert found["candidates"][0]["summary"] == statements[index][0], (question, found["candidates"][:2])
