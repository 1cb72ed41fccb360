"""The one sentence splitter: where the sentences of a text end, in any language and script.

Extraction (a message's statements, English or not), the sessions' offline summariser and an LLM answer
cut to size all split here. A sentence ends at a line break; at . ! ? … followed by a space (a closing
quote or bracket stays with it); or at a script's own full stop or question mark, a space after it or
not (CJK's full-width marks, the Devanagari and Bengali danda, the Ethiopic, Armenian, Khmer, Myanmar and
Urdu full stops, the Arabic question mark). A full stop does not end a sentence when a lower-case word
follows it, when it closes a single letter (an initial: "J. R. Tolkien") or one of its language's
abbreviations (its module's `ABBREVIATIONS`: English "Dr. Lee", "e.g. pasta"; `SOFT_ABBREVIATIONS` end
one only before a capital: "at 9 a.m. sharp"). A language without abbreviations of its own keeps the
rest. Nothing is dropped: the sentences hold every word of the text, list markers aside.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from app.language.detect import detect
from app.language.languages import ABBREVIATIONS, SOFT_ABBREVIATIONS

# Linear: a run of punctuation is tried once, from its start, and never given back ("!" × 32,768 was tried
# from each of its characters before: quadratic).
_BOUNDARY_RE = re.compile(
    r"(?<![.!?…])(?P<punct>[.!?…]++)(?P<close>[\"'”’»)\]]*+)(?P<space>\s+)"
    r"|(?P<mark>[。！？।॥።፧։។៕။۔؟]++)(?P<close2>[」』”’»)）\]]*+)\s*"
    r"|\n\s*"
)
# No abbreviation is longer: the word before a full stop is looked for this far back only.
_ABBREVIATION_CHARS = 16
# A list item's marker ("- ", "* ", "• ", "2. ", "3) "): layout, not words of its sentence.
_BULLET_RE = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s+")


@functools.cache
def _abbreviations(language: str | None) -> tuple[frozenset[str], frozenset[str]]:
    def entries(field: str) -> frozenset[str]:
        return frozenset(w for w in field.split("|") if w)

    if language is None:
        return frozenset(), frozenset()
    return entries(ABBREVIATIONS.get(language, "")), entries(SOFT_ABBREVIATIONS.get(language, ""))


def sentence_spans(text: str, language: str | None = None) -> Iterator[tuple[int, int]]:
    """Where each sentence of `text` starts and ends (spaces around it included), in order; `language`
    (ISO 639-1) chooses the abbreviations that never end one (None: none)."""
    always, soft = _abbreviations(language)
    start = 0
    for m in _BOUNDARY_RE.finditer(text):
        if m["mark"] is not None:
            end = m.end("close2")
        elif m["punct"] is None:
            end = m.start()
        else:
            punct = m["punct"]
            if "!" not in punct and "?" not in punct:
                if punct == ".":
                    token = _word_before(text, start, m.start()).lower().strip("(\"'")
                    if token in always or (len(token) == 1 and token.isalpha()):
                        continue
                    if token in soft and not text[m.end() : m.end() + 1].isupper():
                        continue
                if text[m.end() : m.end() + 1].islower():
                    continue
            end = m.end("close")
        if text[start:end].strip():
            yield start, end
        start = m.end()
    if text[start:].strip():
        yield start, len(text)


def split_sentences(text: str, language: str | None = None) -> list[str]:
    """The sentences of a text, each stripped, a list item's marker taken off; empty ones left out."""
    sentences = (_BULLET_RE.sub("", text[s:e].strip()) for s, e in sentence_spans(text, language))
    return [s for s in sentences if s]


def sentences_of(text: str) -> list[str]:
    """`split_sentences` in the language the text is detected to be in."""
    return split_sentences(text, detect(text).code)


def _word_before(text: str, start: int, end: int) -> str:
    """The word ending at `end` (none after a space), cut to its last `_ABBREVIATION_CHARS`: searching
    back to `start` each time made "Dr. " × 8,192 quadratic."""
    piece = text[max(start, end - _ABBREVIATION_CHARS) : end]
    return "" if not piece or piece[-1].isspace() else piece.split()[-1]
