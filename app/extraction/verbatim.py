"""Memories of a message the English rules cannot read: each statement kept as it was said.

A message in another language than English (`app.language.detect`) is split into statements
(`app.language.sentences`: CJK full stops too), and every one is a memory except bare
questions (a question that tells of the asker is kept: `chit_chat.tells_in_question_in`), chit-chat in
that language (`chit_chat.says_nothing_in`: greetings, thanks, well-wishes, reactions, statements with no
content-bearing word) and, from the assistant speaking as itself, what does not concern the user
(`chit_chat.concerns_the_user_in`): no pronoun is rewritten, no word dropped; the
summary is the statement itself, with its speaker's name before it when the conversation names them
(`Marta: Me encanta el sushi.`). A statement asking the agent for a standing rule (`A partir de ahora
respóndeme en español`) is an instruction, one naming something to be done (`Tengo que renovar el
pasaporte`, `提醒我交房租`) a task, one naming a date or a relative day (`mañana`, `下个月`, `8. Mai`) an
event at that day, any other a fact (`app.language.cues`). A statement of a few words joins its neighbour
("Ya llegué." says little alone), a short reaction the statement it follows ("Estuve en Granada. ¡Precioso!"),
and the partner's turn it answers is its searchable context.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime

from app.core.memory_types import MemoryType
from app.extraction.chit_chat import (
    concerns_the_user_in,
    is_courtesy_in,
    is_thanks_in,
    refers_to_someone_in,
    says_nothing_in,
    substance,
    tells_in_question_in,
)
from app.extraction.text import truncate
from app.extraction.types import CONTENT_MAX_CHARS, CONTEXT_MAX_CHARS, SUMMARY_MAX_CHARS, ExtractedMemory
from app.language.cues import (
    asks_for_a_rule,
    is_question,
    names_a_task,
    names_how_the_agent_answers,
    opens_with_how_the_agent_answers,
)
from app.language.detect import Language
from app.language.folding import fold
from app.language.formulas import formulas_of
from app.language.languages import ANSWERS
from app.language.sentences import split_sentences
from app.language.shapes import (
    addresses_the_partner,
    asks_without_a_mark,
    beside_the_request,
    is_hypothetical,
    is_prohibition,
    is_request,
    opens_a_noun_phrase,
    opens_with_the_world,
    sets_a_condition,
    speaks_of_oneself,
    tells_a_past_action,
)
from app.language.temporal import find_time, names_a_day, resolve_event_time

# Whether a statement names a day does not depend on the day it is read against.
_ANY_DAY = datetime(2000, 1, 1, tzinfo=UTC)
# A statement's first word, after what may open it (quotes, emoji, "¡").
_FIRST_WORD_RE = re.compile(r"[^\W\d_]+")
_DIGIT_RE = re.compile(r"\d")
# A clause of its own inside a statement.
_CLAUSE_RE = re.compile(r"[,，、;；]")
# A statement shorter than this (in words, or CJK characters over CJK_CHARS_A_WORD) joins the one before it.
MIN_STATEMENT_WORDS = 4
CJK_CHARS_A_WORD = 2


def _size(text: str, language: Language) -> int:
    if language.unspaced:
        return len(text) // CJK_CHARS_A_WORD
    return len(text.split())


def statements(
    body: str,
    language: Language,
    *,
    keep_all: bool = False,
    agent_speaking: bool = False,
    partner: str | None = None,
) -> list[str]:
    """The statements of a message body worth a memory each (`keep_all`: every one, questions and
    greetings too, merged the same way). A short statement joins the one before it, or the one after it
    when it opens the message ("Ya llegué. Mañana vuelvo a Sevilla."); chit-chat makes none of its own, nor
    a question that tells nothing of anyone. `agent_speaking` (the assistant as itself): only what concerns
    the user, read against the `partner`'s turn before it."""
    joiner = "" if language.unspaced else " "
    kept: list[str] = []
    opening = ""
    # Read once for all the statements of the reply (a long reply has many).
    partner_words = substance(partner, language.code) if agent_speaking and partner else frozenset()
    code = language.code
    # A statement that answers the partner's question is read with it ("¡Aprobé!" after "¿Qué tal el examen?").
    answers = partner is not None and is_question(partner)
    after_thanks = False
    said = split_sentences(body, code)
    alone = len(said) == 1
    for sentence in said:
        dated = names_a_day(sentence, code)
        follows_thanks, after_thanks = after_thanks, is_thanks_in(sentence, code)
        if not keep_all and (is_question(sentence) or (asks_without_a_mark(sentence, code) and not answers)):
            if not agent_speaking and (
                tells_in_question_in(sentence, code, dated=dated) or _asks_or_tasks(sentence, code)
            ):
                kept.append(opening + sentence)
                opening = ""
            continue
        if (
            not keep_all
            and agent_speaking
            and not concerns_the_user_in(sentence, language.code, partner_words, dated=dated)
        ):
            continue  # conversation: an offer of more help, sympathy, encouragement
        if (
            not keep_all
            and not agent_speaking
            and _idle(sentence, language, dated, follows_thanks, alone, answers)
        ):
            continue
        if not keep_all and says_nothing_in(sentence, code, dated=dated):
            # A short reaction stays with the statement it reacts to ("Tes tacos... incroyables"), as the
            # English rules keep "So cool." with the sentence before; a greeting, thanks or farewell does
            # not, nor a day named in passing ("¡Hasta mañana!" would date the statement).
            short = _size(sentence, language) < MIN_STATEMENT_WORDS
            if not short or dated or is_courtesy_in(sentence, language.code):
                continue
            if opening:
                opening += sentence + joiner
            elif kept:
                kept[-1] += joiner + sentence
            continue
        if _size(sentence, language) >= MIN_STATEMENT_WORDS:
            kept.append(opening + sentence)
            opening = ""
        elif kept:
            kept[-1] += joiner + sentence
        else:
            opening += sentence + joiner
    if opening and (keep_all or kept or answers or not _says_little(opening, language)):
        kept.append(opening.strip())
    return kept


