"""Fit the second stage's feature weights on the development sets, and judge them on a set left out.

Recall's second stage (`app.recall.rerank`) scores each fused candidate as a weighted sum of features.
Tuning one weight at a time through the full evaluation takes a run per value; here every question is
asked once, each candidate's features are captured as the service computes them, and any weights are then
replayed offline on the captured candidates in milliseconds: scored, ordered, diversified and mapped to
turns exactly as the service and `python -m bench eval-retrieval` do (the replay of the default weights must
reproduce the service's own rankings; the script checks it and stops if not).

It prints, per development set: the default weights, weights fitted on all sets together (coordinate
ascent on the mean of any@10 and NDCG@10), and weights fitted on the other sets only (leave one set
out), the honest figure for data not tuned on. Development sets only: public benchmark data is held out.

    .venv/bin/python -m bench tune-rerank          # a throw-away database on the local PostgreSQL
    .venv/bin/python -m bench tune-rerank --capture /tmp/rerank.pickle   # reuse a capture (same code)
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import pickle
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from app.recall import rerank as rr
from app.recall import service
from app.recall.repository import Candidate
from bench import eval_retrieval as ev
from bench import harness
from bench.locomo import load_samples, ranked_turns, score_ranking

DATA = Path(__file__).resolve().parent / "data"
DEFAULT_SETS = ",".join(
    str(DATA / f"{name}.json")
    for name in ("dev_locomo", "dev_replies", "dev_long", "dev_paraphrase", "dev_assistant", "dev_friends")
)
K = 10
# Values tried for each weight in a pass of coordinate ascent: factors of the current value, and absolute
# values (so a weight at 0 can come in).
STEPS = (0.0, 0.5, 0.75, 1.33, 2.0)
ABSOLUTE = (0.05, 0.15, 0.3, 0.6, 1.0, 2.0)


@dataclass
class Question:
    """One question as the second stage saw it: its candidates' features, and what the replay needs to
    rank turns as the service and the evaluation do."""

    data: str
    evidence: tuple[str, ...]
    features: dict[str, rr.Features]
    sources: dict[str, set[str]]  # candidate → its source message ids ("session/message")
    turns: dict[str, list[str]]  # candidate → its source turns (dia_ids)
    service_ranked: list[str]  # the turns the service itself ranked


async def capture(args: argparse.Namespace) -> list[Question]:
    """Ingest every set in-process and ask each question once, recording the second stage's inputs."""
    import httpx

    from app.main import create_app
    from app.worker.runner import Worker
    from tests.conftest import make_settings

    name, url = await harness.create_database(args.database_url, "tune_rerank")
    settings = make_settings(url, log_level="WARNING", admin_key=None)
    app = create_app(settings, run_worker=False)
    seen: list[tuple[dict[str, rr.Features], dict[str, set[str]]]] = []
    original = service.rerank  # type: ignore[attr-defined]

    def recording(
        fused: dict[str, float],
        rows: dict[str, Candidate],
        hits: dict[str, int],
        query: rr.Query,
        channel_count: int,
    ) -> dict[str, float]:
        found = rr.features(fused, rows, hits, query, channel_count)
        seen.append((found, {m: set(row.sources) for m, row in rows.items()}))
        return rr.score(found)

    service.rerank = recording  # type: ignore[attr-defined]
    questions: list[Question] = []
    try:
        async with app.router.lifespan_context(app):
            worker = Worker(settings, app.state.sessionmaker, url, name="tune")
            await worker.start()
            client = ev.AgentMemoryClient("http://tune", None, 8, 120)
            await client.http.aclose()
            client.http = httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app), base_url="http://tune", timeout=600
            )
            for path in args.data.split(","):
                samples = load_samples(path)
                ns = f"tune-{Path(path).stem.replace('_', '-')}"
                await ev.ensure_namespace(client, ns)
                jobs = {ev.profile_name(s): await ev.ingest_sample(client, ns, s) for s in samples}
                await ev.wait_jobs(client, ns, jobs, 1800)
                for sample in samples:
                    base = f"/v1/namespaces/{ns}/profiles/{ev.profile_name(sample)}"
                    turn_map = ev.TurnMap(sample.turns)
                    memory_turns: dict[str, list[str]] = {}

                    for qa in sample.scored_questions():
                        seen.clear()
                        body = {
                            "query": qa.question,
                            "thinkingLevel": args.level,
                            "limit": K,
                            "referenceDate": ev._iso(sample.last_date),
                        }
                        result = await client.request("POST", f"{base}/recall", json=body)
                        candidates = [c["id"] for c in result.get("candidates") or []]
                        found, sources = seen[0] if seen else ({}, {})
                        for memory_id in [*found, *candidates]:
                            if memory_id not in memory_turns:
                                memory = await client.request("GET", f"{base}/memories/{memory_id}")
                                memory_turns[memory_id] = turn_map.turns_of(memory)[0]
                        questions.append(
                            Question(
                                data=Path(path).stem,
                                evidence=qa.evidence,
                                features=found,
                                sources=sources,
                                turns={m: memory_turns[m] for m in {*found, *candidates}},
                                service_ranked=ranked_turns([memory_turns[m] for m in candidates], K),
                            )
                        )
                print(
                    f"captured {Path(path).stem}: {sum(q.data == Path(path).stem for q in questions)} "
                    f"questions; load {os.getloadavg()}",
                    flush=True,
                )
            await client.close()
            await worker.stop()
    finally:
        service.rerank = original  # type: ignore[attr-defined]
        if not args.keep:
            await harness.drop_database(args.database_url, name)
    return questions


