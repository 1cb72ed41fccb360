"""Fit recall's absolute relevance (`app.recall.relevance`) on the development sets, and judge it.

Every development set is ingested in-process (its unanswerable questions with it, `bench/data/
unanswerable_*.json`), and every question, answerable or not, is asked at each `thinkingLevel` with the
semantic channel on (the default local model) and off, `minScore` 0 and `trace: true`: the trace holds each
candidate's relevance features. A candidate is evidence when one of its source turns is an evidence turn of
its question (an unanswerable question has none).

A logistic regression (L2, Newton's method) is then fitted on all of it pooled, and judged set by set with
weights fitted on the other sets only (leave one set out). Printed per set: the expected calibration error of
the candidates' scores, the AUROC of the best score between answerable and unanswerable questions, and at
the chosen `minScore`, abstention (unanswerable questions given nothing), coverage (answerable ones given
something) and any@10 of what is left. The pooled fit's weights are printed as `app.recall.relevance.MODEL`.

    .venv/bin/python -m bench fit-relevance                       # capture and fit (about 15 minutes)
    .venv/bin/python -m bench fit-relevance --capture /tmp/rel.json   # capture once, then refit from it
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from app.recall.relevance import FEATURES, QUESTION_FEATURES
from app.recall.schemas import DEFAULT_MIN_SCORE
from bench import eval_retrieval as ev
from bench import harness
from bench.locomo import UNANSWERABLE, auroc, calibration, load_samples

DATA = Path(__file__).resolve().parent / "data"
DEFAULT_SETS = ",".join(str(p) for p in sorted(DATA.glob("dev_*.json")))
LEVELS = ("low", "medium", "high")
K = 10
L2 = 1.0


async def _ask_all(
    client: ev.AgentMemoryClient,
    ns: str,
    samples: list[Any],
    data: str,
    semantic: bool,
    rows: list[dict[str, Any]],
) -> None:
    for sample in samples:
        base = f"/v1/namespaces/{ns}/profiles/{ev.profile_name(sample)}"
        turn_map = ev.TurnMap(sample.turns)
        turns: dict[str, list[str]] = {}

        async def ask(qa: Any, level: str, sample: Any = sample, base: str = base) -> tuple[Any, str, Any]:
            body = {
                "query": qa.question,
                "thinkingLevel": level,
                "limit": K,
                "minScore": 0,
                "trace": True,
                "referenceDate": ev._iso(sample.last_date),
            }
            return qa, level, await client.request("POST", f"{base}/recall", json=body)

        questions = [*sample.scored_questions(), *sample.unanswerable_questions()]
        answers = await asyncio.gather(*(ask(qa, level) for qa in questions for level in LEVELS))
        for qa, level, result in answers:
            candidates = []
            for candidate, traced in zip(result["candidates"], result["trace"]["candidates"], strict=True):
                memory_id = candidate["id"]
                if memory_id not in turns:
                    memory = await client.request("GET", f"{base}/memories/{memory_id}")
                    turns[memory_id] = turn_map.turns_of(memory)[0]
                candidates.append(
                    {
                        "features": [f["value"] for f in traced["relevance"]],
                        "evidence": bool(set(turns[memory_id]) & set(qa.evidence)),
                    }
                )
            analysis = result["trace"]["analysis"]
            rows.append(
                {
                    "data": data,
                    "question": f"{sample.sample_id}/{qa.index}",
                    "category": qa.category,
                    "level": level,
                    "semantic": semantic,
                    "features": [f["value"] for f in analysis.get("answerabilityFeatures") or []],
                    "candidates": candidates,
                }
            )


async def capture(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Ingest every set in-process and ask each question at every level, semantic channel on and off."""
    import httpx

    from app.main import create_app
    from app.worker.runner import Worker
    from tests.conftest import make_settings

    if args.reuse:
        # The sets already ingested by an earlier `--keep` run (the same code's extraction and vectors).
        name, url = args.reuse, harness.with_database(args.database_url, args.reuse)
    else:
        name, url = await harness.create_database(args.database_url, "fit_relevance")
    rows: list[dict[str, Any]] = []
    sets = [(Path(p).stem, load_samples(p)) for p in args.data.split(",")]
    try:
        for semantic in (True, False):
            settings = make_settings(
                url, log_level="WARNING", admin_key=None, embeddings="local" if semantic else "none"
            )
            app = create_app(settings, run_worker=False)
            async with app.router.lifespan_context(app):
                worker = Worker(settings, app.state.sessionmaker, url, name="fit")
                if semantic:
                    await worker.start()
                client = ev.AgentMemoryClient("http://127.0.0.1", None, 4, 600)
                await client.http.aclose()
                client.http = httpx.AsyncClient(
                    transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1", timeout=600
                )
                for data, samples in sets:
                    ns = f"fit-{data.replace('_', '-')}"
                    if semantic and not args.reuse:
                        await ev.ensure_namespace(client, ns)
                        jobs = {ev.profile_name(s): await ev.ingest_sample(client, ns, s) for s in samples}
                        await ev.wait_jobs(client, ns, jobs, 3600)
                        await ev.wait_profiles_idle(client, ns, list(jobs), 3600)
                    await _ask_all(client, ns, samples, data, semantic, rows)
                    print(f"captured {data} semantic={semantic}; load {os.getloadavg()[0]:.1f}", flush=True)
                await client.close()
                if semantic:
                    await worker.stop()
    finally:
        if not args.keep and not args.reuse:
            await harness.drop_database(args.database_url, name)
    return rows


