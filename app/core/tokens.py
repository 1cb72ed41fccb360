"""The product's one token estimate, for every budget: summary, recall answers, context blocks, sessions.

An estimate, not tokenizer output: per string `ceil(max(chars / 4, words × 1.3))`, where `chars` counts
UTF-16 code units as JavaScript's `length` does, so this and the reference Session implementation agree on
the same text.
"""

from __future__ import annotations

import math

# The reference implementation's constants: about four characters per token for prose, and at least
# 1.3 tokens per word, which wins for text of short words and for code.
CHARS_PER_TOKEN = 4
WORDS_TOKEN_MULTIPLIER = 1.3


def utf16_length(text: str) -> int:
    """JavaScript's `text.length`: UTF-16 code units (a character outside the BMP counts two)."""
    return len(text.encode("utf-16-le")) // 2


def estimate_tokens(text: str) -> int:
    """`ceil(max(chars / 4, words × 1.3))`; 0 for the empty string."""
    if not text:
        return 0
    chars = utf16_length(text) / CHARS_PER_TOKEN
    words = len(text.split()) * WORDS_TOKEN_MULTIPLIER
    return math.ceil(max(chars, words))


def js_round(value: float) -> int:
    """JavaScript's Math.round (halves go up), which the reference writes token usage percentages with."""
    return math.floor(value + 0.5)
