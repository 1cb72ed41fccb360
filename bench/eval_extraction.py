"""What the default extractor keeps, against a labelled set of statements written by someone who never read it.

Each item of ``bench/data/statements_labelled.json`` (and of ``statements_world.json``,
``statements_blind.json`` and ``statements_blind_2.json``) is ``{text, speaker_role, context, keep, type, lang}``:
one chat message, the partner's message before it (``context``, or null) and whether a memory should come
of it (``keep``), of which type. The statement is extracted as the new message of a window holding the
context message first (as the worker extracts it); it counts as kept when any memory comes of it, typed as
the first one. Printed: precision and recall of *keep*, type accuracy over the statements both kept and
labelled keep, overall and per language, for each set and (given several) for all of them together;
``--misses`` lists the disagreements.

    python -m bench eval-extraction [--data FILE ...] [--misses]
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from app.extraction.default import extract_memories
from app.extraction.types import InputMessage

# All labelled blind: chat statements, three quarters English; messages in eight, then twelve other
# languages.
DEFAULT_DATA = [
    Path(__file__).resolve().parent / "data" / name
    for name in (
        "statements_labelled.json",
        "statements_world.json",
        "statements_blind.json",
        "statements_blind_2.json",
    )
]
SAID_AT = datetime(2026, 5, 13, 18, 0, tzinfo=UTC)  # a Wednesday: relative dates resolve to something


def predict(item: dict[str, Any]) -> tuple[bool, str | None, str]:
    """Whether a memory comes of the statement, the first one's type and its summary."""
    role = item["speaker_role"]
    messages = []
    if item.get("context"):
        other = "assistant" if role == "user" else "user"
        messages.append(InputMessage("ctx", other, item["context"], SAID_AT))
    messages.append(InputMessage("msg", role, item["text"], SAID_AT))
    memories = extract_memories(messages, new_from=len(messages) - 1)
    if not memories:
        return False, None, ""
    return True, memories[0].type.value, memories[0].summary


def _ratio(a: int, b: int) -> float:
    return a / b if b else 0.0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", action="append", help="a labelled set (repeatable; default: the four sets)")
    p.add_argument("--misses", action="store_true", help="list the statements the extractor got wrong")
    args = p.parse_args(argv)
    every: list[dict[str, Any]] = []
    paths = args.data or DEFAULT_DATA
    for number, path in enumerate(paths):
        if number:
            print()
        print(Path(path).name)
        items = json.loads(Path(path).read_text(encoding="utf-8"))
        every += items
        _report(items, misses=args.misses)
    if len(paths) > 1:
        print("\nall sets together")
        _report(every, misses=False)
    return 0


def _report(items: list[dict[str, Any]], *, misses: bool) -> None:
    """One set's table (and, with `misses`, its disagreements)."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    wrong: list[str] = []
    for item in items:
        kept, kind, summary = predict(item)
        for group in ("all", item.get("lang") or "?"):
            c = counts[group]
            c["n"] += 1
            c["tp"] += kept and item["keep"]
            c["fp"] += kept and not item["keep"]
            c["fn"] += (not kept) and item["keep"]
            if kept and item["keep"]:
                c["typed"] += 1
                c["type_ok"] += kind == item["type"]
        wrong_keep = kept != item["keep"]
        wrong_type = kept and item["keep"] and kind != item["type"]
        if misses and (wrong_keep or wrong_type):
            label = item["type"] if item["keep"] else "drop"
            got = kind if kept else "drop"
            wrong.append(
                f"{label:>11} <- {got:<11} {item['lang']} {item['speaker_role'][0]} | {item['text']}"
                + (f"  || {item['context']}" if item.get("context") else "")
                + (f"\n{'':>26}=> {summary}" if kept else "")
            )
    print(f"{'set':<6} {'n':>4} {'keep P':>7} {'keep R':>7} {'type acc':>8}")
    for group in ["all", *sorted(g for g in counts if g != "all")]:
        c = counts[group]
        precision = _ratio(c["tp"], c["tp"] + c["fp"])
        recall = _ratio(c["tp"], c["tp"] + c["fn"])
        print(
            f"{group:<6} {c['n']:>4} {precision:>7.3f} {recall:>7.3f} {_ratio(c['type_ok'], c['typed']):>8.3f}"
        )
    if wrong:
        print("\n".join(["", *wrong]))
