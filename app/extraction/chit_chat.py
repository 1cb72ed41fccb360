"""What is not a memory: the structures and cue classes of chit-chat.

A statement is kept when it tells something about someone; chit-chat tells nothing that outlives the
conversation. The rules here are structural (who the sentence is anchored to, whether it is asked, how
many words of substance it has) or cue classes that are closed sets of formulas (a well-wish starts
"good luck" / "hope …" / "enjoy …"; a guess about the partner's news is "must be" / "I bet" /
"sounds …"). They never look at what a particular conversation is about.

Most of the module reads English, with English's patterns (`app.language.languages.en.small_talk`). `says_nothing_in` applies the same structures to a statement in another
language, with that language's formula classes and function words (`app.language.formulas`): a
statement made only of formulas, one that wishes well, one with no content-bearing word, and a short guess
about the partner's news; `tells_in_question_in` and `concerns_the_user_in` read a question and an
assistant's statement as their English counterparts do. A word it does not know is content: nothing is
dropped because a rule cannot read it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from app.language.cues import names_a_rule
from app.language.formulas import LANGUAGES, Formulas, fold, formulas_of
from app.language.languages import PRO_DROP
from app.language.languages.en.small_talk import (
    AGENT_FOR_USER_RE,
    ANCHOR_RE,
    ANNOUNCING_RE,
    ASKING_I_RE,
    ASKS_RE,
    FIRST_PERSON_RE,
    GUESS_RE,
    INTERROGATIVE_RE,
    OBLIGATION_START_RE,
    POLITE_RULE_RE,
    REQUEST_RE,
    SECOND_PERSON_OR_USER_RE,
    STATEMENT_THEN_REQUEST_RE,
    TAG_CLAUSE_WORDS,
    TAG_QUESTION_RE,
    TAG_WINDOW,
    VERDICT_RE,
    WELL_WISH_RE,
)

_I = re.IGNORECASE

# A remark of a word or two ("lmaooo", "krass", "muchas gracias"), or of a few CJK characters ("晚安"), or
# one character repeated ("哈哈哈哈", "www"): whatever its language, it tells nothing unless it answers.
_WORD_RE = re.compile(r"\w+")
_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
BARE_REMARK_WORDS = 2
_LINK_RE = re.compile(r"\bhttps?://|\bwww\.|\S@\S+\.\w")
BARE_REMARK_CJK_CHARS = 3
# A sentence that only announces what follows ("Here are a few tips:"): the list is the content.
ANNOUNCES_RE = re.compile(r":\s*$")


def is_bare_remark(text: str) -> bool:
    """A word or two (a few CJK characters, or one character repeated) with no digit and no name in it."""
    words = _WORD_RE.findall(text)
    if not words or any(c.isdigit() for c in text) or any(w[:1].isupper() for w in words[1:]):
        return False
    letters = "".join(words)
    if len(set(letters.lower())) == 1 and len(letters) > 1:
        return True
    cjk = len(_CJK_RE.findall(text))
    if cjk:
        return cjk <= BARE_REMARK_CJK_CHARS and cjk == len(letters)
    return len(words) <= BARE_REMARK_WORDS and not any(w.lower().endswith("ed") for w in words)


def _occurs(pattern: re.Pattern[str]) -> Callable[[str], bool]:
    """The test whether `pattern` occurs anywhere in a text."""

    def occurs(text: str) -> bool:
        return pattern.search(text) is not None

    return occurs


is_polite_rule = _occurs(POLITE_RULE_RE)
# A URL or an e-mail address: something specific, in any case.
has_link = _occurs(_LINK_RE)
asks_for_something = _occurs(REQUEST_RE)
is_verdict = _occurs(VERDICT_RE)
is_anchored = _occurs(ANCHOR_RE)


def is_obligation(text: str) -> bool:
    return OBLIGATION_START_RE.match(text) is not None


def is_well_wish(text: str) -> bool:
    return WELL_WISH_RE.match(text.lstrip(" ,.!-")) is not None


def is_guess(text: str) -> bool:
    """A guess or a verdict about the partner's news, without a statement of the speaker's own in it."""
    return GUESS_RE.search(text) is not None and not _tells_of_oneself(text)


def _tells_of_oneself(text: str) -> bool:
    """First person other than the guesser's "I bet" / "I understand"."""
    rest = re.sub(r"^\s*i\s+(?:bet|understand|can\s+imagine)\b", "", text, flags=_I)
    return FIRST_PERSON_RE.search(rest) is not None


def reads_as_question(text: str) -> bool:
    """Asked by word order though it has no question mark."""
    return INTERROGATIVE_RE.match(text.lstrip(" ,.!-")) is not None


