"""The memory-type policy table is complete and every reader of the types follows it.

Adding a type is one `TypePolicy` entry; these tests fail if the entry is incomplete or if some place
still lists the types by hand.
"""

from __future__ import annotations

import json
import math

from app.cli import render_openapi
from app.core.memory_types import (
    POLICIES,
    SUPERSEDING_TYPES,
    MemoryType,
    SummaryLines,
    policy,
    sql_list,
    types_where,
)
from app.extraction.llm import SYSTEM_PROMPT as EXTRACTION_PROMPT
from app.extraction.llm import TYPES as LLM_TYPES
from app.llm.answers import SYSTEM_PROMPT as ANSWER_PROMPT
from app.profiles.schemas import MemoryCounts
from app.recall.service import TYPE_PRIOR
from app.summary.service import LAST_SESSION, LAST_SESSION_POSITION, SHARES


def test_one_policy_per_type() -> None:
    assert sorted(p.type for p in POLICIES) == sorted(MemoryType)
    for memory_type in MemoryType:
        assert policy(memory_type).type is memory_type
        assert policy(memory_type.value).type is memory_type


def test_summary_sections_are_distinct_and_share_the_whole_budget() -> None:
    sections = [p.summary_section for p in POLICIES] + [LAST_SESSION]
    positions = [p.summary_position for p in POLICIES] + [LAST_SESSION_POSITION]
    assert len(set(sections)) == len(sections)
    assert len(set(positions)) == len(positions)
    assert math.isclose(sum(SHARES.values()), 1.0), SHARES
    assert set(SHARES) == set(sections)


def test_a_dated_section_is_the_dated_types() -> None:
    for rules in POLICIES:
        assert (rules.summary_lines is SummaryLines.RECENT_DATED) <= rules.dated, rules


def test_readers_of_the_types_cover_every_type() -> None:
    values = {t.value for t in MemoryType}
    assert set(TYPE_PRIOR) == values
    assert values == LLM_TYPES
    assert set(MemoryCounts.model_fields) == values
    for memory_type in MemoryType:
        assert f'- "{memory_type.value}": {policy(memory_type).llm_description}' in EXTRACTION_PROMPT
        assert memory_type.value in ANSWER_PROMPT
    assert "{" not in EXTRACTION_PROMPT.replace('{"memories"', "")


def test_supersession_list_comes_from_the_table() -> None:
    assert types_where(lambda p: p.supersedes) == SUPERSEDING_TYPES
    assert set(SUPERSEDING_TYPES) == {MemoryType.FACT, MemoryType.INSTRUCTION}
    assert sql_list(SUPERSEDING_TYPES) == "('instruction', 'fact')"
    assert sql_list(()) == "(NULL)"


def test_openapi_names_the_enum_once() -> None:
    document = json.loads(render_openapi())
    schemas = document["components"]["schemas"]
    assert schemas["MemoryType"]["enum"] == [t.value for t in MemoryType]
    assert set(schemas["MemoryCounts"]["properties"]) == {t.value for t in MemoryType}
