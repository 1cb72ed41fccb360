"""Default extractor throughput by message size: short chat turns against ~11 KB messages (pure Python).

Run: .venv/bin/python -m bench extraction-sizes [--short 4000] [--large 60] [--runs 3]
Prints messages/s and KB/s (median of runs) for short messages and for 1.4, 2.75, 5.5 and 11 KB ones made
of the same turns, so whether the cost is linear in the text shows as a flat KB/s column.
"""

from __future__ import annotations

import statistics
import time
from datetime import UTC, datetime, timedelta

from app.extraction import InputMessage
from app.extraction.default import extract_memories
from bench import harness
from bench.bench_extractor_pure import TURNS

T0 = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)


def long_text(size: int, offset: int) -> str:
    parts: list[str] = []
    length = 0
    i = offset
    while length < size:
        turn = TURNS[i % len(TURNS)][1]
        parts.append(turn)
        length += len(turn) + 1
        i += 1
    return " ".join(parts)


def messages(count: int, size: int | None) -> list[InputMessage]:
    out = []
    for k in range(count):
        speaker, turn = TURNS[k % len(TURNS)]
        content = turn if size is None else long_text(size, k)
        out.append(
            InputMessage(
                id=f"m{k}", role="user", content=f"{speaker}: {content}", timestamp=T0 + timedelta(minutes=k)
            )
        )
    return out


def rate(batch: list[InputMessage], runs: int, window: int = 24) -> tuple[float, float]:
    """(messages/s, KB/s), median of runs; extraction in windows of `window` new messages, as jobs do."""
    rates = []
    for _ in range(runs):
        started = time.perf_counter()
        for i in range(0, len(batch), window):
            extract_memories(batch[max(0, i - 4) : i + window], new_from=min(i, 4))
        rates.append(len(batch) / (time.perf_counter() - started))
    kb = sum(len(m.content.encode()) for m in batch) / len(batch) / 1024
    median = statistics.median(rates)
    return median, median * kb


def main(argv: list[str] | None = None) -> int:
    parser = harness.parser(__doc__, database=False)
    parser.add_argument("--short", type=int, default=4000)
    parser.add_argument("--large", type=int, default=60)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    rows = []
    cases: list[tuple[str, int, int | None]] = [("short", args.short, None)]
    cases += [(f"{size / 1000:g} KB", args.large, size) for size in (1375, 2750, 5500, 11000)]
    for label, count, size in cases:
        batch = messages(count, size)
        kb = sum(len(m.content.encode()) for m in batch) / len(batch) / 1024
        per_second, kb_per_second = rate(batch, args.runs)
        rows.append([label, kb, per_second, kb_per_second])
    harness.print_table(
        f"Default extractor by message size (median of {args.runs} runs; load {harness.load_average()})",
        ["messages", "avg KB", "msg/s", "KB/s"],
        rows,
    )
    harness.write_json(args.json)
    return 0
