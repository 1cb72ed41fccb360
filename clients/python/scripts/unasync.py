"""Write `agent_memory_client/_sync_client.py` from `_async_client.py`: the same methods without
async/await (the way httpcore keeps its sync and async code in step). `--check` exits 1, and says which
file to regenerate, when the committed sync file is not what this script writes.

    python clients/python/scripts/unasync.py [--check]
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "agent_memory_client"
SOURCE = PACKAGE / "_async_client.py"
TARGET = PACKAGE / "_sync_client.py"

# Whole words, applied in order.
SUBSTITUTIONS = [
    ("AsyncMemoryClient", "MemoryClient"),
    ("AsyncIterator", "Iterator"),
    ("AsyncBaseTransport", "BaseTransport"),
    ("AsyncClient", "Client"),
    ("__aenter__", "__enter__"),
    ("__aexit__", "__exit__"),
    ("aclose", "close"),
    ("async def", "def"),
    ("async for", "for"),
    ("async with", "with"),
    ("await ", ""),
    ("asyncio.sleep", "time.sleep"),
    ("import asyncio\n", ""),
    ("an async generator", "a generator"),
]


HEADER = '''"""`MemoryClient`: the synchronous client, one method per operation of the Agent Memory API, over httpx.

Written by clients/python/scripts/unasync.py from _async_client.py (do not edit: edit that file, then run
the script); the same methods, without async/await. See `AsyncMemoryClient` there for what they share.
"""'''


def unasync(text: str) -> str:
    """The sync module: the fixed docstring above, then the async module's code, rewritten."""
    code = text.split('"""', 2)[2]
    for old, new in SUBSTITUTIONS:
        pattern = re.escape(old) if not old[0].isalpha() else rf"\b{re.escape(old)}"
        code = re.sub(pattern, new, code)
    # `(await self._get(...)).keys` became `(self._get(...)).keys`: drop the now useless parentheses.
    code = re.sub(r"\((self\._\w+\([^()]*(?:\([^()]*\)[^()]*)*\))\)\.", r"\1.", code)
    # `async for item in …: yield item` has no shorter async form; the sync one does.
    code = re.sub(r"for (\w+) in (.+):\n\s+yield \1\n", r"yield from \2\n", code)
    return _formatted(HEADER + code)


def _formatted(source: str) -> str:
    """Formatted as `ruff format` leaves the repository (dropping `await` shortens lines)."""
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--stdin-filename", str(TARGET), "-"],
        input=source,
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout


def main() -> int:
    written = unasync(SOURCE.read_text())
    if "--check" in sys.argv[1:]:
        if TARGET.read_text() != written:
            print(f"{TARGET} is not up to date: run python {Path(__file__)}", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(written)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
