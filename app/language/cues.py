"""What can be read from a statement in any language without its grammar: where its sentences end, whether
it is a question, the day a date or a relative day word names, and whether it asks the agent for a
standing rule or names something to be done. (Whether it is only a greeting or
thanks is `app.language.formulas`' and `app.extraction.chit_chat`'s.)

The English rules (`app.language.lexicon`, `app.language.temporal`) read English only; these cues are
what the extractor uses for a statement in another language (`app.extraction.verbatim`), so nothing it
cannot parse is dropped or rewritten. The word lists cover the languages the detector reads with a
stemmer of their own and Chinese, Japanese and Korean; a word they miss only leaves a statement a fact
rather than an event.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterable
from datetime import date, datetime, time, timedelta

from app.language.formulas import fold

# A sentence ends at . ! ? … followed by a space, or at the full-width marks of CJK text (no space follows
# them), or at a line break.
_SENTENCE_END_RE = re.compile(r"(?<=[.!?…])\s+|(?<=[。！？])\s*|\n\s*")
_QUESTION_RE = re.compile(r"[?？؟]\s*[\"'”’»)\]]*\s*$")

_RELATIVE_DAYS: dict[str, int] = {
    **dict.fromkeys(("hoy", "heute", "aujourd'hui", "hoje", "oggi", "vandaag", "idag", "今天", "今日", "오늘"), 0),
    **dict.fromkeys(
        ("mañana", "morgen", "demain", "amanhã", "domani", "imorgon", "明天", "明日", "내일"), 1
    ),
    **dict.fromkeys(("pasado mañana", "übermorgen", "après-demain", "后天", "明後日", "모레"), 2),
    **dict.fromkeys(("ayer", "gestern", "hier", "ontem", "ieri", "gisteren", "igår", "昨天", "昨日", "어제"), -1),
    # Tonight, this afternoon, last night (where the day word alone does not already say it).
    **dict.fromkeys(
        ("esta noche", "esta tarde", "ce soir", "cet après-midi", "esta noite", "stasera", "stanotte",
         "vanavond", "ikväll", "今晚", "今夜", "今晩"),
        0,
    ),
    **dict.fromkeys(("anoche", "ontem à noite", "昨晚", "昨夜"), -1),
    **dict.fromkeys(("anteayer", "vorgestern", "avant-hier", "anteontem", "前天", "一昨日", "그저께"), -2),
    **dict.fromkeys(
        ("la semana que viene", "la próxima semana", "nächste woche", "nächsten woche",
         "la semaine prochaine", "na próxima semana", "la prossima settimana", "下周", "下个星期",
         "下星期", "来週", "다음 주"),
        7,
    ),
    **dict.fromkeys(
        ("la semana pasada", "letzte woche", "letzten woche", "la semaine dernière", "na semana passada",
         "la settimana scorsa", "上周", "上个星期", "上星期", "先週", "지난주", "지난 주"),
        -7,
    ),
}  # fmt: skip
_RELATIVE_MONTHS: dict[str, int] = {
    **dict.fromkeys(
        ("el mes que viene", "el próximo mes", "nächsten monat", "nächster monat", "le mois prochain",
         "no próximo mês", "il mese prossimo", "下个月", "下月", "来月", "다음 달"),
        1,
    ),
    **dict.fromkeys(
        ("el mes pasado", "letzten monat", "le mois dernier", "no mês passado", "il mese scorso",
         "上个月", "上月", "先月", "지난달", "지난 달"),
        -1,
    ),
}  # fmt: skip
# This weekend, last, next: its Saturday (as `temporal` reads "this weekend" in English).
_RELATIVE_WEEKENDS: dict[str, int] = {
    **dict.fromkeys(
        ("este fin de semana", "este finde", "dieses wochenende", "ce week-end", "ce weekend",
         "este fim de semana", "neste fim de semana", "questo fine settimana", "questo weekend", "dit weekend",
         "这个周末", "这周末", "今週末", "이번 주말"),
        0,
    ),
    **dict.fromkeys(
        ("el fin de semana pasado", "el finde pasado", "letztes wochenende", "le week-end dernier",
         "o fim de semana passado", "no fim de semana passado", "lo scorso fine settimana", "vorig weekend",
         "上周末", "上个周末", "先週末", "지난 주말"),
        -1,
    ),
    **dict.fromkeys(
        ("el próximo fin de semana", "el finde que viene", "nächstes wochenende", "le week-end prochain",
         "o próximo fim de semana", "il prossimo fine settimana", "volgend weekend", "下周末", "下个周末",
         "来週末", "다음 주말"),
        1,
    ),
}  # fmt: skip
# Last year, next year: its first day (as `temporal` reads them).
_RELATIVE_YEARS: dict[str, int] = {
    **dict.fromkeys(
        ("el año pasado", "letztes jahr", "letzten jahr", "l'année dernière", "l'an dernier", "o ano passado",
         "no ano passado", "l'anno scorso", "vorig jaar", "förra året", "去年", "昨年", "작년"),
        -1,
    ),
    **dict.fromkeys(
        ("el año que viene", "el próximo año", "nächstes jahr", "nächsten jahr", "l'année prochaine",
         "l'an prochain", "o ano que vem", "no próximo ano", "l'anno prossimo", "volgend jaar", "nästa år",
         "明年", "来年", "내년"),
        1,
    ),
}  # fmt: skip
_MONTHS: dict[str, int] = {
    # Spanish, Portuguese, Italian, French, German, Dutch (the English names are `temporal`'s).
    "enero": 1, "febrero": 2, "marzo": 3, "abril": 4, "mayo": 5, "junio": 6, "julio": 7, "agosto": 8,
    "septiembre": 9, "setiembre": 9, "octubre": 10, "noviembre": 11, "diciembre": 12,
    "janeiro": 1, "fevereiro": 2, "março": 3, "maio": 5, "junho": 6, "julho": 7, "setembro": 9,
    "outubro": 10, "novembro": 11, "dezembro": 12,
    "gennaio": 1, "febbraio": 2, "aprile": 4, "maggio": 5, "giugno": 6, "luglio": 7, "settembre": 9,
    "ottobre": 10, "dicembre": 12,
    "janvier": 1, "février": 2, "fevrier": 2, "mars": 3, "avril": 4, "mai": 5, "juin": 6, "juillet": 7,
    "août": 8, "aout": 8, "octobre": 10, "novembre": 11, "décembre": 12, "decembre": 12,
    "januar": 1, "februar": 2, "märz": 3, "april": 4, "juni": 6, "juli": 7, "august": 8,
    "september": 9, "oktober": 10, "november": 11, "dezember": 12,
    "januari": 1, "februari": 2, "maart": 3, "mei": 5, "augustus": 8,
}  # fmt: skip


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
    "ko": "알려줘|잊지 마|잊지마|해야 돼|해야 해|해야 한다|해야겠다|마감",
}


def _cue_pattern(cues: dict[str, str]) -> re.Pattern[str]:
    """Every language's cues in one pattern: Latin-script ones as whole words (whitespace any run), CJK
    ones anywhere in their run of text."""
    phrases = sorted({p for field in cues.values() for p in field.split("|")}, key=len, reverse=True)
    latin = [p for p in phrases if p[0] < _CJK_START_CHAR]
    cjk = [p for p in phrases if p[0] >= _CJK_START_CHAR]
    words = "|".join(re.escape(p).replace(r"\ ", r"\s+").replace("'", "['’]") for p in latin)
    return re.compile(rf"(?<!\w)(?:{words})(?!\w)|" + "|".join(re.escape(p) for p in cjk))


_CJK_START_CHAR = "\u1100"
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
    return (
        found[0][0] >= _CJK_START_CHAR
        or len(_WORD_RE.findall(rest, 0, found.start())) <= WORDS_BEFORE_REQUEST
    )


def names_a_task(text: str) -> bool:
    """Whether a statement names something to be done ("Tengo que renovar el pasaporte", "Erinnere mich
    an den Zahnarzt", "提醒我交房租")."""
    return _TASK_RE.search(fold(text)) is not None


def _alternation(words: Iterable[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


_RELATIVE = _RELATIVE_DAYS | _RELATIVE_MONTHS | _RELATIVE_WEEKENDS | _RELATIVE_YEARS
_SATURDAY = 5
# Whether a text names a day does not depend on the day it is read against.
_ANY_DAY = datetime(2000, 1, 1)
_CJK_START = "\u1100"  # Hangul jamo, then kana, Han, Hangul syllables
# Latin-script words need word boundaries; CJK ones stand inside a run of characters.
_RELATIVE_RE = re.compile(
    rf"(?<!\w)(?:{_alternation(w for w in _RELATIVE if w[0] < _CJK_START)})(?!\w)"
    rf"|{_alternation(w for w in _RELATIVE if w[0] >= _CJK_START)}",
    re.IGNORECASE,
)
_ISO_RE = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
# Day before month, as everywhere but the United States: 8/5/2025, 8/5, 8.5.2025, 08.05. (not 3.5)
_NUMERIC_RE = re.compile(r"\b(\d{1,2})(?:/(\d{1,2})(?:/(\d{4}|\d{2}))?\b|\.(\d{1,2})\.(\d{4}|\d{2})?)")
_CJK_DATE_RE = re.compile(r"(?:(\d{4})\s*[年년]\s*)?(\d{1,2})\s*[月월]\s*(?:(\d{1,2})\s*[日号일])?")
_NAMED_MONTH_RE = re.compile(
    rf"\b(\d{{1,2}})\.?\s+(?:de\s+|di\s+)?({_alternation(_MONTHS)})\b(?:\s+(?:de\s+)?(\d{{4}}))?",
    re.IGNORECASE,
)


def split_statements(text: str) -> list[str]:
    """The sentences of a text in any language, each stripped; empty ones left out."""
    return [s.strip() for s in _SENTENCE_END_RE.split(text) if s and s.strip()]


def is_question(text: str) -> bool:
    return _QUESTION_RE.search(text) is not None


def names_a_day(text: str) -> bool:
    """Whether `text` names a day, as `date_mentioned` reads one (a date, or a relative day word)."""
    return _RELATIVE_RE.search(text) is not None or (
        any(c.isdigit() for c in text) and date_mentioned(text, _ANY_DAY) is not None
    )


def _day(year: int, month: int, day: int, like: datetime) -> datetime | None:
    if not (1 <= month <= 12 and 1 <= day <= calendar.monthrange(year, month)[1]):
        return None
    return datetime.combine(date(year, month, day), time(12), tzinfo=like.tzinfo)


def _year(raw: str | None, anchor: datetime) -> int:
    if not raw:
        return anchor.year
    value = int(raw)
    return value + 2000 if value < 100 else value


def date_mentioned(text: str, anchor: datetime) -> datetime | None:
    """Noon of the day a date or a relative day word in `text` names, resolved against `anchor` (the
    message's time); None when it names none. A month without a day stands for its first day."""
    if m := _ISO_RE.search(text):
        return _day(int(m[1]), int(m[2]), int(m[3]), anchor)
    if m := _CJK_DATE_RE.search(text):
        return _day(_year(m[1], anchor), int(m[2]), int(m[3] or 1), anchor)
    if m := _NAMED_MONTH_RE.search(text):
        return _day(_year(m[3], anchor), _MONTHS[m[2].lower()], int(m[1]), anchor)
    if m := _NUMERIC_RE.search(text):
        return _day(_year(m[3] or m[5], anchor), int(m[2] or m[4]), int(m[1]), anchor)
    if m := _RELATIVE_RE.search(text):
        phrase = m[0].lower()
        noon = anchor.replace(hour=12, minute=0, second=0, microsecond=0)
        if phrase in _RELATIVE_DAYS:
            return noon + timedelta(days=_RELATIVE_DAYS[phrase])
        if phrase in _RELATIVE_WEEKENDS:
            saturday = noon + timedelta(days=_SATURDAY - noon.weekday())
            return saturday + timedelta(weeks=_RELATIVE_WEEKENDS[phrase])
        if phrase in _RELATIVE_YEARS:
            return _day(anchor.year + _RELATIVE_YEARS[phrase], 1, 1, anchor)
        months = anchor.month - 1 + _RELATIVE_MONTHS[phrase]
        year, month = anchor.year + months // 12, months % 12 + 1
        return _day(year, month, min(anchor.day, calendar.monthrange(year, month)[1]), anchor)
    return None