def tells_in_question(text: str) -> bool:
    """A question that carries a statement of the asker's own ("is it weird that I'm still using an iPhone
    8?"): first person that is not only the subject the question asks about ("how do I…", "am I right")."""
    return FIRST_PERSON_RE.search(ASKING_I_RE.sub(" ", text)) is not None


def without_tag(text: str) -> str:
    """The statement a tag question wraps ("answer in Spanish, ok?" → "answer in Spanish"), else the text."""
    m = TAG_QUESTION_RE.search(text, max(0, len(text.rstrip()) - TAG_WINDOW))
    if not m or len(_WORD_RE.findall(text[: m.start()])) < TAG_CLAUSE_WORDS:
        return text
    clause = text[: m.start()].rstrip(" ,")
    # "What do you think, Ben?", "Did you go, or not?": the clause itself asks.
    return text if reads_as_question(clause) or ASKS_RE.match(clause.lstrip(" ,.!-")) else clause


def announced(text: str) -> str | None:
    """What "Did I tell you …?" / "Guess what, …" announces, if the text is such a question."""
    m = ANNOUNCING_RE.match(text)
    if not m:
        return None
    rest = text[m.end() :].rstrip(" ?")
    return rest[:1].upper() + rest[1:] if rest else None


def statement_before_request(text: str) -> str | None:
    """The speaker's own statement a request question follows ("I'm allergic to peanuts, can you tell
    her?" → "I'm allergic to peanuts"), if the text is such a question."""
    m = STATEMENT_THEN_REQUEST_RE.match(text)
    return m["statement"] if m and FIRST_PERSON_RE.search(m["statement"]) else None


def concerns_the_user(text: str) -> bool:
    """Whether an assistant's sentence concerns the user (their plans, bookings, facts, the assistant's
    undertakings to them), rather than telling general knowledge or making conversation."""
    return AGENT_FOR_USER_RE.search(text) is not None and ANNOUNCES_RE.search(text) is None


# ---------------------------------------------------------------- any language

# Laughter and reactions whatever the language: a word that repeats one character ("kkkk", "www",
# "哈哈哈", "ㅋㅋㅋ") or a two-letter syllable ("jajaja", "hahaha", "jejeje", "rsrsrs").
_LAUGH_RE = re.compile(r"([^\W\d_])\1{2,}|([^\W\d_]{2})\2{2,}")
LAUGH_CHARS = 24
# What is neither a word nor a digit: punctuation, emoji, symbols. Skipped between formulas.
_NON_WORD_RE = re.compile(r"[\W_]*")
# A name after a greeting or thanks ("Hola Marta,", "Danke, Ben!"), ended by punctuation or the text.
_VOCATIVE_RE = re.compile(r"(\w{1,30})(?:\s*[,.!?;:…]+\s*|\s*$)")
_DIGIT_RE = re.compile(r"\d")
# A guess about the partner's news is short; longer, it tells something ("Parece que va a llover mañana en
# Sevilla"). The exclamation ("¡Qué frío!", "Wie schön das Haus ist!") shorter still.
GUESS_WORDS = 6
CONTENT_WORDS_IN_GUESS = 1
EXCLAMATION_WORDS = 4
CONTENT_WORDS_IN_EXCLAMATION = 2
# A CJK statement's characters of content left around a guess marker ("一定很冷吧" → "冷"): one word.
CJK_CONTENT_CHARS_IN_GUESS = 2


def _laughs(word: str) -> bool:
    return len(word) <= LAUGH_CHARS and _LAUGH_RE.fullmatch(word) is not None


def _past_non_words(text: str, pos: int) -> int:
    m = _NON_WORD_RE.match(text, pos)
    return m.end() if m else pos


def _after_formulas(text: str, folded: str, formulas: Formulas) -> int:
    """Where the statement's leading formulas end ("¡Hola Marta! Gracias por todo, …" → after "todo, "):
    greetings, farewells, thanks and apologies with their "for …" clause and a name after them, agreement
    tokens, reactions, laughter, emoji and punctuation. Each step consumes text: linear."""
    pos = _past_non_words(folded, 0)
    while pos < len(folded):
        m = formulas.leading.match(folded, pos)
        if m is not None:
            pos = m.end()
            v = _VOCATIVE_RE.match(text, pos)
            if v is not None and v[1][:1].isupper():
                pos = v.end()
        else:
            word = _WORD_RE.match(folded[pos : pos + LAUGH_CHARS + 1])
            if word is None or not _laughs(word[0]):
                return pos
            pos += word.end()
        pos = _past_non_words(folded, pos)
    return pos


