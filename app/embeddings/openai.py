"""An `Embedder` over any OpenAI-compatible `POST {base}/embeddings` endpoint (OpenAI, Ollama, TEI, vLLM…).

Texts go in batches of `batch_size`; `dimensions` is sent when set (OpenAI's shortened embeddings) and
every answer is checked to carry exactly one finite vector per input, of one length. 429, 5xx and connection
errors are retried a bounded number of times with exponential backoff and jitter (`Retry-After` honoured,
capped); anything else raises `EmbeddingError`. A recall query makes one attempt within
`query_timeout_seconds` in all: the request path never waits long on an outside service.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Sequence
from typing import Any

import httpx

from app.core.outbound_http import Exhausted, Rejected, excerpt, json_client, post_json
from app.embeddings.types import EmbeddingError, unit

logger = logging.getLogger("agent_memory.embeddings")


class OpenAIEmbedder:
    """Vectors from one OpenAI-compatible endpoint and model."""

    def __init__(
        self,
        base_url: str,
        *,
        model: str,
        api_key: str | None = None,
        dimensions: int | None = None,
        batch_size: int = 64,
        timeout_seconds: float = 30.0,
        query_timeout_seconds: float = 2.0,
        max_retries: int = 2,
        backoff_seconds: float = 0.5,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.name = f"openai:{model}" + (f":{dimensions}" if dimensions else "")
        self.dimensions = dimensions
        self.batch_size = batch_size
        self.max_retries = max_retries
        self.backoff_seconds = backoff_seconds
        self.query_timeout_seconds = query_timeout_seconds
        self._http = json_client(self.base_url, api_key, timeout_seconds, transport)

    async def load(self) -> None:
        return None  # nothing to prepare: the endpoint is asked on first use

    async def aclose(self) -> None:
        await self._http.aclose()

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            vectors += await self._request(list(texts[start : start + self.batch_size]), self.max_retries)
        return vectors

    async def embed_query(self, text: str) -> list[float]:
        try:
            async with asyncio.timeout(self.query_timeout_seconds):
                [vector] = await self._request([text], retries=0)
        except TimeoutError:
            raise EmbeddingError(
                f"query embedding took longer than {self.query_timeout_seconds:g}s"
            ) from None
        return vector

    async def _request(self, texts: list[str], retries: int) -> list[list[float]]:
        body: dict[str, Any] = {"model": self.model, "input": texts, "encoding_format": "float"}
        if self.dimensions:
            body["dimensions"] = self.dimensions
        try:
            response = await post_json(
                self._http,
                "/embeddings",
                body,
                retries=retries,
                backoff_seconds=self.backoff_seconds,
                label="embedding",
            )
        except Rejected as exc:
            raise EmbeddingError(f"embedding request failed, {exc.problem}") from None
        except Exhausted as exc:
            raise EmbeddingError(
                f"embedding request failed after {exc.attempts} attempt(s), last: {exc.problem}"
            ) from None
        return self._vectors(response, len(texts))

    def _vectors(self, response: httpx.Response, expected: int) -> list[list[float]]:
        try:
            items = response.json()["data"]
            # `index` orders the answer (servers may return items out of order); absent → given order.
            ordered = sorted(enumerate(items), key=lambda pair: int(pair[1].get("index", pair[0])))
            vectors = [[float(x) for x in item["embedding"]] for _, item in ordered]
        except (ValueError, KeyError, TypeError, AttributeError):
            raise EmbeddingError(f"not an embeddings answer: {excerpt(response.text)}") from None
        if len(vectors) != expected:
            raise EmbeddingError(f"asked for {expected} embedding(s), got {len(vectors)}")
        lengths = {len(v) for v in vectors}
        if len(lengths) != 1 or 0 in lengths:
            raise EmbeddingError(f"embeddings of unequal or zero length: {sorted(lengths)}")
        if self.dimensions and lengths != {self.dimensions}:
            raise EmbeddingError(f"asked for {self.dimensions} dimensions, got {lengths.pop()}")
        if not all(math.isfinite(x) for v in vectors for x in v):
            raise EmbeddingError("embeddings hold non-finite numbers")
        return [unit(v) for v in vectors]
