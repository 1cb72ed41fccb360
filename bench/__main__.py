"""`python -m bench <name> [flags]`: run one benchmark (from the repository's root); `python -m bench` lists them.

Every benchmark is a module of this package with `main(argv) -> int`; `python -m bench <name> --help` prints
its own description and flags. Shared flags (bench/harness.py): `--database-url` and `--keep` for those that
make throw-away databases, `--json PATH` for the printed figures.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence

# name → module; the module's file names stay as they are, the names drop the `bench_` prefix.
BENCHMARKS = {
    "ab": "bench.bench_ab",
    "backlog": "bench.bench_backlog",
    "embeddings": "bench.bench_embeddings",
    "eval-extraction": "bench.eval_extraction",
    "eval-retrieval": "bench.eval_retrieval",
    "extraction-service": "bench.bench_extraction_service",
    "extraction-sizes": "bench.bench_extraction_sizes",
    "extractor-pure": "bench.bench_extractor_pure",
    "faults": "bench.faults.run",
    "floors": "bench.bench_floors",
    "fit-relevance": "bench.fit_relevance",
    "fuzz-api": "bench.fuzz_api",
    "locomo": "bench.locomo",
    "memory-core": "bench.bench_memory_core",
    "outbox": "bench.bench_outbox",
    "quotas": "bench.bench_quotas",
    "recall": "bench.bench_recall",
    "replicas": "bench.bench_replicas",
    "streams": "bench.bench_streams",
    "transfer": "bench.bench_transfer",
    "tune-rerank": "bench.tune_rerank",
    "tune-semantic": "bench.tune_semantic",
    "word-vectors": "bench.build_word_vectors",
}


def _module_name(name: str) -> str | None:
    """The module of a benchmark's name, also given as its file's name (`bench_recall`, `eval_retrieval`)."""
    wanted = name.removesuffix(".py").replace("_", "-")
    for key, module in BENCHMARKS.items():
        if wanted in (key, module.rpartition(".")[2].replace("_", "-")):
            return module
    return None


def _listing() -> str:
    lines = ["usage: python -m bench <name> [flags]   (python -m bench <name> --help for its flags)", ""]
    for key, module in BENCHMARKS.items():
        doc = importlib.import_module(module).__doc__ or ""
        lines.append(f"  {key:20} {doc.strip().splitlines()[0] if doc.strip() else ''}")
    return "\n".join(lines)


def main(argv: Sequence[str]) -> int:
    if not argv or argv[0] in ("-h", "--help", "list"):
        print(_listing())
        return 0
    module = _module_name(argv[0])
    if module is None:
        print(f"unknown benchmark {argv[0]!r}\n\n{_listing()}", file=sys.stderr)
        return 2
    entry: Callable[[list[str]], int] = importlib.import_module(module).main
    # What argparse names in its usage lines, and what `--json` records as the command.
    sys.argv = [f"python -m bench {argv[0]}", *argv[1:]]
    return entry(list(argv[1:]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
