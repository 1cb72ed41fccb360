"""What can be read from a statement in any language without its grammar: where its sentences end, whether
it is a question, and whether it asks the agent for a standing rule or names something to be done (the
time a statement names is `app.language.temporal`'s, in every language). (Whether it is only a greeting or
thanks is `app.language.formulas`' and `app.extraction.chit_chat`'s.)

The English rules (`app.language.lexicon`) read English only; these cues are
what the extractor uses for a statement in another language (`app.extraction.verbatim`), so nothing it
cannot parse is dropped or rewritten. The word lists cover the languages the detector reads with a
stemmer of their own and Chinese, Japanese and Korean; a word they miss only leaves a statement a fact
rather than an event.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from app.language.formulas import fold

# A sentence ends at . ! ? … followed by a space, or at a script's own full stop or question mark (CJK's
# full-width marks, the Devanagari and Bengali danda, the Ethiopic, Armenian, Khmer, Myanmar and Urdu full
# stops, the Arabic question mark: a space may or may not follow them), or at a line break.
_SENTENCE_END_RE = re.compile(r"(?<=[.!?…])\s+|(?<=[。！？।॥።፧։។៕။۔؟])\s*|\n\s*")
# A question ends at its script's question mark: Latin's, the full-width one, the Arabic, the Greek (;)
# and the Ethiopic (፧).
_QUESTION_RE = re.compile(r"[?？؟;፧]\s*[\"'”’»)\]]*\s*$")

# How the agent should behave, across languages: a statement is a rule for the agent when it names how
# the agent answers (`_AGENT_CUES`: answer, write, call me, use, the language, emoji, short…) and says it
# holds from now on, always or never, or asks it politely (`_RULE_CUES`). Matched on `fold`ed text.
_RULE_CUES = {
    "es": "a partir de ahora|de ahora en adelante|desde ahora|siempre|nunca|jamas|por favor|porfa|no uses|"
    "no escribas|no respondas|no contestes|no me llames|no me hables",
    "pt": "a partir de agora|de agora em diante|daqui pra frente|sempre|nunca|por favor|nao use|nao escreva|"
    "nao responda|nao me chame",
    "fr": "a partir de maintenant|desormais|dorenavant|a l'avenir|toujours|jamais|s'il te plait|"
    "s'il vous plait|stp|svp|n'utilise|n'ecris|ne reponds|ne m'appelle",
    "it": "d'ora in poi|da ora in poi|da adesso in poi|sempre|mai|per favore|non usare|non scrivere|"
    "non rispondere|non chiamarmi",
    "de": "ab jetzt|von nun an|ab sofort|kunftig|in zukunft|immer|nie|niemals|bitte",
    "nl": "vanaf nu|voortaan|altijd|nooit|alsjeblieft|alstublieft",
    "sv": "fran och med nu|alltid|aldrig|snalla",
    "zh": "从现在开始|从今以后|以后|今后|总是|永远|不要|别|请",
    "ja": "今後|これから|今度から|次から|いつも|絶対|ください|ないで",
    "ko": "앞으로|지금부터|이제부터|항상|절대|주세요|마세요",
}
_AGENT_CUES = {
    "es": "responde|respondeme|respondas|responder|contesta|contestame|contestes|escribe|escribeme|escribas|"
    "hablame|hables|llamame|me llames|usa|uses|utiliza|utilices|explicame|expliques|tuteame|tutees|"
    "de usted|emoji|emojis|en espanol|en ingles|en aleman|en frances|resumenes",
    "pt": "responda|escreva|escreve|fala comigo|me chama|me chame|use|usa|emoji|emojis|em portugues|"
    "em ingles",
    "fr": "reponds|repondez|reponds-moi|ecris|ecrivez|ecris-moi|parle-moi|appelle-moi|m'appelle|utilise|"
    "vouvoie|tutoie|emoji|emojis|en francais|en anglais",
    "it": "rispondi|rispondimi|scrivi|scrivimi|parlami|chiamami|usa|usare|emoji|in italiano|in inglese",
    "de": "antworte|antworten sie|schreib|schreibe|schreiben|sprich|nenn mich|nenne mich|verwende|benutze|"
    "nutze|duze|duzen|siez|siezen|emojis|auf deutsch|auf englisch",
    "nl": "antwoord|antwoorden|schrijf|noem me|gebruik|emoji|in het nederlands|in het engels",
    "sv": "svara|skriv|kalla mig|anvand|pa svenska",
    "zh": "回答|回复|回覆|答复|用中文|用英文|用英语|用日语|叫我|称呼我|表情|简短|简洁",
    "ja": "答えて|返事|返信|書いて|と呼んで|使わないで|使って|敬語|絵文字|日本語で|英語で|短く|簡潔に",
    "ko": "대답|답장|반말|존댓말|이모지|한국어로|영어로|불러",
}
# Something to be done, across languages: a reminder asked for, a first-person obligation, a to-do.
_TASK_CUES = {
    "es": "recuerdame|recordarme|no olvides|no te olvides|que no se me olvide|tengo que|tenemos que|debo|"
    "debemos|hay que|pendiente",
    "pt": "me lembra|lembra-me|lembre-me|me lembre|nao esquecer|nao esqueca|tenho que|tenho de|temos que|"
    "preciso|precisamos|devo",
    "fr": "rappelle-moi|rappelle moi|fais-moi penser|n'oublie pas|ne pas oublier|je dois|nous devons|"
    "on doit|il faut que|j'ai besoin de|a faire",
    "it": "ricordami|ricordarmi|non dimenticare|non dimenticarti|devo|dobbiamo|bisogna|ho bisogno di|da fare",
    "de": "erinnere mich|erinner mich|vergiss nicht|nicht vergessen|ich muss|wir mussen|muss noch|"
    "ich sollte|zu erledigen|to-do",
    "nl": "herinner me|vergeet niet|niet vergeten|ik moet|we moeten|moet nog",
    "sv": "paminn mig|glom inte|jag maste|vi maste",
    "zh": "提醒我|别忘了|不要忘了|不要忘记|别忘记|记得要|要记得|我得|我必须|我们得|截止|待办",
    "ja": "リマインド|思い出させて|忘れないで|忘れずに|しなきゃ|しないと|しなければ|なきゃ|ないといけない|締め切り|締切",
    "ko": "알려줘|잊지 마|잊지마|야 돼|야 됨|야 되|야 해|야 한다|야겠|마감",
}


_CJK_START = "\u1100"  # Hangul jamo, then kana, Han, Hangul syllables


def _alternation(words: Iterable[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def _phrase_pattern(phrases: Iterable[str], flags: int = 0) -> re.Pattern[str]:
    """Phrases in one pattern, longest first (so "esta mañana" is read before "mañana"): Latin-script ones
    as whole words (whitespace any run, an apostrophe either form), CJK ones anywhere in their run of
    text."""
    phrases = list(phrases)
    latin = [p for p in phrases if p[0] < _CJK_START]
    cjk = [p for p in phrases if p[0] >= _CJK_START]
    alternatives = [_alternation(cjk)] if cjk else []
    if latin:
        words = _alternation(latin).replace(r"\ ", r"\s+").replace("'", "['’]")
        alternatives.append(rf"(?<!\w)(?:{words})(?!\w)")
    return re.compile("|".join(alternatives), flags)


def _cue_pattern(cues: dict[str, str]) -> re.Pattern[str]:
    """Every language's cues (on `fold`ed text) in one pattern."""
    return _phrase_pattern({p for field in cues.values() for p in field.split("|")})


