"""LoCoMo-format loader, validator and retrieval metrics for the agent-memory benchmarks.

This module is importable (``from bench.locomo import load_samples, score_ranking``)
and also a small command line::

    python -m bench locomo validate bench/data/dev_locomo.json [--strict]
    python -m bench locomo stats bench/data/dev_locomo.json
    python -m bench locomo self-check

The file layout is LoCoMo's public JSON: a list of samples, each with
``conversation`` (``speaker_a``, ``speaker_b``, ``session_N_date_time`` and
``session_N`` turn lists of ``{speaker, dia_id, text[, blip_caption, img_url]}``)
and ``qa`` (``{question, answer, evidence: [dia_id...], category}``).

Metrics follow ``quality.md``: the ranked list of turns is built from the
candidates' source turns in candidate order, duplicates dropped, cut at k; we
report any@k / all@k for k = 1, 5, 10, NDCG@10 (binary relevance) and MRR, per
category 1-4 and overall (category 5, adversarial, is never scored).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

TURN_SPACING = timedelta(seconds=30)
KS: tuple[int, ...] = (1, 5, 10)
SCORED_CATEGORIES: tuple[int, ...] = (1, 2, 3, 4)
CATEGORY_NAMES: dict[int, str] = {
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    4: "single-hop",
    5: "adversarial",
    6: "unanswerable",
}
# Questions the conversation cannot answer (`bench/data/unanswerable_*.json`): never scored for retrieval;
# recall should answer them with nothing (abstention).
UNANSWERABLE = 6
METRIC_COLUMNS: tuple[str, ...] = (
    "any@1",
    "any@5",
    "any@10",
    "all@1",
    "all@5",
    "all@10",
    "ndcg@10",
    "mrr",
)

_MONTHS = {
    name: i
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
_DATE_RE = re.compile(
    r"^\s*(\d{1,2}):(\d{2})\s*([ap])\.?\s*m\.?\s+on\s+(\d{1,2})\s+([A-Za-z]+)\.?,?\s+(\d{4})\s*$",
    re.IGNORECASE,
)
_SESSION_RE = re.compile(r"^session_(\d+)$")
_DIA_RE = re.compile(r"D(\d+):(\d+)")


# --------------------------------------------------------------------------- data model


@dataclass(frozen=True)
class Turn:
    """One dialogue turn, with the exact message content the harness ingests."""

    dia_id: str
    speaker: str
    text: str
    session_key: str  # "session_3"
    session_index: int  # 3
    position: int  # 0-based index inside the session
    timestamp: datetime
    role: str  # "user" (speaker A) or "assistant" (speaker B)
    blip_caption: str | None = None

    @property
    def content(self) -> str:
        return message_content(self.speaker, self.text, self.blip_caption)


@dataclass
class Session:
    index: int
    key: str
    date: datetime
    date_text: str
    turns: list[Turn] = field(default_factory=list)


@dataclass(frozen=True)
class QA:
    question: str
    answer: str
    evidence: tuple[str, ...]
    category: int
    index: int  # position in the sample's qa list


@dataclass
class Sample:
    sample_id: str
    speaker_a: str
    speaker_b: str
    sessions: list[Session]
    qa: list[QA]
    dropped_evidence: int = 0  # evidence ids that do not name a turn of this conversation

    @property
    def turns(self) -> list[Turn]:
        return [t for s in self.sessions for t in s.turns]

    @property
    def last_date(self) -> datetime:
        return self.sessions[-1].date

    def scored_questions(self) -> list[QA]:
        """Questions that enter the scores: category 1-4 with non-empty evidence."""
        return [q for q in self.qa if q.category in SCORED_CATEGORIES and q.evidence]

    def unanswerable_questions(self) -> list[QA]:
        """Questions written so that this conversation does not answer them (category 6)."""
        return [q for q in self.qa if q.category == UNANSWERABLE]


def message_content(speaker: str, text: str, blip_caption: str | None = None) -> str:
    """The message content sent to the server for a turn (and used by the baselines)."""
    content = f"{speaker}: {text}"
    if blip_caption:
        content += f" [image: {blip_caption}]"
    return content


def parse_locomo_date(text: str) -> datetime:
    """Parse a LoCoMo date string such as ``"1:56 pm on 8 May, 2023"`` into an aware UTC datetime."""
    m = _DATE_RE.match(text)
    if not m:
        raise ValueError(f"unrecognised LoCoMo date: {text!r}")
    hour, minute, ampm, day, month_name, year = m.groups()
    month = _MONTHS.get(month_name.lower())
    if month is None:
        raise ValueError(f"unrecognised month in LoCoMo date: {text!r}")
    h = int(hour) % 12 + (12 if ampm.lower() == "p" else 0)
    return datetime(int(year), month, int(day), h, int(minute), tzinfo=UTC)


def normalize_evidence(raw: Any) -> list[str]:
    """Evidence ids as a flat list of ``D<s>:<t>`` strings (public LoCoMo has a few ``"D8:6; D9:17"``)."""
    items: Iterable[Any] = raw if isinstance(raw, list) else [raw] if raw else []
    out: list[str] = []
    for item in items:
        for m in _DIA_RE.finditer(str(item)):
            dia = f"D{int(m.group(1))}:{int(m.group(2))}"
            if dia not in out:
                out.append(dia)
    return out


def _session_keys(conv: dict[str, Any]) -> list[tuple[int, str]]:
    keys = []
    for key, value in conv.items():
        m = _SESSION_RE.match(key)
        if m and isinstance(value, list):
            keys.append((int(m.group(1)), key))
    return sorted(keys)


def parse_sample(raw: dict[str, Any], spacing: timedelta = TURN_SPACING) -> Sample:
    conv = raw["conversation"]
    speaker_a, speaker_b = conv["speaker_a"], conv["speaker_b"]
    sessions: list[Session] = []
    for index, key in _session_keys(conv):
        turns_raw = conv[key]
        if not turns_raw:
            continue
        date_text = conv[f"{key}_date_time"]
        date = parse_locomo_date(date_text)
        session = Session(index=index, key=key, date=date, date_text=date_text)
        for pos, t in enumerate(turns_raw):
            speaker = t["speaker"]
            caption = t.get("blip_caption") or None
            session.turns.append(
                Turn(
                    dia_id=t["dia_id"],
                    speaker=speaker,
                    text=t["text"],
                    session_key=key,
                    session_index=index,
                    position=pos,
                    timestamp=date + spacing * pos,
                    role="user" if speaker == speaker_a else "assistant",
                    blip_caption=caption,
                )
            )
        sessions.append(session)
    known = {t.dia_id for s in sessions for t in s.turns}
    qa: list[QA] = []
    dropped = 0
    for i, q in enumerate(raw.get("qa", [])):
        ev = normalize_evidence(q.get("evidence", []))
        kept = tuple(e for e in ev if e in known)
        dropped += len(ev) - len(kept)
        answer = q.get("answer", q.get("adversarial_answer", ""))
        qa.append(
            QA(
                question=q["question"],
                answer=str(answer),
                evidence=kept,
                category=int(q["category"]),
                index=i,
            )
        )
    sample_id = str(raw.get("sample_id", f"sample-{len(sessions)}"))
    return Sample(sample_id, speaker_a, speaker_b, sessions, qa, dropped)


def load_samples(path: str | Path, limit: int | None = None) -> list[Sample]:
    """Load a LoCoMo-format JSON file (a list of samples, or a single sample object), with the unanswerable
    questions written for its conversations (`unanswerable_questions`) added to each sample's `qa`."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if isinstance(data, dict):
        data = [data]
    samples = [parse_sample(raw) for raw in data]
    for i, s in enumerate(samples):
        if s.sample_id.startswith("sample-") and "sample_id" not in data[i]:
            s.sample_id = f"sample-{i}"
    extra = unanswerable_questions(Path(path))
    for s in samples:
        for q in extra.get(s.sample_id, []):
            s.qa.append(QA(q["question"], "", (), UNANSWERABLE, len(s.qa)))
    return samples[:limit] if limit else samples


