"""docs/integrations/: every page has its row in the folder's index and in the README's one table of
integrations, and every row links to a page that exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "docs" / "integrations"


def pages() -> set[str]:
    return {page.name for page in FOLDER.glob("*.md") if page.name != "README.md"}


def test_every_page_is_in_the_index_and_the_readme() -> None:
    index = (FOLDER / "README.md").read_text()
    readme = (ROOT / "README.md").read_text()
    start = readme.index("## Clients and framework integrations")
    section = readme[start : readme.find("\n## ", start + 3)]
    indexed = set(re.findall(r"^\| \[[^]]+\]\(([\w.-]+\.md)\)", index, flags=re.M))
    listed = set(re.findall(r"^\| \[[^]]+\]\(docs/integrations/([\w.-]+\.md)\)", section, flags=re.M))
    assert {"python-client.md", "langgraph.md"} <= pages()
    assert indexed == pages()
    assert listed == pages()
