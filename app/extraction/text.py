"""Text plumbing for extraction: speaker prefixes, image captions, normal forms.

Kept apart from the classifier so the rules that decide what a memory is do not drown in the plumbing;
where a sentence ends is `app.language.sentences`' (one splitter for every language).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.language.languages.en import lexicon as lx
from app.language.speakers import speaker_prefix

# Linear: a match starts only where a run of spaces starts, and a caption stops at the next "[" (each "[image:"
# of "[image: " × 4,096 read the rest of the text, unclosed, before: quadratic).
_IMAGE_RE = re.compile(r"(?<!\s)\s*+\[(?:image|photo|picture)\s*:\s*(?P<caption>[^\]\[]*)\]", re.IGNORECASE)

_SPACE_RE = re.compile(r"\s+")
_TRAILING_PUNCT_RE = re.compile(r"[\s.!?,;:…]+$")
_EMOJI_RE = re.compile(
    "[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f\u200d\u2190-\u21ff\u2300-\u23ff]+"
)


@dataclass(frozen=True)
class ParsedMessage:
    """A message body with its speaker prefix and image captions taken out."""

    speaker: str | None
    body: str
    captions: tuple[str, ...]


def _is_label(name: str) -> bool:
    return name.lower().rstrip(".") in lx.LABELS or any(w.lower() in lx.LABELS for w in name.split()[:1])


def parse_message(content: str) -> ParsedMessage:
    """Split off a leading ``Name:`` speaker prefix and any ``[image: …]`` captions."""
    speaker: str | None = None
    body = content
    prefix = speaker_prefix(content)
    if prefix is not None and not _is_label(prefix[0]):
        speaker, body = prefix[0].strip(), content[prefix[1] :]
    captions: tuple[str, ...] = ()
    if "[" in body:
        found = [c.group("caption").strip() for c in _IMAGE_RE.finditer(body)]
        if found:
            captions = tuple(c for c in found if c)
            body = _IMAGE_RE.sub(lambda m: _gap(body, m.end()), body)
    return ParsedMessage(speaker, body.strip(), captions)


_WORD_START_RE = re.compile(r"\w")


def _gap(text: str, end: int) -> str:
    """What stands where a caption was taken out (with the spaces before it): a space when a word follows,
    so the words on either side stay apart ("0[image: ]0" is "0 0", never "00"); nothing before punctuation,
    a space or the end ("Look at this [image: a cat]." is "Look at this.")."""
    return " " if _WORD_START_RE.match(text, end) else ""


def collapse_spaces(text: str) -> str:
    # str.split() splits on what `\s` matches (Unicode whitespace), in one C call instead of a regex pass.
    return " ".join(text.split())


def strip_emoji(text: str) -> str:
    # Every character `_EMOJI_RE` matches is outside ASCII.
    return collapse_spaces(text if text.isascii() else _EMOJI_RE.sub(" ", text))


def normalise_for_hash(content: str) -> str:
    """Casefold, collapse whitespace, drop trailing punctuation: equal statements hash equal."""
    text = _SPACE_RE.sub(" ", content.casefold()).strip()
    return _TRAILING_PUNCT_RE.sub("", text)


def truncate(text: str, limit: int) -> str:
    """Cut at a word boundary with an ellipsis so the cut is visible."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:-") + "…"


def slug(text: str) -> str:
    """Lower-case identifier for topic keys: ``Mary Jane`` → ``mary_jane``."""
    return re.sub(r"[^a-z0-9]+", "_", text.casefold()).strip("_")