def unanswerable_questions(path: Path) -> dict[str, list[dict[str, Any]]]:
    """The unanswerable questions written for the samples of the data file `path`, by sample id: every
    `unanswerable_*.json` beside it holds `[{sample_id, source, qa: [{question, evidence: [], category: 6,
    kind}]}]`, `source` naming the data file."""
    found: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for extra in sorted(path.parent.glob("unanswerable_*.json")):
        for entry in json.loads(extra.read_text(encoding="utf-8")):
            if entry.get("source") == path.name:
                found[str(entry["sample_id"])].extend(entry["qa"])
    return found


# --------------------------------------------------------------------------- validation


def validate_data(data: Any, strict: bool = False) -> list[str]:
    """Check a parsed file's shape; return a list of problems (empty = valid).

    Always checked: layout, unique dia_ids of the form ``D<session>:<n>`` matching
    their session, parseable session dates, speakers among speaker_a/speaker_b,
    categories 1-5, evidence ids that exist. With ``strict`` (for our own dev
    data): session dates strictly increase, categories 1-4 have evidence, and
    multi-hop (category 1) evidence spans at least two sessions.
    """
    errors: list[str] = []
    if not isinstance(data, list):
        return ["top level must be a list of samples"]
    seen_ids: set[str] = set()
    for si, sample in enumerate(data):
        where = f"sample[{si}]"
        if not isinstance(sample, dict):
            errors.append(f"{where}: not an object")
            continue
        sid = sample.get("sample_id")
        if not isinstance(sid, str) or not sid:
            errors.append(f"{where}: missing sample_id")
        elif sid in seen_ids:
            errors.append(f"{where}: duplicate sample_id {sid}")
        else:
            seen_ids.add(sid)
            where = f"{sid}"
        conv = sample.get("conversation")
        if not isinstance(conv, dict):
            errors.append(f"{where}: missing conversation")
            continue
        speakers = {conv.get("speaker_a"), conv.get("speaker_b")}
        if None in speakers or len(speakers) != 2:
            errors.append(f"{where}: speaker_a and speaker_b must be two distinct names")
        dia_ids: set[str] = set()
        dia_session: dict[str, int] = {}
        prev_date: datetime | None = None
        keys = _session_keys(conv)
        if not keys:
            errors.append(f"{where}: no sessions")
        for n, key in keys:
            dt_text = conv.get(f"{key}_date_time")
            try:
                date = parse_locomo_date(str(dt_text))
                if strict and prev_date is not None and date <= prev_date:
                    errors.append(f"{where}: {key} date {dt_text} is not after the previous session")
                prev_date = date
            except ValueError as exc:
                errors.append(f"{where}: {key}: {exc}")
            for ti, turn in enumerate(conv[key]):
                tw = f"{where}: {key}[{ti}]"
                if not isinstance(turn, dict):
                    errors.append(f"{tw}: not an object")
                    continue
                for fld in ("speaker", "dia_id", "text"):
                    if not isinstance(turn.get(fld), str) or not turn.get(fld):
                        errors.append(f"{tw}: missing {fld}")
                if turn.get("speaker") not in speakers:
                    errors.append(f"{tw}: speaker {turn.get('speaker')!r} is neither speaker_a nor speaker_b")
                dia = turn.get("dia_id")
                m = re.fullmatch(r"D(\d+):(\d+)", str(dia))
                if not m or int(m.group(1)) != n:
                    errors.append(f"{tw}: dia_id {dia!r} does not match session {n}")
                if dia in dia_ids:
                    errors.append(f"{tw}: duplicate dia_id {dia}")
                dia_ids.add(str(dia))
                dia_session[str(dia)] = n
                if "blip_caption" in turn and not isinstance(turn["blip_caption"], str):
                    errors.append(f"{tw}: blip_caption must be a string")
        qa = sample.get("qa")
        if not isinstance(qa, list):
            errors.append(f"{where}: qa must be a list")
            continue
        for qi, q in enumerate(qa):
            qw = f"{where}: qa[{qi}]"
            if not isinstance(q, dict):
                errors.append(f"{qw}: not an object")
                continue
            if not isinstance(q.get("question"), str) or not q["question"].strip():
                errors.append(f"{qw}: missing question")
            cat = q.get("category")
            if not isinstance(cat, int) or cat not in CATEGORY_NAMES:
                errors.append(f"{qw}: category {cat!r} not in 1-5")
            if cat != 5 and "answer" not in q:
                errors.append(f"{qw}: missing answer")
            ev = q.get("evidence")
            if not isinstance(ev, list):
                errors.append(f"{qw}: evidence must be a list")
                continue
            for e in ev:
                if e not in dia_ids:
                    errors.append(f"{qw}: evidence {e!r} is not a dia_id of this conversation")
            if strict and cat in SCORED_CATEGORIES:
                if not ev:
                    errors.append(f"{qw}: category {cat} question without evidence")
                if len(set(ev)) != len(ev):
                    errors.append(f"{qw}: duplicate evidence ids")
                if cat == 1 and len({dia_session.get(e) for e in ev}) < 2:
                    errors.append(f"{qw}: multi-hop evidence must span at least two sessions")
    return errors


