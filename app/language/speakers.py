"""The `Name: text` prefix that names a message's speaker, read in any script.

A client that cannot send `name` may write the speaker before a colon at the start of the message
("Marta: …", "Élodie Martin: …", "陈静：…", "Анна: …", "محمد: …", "राहुल: …"). Ingest reads it here, once,
and the memories drawn from the message store it as their speaker: nothing reads it back out of text later.

A name is a short run of letters and combining marks (one to three words) before the first colon: never a
time ("10:30"), a URL ("https://…") or a sentence. In a script with case each word starts with a capital
("note: call the bank" is no name); in Chinese, Japanese and Korean, written without spaces, a name is one
run of at most four characters ("我今天去了公园：…" is a sentence); in the other scripts without case
(Arabic, Hebrew, Devanagari, Thai, …) each word is at most `UNCASED_WORD_CHARS` long.
"""

from __future__ import annotations

import re
import unicodedata

# The text before the first colon (ASCII or full-width) and the spaces after it, when text follows.
_PREFIX_RE = re.compile(r"^\s*(?P<name>[^:：\n]{1,96}?)[ \t]*[:：][ \t]*(?=\S)")
NAME_WORDS = 3
NAME_WORD_CHARS = 31
# Chinese, Japanese and Korean names are two to four characters ("陈静", "田中さん", "김민수"); a longer run
# before a colon is a sentence ("我今天去了公园：…").
UNSPACED_NAME_CHARS = 4
# A word of another script without case (letters with their marks: "राहुल" is five code points).
UNCASED_WORD_CHARS = 16
# A capital and a small letter of the cased scripts a name is written in (Latin with its accents and
# Polish letters, Greek, Cyrillic), as a character class both Python's and PostgreSQL's regular expressions
# read: "Élodie", "Łukasz", "Саша" are names where only "[A-Z][a-z]" was.
CAPITAL = "[A-ZÀ-ÖØ-ÞĄĆĘŁŃŚŹŻΑ-ΩА-ЯЁ]"
SMALL = "[a-zß-öø-ÿąćęłńśźżα-ωа-яё]"
# Inside a name's word after its first letter: "O'Neil", "Jean-Luc", "St.", "Ana’s".
_JOINERS = frozenset("'’.-")


def _unspaced(char: str) -> bool:
    """Whether a character is of a script written without spaces between words (Han, Kana, Hangul)."""
    code = ord(char)
    return (
        0x3040 <= code <= 0x30FF  # Hiragana, Katakana
        or 0x3400 <= code <= 0x9FFF  # CJK ideographs
        or 0xAC00 <= code <= 0xD7AF  # Hangul syllables
        or 0x1100 <= code <= 0x11FF  # Hangul jamo
        or 0xF900 <= code <= 0xFAFF  # CJK compatibility ideographs
        or 0x20000 <= code <= 0x3FFFF  # CJK extensions
    )


def _name_word(word: str) -> bool:
    """A letter, then letters, combining marks and the joiners of names, within the length of a word."""
    if not word or len(word) > NAME_WORD_CHARS or not unicodedata.category(word[0]).startswith("L"):
        return False
    return all(c in _JOINERS or unicodedata.category(c)[0] in "LM" for c in word[1:])


def _cased(word: str) -> bool:
    return any(c.isupper() or c.islower() for c in word)


def is_name(name: str) -> bool:
    """Whether the text before a message's colon is a speaker's name (see the module's rules)."""
    words = name.split()
    if not 1 <= len(words) <= NAME_WORDS or not all(map(_name_word, words)):
        return False
    if any(map(_unspaced, name)):
        return len(words) == 1 and len(name) <= UNSPACED_NAME_CHARS
    for word in words:
        if _cased(word) and not word[0].isupper():
            return False  # "note", "my dog"
        if not _cased(word) and len(word) > UNCASED_WORD_CHARS:
            return False
    return True


def speaker_prefix(text: str) -> tuple[str, int] | None:
    """The name of a `Name: text` prefix and where the text after it starts, or None."""
    m = _PREFIX_RE.match(text)
    if m is None or text.startswith("//", m.end()):
        return None
    name = m["name"].strip()
    return (name, m.end()) if is_name(name) else None


# The speakers a message's role names when it carries no name: product labels, the same in every language.
GENERIC_SPEAKERS = {"user": "User", "assistant": "Assistant", "system": "System"}


def speaker_label(role: str, name: str | None = None) -> str:
    """Who spoke, as memories, summaries and rendered history name them: the speaker's name when one was
    given, else User / Assistant / System by the role."""
    return name or GENERIC_SPEAKERS.get(role, role.capitalize() or "User")
