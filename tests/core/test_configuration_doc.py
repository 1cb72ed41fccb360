"""docs/configuration.md lists every setting of `app.core.settings.Settings`, each with its real default: a
setting added, renamed or given a new default without the page following fails here."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from app.core.settings import Settings

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "configuration.md").read_text()
ROW = re.compile(r"^\| `(AGENT_MEMORY_[A-Z0-9_]+)` \| ([^|]+) \|", flags=re.M)


def documented() -> dict[str, str]:
    rows = ROW.findall(PAGE)
    names = [name for name, _ in rows]
    assert len(names) == len(set(names)), "a setting is listed twice"
    return {name: default.strip() for name, default in rows}


def shown(default: Any) -> str:
    """A default as the page writes it."""
    if default is None or default == "":
        return "unset"
    if isinstance(default, bool):
        return f"`{str(default).lower()}`"
    return f"`{default}`"


def test_every_setting_is_documented_and_nothing_else() -> None:
    expected = {f"AGENT_MEMORY_{name.upper()}" for name in Settings.model_fields}
    assert set(documented()) == expected


def test_each_default_is_the_real_one() -> None:
    page = documented()
    for name, field in Settings.model_fields.items():
        written = page[f"AGENT_MEMORY_{name.upper()}"]
        default = field.default
        if isinstance(default, int | float) and not isinstance(default, bool):
            assert float(written.strip("`")) == float(default), (name, written, default)
        elif isinstance(default, Path):
            assert written == f"`./{default}`", (name, written, default)
        else:
            assert written == shown(default), (name, written, default)