# --------------------------------------------------------------------------- the model


def fit(x: NDArray[np.float64], y: NDArray[np.float64], l2: float = L2) -> NDArray[np.float64]:
    """Logistic regression by Newton's method, L2 on the weights (not the intercept): [intercept, *w]."""
    design = np.hstack([np.ones((len(x), 1)), x])
    beta = np.zeros(design.shape[1])
    penalty = np.full(design.shape[1], l2)
    penalty[0] = 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-np.clip(design @ beta, -30, 30)))
        gradient = design.T @ (p - y) + penalty * beta
        hessian = (design * (p * (1 - p))[:, None]).T @ design + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return beta


def predict(beta: NDArray[np.float64], x: NDArray[np.float64]) -> NDArray[np.float64]:
    z = beta[0] + x @ beta[1:]
    return 1 / (1 + np.exp(-np.clip(z, -30, 30)))  # type: ignore[no-any-return]


@dataclass
class Fitted:
    """The two models' coefficients ([intercept, *weights]) fitted on some questions."""

    answerability: NDArray[np.float64]
    evidence: NDArray[np.float64]

    def scores(self, question: dict[str, Any]) -> list[float]:
        """Each candidate's score, as the service computes it."""
        if not question["candidates"]:
            return []
        answerable = predict(self.answerability, np.array([question["features"]]))[0]
        x = np.array([c["features"] for c in question["candidates"]])
        return [float(answerable * p) for p in predict(self.evidence, x)]


def fit_both(questions: list[dict[str, Any]]) -> Fitted:
    """ANSWERABILITY on every question with candidates (answerable or not); EVIDENCE on the candidates of
    the answerable ones."""
    asked = [q for q in questions if q["candidates"]]
    xq = np.array([q["features"] for q in asked])
    yq = np.array([float(q["category"] != UNANSWERABLE) for q in asked])
    held = [c for q in asked if q["category"] != UNANSWERABLE for c in q["candidates"]]
    xc = np.array([c["features"] for c in held])
    yc = np.array([float(c["evidence"]) for c in held])
    return Fitted(fit(xq, yq), fit(xc, yc))


