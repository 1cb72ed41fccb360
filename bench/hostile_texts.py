"""Adversarial texts for the extractor and the question analysis, and a work counter to run them under.

Each shape is a unit repeated to a size in bytes (UTF-8): long runs of one character, of spaces, of
punctuation, of abbreviations, of brackets, of dates, of capitalised words, of emoji, nested quotes, and the
shapes that once took the extractor seconds to minutes (``Can you add`` + spaces + ``x?``, ``!`` × 32,768,
``Dr. `` × 8,192, ``[image: `` × 4,096).

Run as a script under callgrind (``tests/extraction/test_hostile_texts.py`` does), it extracts each shape at
each size inside its own ``functools.reduce`` call; ``--toggle-collect=functools_reduce
--dump-after=functools_reduce`` then writes one profile per call, whose instruction count is that call's
work: a count that is the same on a busy machine as on an idle one, unlike a time.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from app.extraction.default import classify_one, extract_memories
from app.extraction.types import InputMessage
from app.language.lemmas import base_forms
from app.language.temporal import time_phrase
from app.recall.expansions import related_words
from app.recall.query import phrases_of, types_asked, words_of
from app.recall.relations import relations_of

AT = datetime(2024, 5, 10, 12, tzinfo=UTC)


def _filled(head: str, unit: str, tail: str) -> Callable[[int], str]:
    """A text of `size` UTF-8 bytes: `head`, then `unit` repeated, then `tail`."""

    def make(size: int) -> str:
        room = size - len((head + tail).encode())
        count = max(room // len(unit.encode()), 1)
        return head + unit * count + tail

    return make


SHAPES: dict[str, Callable[[int], str]] = {
    "can_you_add_spaces": _filled("Can you add", " ", "x?"),
    "bangs": _filled("", "!", ""),
    "full_stops": _filled("", ".", ""),
    "dots_spaced": _filled("", ". ", ""),
    "question_marks_spaced": _filled("", "?! ", ""),
    "ellipses": _filled("Well", "…", " ok"),
    "doctor": _filled("", "Dr. ", ""),
    "initials": _filled("", "A. ", "x"),
    "image_open": _filled("", "[image: ", ""),
    "brackets_open": _filled("", "([", ""),
    "brackets_nested": _filled("", "(", "x" + ")" * 10),
    "one_letter": _filled("", "a", ""),
    "one_word": _filled("I ", "x", " is"),
    "spaces": _filled("I", " ", "am"),
    "newlines": _filled("Note:", "\n", "x"),
    "tabs_and_spaces": _filled("my", " \t", "dog is Rex"),
    "dates": _filled("", "on 8 May 2020, 1/2/2020 ", ""),
    "capitalised": _filled("", "Alice Bob ", ""),
    "names_colon": _filled("", "Alice Bob Carol: ", ""),
    "emoji": _filled("", "😀", ""),
    "emoji_joined": _filled("", "👩\u200d💻\ufe0f", ""),
    "quotes_nested": _filled("", "\"'“‘", ""),
    "quotes_spaced": _filled("", '" ', ""),
    "i_words": _filled("", "I ", ""),
    "my_words": _filled("", "my ", ""),
    "remember_that": _filled("", "remember that ", ""),
    "from_now_on": _filled("", "ok ", "from now on"),
    "and_clauses": _filled("I moved to Lisbon", " and I like fado", "."),
    "hyphens": _filled("I'm a", "-", "x"),
    "digits": _filled("I'm ", "1", ""),
    "apostrophes": _filled("I", "'", "m"),
    # Another language's chit-chat rules (app.extraction.chit_chat.says_nothing_in): formula after formula,
    # a "thanks for" clause that never ends, CJK formulas without spaces, an exclamation.
    "hola_commas": _filled("", "Hola Marta, ", ""),
    "thanks_for_words": _filled("Muchas gracias por", " la", " receta"),
    "cjk_thanks": _filled("", "谢谢你", "！"),
    "exclamation_words": _filled("¡Qué ", "frío ", "!"),
}
SIZES = (1024, 4096, 16384)
# The shapes the test suite counts (callgrind is slow: the rest are for bench runs): one of each kind the
# issue names, and the four that once stalled the worker.
TESTED_SHAPES = [
    "can_you_add_spaces", "bangs", "doctor", "image_open", "one_letter", "spaces", "dots_spaced",
    "brackets_nested", "dates", "capitalised", "emoji", "quotes_nested", "my_words", "and_clauses",
    "hola_commas", "cjk_thanks",
]  # fmt: skip

# What is measured for a text: the worker's extraction of it as one message, /remember's classification of
# it, and recall's analysis of it as a question (the Python part: the time phrase, the types and relations
# asked, the phrases, the words and their related words and base forms).
PATHS: dict[str, Callable[[str], object]] = {
    "extract": lambda text: extract_memories([InputMessage("m1", "user", text, AT)]),
    "classify": lambda text: classify_one(text, "user", AT),
    "question": lambda text: (
        time_phrase(text, AT),
        types_asked(text, "en"),
        relations_of(text, "en", "english"),
        phrases_of(text),
        related_words(words_of(text, "en"), "en"),
        base_forms(text, "en"),
    ),
}


def runs(shapes: list[str], paths: list[str]) -> list[tuple[str, str, int]]:
    """The measured calls, in the order the script makes them (one callgrind dump each)."""
    return [(shape, path, size) for shape in shapes for path in paths for size in SIZES]


def slowest_per_kb(size: int = 32 * 1024, rounds: int = 3) -> list[tuple[float, str, str]]:
    """Each shape at `size` bytes through each path, timed (the best of `rounds`, in this process): (ms per
    KB, shape, path), slowest first. A figure for the fault suite's report, never a test's assertion."""
    for path in PATHS:
        PATHS[path]("Warm up: I moved to Lisbon on 8 May. Can you add milk to my list?")
    found = []
    for shape, make in SHAPES.items():
        text = make(size)
        for path, run in PATHS.items():
            best = min(_timed(run, text) for _ in range(rounds))
            found.append((best * 1000 / (len(text.encode()) / 1024), shape, path))
    return sorted(found, reverse=True)


def _timed(run: Callable[[str], object], text: str) -> float:
    started = time.perf_counter()
    run(text)
    return time.perf_counter() - started


def valgrind() -> str | None:
    return shutil.which("valgrind")


def count_work(shapes: list[str], paths: list[str], timeout: float) -> dict[tuple[str, str, int], int]:
    """Instructions executed by each measured call (callgrind), by (shape, path, size). Raises
    `subprocess.TimeoutExpired` when the whole run takes longer than `timeout` seconds."""
    tool = valgrind()
    if tool is None:
        raise RuntimeError("valgrind is not installed (apt-get install valgrind)")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cg.out"
        subprocess.run(
            [tool, "--tool=callgrind", f"--callgrind-out-file={out}", "--toggle-collect=functools_reduce",
             "--dump-after=functools_reduce", sys.executable, "-m", "bench.hostile_texts",
             json.dumps(shapes), json.dumps(paths)],
            check=True, timeout=timeout, capture_output=True, cwd=Path(__file__).resolve().parent.parent,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )  # fmt: skip
        dumps = sorted(Path(tmp).glob("cg.out.*"), key=lambda p: int(p.suffix[1:]))
        counts = [int(re.search(r"^totals: (\d+)", d.read_text(), re.M)[1]) for d in dumps]  # type: ignore[index]
    calls = runs(shapes, paths)
    if len(counts) != len(calls):
        raise RuntimeError(f"{len(counts)} callgrind dumps for {len(calls)} measured calls")
    return dict(zip(calls, counts, strict=True))


def main() -> None:
    """argv: a JSON list of shapes and a JSON list of paths. Each path is run once outside the counted calls
    first, so caches and lazily built tables are not counted against the first size."""
    shapes, paths = json.loads(sys.argv[1]), json.loads(sys.argv[2])
    for path in paths:
        PATHS[path]("Warm up: I moved to Lisbon on 8 May. Can you add milk to my list?")
    for shape, path, size in runs(shapes, paths):
        text = SHAPES[shape](size)
        functools.reduce(lambda _, t: PATHS[path](t), [text], None)


if __name__ == "__main__":
    main()