# A remark of thanks praises the help when what follows the thanks is this short (in words, or CJK
# characters over CJK_CHARS_A_WORD): "gracias, me has salvado la vida", "谢谢！太有用了".
PRAISE_WORDS = 5


def _praises_help(sentence: str, language: Language, follows_thanks: bool) -> bool:
    """Thanks and a few words of praise for the help ("danke dir, echt hilfreich!", "valeu, ajudou muito!"),
    or those few words right after a thanks of their own ("ありがとうございます！助かりました"): nothing
    of anyone's life, no number, no day."""
    if _DIGIT_RE.search(sentence):
        return False
    if follows_thanks:
        return _size(sentence, language) <= PRAISE_WORDS
    if not is_thanks_in(sentence, language.code):
        return False
    return _size(sentence, language) <= PRAISE_WORDS + 2


def _about_no_one(sentence: str, language: Language) -> bool:
    """A remark about the world that names no one ("les loyers à Paris c'est devenu n'importe quoi",
    "die deutsche Bahn ist einfach ein Witz"): no first person (a pronoun, a possessive, a verb's ending),
    no third person, no name, no number, no request. Read only where the words say the person: in
    Chinese, Japanese and Korean the subject is mostly left unsaid, and nothing is judged by its absence."""
    code = language.code
    if not opens_with_the_world(sentence, code) or _opens_with_a_name(sentence, code):
        return False
    if _DIGIT_RE.search(sentence) or speaks_of_oneself(sentence, code):
        return False
    if refers_to_someone_in(sentence, code) or is_request(sentence, code):
        return False
    return not addresses_the_partner(sentence, code)


def _opens_with_a_name(sentence: str, code: str) -> bool:
    """Whether the statement opens with a name ("Luna necesita la vacuna…": the article comes after its
    subject): a capitalised first word that is neither the article nor one of the language's function
    words or formulas, in a language whose capitals mark names alone (not German's, where every noun has one)."""
    answers, formulas = ANSWERS.get(code), formulas_of(code)
    if answers is None or not answers.names_capitalised or formulas is None:
        return False
    first = _FIRST_WORD_RE.search(sentence)
    if first is None or not first[0][0].isupper():
        return False
    word = fold(first[0])
    return not formulas.says_nothing(word) and not opens_a_noun_phrase(word, code)


def _says_little(text: str, language: Language) -> bool:
    """Words that make no statement alone ("卧槽😮", "ㅋㅋㅋㅋ 오키"): short, of no one, nothing done, no
    number, no day."""
    code = language.code
    return (
        _size(text, language) < MIN_STATEMENT_WORDS
        and not _DIGIT_RE.search(text)
        and not names_a_day(text, code)
        and not speaks_of_oneself(text, code)
        and not tells_a_past_action(text, code)
    )


def asks_for_a_standing_rule(statement: str, code: str) -> bool:
    """Whether a statement asks the agent for a rule that outlasts the conversation: a request that names
    how the agent answers ("háblame de tú", "返事は短めにお願いします"), holds a standing cue ("always",
    "from now on") or a standing condition ("cuando te pida un resumen ponlo en viñetas"), or the rule
    cues' own reading (`asks_for_a_rule`)."""
    if asks_for_a_rule(statement):
        return True
    if (
        sets_a_condition(statement, code)
        and names_how_the_agent_answers(statement)
        and not tells_a_past_action(statement, code)
    ):
        return True  # "sempre que eu escrever em inglês, corrige meus erros"
    if is_prohibition(statement, code):
        return True  # "no me pongas emojis", "以后别给我推荐…": not this once, ever
    if opens_with_how_the_agent_answers(statement) and not speaks_of_oneself(statement, code):
        return True  # "답변은 세 줄 이내로", "skriv kortare svar"
    if not (is_request(statement, code) or addresses_the_partner(statement, code)):
        return False
    return names_how_the_agent_answers(statement) or sets_a_condition(statement, code)


