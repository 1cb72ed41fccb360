"""The default extractor's type rules: an ordered list of small named rules, each with a case it decides,
and no word list outside the lexicon module."""

from __future__ import annotations

import ast
from datetime import UTC, datetime
from pathlib import Path

import pytest

import app.extraction.default as default
from app.core.memory_types import MemoryType
from app.extraction.default import classify_statement
from app.extraction.typing_rules import TYPE_RULES

AT = datetime(2024, 5, 10, 12, tzinfo=UTC)


def test_rules_are_named_documented_and_end_with_a_catch_all() -> None:
    names = [rule.__name__ for rule in TYPE_RULES]
    assert names == [
        "question_asserts_nothing",
        "instruction",
        "task",
        "replaceable_attribute",
        "dated_event",
        "past_action",
        "lasting_fact",
    ]
    assert all(rule.__doc__ for rule in TYPE_RULES)


@pytest.mark.parametrize(
    ("text", "kind", "topic"),
    [
        ("From now on, always answer in French.", MemoryType.INSTRUCTION, "agent.language"),
        ("Remind me to renew my passport next week.", MemoryType.TASK, None),
        ("I live in Lisbon now.", MemoryType.FACT, "user.home_city"),
        ("Yesterday we hiked up Arthur's Seat.", MemoryType.EVENT, None),
        ("I ran my first half marathon.", MemoryType.EVENT, None),
        ("Lisbon has seven hills.", MemoryType.FACT, None),
    ],
)
def test_each_rule_decides_its_case(text: str, kind: MemoryType, topic: str | None) -> None:
    memory = classify_statement(text, "user", AT)
    assert memory is not None
    assert (memory.type, memory.topic_key) == (kind, topic)


def test_a_standing_rule_beats_the_task_cue_only_after_from_now_on() -> None:
    # "remind me" makes a task of what sounds like a rule, unless the rule starts "from now on".
    as_task = classify_statement("Always remind me to stretch.", "user", AT)
    as_rule = classify_statement("From now on, remind me to stretch every hour.", "user", AT)
    assert as_task is not None and as_task.type == MemoryType.TASK
    assert as_rule is not None and as_rule.type == MemoryType.INSTRUCTION


def test_the_extractor_declares_no_word_list_of_its_own() -> None:
    """Word lists live in app/extraction/lexicon.py: the pipeline holds no `words(...)` call and no
    collection literal of three or more words."""
    tree = ast.parse(Path(default.__file__).read_text(encoding="utf-8"))
    found: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "words":
            found.append(node.lineno)
        elif isinstance(node, (ast.Tuple, ast.Set, ast.List)) and len(node.elts) >= 3:
            if all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) and e.value.isalpha()
                for e in node.elts
            ):
                found.append(node.lineno)
        elif (
            isinstance(node, ast.Dict)
            and len(node.keys) >= 3
            and all(
                isinstance(k, ast.Constant) and isinstance(k.value, str) and k.value.isalpha()
                for k in node.keys
            )
        ):
            found.append(node.lineno)
    assert not found, f"word lists in default.py at lines {found}: move them to lexicon.py"