def validate_file(path: str | Path, strict: bool = False) -> list[str]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        return [f"cannot read {path}: {exc}"]
    return validate_data(data, strict=strict)


def dataset_stats(samples: Sequence[Sample]) -> dict[str, Any]:
    cats: Counter[int] = Counter()
    per_sample = []
    for s in samples:
        c = Counter(q.category for q in s.qa)
        cats.update(c)
        per_sample.append(
            {
                "sample_id": s.sample_id,
                "sessions": len(s.sessions),
                "turns": len(s.turns),
                "turns_per_session": [len(x.turns) for x in s.sessions],
                "first": s.sessions[0].date.date().isoformat(),
                "last": s.last_date.date().isoformat(),
                "questions": len(s.qa),
                "by_category": dict(sorted(c.items())),
            }
        )
    return {
        "samples": len(samples),
        "sessions": sum(len(s.sessions) for s in samples),
        "turns": sum(len(s.turns) for s in samples),
        "images": sum(1 for s in samples for t in s.turns if t.blip_caption),
        "questions": sum(len(s.qa) for s in samples),
        "by_category": dict(sorted(cats.items())),
        "per_sample": per_sample,
    }


# --------------------------------------------------------------------------- metrics


def ranked_turns(candidate_turns: Iterable[Iterable[str]], k: int = 10) -> list[str]:
    """Flatten each candidate's source turns in candidate order, drop duplicates, cut at k."""
    out: list[str] = []
    seen: set[str] = set()
    for turns in candidate_turns:
        for t in turns:
            if t in seen:
                continue
            seen.add(t)
            out.append(t)
            if len(out) >= k:
                return out
    return out