def says_nothing_in(text: str, code: str, *, dated: bool = False) -> bool:
    """Whether a statement in language `code` (not English) tells nothing lasting: only formulas (greetings,
    thanks, apologies, agreement, reactions, laughter, emoji), a well-wish ("Mucha suerte con la
    entrevista", "祝你面试顺利"), no word but function words and formulas ("Yo también", "我也是"), or a short
    guess about the partner's news anchored to nobody ("Suena genial", "Ça doit être magnifique",
    "一定很冷吧"). `dated`: the statement names a day, which is content."""
    if _is_reaction(text):
        return True
    formulas = formulas_of(code)
    return formulas is not None and _says_nothing(text, fold(text), formulas, dated)


def _is_reaction(text: str) -> bool:
    """Punctuation, emoji, symbols or laughter alone: a reaction, in any language."""
    return all(_laughs(fold(w)) for w in _WORD_RE.findall(text))


def _says_nothing(text: str, folded: str, formulas: Formulas, dated: bool) -> bool:
    """`says_nothing_in` by one language's formulas, for a statement that is more than a reaction;
    `folded` is `fold(text)`."""
    if formulas.empty is not None:
        return _cjk_says_nothing(folded, formulas, formulas.empty, dated=dated)
    rest = folded[_after_formulas(text, folded, formulas) :]
    if not _WORD_RE.search(rest):
        return True
    if _DIGIT_RE.search(rest):
        return False  # a number, a time, a date: something specific
    if formulas.well_wish.match(rest):
        return True
    if dated:
        return False
    if all(formulas.says_nothing(w) for w in _WORD_RE.findall(rest)):
        return True
    rest_words = _WORD_RE.findall(rest)
    if len(rest_words) > GUESS_WORDS or not formulas.anchors.isdisjoint(rest_words):
        return False  # "Parece que mi hermana…": it tells of someone
    exclamation = formulas.exclamation
    if exclamation is not None and exclamation.match(rest) and len(rest_words) <= EXCLAMATION_WORDS:
        marker, allowed = exclamation, CONTENT_WORDS_IN_EXCLAMATION
    elif formulas.guess.search(rest):
        marker, allowed = formulas.guess, CONTENT_WORDS_IN_GUESS
    else:
        return False
    content = [w for w in _WORD_RE.findall(marker.sub(" ", rest)) if not formulas.says_nothing(w)]
    return len(content) <= allowed


def is_courtesy_in(text: str, code: str) -> bool:
    """Whether a statement in language `code` opens with a greeting, farewell, thanks or apology ("¡Un
    abrazo!", "Danke dir!", "谢谢"), as opposed to a reaction to what was just said ("incroyables")."""
    formulas = formulas_of(code)
    if formulas is None:
        return False
    folded = fold(text)
    if formulas.empty is not None:
        return formulas.courtesy.search(folded) is not None
    return formulas.courtesy.match(folded, _past_non_words(folded, 0)) is not None


def is_thanks_in(text: str, code: str) -> bool:
    """Whether a statement in language `code` opens with thanks ("Gracias, …", "谢谢！", "감사합니다!")."""
    formulas = formulas_of(code)
    if formulas is None:
        return False
    folded = fold(text)
    return formulas.thanks.match(folded, _past_non_words(folded, 0)) is not None


def refers_to_someone_in(text: str, code: str) -> bool:
    """Whether a statement in language `code` holds one of its first- or third-person pronouns."""
    formulas = formulas_of(code)
    if formulas is None:
        return True
    folded = fold(text)
    if formulas.empty is not None:
        return any(a in folded for a in formulas.anchors)
    return not formulas.anchors.isdisjoint(_WORD_RE.findall(folded))


def says_nothing_in_some_language(text: str, *, dated: bool = False) -> bool:
    """`says_nothing_in` for a text of no known language: one the detector read as English for want of
    confidence though no English word is in it ("¡Hola Marta!", "Merci Paul !"). Chit-chat in one of the
    languages with formulas; a word of substance is no language's function word or formula, so a
    statement that tells something is kept whichever language it is."""
    if _is_reaction(text):
        return True
    folded = fold(text)  # once, for every language's reading
    tables = (formulas_of(code) for code in LANGUAGES)
    return any(_says_nothing(text, folded, formulas, dated) for formulas in tables if formulas is not None)


def _cjk_says_nothing(folded: str, formulas: Formulas, empty: re.Pattern[str], *, dated: bool) -> bool:
    """The CJK reading of `says_nothing_in`: with no spaces between words, a statement's formulas and
    function words (`empty`) are taken out wherever they stand, and what is left decides."""
    if _DIGIT_RE.search(folded):
        return False
    body = _NON_WORD_RE.sub("", folded)
    if formulas.well_wish.match(body):
        return True
    if not empty.sub("", body):
        return True
    if dated or not formulas.guess.search(body) or any(a in body for a in formulas.anchors):
        return False
    return len(empty.sub("", formulas.guess.sub("", body))) <= CJK_CONTENT_CHARS_IN_GUESS


