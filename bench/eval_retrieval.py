"""Retrieval-quality evaluation of agent-memory on LoCoMo-format data, with two lexical baselines.

For every conversation of the data file this script

* ingests it into its own profile through the HTTP API (one ``sessionId`` per
  session, timestamps from the session dates, speaker A as ``user``, speaker B
  as ``assistant``, content ``"<speaker>: <text>[ [image: <caption>]]"``),
  waits for every job it queued (extraction, then the embedding jobs extraction
  queues when the semantic channel is on: measured before the vectors are
  stored, the channel's gain looks a third of what it is), asks every question
  through ``/recall`` and
  maps each candidate memory back to its source turns (``GET /memories/{id}``);
* runs, on the same turns, BM25 (``bm25s``, stopwords and PyStemmer's stemmer of each text's language) and
  a PostgreSQL OR-tsquery ranked by ``ts_rank`` (each text in its language's configuration; Chinese,
  Japanese and Korean as character bigrams in both);
* prints any@k / all@k (k = 1, 5, 10), NDCG@10 and MRR per category 1-4 and
  overall, for each system (see ``bench/locomo.py`` and ``quality.md``), and the answer precision of
  agent-memory's ``answer``: the share of its sentences that come from a memory of an evidence turn.

Examples::

    python -m bench eval-retrieval --baselines-only
    python -m bench eval-retrieval --url http://127.0.0.1:8080 --key amk_...
    python -m bench eval-retrieval --serve --json /tmp/eval.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import secrets
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from bench import harness
from bench.locomo import (
    QA,
    UNANSWERABLE,
    Sample,
    Turn,
    aggregate,
    auroc,
    calibration,
    dataset_stats,
    format_table,
    load_samples,
    ranked_turns,
    score_ranking,
)

K = 10
MAX_BATCH = 500
DEFAULT_DATA = Path(__file__).resolve().parent / "data" / "dev_locomo.json"


@dataclass
class QuestionResult:
    sample_id: str
    qa: QA
    ranked: list[str]
    metrics: dict[str, float]
    extra: dict[str, Any] = field(default_factory=dict)


def _iso(dt: datetime) -> str:
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


def _progress(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _score(sample: Sample, qa: QA, ranked: list[str], **extra: Any) -> QuestionResult:
    metrics = score_ranking(ranked, qa.evidence) if qa.evidence else {}
    return QuestionResult(sample.sample_id, qa, ranked, metrics, extra)


# --------------------------------------------------------------------------- BM25 baseline


# The baselines read each text in its own language, as the service does (`app.language.detect`): the
# snowball stemmer of that language (PostgreSQL's own configuration for the OR-tsquery), Chinese, Japanese
# and Korean as overlapping character bigrams. English text is read exactly as before languages were told.
_CJK_RUN_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+")
_BM25_STOPWORDS = frozenset(
    ("spanish", "german", "french", "portuguese", "italian", "dutch", "swedish", "danish", "norwegian",
     "russian", "turkish")
)  # fmt: skip


def with_bigrams(text: str) -> str:
    """`text` followed by the overlapping character bigrams of its CJK runs (migration 0013's segmentation)."""
    grams = [run[i : i + 2] for run in _CJK_RUN_RE.findall(text) for i in range(max(len(run) - 1, 1))]
    return f"{text} {' '.join(grams)}" if grams else text


def bm25_tokens(texts: list[str]) -> list[list[str]]:
    """Each text's BM25 tokens in its language: stopwords out and stemmed (English as bm25s always did)."""
    import bm25s
    import Stemmer

    from app.language.detect import detect

    configs = [detect(text).config for text in texts]
    tokens: list[list[str]] = [[] for _ in texts]
    for config in set(configs):
        indexes = [i for i, c in enumerate(configs) if c == config]
        if config == "english":
            options: dict[str, Any] = {"stopwords": "en", "stemmer": Stemmer.Stemmer("english")}
        elif config == "simple":
            options = {"stopwords": None}
        else:
            stopwords = config if config in _BM25_STOPWORDS else None
            options = {"stopwords": stopwords, "stemmer": Stemmer.Stemmer(config)}
        found = bm25s.tokenize(
            [with_bigrams(texts[i]) for i in indexes], return_ids=False, show_progress=False, **options
        )
        for i, words in zip(indexes, found, strict=True):
            tokens[i] = list(words)
    return tokens


def run_bm25(samples: list[Sample]) -> list[QuestionResult]:
    """BM25 over each conversation's raw turns (bm25s, each text's stopwords and Snowball stemmer)."""
    import bm25s

    results: list[QuestionResult] = []
    for sample in samples:
        turns = sample.turns
        questions = sample.scored_questions()
        if not turns or not questions:
            continue
        retriever = bm25s.BM25()
        retriever.index(bm25_tokens([t.content for t in turns]), show_progress=False)
        vocab = retriever.vocab_dict
        for qa, q_tokens in zip(questions, bm25_tokens([qa.question for qa in questions]), strict=True):
            q_tokens = [tok for tok in q_tokens if tok in vocab]
            ranked: list[str] = []
            if q_tokens:
                docs, scores = retriever.retrieve([q_tokens], k=min(K, len(turns)), show_progress=False)
                ranked = [turns[int(d)].dia_id for d, s in zip(docs[0], scores[0], strict=True) if s > 0]
            results.append(_score(sample, qa, ranked))
    return results


# --------------------------------------------------------------------------- PostgreSQL baseline

_PG_QUERY = """
WITH q AS (
    SELECT to_tsquery(CAST($4 AS regconfig), string_agg(quote_literal(lexeme), ' | ')) AS q
    FROM unnest(to_tsvector(CAST($4 AS regconfig), $2))
)
SELECT t.dia_id
FROM eval_turns t, q
WHERE t.sample = $1 AND q.q IS NOT NULL AND t.tsv @@ q.q
ORDER BY ts_rank(t.tsv, q.q) DESC, md5(t.dia_id || $5)
LIMIT $3
"""


async def run_pg(samples: list[Sample], dsn: str) -> list[QuestionResult]:
    """OR of the question's lexemes as a tsquery, ranked by ts_rank, over each conversation's raw turns,
    each turn and question analysed in its language's configuration.

    Every turn carries its speaker's name, so a question naming a speaker matches half the
    conversation with equal ranks; ties are broken by a hash of (turn, question) rather than by
    turn order, which would otherwise favour early sessions.
    """
    import asyncpg

    from app.language.detect import search_config

    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(
            "CREATE TEMP TABLE eval_turns (sample text, dia_id text, ord int, content text, config regconfig,"
            " tsv tsvector GENERATED ALWAYS AS (to_tsvector(config, content)) STORED)"
        )
        rows = [
            (s.sample_id, t.dia_id, i, with_bigrams(t.content), search_config(t.content))
            for s in samples
            for i, t in enumerate(s.turns)
        ]
        await conn.executemany(
            "INSERT INTO eval_turns (sample, dia_id, ord, content, config)"
            " VALUES ($1, $2, $3, $4, CAST($5 AS regconfig))",
            rows,
        )
        await conn.execute("CREATE INDEX ON eval_turns (sample)")
        await conn.execute("ANALYZE eval_turns")
        results: list[QuestionResult] = []
        for sample in samples:
            for qa in sample.scored_questions():
                found = await conn.fetch(
                    _PG_QUERY,
                    sample.sample_id,
                    with_bigrams(qa.question),
                    K,
                    search_config(qa.question),
                    qa.question,
                )
                results.append(_score(sample, qa, [r["dia_id"] for r in found]))
        return results
    finally:
        await conn.close()


# --------------------------------------------------------------------------- agent-memory over HTTP


class ApiError(RuntimeError):
    pass


def profile_name(sample: Sample) -> str:
    name = "".join(ch for ch in sample.sample_id if ch.isprintable() and ch != "/")
    return (name or "sample")[:100]


class TurnMap:
    """Maps message content (as sent) back to dia_ids; the timestamp breaks ties between equal contents."""

    def __init__(self, turns: list[Turn]) -> None:
        self.by_content: dict[str, list[Turn]] = defaultdict(list)
        for t in turns:
            self.by_content[t.content].append(t)

    def lookup(self, content: str, timestamp: str | None) -> list[str]:
        cands = self.by_content.get(content)
        if not cands:
            stripped = content.strip()
            cands = self.by_content.get(stripped, [])
        if len(cands) <= 1 or not timestamp:
            return [t.dia_id for t in cands]
        try:
            ts = datetime.fromisoformat(timestamp.replace("Z", "+00:00"))
        except ValueError:
            return [t.dia_id for t in cands]
        exact = [t for t in cands if abs((t.timestamp - ts).total_seconds()) < 1]
        return [t.dia_id for t in (exact or cands)]

    def turns_of(self, memory: dict[str, Any]) -> tuple[list[str], int]:
        """A memory's (`GET /memories/{id}`) source turns, in order and once each, and how many of its
        sources map to no turn."""
        out: list[str] = []
        unmapped = 0
        for src in memory.get("sources") or []:
            ids = self.lookup(src.get("content", ""), src.get("timestamp"))
            unmapped += not ids
            out.extend(i for i in ids if i not in out)
        return out, unmapped


class AgentMemoryClient:
    def __init__(self, url: str, key: str | None, concurrency: int, timeout: float) -> None:
        import httpx

        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self.http = httpx.AsyncClient(base_url=url.rstrip("/"), headers=headers, timeout=timeout)
        self.sem = asyncio.Semaphore(concurrency)

    async def close(self) -> None:
        await self.http.aclose()

    async def request(
        self,
        method: str,
        path: str,
        *,
        ok: tuple[int, ...] = (200,),
        timings: list[float] | None = None,
        **kw: Any,
    ) -> Any:
        """`timings` gets the seconds the request itself took: measured inside the concurrency limit, so
        time spent queueing for a free slot is not counted as the server's."""
        import httpx

        for attempt in range(5):
            try:
                async with self.sem:
                    t = time.perf_counter()
                    r = await self.http.request(method, path, **kw)
                    if timings is not None:
                        timings.append(time.perf_counter() - t)
            except httpx.TransportError as exc:
                if attempt == 4:
                    raise ApiError(f"{method} {path}: {exc!r}") from exc
                await asyncio.sleep(0.5 * 2**attempt)
                continue
            if r.status_code in (429, 503) and attempt < 4:
                await asyncio.sleep(float(r.headers.get("retry-after", 0.5 * 2**attempt)))
                continue
            if r.status_code not in ok:
                raise ApiError(f"{method} {path} -> {r.status_code}: {r.text[:500]}")
            return r.json() if r.content else None
        raise ApiError(f"{method} {path}: retries exhausted")


async def ensure_namespace(client: AgentMemoryClient, ns: str) -> None:
    await client.request("POST", "/v1/namespaces", json={"name": ns}, ok=(201, 409))


async def ingest_sample(client: AgentMemoryClient, ns: str, sample: Sample, names: bool = True) -> list[str]:
    profile = profile_name(sample)
    job_ids: list[str] = []
    for session in sample.sessions:
        msgs: list[dict[str, Any]] = [
            {"role": t.role, "content": t.content, "timestamp": _iso(t.timestamp)} for t in session.turns
        ]
        if names:
            for message, turn in zip(msgs, session.turns, strict=True):
                message["name"] = turn.speaker[:64]
        for i in range(0, len(msgs), MAX_BATCH):
            body = {"sessionId": session.key, "messages": msgs[i : i + MAX_BATCH]}
            r = await client.request(
                "POST", f"/v1/namespaces/{ns}/profiles/{profile}/ingest", json=body, ok=(200, 201, 202)
            )
            job_ids.append(r["jobId"])
    return job_ids


async def wait_jobs(
    client: AgentMemoryClient, ns: str, jobs: dict[str, list[str]], max_wait: float
) -> dict[str, dict[str, Any]]:
    """Poll every job until done or failed; returns per-profile counts and failures."""
    deadline = time.monotonic() + max_wait
    pending = {(p, j) for p, ids in jobs.items() for j in ids}
    report: dict[str, dict[str, Any]] = {
        p: {"jobs": len(ids), "memoriesCreated": 0, "failed": []} for p, ids in jobs.items()
    }
    while pending:
        if time.monotonic() > deadline:
            raise ApiError(f"{len(pending)} extraction job(s) not finished after {max_wait:.0f}s")

        async def poll(p: str, j: str) -> tuple[str, str, dict[str, Any]]:
            return p, j, await client.request("GET", f"/v1/namespaces/{ns}/profiles/{p}/jobs/{j}")

        for p, j, st in await asyncio.gather(*(poll(p, j) for p, j in pending)):
            if st["status"] in ("done", "failed"):
                pending.discard((p, j))
                report[p]["memoriesCreated"] += int(st.get("memoriesCreated") or 0)
                if st["status"] == "failed":
                    report[p]["failed"].append({"jobId": j, "error": st.get("error")})
        if pending:
            _progress(f"  waiting for {len(pending)} extraction job(s)...")
            await asyncio.sleep(1.0)
    return report


async def wait_profiles_idle(
    client: AgentMemoryClient, ns: str, profiles: list[str], max_wait: float
) -> None:
    """Wait until no profile has a job queued or running: the jobs that extraction queued in turn (vectors
    for the new memories when embeddings are on) must be done before the questions are asked."""
    deadline = time.monotonic() + max_wait
    while True:
        counts = await asyncio.gather(
            *(client.request("GET", f"/v1/namespaces/{ns}/profiles/{p}") for p in profiles)
        )
        pending = sum(int(c["counts"]["pendingJobs"]) for c in counts)
        if not pending:
            return
        if time.monotonic() > deadline:
            raise ApiError(f"{pending} job(s) still pending after {max_wait:.0f}s")
        _progress(f"  waiting for {pending} follow-up job(s) (embeddings)...")
        await asyncio.sleep(1.0)


_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")
_WORD_RE = re.compile(r"\w+")


def answer_turns(answer: str, summaries: list[str], turn_lists: list[list[str]]) -> list[list[str]]:
    """The source turns of each sentence of an answer: those of the candidate whose summary holds most of
    the sentence's words (none when no summary holds half of them: the sentence came from elsewhere)."""
    out: list[list[str]] = []
    words = [set(_WORD_RE.findall(summary.lower())) for summary in summaries]
    for sentence in _SENTENCE_END_RE.split(answer.strip()):
        own = set(_WORD_RE.findall(sentence.lower()))
        if not own:
            continue
        overlap = [len(own & w) / len(own) for w in words]
        best = max(range(len(overlap)), key=overlap.__getitem__, default=None)
        out.append(turn_lists[best] if best is not None and overlap[best] >= 0.5 else [])
    return out


def answer_precision(results: list[QuestionResult]) -> tuple[float, int, float]:
    """Over the answerable questions answered: the share of answer sentences from an evidence turn (each
    answer weighed alike), how many answers, and their mean number of sentences."""
    answered = [r.extra for r in results if r.extra.get("answer_sentences") and r.qa.evidence]
    if not answered:
        return 0.0, 0, 0.0
    shares = [e["answer_from_evidence"] / e["answer_sentences"] for e in answered]
    sentences = sum(e["answer_sentences"] for e in answered) / len(answered)
    return sum(shares) / len(shares), len(answered), sentences


async def _ingest_all(
    client: AgentMemoryClient, ns: str, samples: list[Sample], args: argparse.Namespace, info: dict[str, Any]
) -> None:
    """Ingest every conversation into `ns` and wait for every job it queued (extraction, then vectors)."""
    await ensure_namespace(client, ns)
    t0 = time.monotonic()
    jobs: dict[str, list[str]] = {}
    for sample in samples:
        jobs[profile_name(sample)] = await ingest_sample(client, ns, sample, args.names)
    info["ingest_seconds"] = round(time.monotonic() - t0, 2)
    _progress(
        f"ingested {sum(len(s.turns) for s in samples)} turns into namespace {ns}; "
        f"{sum(map(len, jobs.values()))} job(s)"
    )
    report = await wait_jobs(client, ns, jobs, args.ingest_timeout)
    info["extraction_seconds"] = round(time.monotonic() - t0, 2)
    await wait_profiles_idle(client, ns, list(jobs), args.ingest_timeout)
    info["jobs_idle_seconds"] = round(time.monotonic() - t0, 2)
    # Which semantic channel answered (none: lexical only), so a table says what it measured.
    ready = await client.request("GET", "/readyz")
    info["embeddings"] = ready.get("embeddings")
    info["embedding_model"] = ready.get("embeddingModel")
    _progress(f"every job done in {info['jobs_idle_seconds']}s; embeddings: {info['embeddings']}")
    info["jobs"] = report
    failures = [(p, f) for p, r in report.items() for f in r["failed"]]
    for p, f in failures:
        _progress(f"  FAILED job {f['jobId']} in profile {p}: {f['error']}")
    created = sum(r["memoriesCreated"] for r in report.values())
    _progress(
        f"extraction finished in {info['extraction_seconds']}s; "
        f"{created} memories, {len(failures)} failed job(s)"
    )


async def run_agent_memory(
    samples: list[Sample], args: argparse.Namespace
) -> tuple[dict[str, list[QuestionResult]], dict[str, Any]]:
    """Ingest once, then ask every question at each of `args.levels`; results and figures per level."""
    client = AgentMemoryClient(args.url, args.key, args.concurrency, args.timeout)
    ns = args.namespace
    info: dict[str, Any] = {"namespace": ns}
    try:
        if args.asked_only:
            # The conversations are in `ns` already (an earlier run, or `bench fit-relevance --keep`).
            info["embeddings"] = (await client.request("GET", "/readyz")).get("embeddings")
        else:
            await _ingest_all(client, ns, samples, args, info)
        by_level: dict[str, list[QuestionResult]] = {level: [] for level in args.levels}
        latencies: dict[str, list[float]] = {level: [] for level in args.levels}
        unmapped = 0
        for sample in samples:
            profile = profile_name(sample)
            base = f"/v1/namespaces/{ns}/profiles/{profile}"
            turn_map = TurnMap(sample.turns)
            cache: dict[str, asyncio.Task[list[str]]] = {}

            async def fetch_turns(mem_id: str, base: str = base, turn_map: TurnMap = turn_map) -> list[str]:
                nonlocal unmapped
                out, missed = turn_map.turns_of(await client.request("GET", f"{base}/memories/{mem_id}"))
                unmapped += missed
                return out

            def memory_turns(
                mem_id: str, cache: dict[str, asyncio.Task[list[str]]] = cache, fetch_turns: Any = fetch_turns
            ) -> asyncio.Task[list[str]]:
                if mem_id not in cache:
                    cache[mem_id] = asyncio.ensure_future(fetch_turns(mem_id))
                return cache[mem_id]

            async def ask(
                qa: QA,
                level: str,
                sample: Sample = sample,
                base: str = base,
                memory_turns: Any = memory_turns,
            ) -> QuestionResult:
                body = {
                    "query": qa.question,
                    "thinkingLevel": level,
                    "limit": K,
                    "referenceDate": _iso(sample.last_date),
                }
                r = await client.request("POST", f"{base}/recall", json=body, timings=latencies[level])
                cands = r.get("candidates") or []
                turn_lists = [await memory_turns(c["id"]) for c in cands]
                ranked = ranked_turns(turn_lists, K)
                summaries = [str(c.get("summary") or "") for c in cands]
                answer_sources = answer_turns(str(r.get("answer") or ""), summaries, turn_lists)
                return _score(
                    sample,
                    qa,
                    ranked,
                    # Each candidate's score and whether it is evidence, for the calibration of `score`.
                    judged=[
                        (float(c.get("score") or 0.0), bool(set(t) & set(qa.evidence)))
                        for c, t in zip(cands, turn_lists, strict=True)
                    ],
                    answer_sentences=len(answer_sources),
                    answer_from_evidence=sum(bool(set(t) & set(qa.evidence)) for t in answer_sources),
                    # Never "answer": that key holds the gold answer in the per-question output.
                    service_answer=r.get("answer", ""),
                    candidates=[
                        {
                            "id": c["id"],
                            "type": c.get("type"),
                            "summary": c.get("summary"),
                            "score": c.get("score"),
                        }
                        for c in cands
                    ],
                )

            async def ask_levels(qa: QA, ask: Any = ask) -> list[QuestionResult]:
                # One question at every level in a row: the levels' latencies see the same load.
                return [await ask(qa, level) for level in args.levels]

            questions = [*sample.scored_questions(), *sample.unanswerable_questions()]
            for answers in await asyncio.gather(*(ask_levels(qa) for qa in questions)):
                for level, result in zip(args.levels, answers, strict=True):
                    by_level[level].append(result)
            _progress(f"  recalled {len(questions)} question(s) x {len(args.levels)} for {profile}")
        for level, values in latencies.items():
            if values:
                values.sort()
                info[f"{level}_p50_ms"] = round(1000 * values[len(values) // 2], 1)
                info[f"{level}_p95_ms"] = round(1000 * values[max(int(len(values) * 0.95) - 1, 0)], 1)
        info["unmapped_sources"] = unmapped
        return by_level, info
    finally:
        await client.close()


# --------------------------------------------------------------------------- abstention


def abstention(results: list[QuestionResult]) -> dict[str, Any]:
    """What recall did with the unanswerable questions (category 6) beside the answerable ones: abstention
    (unanswerable ones given nothing), coverage (answerable ones given something), the AUROC of the best
    candidate's score between the two, and the calibration of every returned candidate's score."""
    answerable = [r for r in results if r.qa.evidence]
    unanswerable = [r for r in results if r.qa.category == UNANSWERABLE]

    def best(r: QuestionResult) -> float:
        return max((score for score, _ in r.extra.get("judged", [])), default=0.0)

    error, table = calibration([j for r in results for j in r.extra.get("judged", [])])
    return {
        "unanswerable": len(unanswerable),
        "abstention": sum(not r.ranked for r in unanswerable) / max(len(unanswerable), 1),
        "coverage": sum(bool(r.ranked) for r in answerable) / max(len(answerable), 1),
        "auroc": auroc([best(r) for r in answerable], [best(r) for r in unanswerable]),
        "ece": error,
        "reliability": table,
    }


# --------------------------------------------------------------------------- --serve


def start_server(database_url: str | None, ready_timeout: float) -> harness.Server:
    """`agent-memory serve` on a free port, on `database_url` (None: the embedded PostgreSQL)."""
    server = harness.Server(env={"AGENT_MEMORY_DATABASE_URL": database_url} if database_url else {})
    server.spawn()
    _progress(f"starting agent-memory serve at {server.base_url} (log: {server.log_path})")
    try:
        server.wait_ready(ready_timeout)
    except (RuntimeError, TimeoutError) as exc:
        server.stop()
        raise SystemExit(f"--serve: {exc}") from exc
    return server


# --------------------------------------------------------------------------- main


def _per_question(results: list[QuestionResult]) -> list[dict[str, Any]]:
    return [
        {
            "sample_id": r.sample_id,
            "qa_index": r.qa.index,
            "category": r.qa.category,
            "question": r.qa.question,
            "answer": r.qa.answer,
            "evidence": list(r.qa.evidence),
            "ranked": r.ranked,
            **r.metrics,
            **r.extra,
        }
        for r in results
    ]


async def run(args: argparse.Namespace) -> int:
    samples = load_samples(args.data, args.limit_samples)
    stats = dataset_stats(samples)
    dropped = sum(s.dropped_evidence for s in samples)
    _progress(
        f"data {args.data}: {stats['samples']} samples, {stats['turns']} turns, "
        f"{stats['questions']} questions {stats['by_category']}"
        + (f"; {dropped} evidence id(s) not in the conversation ignored" if dropped else "")
    )
    systems: dict[str, list[QuestionResult]] = {}
    info: dict[str, Any] = {}
    server = None
    try:
        if not args.baselines_only:
            if args.serve:
                server = start_server(args.database_url, args.ready_timeout)
                args.url = server.base_url
            by_level, info["agent-memory"] = await run_agent_memory(samples, args)
            for level, results in by_level.items():
                systems[f"agent-memory/{level}"] = results
    finally:
        if server is not None:
            server.stop()
    t = time.monotonic()
    systems["bm25"] = run_bm25(samples)
    info["bm25"] = {"seconds": round(time.monotonic() - t, 2)}
    if not args.no_pg:
        t = time.monotonic()
        systems["pg-or-tsquery"] = await run_pg(samples, args.pg_dsn)
        info["pg-or-tsquery"] = {"seconds": round(time.monotonic() - t, 2)}

    table = {name: aggregate((r.qa.category, r.metrics) for r in res) for name, res in systems.items()}
    print(format_table(table), end="")
    for name, res in systems.items():
        if name.startswith("agent-memory/"):
            precision, answered, sentences = answer_precision(res)
            any10 = table[name]["overall"]["any@10"]
            print(
                f"{name}: any@10 {any10:.3f}  answer precision {precision:.3f} "
                f"({answered} answers, {sentences:.2f} sentences each)"
            )
    abstained = {name: abstention(res) for name, res in systems.items() if name.startswith("agent-memory/")}
    for name, a in abstained.items():
        print(
            f"{name}: abstention {a['abstention']:.3f} ({a['unanswerable']} unanswerable)  coverage "
            f"{a['coverage']:.3f}  AUROC {a['auroc']:.3f}  ECE {a['ece']:.3f}"
        )
        print(
            "  reliability: "
            + "  ".join(f"{b} n={n} score={m:.2f} evidence={e:.2f}" for b, n, m, e in a["reliability"])
        )
    if "agent-memory" in info:
        print(json.dumps(info["agent-memory"], default=str)[:2000])
    if args.json:
        out = {
            "command": " ".join(sys.argv),
            "data": str(args.data),
            "dataset": stats,
            "table": table,
            "abstention": abstained,
            "info": info,
            "questions": {name: _per_question(res) for name, res in systems.items()},
        }
        text = json.dumps(out, indent=1, default=str)
        await asyncio.to_thread(Path(args.json).write_text, text, encoding="utf-8")
        _progress(f"wrote {args.json}")
    return 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", default=str(DEFAULT_DATA), help="LoCoMo-format JSON file")
    p.add_argument("--limit-samples", type=int, default=None, help="only the first N conversations")
    p.add_argument("--url", default="http://127.0.0.1:8080", help="agent-memory base URL")
    p.add_argument("--key", default=os.environ.get("AGENT_MEMORY_KEY"), help="bearer token (admin key)")
    p.add_argument("--namespace", default=None, help="namespace to ingest into (default eval-<random>)")
    p.add_argument(
        "--levels",
        default="low,medium,high",
        help="comma-separated thinkingLevels to ask every question at (one ingest, one table each)",
    )
    p.add_argument("--concurrency", type=int, default=8, help="concurrent HTTP requests")
    p.add_argument("--timeout", type=float, default=60.0, help="per-request timeout, seconds")
    p.add_argument("--ingest-timeout", type=float, default=1800.0, help="max wait for extraction, seconds")
    p.add_argument(
        "--no-names", dest="names", action="store_false", help="send no message `name` (a server without it)"
    )
    p.add_argument(
        "--asked-only",
        action="store_true",
        help="ingest nothing: ask the questions of --namespace, which already holds the conversations",
    )
    p.add_argument("--baselines-only", action="store_true", help="skip agent-memory (no server needed)")
    p.add_argument("--serve", action="store_true", help="run `agent-memory serve` on a free port for the run")
    p.add_argument("--database-url", default=None, help="with --serve: AGENT_MEMORY_DATABASE_URL")
    p.add_argument("--ready-timeout", type=float, default=60.0, help="with --serve: max wait for /readyz")
    p.add_argument("--pg-dsn", default="postgresql://postgres@127.0.0.1:5432/test", help="pg baseline DSN")
    p.add_argument("--no-pg", action="store_true", help="skip the PostgreSQL baseline")
    p.add_argument("--json", default=None, help="also write the table and per-question rankings here")
    args = p.parse_args(argv)
    if args.namespace is None:
        args.namespace = f"eval-{secrets.token_hex(4)}"
    args.levels = [level.strip() for level in args.levels.split(",") if level.strip()]
    if not args.levels or any(level not in ("low", "medium", "high") for level in args.levels):
        p.error("--levels: a comma-separated list of low, medium, high")
    return args


def main(argv: list[str] | None = None) -> int:
    try:
        return asyncio.run(run(parse_args(argv)))
    except ApiError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