def ranked(question: Question, weights: rr.Weights) -> list[str]:
    scores = rr.score(question.features, weights)
    ordered = sorted(scores, key=lambda m: (scores[m], m), reverse=True)
    order = service._diversify(ordered, question.sources)[:K]
    return ranked_turns([question.turns[m] for m in order], K)


def metrics(questions: Sequence[Question], weights: rr.Weights) -> dict[str, dict[str, float]]:
    """any@10, NDCG@10 and MRR per set."""
    per: dict[str, list[dict[str, float]]] = {}
    for question in questions:
        per.setdefault(question.data, []).append(score_ranking(ranked(question, weights), question.evidence))
    return {
        name: {key: statistics.fmean(row[key] for row in rows) for key in ("any@10", "ndcg@10", "mrr")}
        for name, rows in per.items()
    }


def objective(questions: Sequence[Question], weights: rr.Weights) -> float:
    """The mean over sets (each set counts alike, whatever its size) of any@10 and NDCG@10."""
    found = metrics(questions, weights)
    return statistics.fmean((m["any@10"] + m["ndcg@10"]) / 2 for m in found.values())


def fit(questions: Sequence[Question], start: rr.Weights, passes: int, names: Sequence[str]) -> rr.Weights:
    """Coordinate ascent over the weights `names`: each in turn takes the value of those tried that scores
    best (ties keep the current one), until a pass changes nothing."""
    best = start
    best_value = objective(questions, best)
    for _ in range(passes):
        changed = False
        for name in names:
            current = getattr(best, name)
            tried = {round(current * f, 4) for f in STEPS} | set(ABSOLUTE)
            if name in rr.FACTORS:
                tried = {v for v in tried if v <= 1.0}
            for value in sorted(tried - {current}):
                candidate = dataclasses.replace(best, **{name: value})
                v = objective(questions, candidate)
                if v > best_value + 1e-9:
                    best, best_value, changed = candidate, v, True
        if not changed:
            break
    return best


def _row(label: str, found: dict[str, dict[str, float]], sets: list[str]) -> str:
    cells = [f"{found[s]['any@10']:.3f} / {found[s]['ndcg@10']:.3f}" if s in found else "" for s in sets]
    return f"| {label} | " + " | ".join(cells) + " |"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.capture and Path(args.capture).exists():
        questions: list[Question] = pickle.loads(Path(args.capture).read_bytes())
    else:
        questions = asyncio.run(capture(args))
        if args.capture:
            Path(args.capture).write_bytes(pickle.dumps(questions))
    mismatched = sum(ranked(q, rr.DEFAULT_WEIGHTS) != q.service_ranked for q in questions)
    print(
        f"{len(questions)} questions; replay of the default weights differs from the service on {mismatched}",
        flush=True,
    )
    if mismatched > len(questions) // 100:
        print("the replay does not reproduce the service: stop", file=sys.stderr)
        return 1
    sets = list(dict.fromkeys(q.data for q in questions))
    names = args.fit.split(",") if args.fit else [f.name for f in dataclasses.fields(rr.Weights)][1:]
    print("| weights | " + " | ".join(sets) + " |")
    print("|---|" + "---|" * len(sets))
    print(_row("default", metrics(questions, rr.DEFAULT_WEIGHTS), sets))
    if args.sweep:
        name, _, values = args.sweep.partition("=")
        for value in values.split(","):
            weights = dataclasses.replace(rr.DEFAULT_WEIGHTS, **{name: float(value)})
            print(_row(f"{name} = {value}", metrics(questions, weights), sets))
        return 0
    everything = fit(questions, rr.DEFAULT_WEIGHTS, args.passes, names)
    print(_row("fitted on all sets", metrics(questions, everything), sets))
    held: dict[str, dict[str, float]] = {}
    for name in sets:
        fitted = fit([q for q in questions if q.data != name], rr.DEFAULT_WEIGHTS, args.passes, names)
        held[name] = metrics([q for q in questions if q.data == name], fitted)[name]
        print(f"  fitted without {name}: {fitted}", flush=True)
    print(_row("fitted on the other sets (left-out set)", held, sets))
    print(f"\nfitted on all sets: {everything}")
    return 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = harness.parser(__doc__, json_output=False)
    p.add_argument("--data", default=DEFAULT_SETS, help="comma-separated LoCoMo-layout files")
    p.add_argument("--level", default="medium", choices=["medium", "high"])
    p.add_argument("--capture", default=None, help="pickle of the captured questions: read if it exists")
    p.add_argument("--passes", type=int, default=4)
    p.add_argument("--sweep", default=None, help="NAME=V1,V2,…: one weight at these values, the rest default")
    p.add_argument("--fit", default=None, help="comma-separated weights to fit (default: all but first)")
    return p.parse_args(argv)