def score_ranking(ranked: Sequence[str], evidence: Iterable[str], ks: Sequence[int] = KS) -> dict[str, float]:
    """Per-question metrics for a ranked list of turn ids against a set of evidence ids.

    any@k: at least one evidence turn in the top k; all@k: every evidence turn in
    the top k; NDCG@10 with binary relevance and an ideal list of
    min(|evidence|, 10) relevant turns at the top; MRR: 1/rank of the first
    relevant turn, 0 when none is in the list.
    """
    ev = set(evidence)
    if not ev:
        raise ValueError("score_ranking needs non-empty evidence")
    ranked = list(ranked)
    hits = [t in ev for t in ranked]
    out: dict[str, float] = {}
    for k in ks:
        found = sum(hits[:k])
        out[f"any@{k}"] = 1.0 if found > 0 else 0.0
        out[f"all@{k}"] = 1.0 if found >= len(ev) else 0.0
    dcg = sum(1.0 / math.log2(i + 2) for i, h in enumerate(hits[:10]) if h)
    idcg = sum(1.0 / math.log2(i + 2) for i in range(min(len(ev), 10)))
    out["ndcg@10"] = dcg / idcg
    first = next((i for i, h in enumerate(hits) if h), None)
    out["mrr"] = 0.0 if first is None else 1.0 / (first + 1)
    return out


