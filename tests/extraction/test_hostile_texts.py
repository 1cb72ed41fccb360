"""Hostile texts: the extractor's and the question analysis' work grows linearly with a text's length, for
every adversarial shape (bench/hostile_texts.py), counted in instructions by callgrind rather than timed;
a fuzz run bounds what any text can make of one message; the per-message bounds hold."""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from app.extraction.default import extract_memories
from app.extraction.statements import MESSAGE_MEMORY_BOUND, MESSAGE_SENTENCE_BUDGET
from app.extraction.types import CONTENT_MAX_CHARS, InputMessage
from bench.hostile_texts import PATHS, SIZES, TESTED_SHAPES, count_work, valgrind

AT = datetime(2024, 5, 10, 12, tzinfo=UTC)
# Linear work quadruples with a text 4× as long; fixed costs make it less. Quadratic work would be 16×.
MAX_GROWTH = 6.0


@pytest.mark.skipif(
    valgrind() is None and not os.environ.get("AGENT_MEMORY_REQUIRE_VALGRIND"),
    reason="valgrind is not installed (CI installs it)",
)
def test_work_grows_linearly_with_length_for_every_hostile_shape() -> None:
    counts = count_work(TESTED_SHAPES, list(PATHS), timeout=1800)
    superlinear = []
    for shape in TESTED_SHAPES:
        for path in PATHS:
            work = [counts[(shape, path, size)] for size in SIZES]
            growth = [later / max(earlier, 1) for earlier, later in zip(work, work[1:], strict=False)]
            if max(growth) > MAX_GROWTH:
                superlinear.append((shape, path, [f"{w / 1e6:.1f}M" for w in work]))
    assert not superlinear, f"work grows faster than the length of the text: {superlinear}"


def _one(text: str) -> list[str]:
    return [m.content for m in extract_memories([InputMessage("m1", "user", text, AT)])]


def test_the_issues_shapes_are_extracted_or_kept() -> None:
    # Each took seconds to hours before: now each makes at most its bounded number of memories.
    for text in (
        "Can you add" + " " * 2000 + "x?",
        "!" * 32768,
        "Dr. " * 8192,
        "[image: " * 4096,
    ):
        assert len(_one(text)) <= MESSAGE_MEMORY_BOUND


def test_a_message_past_its_sentence_budget_is_kept_verbatim() -> None:
    text = "I moved to Lisbon. " + "Ok. " * MESSAGE_SENTENCE_BUDGET
    (memory,) = extract_memories([InputMessage("m1", "user", text, AT)])
    assert memory.content == text.strip()[: CONTENT_MAX_CHARS - 1].rsplit(" ", 1)[0].rstrip(" ,;:-") + "…"
    assert memory.source_message_ids == ("m1",)


def test_one_message_makes_at_most_its_bound_of_memories() -> None:
    text = " ".join(f"I bought {n} red bikes in Paris." for n in range(MESSAGE_MEMORY_BOUND * 2))
    assert len(_one(text)) == MESSAGE_MEMORY_BOUND


_HOSTILE_ALPHABET = st.sampled_from(
    list(" \t\n.!?…,;:'\"“”‘’()[]{}-*•😀👩\u200d💻\ufe0f0123456789")
    + ["Dr. ", "I ", "my ", "Can you ", "add ", "to my ", "[image: ", "Alice: ", "remember that ", "May ",
       "8 May ", "from now on ", "and I ", "yesterday ", "next Friday ", "é", "ß", "İ", "\u202e"]
)  # fmt: skip


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_HOSTILE_ALPHABET, max_size=400).map("".join))
@example("0[image: ]0")  # found by the fuzzing: the caption's removal joined "0" and "0" into "00"
def test_fuzz_any_text_makes_bounded_memories_of_its_own_words(text: str) -> None:
    memories = extract_memories([InputMessage("m1", "user", text, AT)])
    assert len(memories) <= MESSAGE_MEMORY_BOUND
    for memory in memories:
        assert len(memory.content) <= CONTENT_MAX_CHARS
        assert len(memory.summary) <= 200
        # A memory's words are the message's: nothing invented (the speaker's name aside).
        words = set(re.findall(r"\w+", memory.content.lower())) - {"user", "shared", "a", "photo"}
        assert words <= set(re.findall(r"\w+", text.lower()))
