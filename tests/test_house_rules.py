"""The house rules of `architecture.md` that a file's text shows: no Python file in `app/` over 600 lines
(a longer one is split along what its parts do)."""

from __future__ import annotations

from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "app"
MAX_LINES = 600


def test_no_file_in_app_is_over_600_lines() -> None:
    files = sorted(APP.rglob("*.py"))
    assert len(files) > 50, "app/ was not found where the test expects it"
    too_long = {
        str(path.relative_to(APP.parent)): lines
        for path in files
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not too_long, f"over {MAX_LINES} lines (split them along what their parts do): {too_long}"