def aggregate(rows: Iterable[tuple[int, dict[str, float]]]) -> dict[str, dict[str, float]]:
    """Mean of per-question metrics by category (1-4) and ``overall``; each group has ``n``."""
    groups: dict[str, list[dict[str, float]]] = defaultdict(list)
    for category, metrics in rows:
        if category not in SCORED_CATEGORIES:
            continue
        groups[str(category)].append(metrics)
        groups["overall"].append(metrics)
    out: dict[str, dict[str, float]] = {}
    for name in [*(str(c) for c in SCORED_CATEGORIES), "overall"]:
        items = groups.get(name, [])
        agg: dict[str, float] = {
            col: (sum(m[col] for m in items) / len(items) if items else 0.0) for col in METRIC_COLUMNS
        }
        agg["n"] = float(len(items))
        out[name] = agg
    return out


def format_table(results: dict[str, dict[str, dict[str, float]]]) -> str:
    """One plain-text table: rows = system x category, columns = metrics + n."""
    head = ["system", "category", *METRIC_COLUMNS, "n"]
    lines = []
    widths = [20, 15, *([7] * len(METRIC_COLUMNS)), 5]
    pairs = enumerate(zip(head, widths, strict=True))
    lines.append("  ".join(h.ljust(w) if i < 2 else h.rjust(w) for i, (h, w) in pairs))
    lines.append("  ".join("-" * w for w in widths))
    for system, by_cat in results.items():
        for cat, agg in by_cat.items():
            label = f"{cat} {CATEGORY_NAMES[int(cat)]}" if cat.isdigit() else cat
            cells = [system.ljust(widths[0]), label.ljust(widths[1])]
            cells += [f"{agg[c]:.3f}".rjust(7) for c in METRIC_COLUMNS]
            cells.append(str(int(agg["n"])).rjust(5))
            lines.append("  ".join(cells))
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


# --------------------------------------------------------------------------- self-check


# --------------------------------------------------------------------------- relevance

CALIBRATION_BINS = 10


def calibration(judged: list[tuple[float, bool]]) -> tuple[float, list[tuple[str, int, float, float]]]:
    """Expected calibration error of candidate scores against whether each is evidence, and the reliability
    table: per score bin (width 0.1), its candidates, their mean score and the share that are evidence."""
    bins: dict[int, list[tuple[float, bool]]] = defaultdict(list)
    for score, evidence in judged:
        bins[min(int(score * CALIBRATION_BINS), CALIBRATION_BINS - 1)].append((score, evidence))
    table = []
    error = 0.0
    for b in sorted(bins):
        rows = bins[b]
        mean = sum(s for s, _ in rows) / len(rows)
        share = sum(e for _, e in rows) / len(rows)
        error += len(rows) / max(len(judged), 1) * abs(mean - share)
        table.append((f"{b / CALIBRATION_BINS:.1f}–{(b + 1) / CALIBRATION_BINS:.1f}", len(rows), mean, share))
    return error, table


