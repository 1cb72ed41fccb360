"""Reads bounded in bytes as well as in rows, for the responses that are streamed (export, history).

A streamed response reads its rows batch by batch; a batch of a fixed number of rows is not bounded in
memory when one row can be megabytes (a session message holds up to 2 MiB of parts). So each batch's query
keeps, of the rows it would return, only the leading ones whose rendered sizes add up to `BATCH_BYTES`
(always the first, whatever its size): the process holds one batch of about `BATCH_BYTES` plus one row at
most. The rows left out were rendered by PostgreSQL for nothing, so the next batch asks for as many rows as
fit at the last one's mean size (`next_rows`): large rows are read one by one, small ones up to `MAX_ROWS`
at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

BATCH_BYTES = 1024 * 1024
MAX_ROWS = 2000
FIRST_ROWS = 4


def bounded(inner: str, size: str, order: str) -> str:
    """SQL of the leading rows of `inner` (ordered by `order`) that fit the byte budget `:budget`.

    `size` is each row's size in bytes (an expression over `inner`'s columns). Each row comes with
    `before_bytes` and `row_bytes` (its place in the batch, for `next_rows`) and `available`, the number of
    rows `inner` returned before the cut (fewer than its LIMIT: nothing is left).
    """
    return (
        "SELECT * FROM ("
        f"SELECT b.*, sum({size}) OVER (ORDER BY {order} ROWS UNBOUNDED PRECEDING) - ({size}) AS before_bytes, "
        f"{size} AS row_bytes, count(*) OVER () AS available "
        # OFFSET 0 keeps `inner` a subquery of its own: pulled up, each mention of a rendered column
        # (the size thrice, the row once) would render it again, four times the work.
        f"FROM ({inner} OFFSET 0) b) c WHERE c.before_bytes < :budget ORDER BY {order}"
    )


def next_rows(kept: Sequence[Any]) -> int:
    """How many rows to ask for after a batch that kept `kept` (rows of `bounded`): as many as fit the
    budget at their mean size, so rows of megabytes are asked for one by one and none is rendered for
    nothing; at most twice as many as were kept (rows that grow suddenly waste little) and `MAX_ROWS`."""
    if not kept:
        return FIRST_ROWS
    total = int(kept[-1].before_bytes) + int(kept[-1].row_bytes)
    fit = BATCH_BYTES * len(kept) // max(1, total)
    return max(1, min(MAX_ROWS, 2 * len(kept), fit))
