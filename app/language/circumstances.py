"""Whether a statement tells a lasting circumstance of a person: work and studies, home, family, pets,
health, diet and allergies, what they like, their age and birthday.

The summary puts such facts at the top of an agent's prompt, above passing remarks. Each language has its
own closed class of words for these circumstances, written from the language (kinship terms, the words for
job, home, allergy, liking), never from any conversation: its module's `CIRCUMSTANCES`
(`app.language.languages`). In a spaced script they are word starts matched on `fold`ed text ("trabaj"
finds "trabajo", "trabajaba"; one ending in `\\b` is a whole word); in Chinese, Japanese and Korean they are
found anywhere. Each table reads only its own language's statements (Swedish "son" is a son, Spanish "son"
is "they are"). A statement no table reads is only not moved up: nothing is dropped by it.
"""

from __future__ import annotations

import functools
import re

from app.language.detect import LATIN_CONFIGS, detect
from app.language.folding import fold
from app.language.languages import CIRCUMSTANCES, TIME_WORDS

# The language a full-text configuration names, where only one language is stored with it ("simple" is
# every language without a stemmer: that text's language is detected).
_CODE_OF_CONFIG = {config: code for code, config in LATIN_CONFIGS.items()}


@functools.cache
def _pattern(code: str) -> re.Pattern[str] | None:
    field = CIRCUMSTANCES.get(code)
    if field is None:
        return None
    if code in TIME_WORDS and TIME_WORDS[code].unspaced:
        return re.compile(field)
    return re.compile("(?<!\\w)(?:" + field.replace(" ", r"\s+").replace("'", "['’]") + ")")


def tells_a_circumstance(text: str, config: str = "english") -> bool:
    """Whether `text`, stored with the full-text configuration `config` (its language), tells a lasting
    circumstance of a person."""
    code = _CODE_OF_CONFIG.get(config) or detect(text).code
    pattern = _pattern(code)
    return pattern is not None and pattern.search(fold(text)) is not None
