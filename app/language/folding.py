"""Text folded for comparison in any language: lower case without accents, one character for one."""

from __future__ import annotations

import functools
import unicodedata


@functools.cache
def _folded(char: str) -> str:
    lowered = char.lower()
    if len(lowered) != 1:
        return char  # "İ" lowers to two characters: one for one is kept
    if _UNFOLDED_START <= lowered <= _UNFOLDED_END or lowered >= _CJK_FROM:
        # Hangul decomposes into its jamo and kana sheds its voicing marks (が → か): those are other
        # letters, not accents, so Korean, Japanese and Chinese are compared as written.
        return lowered
    return unicodedata.normalize("NFD", lowered)[:1] or lowered


_UNFOLDED_START, _UNFOLDED_END = "\u1100", "\u11ff"  # Hangul jamo
_CJK_FROM = "\u3000"  # CJK punctuation, kana, Han, Hangul syllables and on


def fold(text: str) -> str:
    """Lower case without accents ("Adiós" → "adios"), as chat often writes them; one character for one,
    so a position in the folded text is the same position in `text`."""
    if text.isascii():
        return text.lower()  # the same, character for character, without a call per character
    return "".join(map(_folded, text))


def uncased(word: str) -> bool:
    """Whether a word is written in a script without case (Chinese, Japanese, Korean): no letter of it is
    upper or lower case."""
    return not any(c.isupper() or c.islower() for c in word)