# A question in another language carries a statement of the asker's own ("¿Es normal que me duelan las
# rodillas desde que empecé a correr en marzo?", "我最近老是失眠，是不是因为换了新工作？") when it has words of
# substance beyond asking and is anchored to someone (a first or third person: `Formulas.anchors`); in
# Chinese, Japanese and Korean, which often leave the subject unsaid, a clause of its own before what it
# asks does as well.
QUESTION_CONTENT_WORDS = 3
CJK_QUESTION_CONTENT_CHARS = 8
# A CJK text's characters that make about one word, when counting its content against a word threshold.
CJK_CHARS_A_WORD = 2
# A clause ended inside the question: what follows it is what is asked.
_CLAUSE_END_RE = re.compile(r"[,，、;；]")


def tells_in_question_in(text: str, code: str, *, dated: bool = False) -> bool:
    """Whether a question in language `code` (not English) tells something of the asker or of someone
    else, as `tells_in_question` reads an English one. `dated`: it names a day, which counts as content."""
    formulas = formulas_of(code)
    if formulas is None:
        return False
    folded = fold(text)
    if formulas.empty is not None:
        body = _NON_WORD_RE.sub("", folded)
        content = len(formulas.empty.sub("", body)) + (CJK_CHARS_A_WORD if dated else 0)
        anchored = any(a in body for a in formulas.anchors)
        clause = _CLAUSE_END_RE.search(folded.rstrip("?？ ")) is not None
        return content >= CJK_QUESTION_CONTENT_CHARS and (anchored or clause)
    words = _WORD_RE.findall(folded)
    content = sum(not formulas.says_nothing(w) for w in words) + (1 if dated else 0)
    return content >= QUESTION_CONTENT_WORDS and not formulas.anchors.isdisjoint(words)


def refers_to_someone(text: str, code: str) -> bool:
    """Whether a text in language `code` speaks of a person by a pronoun: in English a first, second or
    third person, or "the user"; in another language with a formula table, one of its first- and
    third-person pronouns (`Formulas.anchors`). A language that leaves the person unsaid (its `PRO_DROP`: "¿Cuándo fui al dentista?")
    and a language without a table are taken to (nothing is judged by rules that cannot read it). A
    question that names nobody asks about the world ("What is the capital of Mongolia?"), not about what
    a memory holds."""
    if code == "en":
        return ANCHOR_RE.search(text) is not None or SECOND_PERSON_OR_USER_RE.search(text) is not None
    formulas = formulas_of(code)
    if formulas is None or code in PRO_DROP:
        return True
    return not formulas.anchors.isdisjoint(_WORD_RE.findall(fold(text)))


# Two CJK texts share a word when they share this many characters in a row.
CJK_SHARED_CHARS = 2
# A Latin-script word shorter than this is not taken as shared substance ("el", "am", "la").
SHARED_WORD_CHARS = 4


def concerns_the_user_in(text: str, code: str, partner: frozenset[str], *, dated: bool = False) -> bool:
    """Whether an assistant's statement in language `code` (not English) concerns the user rather than
    making conversation, as `concerns_the_user` reads an English one: it names a day, holds a number,
    undertakes how it will answer ("A partir de ahora te responderé en español"), or takes up a word of
    substance (`partner`: `substance` of the user's turn before it): "Te recordaré que tienes que llamar
    al seguro", "住民票のことをリマインドしますね". An offer of more help, sympathy or encouragement ("Aquí
    estoy para lo que necesites", "Je comprends que ce soit frustrant") does none of these."""
    if dated or _DIGIT_RE.search(text) or names_a_rule(text):
        return True
    if formulas_of(code) is None:
        return True  # a language without formulas is never judged by them
    return not substance(text, code).isdisjoint(partner)


def substance(text: str, code: str) -> frozenset[str]:
    """A text's words of substance in language `code`: Latin-script words that are no function word or
    formula, or the character pairs of a CJK text's content once its formulas and function words are taken
    out; none in a language without formulas."""
    formulas = formulas_of(code)
    if formulas is None:
        return frozenset()
    folded = fold(text)
    if formulas.empty is not None:
        runs = formulas.empty.sub(" ", " ".join(_WORD_RE.findall(folded.replace("_", " ")))).split()
        return frozenset(
            r[i : i + CJK_SHARED_CHARS] for r in runs for i in range(len(r) - CJK_SHARED_CHARS + 1)
        )
    return frozenset(
        w for w in _WORD_RE.findall(folded) if len(w) >= SHARED_WORD_CHARS and not formulas.says_nothing(w)
    )
