"""What is not a memory: the structures and cue classes of chit-chat.

A statement is kept when it tells something about someone; chit-chat tells nothing that outlives the
conversation. The rules here are structural (who the sentence is anchored to, whether it is asked, how
many words of substance it has) or cue classes that are closed sets of formulas (a well-wish starts
"good luck" / "hope …" / "enjoy …"; a guess about the partner's news is "must be" / "I bet" /
"sounds …"). They never look at what a particular conversation is about.

Most of the module reads English. `says_nothing_in` applies the same structures to a statement in another
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

_I = re.IGNORECASE

# A well-wish or a send-off: it wishes, it does not tell ("Good luck with the deploy", "Hope your mum
# feels better", "Enjoy the wedding!", "Let me know how it goes!").
WELL_WISH_RE = re.compile(
    r"^(?:good\s+luck|best\s+of\s+luck|(?:i\s+)?hope\s+(?:you|your|u|ur|the|it|she|he|they|things|all|everything)\b|"
    r"(?:i\s+)?wish\s+(?:you|u)\b|have\s+(?:a\s+|an\s+)?(?:fun|good|great|nice|wonderful|lovely|safe|amazing|"
    r"brilliant|fantastic)\b|enjoy\b|safe\s+travels|get\s+well|feel\s+better|merry|happy\s+\w+|"
    r"fingers\s+crossed|break\s+a\s+leg|you\s+got\s+this|you\s+deserve|let\s+me\s+know\s+(?:how|if|when|what)|"
    r"congrat\w*|well\s+done|bon\s+voyage|feel\s+free|sorry\s+for\s+the\s+(?:late|slow)|"
    r"sorry\s+to\s+hear|so\s+sorry\s+to)",
    _I,
)
# A guess or a verdict about what the partner told, not a statement of one's own: "The water must be
# freezing", "I bet the kids loved it", "Sounds like a great place", "That can be really frustrating".
GUESS_RE = re.compile(
    r"\bmust(?:'ve|\s+have)?\s+(?:be|been)\b|^(?:i\s+)?bet\b|^(?:it\s+|that\s+|this\s+)?(?:sounds|looks|seems)\b|"
    r"\b(?:can|could)\s+be\s+(?:really\s+|so\s+|very\s+)?\w+ing\b|^i\s+(?:understand|can\s+imagine)\b",
    _I,
)
# A verdict on something ("weddings are so expensive", "physio is the worst", "the pic is unreal",
# "feedzai sounds like a cool company"): a copula with an intensifier, a superlative or an evaluative
# adjective, or "sounds / looks / seems".
VERDICT_RE = re.compile(
    r"\b(?:is|are|was|were|'s|be|been|ur|you're)\s+(?:(?:so+|such|really|very|super|too|totally|absolutely|"
    r"pretty|quite|kinda|literally|honestly|always|just)\s+)*(?:so+\b|such\b|the\s+(?:worst|best)\b|"
    r"(?:crazy|insane|unreal|wild|brutal|mad|nuts|ridiculous|hilarious|gorgeous|stunning|awful|terrible|"
    r"horrible|lovely|amazing|awesome|great|beautiful|fun|cute|sweet|cool|nice|boring|weird|random)\b)|"
    r"\b(?:sounds|looks|seems)\b",
    _I,
)
# Who a statement is about: the speaker ("I", "my", "we", chat's "im") or a third person. Without either,
# and without anything specific (a name, a number, a time), an English sentence is a remark about the
# world or the partner's news ("weddings are so expensive", "porto is so pretty, lucky you").
ANCHOR_RE = re.compile(
    r"\b(?:i|i'm|im|i've|ive|i'd|i'll|me|my|mine|myself|we|we're|we've|we'd|we'll|us|our|ours|"
    r"he|he's|she|she's|they|they're|they've|him|his|her|hers|them|their|theirs)\b",
    _I,
)
# The first person after the verb that asks ("do I", "should I", "can I"): asking for help, not telling.
ASKING_I_RE = re.compile(r"\b(?:do|does|did|can|could|should|would|will|shall|am|may|might)\s+i\b", _I)
FIRST_PERSON_RE = re.compile(r"\b(?:i|i'm|im|i've|ive|i'd|i'll|me|my|mine|we|we're|we've|us|our)\b", _I)
# A question without its question mark, told by word order: a question word before a verb that asks
# ("how do i boil an egg", "what's the capital of australia", "how r u"), not "when I was in Paris, …".
INTERROGATIVE_RE = re.compile(
    r"^(?:how|what|where|when|why|who|which)(?:'s|'re|\s+(?:do|does|did|is|are|was|were|can|could|should|"
    r"would|will|r|u)\b)",
    _I,
)
# A tag that turns a statement into a question ("always answer in spanish ok?"): the statement is what
# is said.
# Structurally too: a clause of several words, a comma, and a tag of a word or three ("He built the shed out
# of old pallets, remember?", "She's a vet now, isn't she?").
TAG_QUESTION_RE = re.compile(
    r"(?:[\s,]+(?:ok|okay|right|yeah|yes|alright|k|pls|please)|(?<=\w{2})\s*,\s*\w+(?:['’]\w+)?(?:\s+\w+){0,2})"
    r"\s*\?+\s*$",
    _I,
)
TAG_CLAUSE_WORDS = 4
# A tag is a few words at the very end: only the text's last characters are searched, so a long run of
# spaces or commas costs a bounded number of tries (searched whole, `[\s,]+` made the search quadratic).
TAG_WINDOW = 100
_ASKS_RE = re.compile(
    r"(?:(?:so|and|but|ok|okay|oh|hey|well)[,\s]+)?(?:do|does|did|is|are|was|were|can|could|would|will|should|have|has|had|am|shall|may)\b",
    _I,
)
# "I'm allergic to peanuts, can you tell her?": a statement of one's own before a request.
STATEMENT_THEN_REQUEST_RE = re.compile(
    r"^(?P<statement>.+?),\s*(?:so\s+|and\s+)?(?:can|could|would|will)\s+(?:you|u)\b[^,]*\?+\s*$", _I
)
# "Did I tell you I got the job?": news told as a question; what follows is the statement.
ANNOUNCING_RE = re.compile(
    r"^(?:(?:did|have)\s+i\s+(?:tell|told|mention(?:ed)?)\s+(?:you|u)|guess\s+what)(?:\s+that)?[\s,:;-]*(?=\S)",
    _I,
)
# What an assistant says to the user that concerns them ("your flight", "you're allergic", "I've booked",
# "I'll answer in Spanish from now on"), as opposed to what it knows about the world ("Python lists are
# mutable", "you can apply online").
AGENT_FOR_USER_RE = re.compile(
    r"\b(?:your|yours|you're|you\s+are|you've|you\s+have|you\s+were|you\s+had)\b|"
    r"\bi(?:'ve|\s+have)\s+(?:booked|added|set|scheduled|saved|noted|created|moved|cancelled|canceled|"
    r"reserved|ordered|sent|put|changed|updated|registered|confirmed)\b|"
    r"\bi(?:'ll|\s+will|\s+won't|\s+will\s+not)\b.*\b(?:from\s+now\s+on|going\s+forward|anymore|again)\b|"
    r"^(?:ok|okay|sure|got\s+it|noted|understood)?[,.!\s]*no\s+more\b|\bfrom\s+now\s+on\b",
    _I,
)
# A request or an obligation without a subject, as chat writes them ("must email the professor", "so no
# wine pairings pls", "can you stop starting every answer with…").
REQUEST_RE = re.compile(
    r"^(?:must|gotta|have\s+to|has\s+to|need\s+to|needs\s+to|got\s+to|should)\b|\b(?:please|pls|plz)\b|"
    r"^(?:can|could|would|will)\s+(?:you|u)\s+(?!\w+\s+me\s*$)",
    _I,
)
# A remark of a word or two ("lmaooo", "krass", "muchas gracias"), or of a few CJK characters ("晚安"), or
# one character repeated ("哈哈哈哈", "www"): whatever its language, it tells nothing unless it answers.
_WORD_RE = re.compile(r"\w+")
_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
BARE_REMARK_WORDS = 2
_LINK_RE = re.compile(r"\bhttps?://|\bwww\.|\S@\S+\.\w")
BARE_REMARK_CJK_CHARS = 3
# An obligation without a subject, as chat writes a to-do ("need to send the invoice", "gotta pick the car up").
OBLIGATION_START_RE = re.compile(
    r"^(?:(?:so|and|ugh|ok|okay|also|oh)[,\s]+)?(?:must|gotta|have\s+to|need\s+to|got\s+to)\s+\w", _I
)
# A rule asked politely ("pls dont use emoji with me", "so no wine pairings in the recipes pls").
POLITE_RULE_RE = re.compile(
    r"\b(?:pls|please|plz)\b.*\b(?:dont|don't|do\s+not|no|never|stop|always)\b|"
    r"\b(?:dont|don't|no|never|stop|always)\b.*\b(?:pls|please|plz)\b",
    _I,
)
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
    return text if reads_as_question(clause) or _ASKS_RE.match(clause.lstrip(" ,.!-")) else clause


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


_SECOND_PERSON_OR_USER_RE = re.compile(r"\b(?:you|your|yours|you're|you've|u|ur|user|user's)\b", _I)


def refers_to_someone(text: str, code: str) -> bool:
    """Whether a text in language `code` speaks of a person by a pronoun: in English a first, second or
    third person, or "the user"; in another language with a formula table, one of its first- and
    third-person pronouns (`Formulas.anchors`). A language that leaves the person unsaid (its `PRO_DROP`: "¿Cuándo fui al dentista?")
    and a language without a table are taken to (nothing is judged by rules that cannot read it). A
    question that names nobody asks about the world ("What is the capital of Mongolia?"), not about what
    a memory holds."""
    if code == "en":
        return ANCHOR_RE.search(text) is not None or _SECOND_PERSON_OR_USER_RE.search(text) is not None
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