def _idle(
    sentence: str, language: Language, dated: bool, follows_thanks: bool, alone: bool, answers: bool
) -> bool:
    """Whether a user's statement tells nothing that lasts, by its shape: what would be ("si me tocara la
    lotería…"), a one-off request ("cuéntame un chiste"), thanks with a few words of praise, or (`alone` in
    its message) a remark about the world that names no one. A standing rule, something to be done, a day
    named and an answer to the partner's question (`answers`) are always kept."""
    if _tells_nothing_real(sentence, language, dated=dated):
        return True
    if answers or _asks_or_tasks(sentence, language.code):
        return False
    if dated:
        return _only_a_day(sentence, language)
    return _praises_help(sentence, language, follows_thanks) or (alone and _about_no_one(sentence, language))


def _only_a_day(sentence: str, language: Language) -> bool:
    """A day named and nothing else said of it ("pfff maandag weer", "周一好累啊", "月曜日だるい"): with its
    time taken out, the statement is formulas, function words and laughter, of no one and nothing done."""
    code = language.code
    mention = find_time(sentence, _ANY_DAY, language=code)
    if mention is None:
        return False
    rest = sentence[: mention.span[0]] + " " + sentence[mention.span[1] :]
    if _DIGIT_RE.search(rest) or speaks_of_oneself(rest, code) or tells_a_past_action(rest, code):
        return False
    return not rest.strip(" ,.!?¡¿…~") or says_nothing_in(rest, code)


def _asks_or_tasks(statement: str, code: str) -> bool:
    """A standing rule for the agent or something to be done: kept whatever else it looks like."""
    return names_a_task(statement) or asks_for_a_standing_rule(statement, code)


def _tells_nothing_real(statement: str, language: Language, *, dated: bool) -> bool:
    """A hypothetical (what would be, not what is), or a one-off request to the agent that is neither a
    standing rule nor something to be done nor dated ("explícame qué es la inflación", "讲个笑话听听"),
    and says nothing of the speaker beside it (a clause of its own: "エビアレルギーなので、…入れないでね")."""
    code = language.code
    if names_a_task(statement) or asks_for_a_standing_rule(statement, code):
        return False
    if is_hypothetical(statement, code):
        return True
    return (
        is_request(statement, code)
        and not dated
        and not speaks_of_oneself(beside_the_request(statement, code), code)
        and not _CLAUSE_RE.search(statement.rstrip(" ,，、.。!！?？~〜"))
    )


def _names_a_task(statement: str, code: str) -> bool:
    """Something to be done, said or asked for ("¿me recuerdas mañana lo del médico?"); an obligation only
    wondered about in a question ("secondo te devo portarlo dal veterinario?") is not one."""
    return any(
        names_a_task(sentence)
        and (is_request(sentence, code) or not (is_question(sentence) or asks_without_a_mark(sentence, code)))
        for sentence in split_sentences(statement, code)
    )


def _kind(statement: str, code: str, *, dated: bool, agent_speaking: bool) -> MemoryType:
    """The type rules of the English statements, in their order, read by cues and shapes that work across
    languages: a rule for the agent, something to be done (dated by its deadline), a dated happening or a
    past action, else a fact."""
    if not agent_speaking and asks_for_a_rule(statement):
        return MemoryType.INSTRUCTION
    if _names_a_task(statement, code):
        return MemoryType.TASK
    if not agent_speaking and asks_for_a_standing_rule(statement, code):
        return MemoryType.INSTRUCTION
    if dated:
        return MemoryType.EVENT
    if is_question(statement) or asks_without_a_mark(statement, code):
        return MemoryType.FACT  # what a question tells in passing is not a happening it reports
    if tells_a_past_action(statement, code):
        return MemoryType.EVENT
    return MemoryType.FACT


def memory(
    statement: str,
    language: Language,
    *,
    speaker: str | None,
    timestamp: datetime,
    message_ids: Sequence[str],
    context: str | None = None,
    agent_speaking: bool = False,
) -> ExtractedMemory:
    """One statement as a memory: verbatim, typed by the cues it holds, its speaker named as a prefix.
    `agent_speaking`: the assistant speaking as itself, which gives itself no rules."""
    said = f"{speaker}: {statement}" if speaker else statement
    event_time = resolve_event_time(statement, timestamp, language.code)
    kind = _kind(statement, language.code, dated=event_time is not None, agent_speaking=agent_speaking)
    if kind == MemoryType.INSTRUCTION:
        event_time = None  # a rule holds from when it is said, whatever day it names
    elif kind == MemoryType.EVENT and event_time is None:
        event_time = timestamp  # a past action that names no day, dated by the message (as in English)
    return ExtractedMemory(
        kind,
        truncate(said, SUMMARY_MAX_CHARS),
        truncate(said, CONTENT_MAX_CHARS),
        None,
        event_time,
        tuple(message_ids),
        truncate(context, CONTEXT_MAX_CHARS) if context else "",
        language.config,
    )
