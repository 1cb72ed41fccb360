"""Every language module has every part of a language's rules, or says it has none of it and what happens
instead; every module in app/language/languages/ is registered, and every registered one has its file."""

from __future__ import annotations

import ast
import pkgutil
import re
from pathlib import Path
from types import ModuleType

import app.language.languages as languages
from app.language.answer_words import AnswerWords
from app.language.formula_words import FormulaWords
from app.language.languages import MODULES, PARTS
from app.language.languages import en as english
from app.language.relation_words import RelationWords
from app.language.time_words import TimeWords

KINDS: dict[str, type] = {
    "TIME": TimeWords,
    "FORMULAS": FormulaWords,
    "PRO_DROP": bool,
    "CATEGORIES": dict,
    "ANSWERS": AnswerWords,
    "RELATIONS": RelationWords,
    "SPELLINGS": dict,
}


def _modules() -> dict[str, ModuleType]:
    found = {info.name for info in pkgutil.iter_modules(languages.__path__)}
    return {
        name: getattr(languages, name, None) or __import__(f"app.language.languages.{name}") for name in found
    }


def test_every_module_is_registered_and_every_registered_one_exists() -> None:
    assert set(_modules()) == {*MODULES, "en"}
    assert len(MODULES) >= 10


def test_every_language_has_each_part_or_says_it_has_none() -> None:
    for code, module in {**MODULES, "en": english}.items():
        lacks: dict[str, str] = getattr(module, "LACKS", {})
        for part in PARTS:
            if code == "en" and part == "TIME":
                continue  # English's time rules are patterns (`candidates`), checked below
            if part in lacks:
                assert lacks[part].strip(), (code, part, "says what happens instead")
                assert not hasattr(module, part), (code, part, "has it and says it lacks it")
                continue
            value = getattr(module, part, None)
            assert value is not None, (code, part)
            assert isinstance(value, KINDS.get(part, str)) and (not isinstance(value, str) or value.strip())


def test_english_is_a_module_among_them() -> None:
    """English's time rules are its module's (patterns, not a table); its other parts are named as the
    English extraction rules'."""
    assert callable(english.candidates) and set(english.LACKS) <= set(PARTS)


# The shared engines: what reads every language's parts (English's extraction rules, which apply English's
# patterns, and recall, which reads questions). None of them may write a language's words: a `words("…")`
# list, a pattern of three or more words as alternatives ("hi|hello|hey"), or a collection of five or
# more words ({"would", "could", …}). Those are a language module's.
_APP = Path(languages.__file__).parents[2]
_ENGINES = [
    *sorted((_APP / "language").glob("*.py")),
    *sorted((_APP / "extraction").glob("*.py")),
    _APP / "sessions" / "summariser.py",
    *sorted((_APP / "recall").rglob("*.py")),
]
_WORDS_AS_ALTERNATIVES = re.compile(r"(?:[A-Za-z]{2,}[^|]{0,6}\|){3,}")
_WORD = re.compile(r"[a-z]{2,}(?:'[a-z]+)?")
COLLECTION_WORDS = 5
# Collections of the code's own names, not of a language's words: text-search configurations, language
# codes, the granularities and modifiers every language's time words resolve to, feature and stage names,
# SQL parameters, JSON fields. Each by its file and the first name in it.
_CODE_NAMES = {
    ("detect.py", "en"),
    ("detect.py", "ko"),
    ("detect.py", "zh"),
    ("formulas.py", "es"),
    ("time_mentions.py", "day"),
    ("time_mentions.py", "last"),
    ("llm.py", "id"),
    ("relevance.py", "coverage"),
    ("relevance.py", "first"),
    ("channels.py", "phrases"),
    ("rerank.py", "first"),
    ("trace.py", "analysis"),
}


def _word_collection(node: ast.AST, path: Path) -> bool:
    """A literal set, tuple, list or dict of five or more lower-case words (not the code's own names)."""
    if isinstance(node, ast.Dict):
        items = [k for k in node.keys if k is not None]
    elif isinstance(node, ast.Set | ast.Tuple | ast.List):
        items = list(node.elts)
    else:
        return False
    words = [
        i.value
        for i in items
        if isinstance(i, ast.Constant) and isinstance(i.value, str) and _WORD.fullmatch(i.value)
    ]
    return len(words) >= COLLECTION_WORDS and (path.name, words[0]) not in _CODE_NAMES


def _language_words(path: Path) -> list[int]:
    found: list[int] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.expr) and _word_collection(node, path):
            found.append(node.lineno)
            continue
        if not isinstance(node, ast.Call) or not node.args:
            continue
        name = getattr(node.func, "attr", getattr(node.func, "id", ""))
        pattern = "".join(
            c.value
            for c in ast.walk(node.args[0])
            if isinstance(c, ast.Constant) and isinstance(c.value, str)
        )
        if name == "words" or (name == "compile" and _WORDS_AS_ALTERNATIVES.search(pattern)):
            found.append(node.lineno)
    return found


def test_the_shared_engines_hold_no_language_words() -> None:
    assert len(_ENGINES) > 20
    found = {path.name: lines for path in _ENGINES if (lines := _language_words(path))}
    assert found == {}, "a language's words outside its module"