_WORD_RE = re.compile(r"\w+")
# A request to the agent opens its statement: at most a word before it ("Y respóndeme…", "Auch antworte…").
WORDS_BEFORE_REQUEST = 1
_RULE_RE = _cue_pattern(_RULE_CUES)
_AGENT_RE = _cue_pattern(_AGENT_CUES)
_TASK_RE = _cue_pattern(_TASK_CUES)


def asks_for_a_rule(text: str) -> bool:
    """Whether a statement asks the agent to behave a way from now on ("A partir de ahora respóndeme en
    español", "Bitte antworte immer kurz", "以后请用中文回答"). In words, the request opens the statement
    once its rule cues are set aside: "Mi hermano siempre escribe poemas" tells of the brother ("escribe"
    is also the imperative)."""
    folded = fold(text)
    if _RULE_RE.search(folded) is None:
        return False
    rest = _RULE_RE.sub(" ", folded)
    found = _AGENT_RE.search(rest)
    if found is None:
        return False
    return found[0][0] >= _CJK_START or len(_WORD_RE.findall(rest, 0, found.start())) <= WORDS_BEFORE_REQUEST


def names_a_rule(text: str) -> bool:
    """Whether a statement holds both a standing rule's cue and a cue of how the agent answers, wherever
    they stand: the agent's undertaking ("A partir de ahora siempre te responderé en español") as much as
    the user's request."""
    folded = fold(text)
    return _RULE_RE.search(folded) is not None and _AGENT_RE.search(folded) is not None


def names_a_task(text: str) -> bool:
    """Whether a statement names something to be done ("Tengo que renovar el pasaporte", "Erinnere mich
    an den Zahnarzt", "提醒我交房租")."""
    return _TASK_RE.search(fold(text)) is not None


def split_statements(text: str) -> list[str]:
    """The sentences of a text in any language, each stripped; empty ones left out."""
    return [s.strip() for s in _SENTENCE_END_RE.split(text) if s and s.strip()]


def is_question(text: str) -> bool:
    return _QUESTION_RE.search(text) is not None
