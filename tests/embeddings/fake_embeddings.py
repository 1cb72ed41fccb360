"""A real HTTP server on 127.0.0.1 speaking OpenAI's `POST /v1/embeddings` with controlled vectors.

A text's vector is a sum of unit axes, one per *concept* it mentions (`CONCEPTS`: words that mean the same
thing share an axis, so "lemon tart" and "dessert" land together while sharing no word), plus a small
per-text component so no two texts are identical; a text with no concept gets only that component. Tests
can queue failures (`script(error(500))`, a dropped connection, a delay) before the default answer (the
loopback server itself is tests/fake_server.py).
"""

from __future__ import annotations

import hashlib
import json
import math
import re

from tests.fake_server import FakeServer, Reply, Request, dropped, error, server_fixtures

__all__ = [
    "FakeEmbeddings",
    "Reply",
    "dropped",
    "error",
    "fake_embeddings",
    "fake_embeddings_server",
    "vector_for",
]

DIMENSIONS = 16

# Concept → the words that evoke it (one axis each). "zorbling" and "quennet" are invented, so no lexical
# channel (stemming, expansions, category words) can ever link them: only these vectors do.
CONCEPTS: dict[str, tuple[str, ...]] = {
    "zorbling": ("zorbling", "zorblings", "quennet", "quennets"),
    "blorf": ("blorf", "blorfs", "snizzle", "snizzles"),
    "dessert": ("dessert", "tart", "cake", "pie", "pastry", "sweet"),
    "pet": ("pet", "cat", "dog", "kitten", "puppy", "animal"),
    "travel": ("trip", "flight", "journey", "travel", "abroad", "vacation"),
    "music": ("music", "guitar", "song", "concert", "band"),
}


def vector_for(text: str, dimensions: int = DIMENSIONS) -> list[float]:
    words = set(re.findall(r"[a-z]+", text.lower()))
    vector = [0.0] * dimensions
    for axis, synonyms in enumerate(CONCEPTS.values()):
        if words & set(synonyms):
            vector[axis] = 1.0
    # The text's own small component on the axes after the concepts, so vectors are never all equal.
    digest = hashlib.sha256(text.encode()).digest()
    spare = dimensions - len(CONCEPTS)
    vector[len(CONCEPTS) + digest[0] % spare] += 0.3
    norm = math.sqrt(sum(x * x for x in vector))
    return [x / norm for x in vector]


class FakeEmbeddings(FakeServer):
    path = "/v1/embeddings"
    name = "fake-embeddings"

    def __init__(self) -> None:
        super().__init__()
        self.requests: list[Request] = []
        self.reversed_order = False  # answer items in reverse order (with their `index`), as servers may

    def reset(self) -> None:
        super().reset()
        self.reversed_order = False

    def inputs(self) -> list[str]:
        """Every text the server was asked to embed, in order."""
        return [text for r in self.requests for text in r.body["input"]]

    def answer(self, request: Request, reply: Reply) -> str:
        texts = request.body["input"]
        texts = [texts] if isinstance(texts, str) else texts
        dimensions = int(request.body.get("dimensions") or DIMENSIONS)
        items = [
            {"object": "embedding", "index": i, "embedding": vector_for(t, dimensions)}
            for i, t in enumerate(texts)
        ]
        if self.reversed_order:
            items.reverse()
        return json.dumps({"object": "list", "data": items, "model": request.body.get("model")})


fake_embeddings_server, fake_embeddings = server_fixtures(FakeEmbeddings, "fake_embeddings")
