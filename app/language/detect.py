"""Which language a text is written in, and which full-text configuration reads it.

Script decides first, for free: Chinese, Japanese and Korean (Han, kana, Hangul), Cyrillic, Greek and
Arabic need no statistics. Any other script that is not Latin (Hebrew, Devanagari, Bengali, Tamil, Thai,
Lao, Khmer, Myanmar, Georgian, Armenian, Ethiopic, …: the Unicode name of its letters says which) is
never English: py3langid's full model names its language, or, where the model does not know it, the
text is of an undetermined language (`und`) all the same, kept verbatim and searched word for word.
Latin-script text is given to py3langid (a naive Bayes model over byte n-grams, shipped inside its
package: nothing is downloaded), restricted to the languages PostgreSQL has a snowball configuration for;
where that reading is unsure, a text with letters beyond ASCII (Polish, Czech, Vietnamese, …) or of
several words is read by the full model too, and taken to be in the language it names when the model is
all but certain. English is the answer whenever the models are unsure: a short English reply ("Nice!",
"haha same") scores low for every language, and reading it with the English rules is what the service
did before it detected anything.

`Language.config` is the PostgreSQL text-search configuration a memory, a message and a question of that
language are analysed with; `simple` (lower-cased words, no stemming, no stopwords) where PostgreSQL has no
stemmer for the language. Migration 0013 stores it with each row (`language`) and indexes Chinese, Japanese
and Korean as overlapping character bigrams, emoji and symbols as words (`symbol_tsvector`), in both the
local and the embedded server: no extension is needed.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import py3langid.langid as langid

from app.language.languages import MODULES
from app.language.languages.en.questions import MARKERS as ENGLISH_MARKERS

# py3langid's codes → PostgreSQL's snowball configurations (`\dF` on PostgreSQL 15 and the embedded 18).
LATIN_CONFIGS = {
    "en": "english",
    "es": "spanish",
    "de": "german",
    "fr": "french",
    "pt": "portuguese",
    "it": "italian",
    "nl": "dutch",
    "sv": "swedish",
    "da": "danish",
    "no": "norwegian",
    "fi": "finnish",
    "tr": "turkish",
    "ro": "romanian",
    "hu": "hungarian",
    "ca": "catalan",
    "id": "indonesian",
}
# How sure the model must be before a Latin-script text is read as another language than English: a
# text of a few words in plain ASCII needs more (on the six English development sets, 0.5 alone read 9 of 2,868 turns
# as another language: "Leeds??", "September?", "Ha! Accurate."; with these bounds, 4).
CONFIDENT = 0.5
CONFIDENT_SHORT = 0.8
SHORT_WORDS = 4
# The model reads this many characters at most: enough to decide, and its cost (a walk over the bytes in
# Python, ≈ 0.5 µs a byte) stays bounded.
SAMPLE_CHARS = 200
_ENGLISH_WORD_RE = re.compile(r"[a-z]+(?:'[a-z]+)?")

_HANGUL_RE = re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]")
_KANA_RE = re.compile(r"[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]")
_HAN_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_CYRILLIC_RE = re.compile(r"[\u0400-\u04ff]")
_GREEK_RE = re.compile(r"[\u0370-\u03ff]")
_ARABIC_RE = re.compile(r"[\u0600-\u06ff]")
_LATIN_RE = re.compile(r"[A-Za-z\u00c0-\u024f]")
_WORD_RE = re.compile(r"\w+")
# How sure py3langid's full model must be to name a language the restricted one does not read (Polish,
# Vietnamese, Tagalog…): a text it is less sure of stays English, as before.
CONFIDENT_OTHER = 0.95
# A language the restricted model gives this much of its belief is one a text may be in (`likeliest`).
POSSIBLE = 0.1
# The undetermined language (ISO 639-2 `und`): a script the full model does not know.
UNDETERMINED = "und"
# Scripts written without spaces between words, besides Han, kana and Hangul: their text is segmented as
# character bigrams too (migration 0018).
_UNSPACED_SCRIPTS = frozenset(("THAI", "LAO", "KHMER", "MYANMAR"))
_UNSPACED_CODES = frozenset(("zh", "ja", "ko", "th", "lo", "km", "my"))


@dataclass(frozen=True)
class Language:
    """A detected language: its ISO 639-1 code and the full-text configuration that reads it."""

    code: str
    config: str

    @property
    def english(self) -> bool:
        return self.code == ENGLISH.code

    @property
    def unspaced(self) -> bool:
        """Written without spaces between words (Chinese, Japanese, Thai, Lao, Khmer, Myanmar; Korean's
        words are runs of syllables): segmented as character bigrams."""
        return self.code in _UNSPACED_CODES


ENGLISH = Language("en", "english")
_BY_SCRIPT = {
    "ko": Language("ko", "simple"),
    "ja": Language("ja", "simple"),
    "zh": Language("zh", "simple"),
    "ru": Language("ru", "russian"),
    "el": Language("el", "greek"),
    "ar": Language("ar", "arabic"),
}


# The Latin-script languages the restricted model chooses among: those PostgreSQL stems, and every language
# with a module of rules (`app.language.languages`: Polish has no stemmer, its rules still read it). The
# others are scripts' own (`_BY_SCRIPT`).
READ_LATIN = (*LATIN_CONFIGS, *sorted(c for c in MODULES if c not in LATIN_CONFIGS and c not in _BY_SCRIPT))


@functools.cache
def _identifier() -> langid.LanguageIdentifier:
    identifier = langid.LanguageIdentifier.from_model_file(langid.MODEL_FILE, norm_probs=True)
    identifier.set_languages(list(READ_LATIN))
    return identifier


@functools.cache
def _full_identifier() -> langid.LanguageIdentifier:
    """py3langid over every language its model knows (some 120)."""
    return langid.LanguageIdentifier.from_model_file(langid.MODEL_FILE, norm_probs=True)


@functools.cache
def _script_of(char: str) -> str:
    """The script a letter belongs to, as the first word of its Unicode name ("DEVANAGARI", "HEBREW",
    "THAI", "LATIN"); empty for what is not a letter or a combining mark."""
    if not unicodedata.category(char).startswith(("L", "M")):
        return ""
    return unicodedata.name(char, "").split(" ", 1)[0]


def _main_other_script(text: str) -> str | None:
    """The script most of a text's letters are in when it is neither Latin nor one `_script` reads."""
    scripts = Counter(s for s in map(_script_of, text) if s)
    if not scripts:
        return None
    script, count = scripts.most_common(1)[0]
    return None if script == "LATIN" or 2 * count <= sum(scripts.values()) else script