def judge(questions: list[dict[str, Any]], scores: list[list[float]], min_score: float) -> dict[str, float]:
    """Calibration, AUROC, abstention, coverage and any@10 after `min_score`, of these questions."""
    answerable = [(q, s) for q, s in zip(questions, scores, strict=True) if q["category"] != UNANSWERABLE]
    unanswerable = [s for q, s in zip(questions, scores, strict=True) if q["category"] == UNANSWERABLE]
    judged = [
        (si, c["evidence"])
        for q, s in zip(questions, scores, strict=True)
        for si, c in zip(s, q["candidates"], strict=True)
    ]
    return {
        "ece": calibration(judged)[0],
        "auroc": auroc(
            [max(s, default=0.0) for _, s in answerable], [max(s, default=0.0) for s in unanswerable]
        ),
        "abstention": sum(max(s, default=0.0) < min_score for s in unanswerable) / max(len(unanswerable), 1),
        "coverage": sum(max(s, default=0.0) >= min_score for _, s in answerable) / max(len(answerable), 1),
        "any@10": sum(any(c["evidence"] for c in q["candidates"]) for q, _ in answerable)
        / max(len(answerable), 1),
        "any@10 kept": sum(
            any(c["evidence"] and si >= min_score for si, c in zip(s, q["candidates"], strict=True))
            for q, s in answerable
        )
        / max(len(answerable), 1),
        "questions": len(answerable),
        "unanswerable": len(unanswerable),
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.capture and Path(args.capture).exists():
        questions = json.loads(Path(args.capture).read_text())
    else:
        questions = asyncio.run(capture(args))
        if args.capture:
            Path(args.capture).write_text(json.dumps(questions))
    sets = sorted({q["data"] for q in questions})
    pooled = fit_both(questions)
    held_out: list[list[float]] = [[] for _ in questions]
    for data in sets:
        fitted = fit_both([q for q in questions if q["data"] != data])
        for i, q in enumerate(questions):
            if q["data"] == data:
                held_out[i] = fitted.scores(q)
    print(
        f"{len(questions)} questions, {sum(len(q['candidates']) for q in questions)} candidates; "
        f"features {', '.join(QUESTION_FEATURES)} | {', '.join(FEATURES)}"
    )
    head = f"{'set':22} {'ece':>6} {'auroc':>6} {'abst.':>6} {'cover.':>6} {'any@10':>7} {'kept':>7} {'n':>5} {'u':>5}"
    for label, scores in (("pooled fit", [pooled.scores(q) for q in questions]), ("left out", held_out)):
        print(f"\n{label}, minScore {args.min_score}:\n{head}")
        for data in [*sets, "semantic on", "semantic off", "all"]:
            chosen = [
                i
                for i, q in enumerate(questions)
                if data == "all"
                or q["data"] == data
                or data == ("semantic on" if q["semantic"] else "semantic off")
            ]
            m = judge([questions[i] for i in chosen], [scores[i] for i in chosen], args.min_score)
            print(
                f"{data:22} {m['ece']:6.3f} {m['auroc']:6.3f} {m['abstention']:6.3f} {m['coverage']:6.3f} "
                f"{m['any@10']:7.3f} {m['any@10 kept']:7.3f} {m['questions']:5d} {m['unanswerable']:5d}"
            )
    print("\nthresholds (left out, all sets):")
    for t in np.arange(0.05, 0.55, 0.05):
        m = judge(questions, held_out, float(t))
        print(
            f"  minScore {t:.2f}: abstention {m['abstention']:.3f} coverage {m['coverage']:.3f} kept {m['any@10 kept']:.3f}"
        )
    # As `app.recall.relevance` holds them.
    for name, names, beta in (
        ("ANSWERABILITY", QUESTION_FEATURES, pooled.answerability),
        ("EVIDENCE", FEATURES, pooled.evidence),
    ):
        weights = "".join(f'        "{n}": {w:.4f},\n' for n, w in zip(names, beta[1:], strict=True))
        features = "QUESTION_FEATURES" if name == "ANSWERABILITY" else "FEATURES"
        print(f"\n{name} = Model.fitted(\n    {features},\n    {beta[0]:.4f},\n    {{\n{weights}    }},\n)")
    return 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = harness.parser(__doc__, json_output=False)
    p.add_argument("--data", default=DEFAULT_SETS, help="comma-separated LoCoMo-format development sets")
    p.add_argument("--capture", default=None, help="JSON file: read the capture from it, or write it there")
    p.add_argument("--reuse", default=None, metavar="DATABASE", help="ask again of a database kept by --keep")
    p.add_argument(
        "--min-score", type=float, default=DEFAULT_MIN_SCORE, help="the minScore to judge (default: recall's)"
    )
    return p.parse_args(argv)


if __name__ == "__main__":
    sys.exit(main())
