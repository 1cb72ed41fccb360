"""How much work recall does at each `thinkingLevel`: how deep each channel looks and how many fused
candidates the second stage reranks."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    width: int  # how deep each channel looks
    rerank: int  # how many fused candidates the second stage reranks (0: none)


LEVELS = {
    "low": Level(width=20, rerank=0),
    "medium": Level(width=50, rerank=50),
    # Stem expansions (job → work, career) and prefix terms (paint → painter) were measured here too: on
    # both development sets they cost 50 % more time and found nothing more, so high only looks wider.
    "high": Level(width=100, rerank=100),
}
