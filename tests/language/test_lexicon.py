"""The extractor's word lists hold each word once, and hold no word of substance as filler.

A duplicate is harmless to a frozenset but a sign the list is edited without being read; the test reads
the lists' source text (what a maintainer edits), not the sets built from it.
"""

from __future__ import annotations

import ast
import collections
from datetime import UTC, datetime
from pathlib import Path

import app.extraction as extraction_package
import app.language as language_package
from app.extraction.default import classify_statement
from app.language.languages.en import lexicon as lx

_SOURCES = sorted(
    [
        *Path(extraction_package.__file__).parent.glob("*.py"),
        *Path(language_package.__file__).parent.rglob("*.py"),
    ]
)


def _phrase_fields(node: ast.AST) -> list[tuple[int, str]]:
    """The `|`-separated phrase lists written as a language's table (`formulas._Table(greetings="…")`) or
    as a dict of each language's cues (`cues._TASK_CUES = {"es": "…"}`)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_Table":
        values = [k.value for k in node.keywords]
    elif (
        isinstance(node, ast.Assign)
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id.endswith("_CUES")
        and isinstance(node.value, ast.Dict)
    ):
        values = list(node.value.values)
    else:
        return []
    return [(v.lineno, v.value) for v in values if isinstance(v, ast.Constant) and isinstance(v.value, str)]


def _word_lists() -> list[tuple[str, list[str]]]:
    """Every `words("…")` call and `"a|b|c".split("|")` phrase list in the extraction and language packages,
    and every language's phrase lists (`_phrase_fields`)."""
    found: list[tuple[str, list[str]]] = []
    for path in _SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            found += [(f"{path.name}:{line}", text.split("|")) for line, text in _phrase_fields(node)]
            if not isinstance(node, ast.Call) or not node.args:
                continue
            arg = node.args[0]
            func = node.func
            name = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else ""
            )
            where = f"{path.name}:{node.lineno}"
            if name == "words" and isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.append((where, arg.value.split()))
            elif name == "split" and isinstance(arg, ast.Constant) and arg.value == "|":
                # `"""a|b|c""".replace("\\n", "").split("|")`: the text is the innermost constant.
                inner = func.value if isinstance(func, ast.Attribute) else None
                while isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute):
                    inner = inner.func.value
                if isinstance(inner, ast.Name):
                    continue  # a helper splitting a table's field: the lists are read where they are written
                assert isinstance(inner, ast.Constant) and isinstance(inner.value, str), where
                found.append((where, inner.value.replace("\n", "").split("|")))
    return found


def test_the_lists_are_found() -> None:
    lists = _word_lists()
    assert len(lists) >= 6, lists  # FILLER, CHIT_PHRASES, GENERIC_ATTRIBUTES, MODALS, ADVERBS, IRREGULAR_PAST
    assert sum(len(words) for _, words in lists) > len(lx.FILLER)


def test_no_word_list_repeats_a_word() -> None:
    for where, words in _word_lists():
        repeated = sorted(w for w, n in collections.Counter(words).items() if n > 1)
        assert not repeated, f"{where} repeats {repeated}"


def test_nouns_of_substance_are_not_filler() -> None:
    assert not {"work", "job", "photo"} & lx.FILLER
    at = datetime(2024, 5, 10, 12, tzinfo=UTC)
    kept = classify_statement("I love my job", "user", at)
    assert kept is not None and "job" in kept.content
    assert classify_statement("Great job!", "user", at) is None