def auroc(positive: Sequence[float], negative: Sequence[float]) -> float:
    """The chance that a positive scores above a negative (ties count half)."""
    if not positive or not negative:
        return float("nan")
    order = sorted([(s, 1) for s in positive] + [(s, 0) for s in negative])
    rank_sum, i = 0.0, 0
    while i < len(order):
        j = i
        while j < len(order) and order[j][0] == order[i][0]:
            j += 1
        mid = (i + j + 1) / 2  # ranks i+1 … j, averaged
        rank_sum += mid * sum(label for _, label in order[i:j])
        i = j
    n_pos, n_neg = len(positive), len(negative)
    return (rank_sum - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def self_check() -> None:
    """Hand-computed cases for the metric and the loader helpers; raises AssertionError on a bug."""

    def close(a: float, b: float) -> bool:
        return abs(a - b) < 1e-9

    # ranked list: duplicates dropped across candidates, cut at k turns
    assert ranked_turns([["D1:1", "D1:2"], ["D1:2", "D2:5"], ["D3:1"]], k=3) == ["D1:1", "D1:2", "D2:5"]
    assert ranked_turns([[], ["D1:1"]], k=10) == ["D1:1"]

    # evidence {a, b}; list [x, a, y, z, b]
    m = score_ranking(["x", "a", "y", "z", "b"], ["a", "b"])
    assert m["any@1"] == 0.0 and m["any@5"] == 1.0 and m["any@10"] == 1.0
    assert m["all@1"] == 0.0 and m["all@5"] == 1.0
    # DCG = 1/log2(3) + 1/log2(6); IDCG = 1 + 1/log2(3)
    assert close(m["ndcg@10"], (1 / math.log2(3) + 1 / math.log2(6)) / (1 + 1 / math.log2(3)))
    assert close(m["mrr"], 0.5)

    # perfect single hit
    m = score_ranking(["a", "x"], ["a"])
    assert m["any@1"] == m["all@1"] == m["ndcg@10"] == m["mrr"] == 1.0

    # relevant turn only at rank 7: any@5 = 0, any@10 = 1, MRR = 1/7, NDCG = 1/log2(8) = 1/3
    m = score_ranking([f"x{i}" for i in range(6)] + ["a"], ["a"])
    assert m["any@5"] == 0.0 and m["any@10"] == 1.0
    assert close(m["mrr"], 1 / 7) and close(m["ndcg@10"], 1 / 3)

    # nothing relevant; empty list
    m = score_ranking([], ["a", "b"])
    assert all(v == 0.0 for v in m.values())

    # 12 evidence turns: ideal capped at 10, all@10 impossible
    ev = [f"e{i}" for i in range(12)]
    m = score_ranking(ev[:10], ev)
    assert close(m["ndcg@10"], 1.0) and m["all@10"] == 0.0 and m["any@1"] == 1.0

    # aggregate: category 5 excluded; overall = mean over 1-4
    agg = aggregate(
        [
            (1, {c: 1.0 for c in METRIC_COLUMNS}),
            (2, {c: 0.0 for c in METRIC_COLUMNS}),
            (5, {c: 1.0 for c in METRIC_COLUMNS}),
        ]
    )
    assert agg["overall"]["n"] == 2 and close(agg["overall"]["any@10"], 0.5)
    assert agg["1"]["any@10"] == 1.0 and agg["3"]["n"] == 0

    # dates and evidence normalisation
    assert parse_locomo_date("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert parse_locomo_date("12:09 am on 13 September, 2023") == datetime(2023, 9, 13, 0, 9, tzinfo=UTC)
    assert parse_locomo_date("12:30 pm on 1 Jan, 2024") == datetime(2024, 1, 1, 12, 30, tzinfo=UTC)
    assert normalize_evidence(["D8:6; D9:17", "D1:3"]) == ["D8:6", "D9:17", "D1:3"]
    assert message_content("Ann", "hi", "a dog") == "Ann: hi [image: a dog]"


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    v = sub.add_parser("validate", help="check a LoCoMo-format file")
    v.add_argument("path")
    v.add_argument("--strict", action="store_true", help="also the stricter rules for our own dev data")
    s = sub.add_parser("stats", help="print sizes of a LoCoMo-format file")
    s.add_argument("path")
    sub.add_parser("self-check", help="run the hand-computed metric checks")
    args = p.parse_args(argv)
    if args.cmd == "validate":
        errors = validate_file(args.path, strict=args.strict)
        for e in errors:
            print(e)
        if errors:
            print(f"{len(errors)} problem(s)")
            return 1
        stats = dataset_stats(load_samples(args.path))
        print(
            f"ok: {stats['samples']} samples, {stats['turns']} turns, {stats['questions']} questions "
            f"{stats['by_category']}"
        )
        return 0
    if args.cmd == "stats":
        print(json.dumps(dataset_stats(load_samples(args.path)), indent=2))
        return 0
    self_check()
    print("self-check ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