def _other_script(text: str, script: str) -> Language:
    """A text in a script that is neither Latin nor CJK, Cyrillic, Greek or Arabic: the language
    py3langid's full model names, or an undetermined one; never English, and read word for word (or by
    bigrams where the script writes no spaces)."""
    code, _ = _full_identifier().classify(text)
    if code in (ENGLISH.code, "zxx") or not code.isalpha():
        code = UNDETERMINED
    if script in _UNSPACED_SCRIPTS and code not in _UNSPACED_CODES:
        code = {"THAI": "th", "LAO": "lo", "KHMER": "km", "MYANMAR": "my"}[script]
    return Language(code, "simple")


def _other_latin(sample: str, words: int) -> Language | None:
    """A Latin-script text the restricted model reads as English or is unsure of, in a language it does not
    read (Polish, Czech, Vietnamese, Tagalog…): the full model's language when it is all but certain and
    the text is not a few plain ASCII words."""
    if words < SHORT_WORDS:
        return None
    code, confidence = _full_identifier().classify(sample)
    if code == ENGLISH.code or confidence < CONFIDENT_OTHER or not code.isalpha():
        return None
    return Language(code, LATIN_CONFIGS.get(code, "simple"))


def _script(text: str) -> str | None:
    """The language a non-Latin script says, when it is the text's main script (CJK characters count
    thrice: one carries about a word)."""
    latin = len(_LATIN_RE.findall(text))
    kana = len(_KANA_RE.findall(text))
    hangul = len(_HANGUL_RE.findall(text))
    han = len(_HAN_RE.findall(text))
    if 3 * (kana + hangul + han) > latin and kana + hangul + han:
        if hangul >= kana and hangul >= han:
            return "ko"
        return "ja" if kana else "zh"
    for code, pattern in (("ru", _CYRILLIC_RE), ("el", _GREEK_RE), ("ar", _ARABIC_RE)):
        if len(pattern.findall(text)) > latin:
            return code
    return None


def detect(text: str) -> Language:
    """The language of `text`; English when nothing says otherwise (no letters, a short reply, a guess
    the model is not sure of)."""
    return _sure(text) or ENGLISH


def detect_conversation(texts: Sequence[str]) -> list[Language]:
    """The language of each of a conversation's texts: its own where its words say it, else the
    conversation's — the language most of its texts are surely in (English when none is). A short reply
    or a sentence the model is unsure of ("Javier no come pescado.", "Sí, claro.") is read in the language
    it is said in, not in English for want of words."""
    sure = [_sure(text) for text in texts]
    counts = Counter(language for language in sure if language is not None)
    conversation = counts.most_common(1)[0][0] if counts else ENGLISH
    return [language or conversation for language in sure]


def _sure(text: str) -> Language | None:
    """The language of `text` when its script or words say it; None when they do not (no letters, a
    short reply, a guess the model is not sure of)."""
    sample = text[:SAMPLE_CHARS]
    if not sample.isascii():
        if (code := _script(sample)) is not None:
            return _BY_SCRIPT[code]
        if (script := _main_other_script(sample)) is not None:
            return _other_script(sample, script)
    words = len(_WORD_RE.findall(sample))
    if len(ENGLISH_MARKERS.intersection(_ENGLISH_WORD_RE.findall(sample.lower()))) >= 2:
        return ENGLISH
    if words < 2:
        return None
    code, confidence = _identifier().classify(sample)
    # Accents and inverted marks are rare in English: a short text that has them needs no more.
    short = words < SHORT_WORDS and sample.isascii()
    if confidence < (CONFIDENT_SHORT if short else CONFIDENT):
        return _other_latin(sample, words)
    if code == ENGLISH.code:
        return _other_latin(sample, words) or ENGLISH
    return Language(code, LATIN_CONFIGS.get(code, "simple"))


def likeliest(text: str) -> list[str]:
    """The languages a text may be in, likeliest first, even when `detect` is not sure enough to say (a
    question of three words, "¿Qué hice anteayer?"): its script's alone, else those the restricted model
    gives at least `POSSIBLE` of its belief."""
    language = detect(text)
    if not language.english:
        return [language.code]
    return [code for code, p in _identifier().rank(text[:SAMPLE_CHARS]) if p >= POSSIBLE and code != "en"]


def search_config(text: str) -> str:
    """The full-text configuration a row holding `text` is indexed with (migration 0013's `language`)."""
    return detect(text).config
