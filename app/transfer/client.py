"""The `agent-memory export` / `import` commands' side: streaming an export to a file (or stdout) and a
file (or stdin) to an import over the HTTP API, with rich progress bars on stderr.

They talk to a running server rather than to the database, so they work against any deployment with just
a URL and a key, go through the same validation and authorisation as every client, and need no database
credentials on the machine that runs them.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

import httpx
from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)
from rich.text import Text

CHUNK = 256 * 1024


class TransferFailed(Exception):
    """The server refused or the connection failed; the message says why."""


class _RecordsColumn(ProgressColumn):
    """Records done and their rate (records are lines; the task's `records` field counts them)."""

    def render(self, task: Task) -> Text:
        records = int(task.fields.get("records", 0))
        elapsed = task.elapsed or 0.0
        rate = records / elapsed if elapsed > 0 else 0.0
        return Text(f"{records:,} records  {rate:,.0f} rec/s", style="progress.data.speed")


def _progress(console: Console) -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        _RecordsColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=False,
    )


@dataclass
class Outcome:
    records: int
    bytes: int
    detail: str = ""


def _headers(key: str | None, content_type: str | None = None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    if content_type:
        headers["Content-Type"] = content_type
    return headers


def _problem(response: httpx.Response) -> str:
    try:
        body = response.json()
        return f"{response.status_code} {body.get('code', '')}: {body.get('detail', '')}"
    except ValueError:
        return f"{response.status_code}: {response.text[:300]}"


def export_to(
    base_url: str,
    key: str | None,
    namespace: str,
    profile: str | None,
    out: BinaryIO,
    console: Console,
    timeout: float = 60.0,
) -> Outcome:
    """Stream GET …/export into `out`; records are counted as lines arrive."""
    params = {"profile": profile} if profile else {}
    url = f"{base_url.rstrip('/')}/v1/namespaces/{namespace}/export"
    records = size = 0
    with (
        httpx.Client(timeout=httpx.Timeout(timeout, read=None)) as client,
        client.stream("GET", url, params=params, headers=_headers(key)) as response,
    ):
        if response.status_code != 200:
            response.read()
            raise TransferFailed(_problem(response))
        with _progress(console) as progress:
            task = progress.add_task("export", total=None, records=0)
            for chunk in response.iter_bytes(CHUNK):
                out.write(chunk)
                size += len(chunk)
                records += chunk.count(b"\n")
                progress.update(task, completed=size, records=max(records - 2, 0))
            progress.update(task, total=size)
    out.flush()
    return Outcome(records=max(records - 2, 0), bytes=size)  # header and end lines are not records


def import_from(
    base_url: str,
    key: str | None,
    namespace: str,
    source: BinaryIO,
    total: int | None,
    console: Console,
    timeout: float = 600.0,
) -> Outcome:
    """Stream `source` to POST …/import; the bar follows the bytes sent (ETA when the size is known)."""
    url = f"{base_url.rstrip('/')}/v1/namespaces/{namespace}/import"
    sent = {"records": 0, "bytes": 0}
    with _progress(console) as progress:
        task = progress.add_task("import", total=total, records=0)

        def body() -> Iterator[bytes]:
            while chunk := source.read(CHUNK):
                sent["bytes"] += len(chunk)
                sent["records"] += chunk.count(b"\n")
                progress.update(task, completed=sent["bytes"], records=max(sent["records"] - 2, 0))
                yield chunk

        with httpx.Client(timeout=httpx.Timeout(timeout)) as client:
            response = client.post(url, content=body(), headers=_headers(key, "application/x-ndjson"))
    if response.status_code != 200:
        raise TransferFailed(_problem(response))
    result = response.json()
    inserted = sum(result.get("inserted", {}).values())
    skipped = sum(result.get("skipped", {}).values())
    detail = f"{result.get('records', 0):,} records: {inserted:,} new, {skipped:,} already present"
    return Outcome(records=int(result.get("records", 0)), bytes=sent["bytes"], detail=detail)


def file_size(source: BinaryIO) -> int | None:
    try:
        return os.fstat(source.fileno()).st_size if source is not sys.stdin.buffer else None
    except (OSError, ValueError):
        return None
