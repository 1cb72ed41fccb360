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

# A sentence ends at . ! ? … followed by a space, or at a script's own full stop or question mark (CJK's
# full-width marks, the Devanagari and Bengali danda, the Ethiopic, Armenian, Khmer, Myanmar and Urdu full
# stops, the Arabic question mark: a space may or may not follow them), or at a line break.
_SENTENCE_END_RE = re.compile(r"(?<=[.!?…])\s+|(?<=[。！？।॥።፧։។៕။۔؟])\s*|\n\s*")
# A question ends at its script's question mark: Latin's, the full-width one, the Arabic, the Greek (;)
# and the Ethiopic (፧).
_QUESTION_RE = re.compile(r"[?？؟;፧]\s*[\"'”’»)\]]*\s*$")

# A relative time word names a day (`D`: that many days from the message's), a weekend (`W`: its Saturday,
# that many weeks on), a month (`M`: the same day that many months on) or a year (`Y`: its first day); `None`
# marks a phrase that holds a day word without naming a day (Spanish "por la mañana", German "am Morgen":
# in the morning). The words are each language's own: German "hier" is "here", French "hier" yesterday.
_Relative = tuple[str, int] | None
_D, _W, _M, _Y = "day", "weekend", "month", "year"


def _words(*groups: tuple[str, _Relative]) -> dict[str, _Relative]:
    return {word: meaning for words, meaning in groups for word in words.split("|")}


_RELATIVE_WORDS: dict[str, dict[str, _Relative]] = {
    "es": _words(
        ("hoy|esta noche|esta tarde|esta mañana", (_D, 0)), ("mañana", (_D, 1)), ("pasado mañana", (_D, 2)),
        ("ayer|anoche", (_D, -1)), ("anteayer|antier", (_D, -2)),
        ("la semana que viene|la próxima semana", (_D, 7)), ("la semana pasada", (_D, -7)),
        ("el mes que viene|el próximo mes", (_M, 1)), ("el mes pasado", (_M, -1)),
        ("este fin de semana|este finde", (_W, 0)), ("el fin de semana pasado|el finde pasado", (_W, -1)),
        ("el próximo fin de semana|el finde que viene", (_W, 1)),
        ("el año pasado", (_Y, -1)), ("el año que viene|el próximo año", (_Y, 1)),
        ("por la mañana|de la mañana|la mañana|las mañanas|cada mañana|toda la mañana", None),
    ),
    "pt": _words(
        ("hoje|esta noite|esta tarde|hoje à noite", (_D, 0)), ("amanhã", (_D, 1)),
        ("ontem|ontem à noite", (_D, -1)), ("anteontem", (_D, -2)),
        ("na próxima semana|semana que vem", (_D, 7)), ("na semana passada|semana passada", (_D, -7)),
        ("no próximo mês|mês que vem", (_M, 1)), ("no mês passado|mês passado", (_M, -1)),
        ("este fim de semana|neste fim de semana", (_W, 0)),
        ("o fim de semana passado|no fim de semana passado", (_W, -1)),
        ("o próximo fim de semana|no próximo fim de semana", (_W, 1)),
        ("o ano passado|no ano passado|ano passado", (_Y, -1)), ("o ano que vem|no próximo ano|ano que vem", (_Y, 1)),
    ),
    "fr": _words(
        ("aujourd'hui|ce soir|cet après-midi|ce matin", (_D, 0)), ("demain", (_D, 1)),
        ("après-demain", (_D, 2)), ("hier|hier soir", (_D, -1)), ("avant-hier", (_D, -2)),
        ("la semaine prochaine", (_D, 7)), ("la semaine dernière", (_D, -7)),
        ("le mois prochain", (_M, 1)), ("le mois dernier", (_M, -1)),
        ("ce week-end|ce weekend", (_W, 0)), ("le week-end dernier|le weekend dernier", (_W, -1)),
        ("le week-end prochain|le weekend prochain", (_W, 1)),
        ("l'année dernière|l'an dernier", (_Y, -1)), ("l'année prochaine|l'an prochain", (_Y, 1)),
    ),
    "it": _words(
        ("oggi|stasera|stanotte|stamattina|oggi pomeriggio", (_D, 0)), ("domani", (_D, 1)),
        ("dopodomani", (_D, 2)), ("ieri|ieri sera", (_D, -1)), ("l'altro ieri|l'altroieri", (_D, -2)),
        ("la prossima settimana|la settimana prossima", (_D, 7)), ("la settimana scorsa", (_D, -7)),
        ("il mese prossimo|il prossimo mese", (_M, 1)), ("il mese scorso", (_M, -1)),
        ("questo fine settimana|questo weekend", (_W, 0)), ("lo scorso fine settimana|lo scorso weekend", (_W, -1)),
        ("il prossimo fine settimana|il prossimo weekend", (_W, 1)),
        ("l'anno scorso", (_Y, -1)), ("l'anno prossimo|il prossimo anno", (_Y, 1)),
    ),
    "de": _words(
        ("heute|heute abend|heute morgen|heute nachmittag", (_D, 0)), ("morgen", (_D, 1)),
        ("übermorgen", (_D, 2)), ("gestern|gestern abend", (_D, -1)), ("vorgestern", (_D, -2)),
        ("nächste woche|nächsten woche", (_D, 7)), ("letzte woche|letzten woche|vorige woche", (_D, -7)),
        ("nächsten monat|nächster monat", (_M, 1)), ("letzten monat|letzter monat|vorigen monat", (_M, -1)),
        ("dieses wochenende|am wochenende", (_W, 0)), ("letztes wochenende|letzten wochenende", (_W, -1)),
        ("nächstes wochenende|nächsten wochenende", (_W, 1)),
        ("letztes jahr|letzten jahr|voriges jahr", (_Y, -1)), ("nächstes jahr|nächsten jahr", (_Y, 1)),
        ("am morgen|guten morgen|jeden morgen|den ganzen morgen|morgens", None),
    ),
    "nl": _words(
        ("vandaag|vanavond|vanmiddag|vanochtend|vanmorgen", (_D, 0)), ("morgen", (_D, 1)),
        ("overmorgen", (_D, 2)), ("gisteren|gisteravond", (_D, -1)), ("eergisteren", (_D, -2)),
        ("volgende week", (_D, 7)), ("vorige week", (_D, -7)),
        ("volgende maand", (_M, 1)), ("vorige maand", (_M, -1)),
        ("dit weekend", (_W, 0)), ("vorig weekend", (_W, -1)), ("volgend weekend", (_W, 1)),
        ("vorig jaar", (_Y, -1)), ("volgend jaar", (_Y, 1)),
        ("goedemorgen|goede morgen|'s morgens", None),
    ),
    "sv": _words(
        ("idag|i dag|ikväll|i kväll", (_D, 0)), ("imorgon|i morgon", (_D, 1)), ("igår|i går", (_D, -1)),
        ("nästa vecka", (_D, 7)), ("förra veckan", (_D, -7)),
        ("nästa månad", (_M, 1)), ("förra månaden", (_M, -1)),
        ("förra året|i fjol", (_Y, -1)), ("nästa år", (_Y, 1)),
    ),
    "zh": _words(
        ("今天|今晚|今天晚上|今早|今日", (_D, 0)), ("明天|明日", (_D, 1)), ("后天", (_D, 2)),
        ("昨天|昨晚|昨日", (_D, -1)),
        ("前天", (_D, -2)), ("下周|下个星期|下星期|下礼拜", (_D, 7)), ("上周|上个星期|上星期|上礼拜", (_D, -7)),
        ("下个月|下月", (_M, 1)), ("上个月|上月", (_M, -1)),
        ("这个周末|这周末", (_W, 0)), ("上周末|上个周末", (_W, -1)), ("下周末|下个周末", (_W, 1)),
        ("去年", (_Y, -1)), ("明年", (_Y, 1)),
    ),
    "ja": _words(
        ("今日|今夜|今晩|今朝", (_D, 0)), ("明日", (_D, 1)), ("明後日", (_D, 2)), ("昨日|昨夜", (_D, -1)),
        ("一昨日", (_D, -2)), ("来週", (_D, 7)), ("先週", (_D, -7)), ("来月", (_M, 1)), ("先月", (_M, -1)),
        ("今週末", (_W, 0)), ("先週末", (_W, -1)), ("来週末", (_W, 1)), ("昨年|去年", (_Y, -1)), ("来年", (_Y, 1)),
    ),
    "ko": _words(
        ("오늘|오늘 밤", (_D, 0)), ("내일", (_D, 1)), ("모레", (_D, 2)), ("어제", (_D, -1)), ("그저께|그제", (_D, -2)),
        ("다음 주|다음주", (_D, 7)), ("지난주|지난 주", (_D, -7)), ("다음 달|다음달", (_M, 1)), ("지난달|지난 달", (_M, -1)),
        ("이번 주말", (_W, 0)), ("지난 주말", (_W, -1)), ("다음 주말", (_W, 1)), ("작년", (_Y, -1)), ("내년", (_Y, 1)),
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


_SATURDAY = 5
# Whether a text names a day does not depend on the day it is read against.
_ANY_DAY = datetime(2000, 1, 1)


# A text in a language without its own words (or of no detected language) is read with every language's,
# the first language to name a phrase giving its meaning.
_ANY_LANGUAGE = "*"
_RELATIVE_WORDS[_ANY_LANGUAGE] = {
    word: meaning for table in reversed(list(_RELATIVE_WORDS.values())) for word, meaning in table.items()
}
_RELATIVE_RES = {code: _phrase_pattern(table, re.IGNORECASE) for code, table in _RELATIVE_WORDS.items()}


def _relative_words(language: str | None) -> tuple[dict[str, _Relative], re.Pattern[str]]:
    code = language if language in _RELATIVE_WORDS else _ANY_LANGUAGE
    return _RELATIVE_WORDS[code], _RELATIVE_RES[code]


# Weekdays, Monday first, by language (`fold`ed), with the words that put one in the week after or before
# the message's ("el jueves que viene", "letzten Freitag") and those that make it a habit ("los jueves",
# "le jeudi", "jeden Freitag": on Thursdays, no day). Portuguese names the weekdays it numbers only with
# "-feira" ("segunda" is also "second").
_WEEKDAYS: dict[str, tuple[str, str, str, str]] = {
    # language: (Monday … Sunday, next, last, habit)
    "es": ("lunes|martes|miercoles|jueves|viernes|sabado|domingo", "proximo|que viene", "pasado",
           "los|todos los|cada"),
    "pt": ("segunda-feira|terca-feira|quarta-feira|quinta-feira|sexta-feira|sabado|domingo",
           "proxima|proximo|que vem", "passada|passado", "as|aos|todas as|todos os|toda|todo"),
    "fr": ("lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche", "prochain", "dernier",
           "le|les|tous les|chaque"),
    "it": ("lunedi|martedi|mercoledi|giovedi|venerdi|sabato|domenica", "prossimo|prossima", "scorso|scorsa",
           "il|la|i|le|ogni|tutti i|tutte le"),
    "de": ("montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag",
           "nachsten|nachster|kommenden|kommender", "letzten|letzter|vergangenen|vergangener", "jeden"),
    "nl": ("maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag|zondag", "volgende|komende",
           "vorige|afgelopen", "elke|iedere"),
    "sv": ("mandag|tisdag|onsdag|torsdag|fredag|lordag|sondag", "nasta|kommande", "forra", "varje"),
}  # fmt: skip


def _weekday_pattern(days: str, after: str, before: str, habit: str) -> re.Pattern[str]:
    habit, modifier = habit.replace(" ", r"\s+"), f"{after}|{before}".replace(" ", r"\s+")
    return re.compile(
        rf"(?<!\w)(?:(?P<habit>{habit})\s+|(?P<before>{modifier})\s+)?"
        rf"(?P<day>{days})(?!\w)(?:\s+(?P<after>{modifier})(?!\w))?"
    )


_WEEKDAY_RES = {
    code: (_weekday_pattern(days, after, before, habit), days.split("|"), set(after.split("|")))
    for code, (days, after, before, habit) in _WEEKDAYS.items()
}
# Chinese, Japanese and Korean name a weekday by its number or sign, with the week before it: last (上周四,
# 先週の木曜日, 지난주 목요일), next (下周二, 来週の火曜日, 다음 주 화요일) or this one. Every (每周一, 毎週月曜,
# 매주 월요일) makes it a habit. Every alternative opens with a character of its own, never a space: linear.
_CJK_WEEKDAY_RE = re.compile(
    r"(?:(?P<habit>每|毎週|매주)\s*)?(?:(?P<week>上个?|下个?|这个?|本|先週の?|来週の?|今週の?|지난\s?주|다음\s?주|이번\s?주)\s*)?"
    r"(?:(?:周|星期|礼拜)(?P<zh>[一二三四五六日天])|(?P<ja>[月火水木金土日])曜|(?P<ko>[월화수목금토일])요일)"
)
_CJK_DAYS = {**{c: i for i, c in enumerate("一二三四五六日")}, "天": 6, **{c: i for i, c in enumerate("月火水木金土日")},
             **{c: i for i, c in enumerate("월화수목금토일")}}  # fmt: skip
_LAST_WEEK = ("上", "先週", "지난")
_NEXT_WEEK = ("下", "来週", "다음")
# A weekday named without next or last is its nearest occurrence: up to this many days ahead, else behind
# (said on a Friday, "el jueves" was yesterday; said on a Monday, "el jueves" is in three days).
WEEKDAY_DAYS_AHEAD = 3


def _weekday(text: str, language: str | None, anchor: datetime) -> datetime | None:
    """Noon of the day a weekday named in `text` stands for, resolved against `anchor`; None for none or
    a habit ("los jueves")."""
    noon = anchor.replace(hour=12, minute=0, second=0, microsecond=0)
    today = noon.weekday()
    if (m := _CJK_WEEKDAY_RE.search(text)) is not None and not m["habit"]:
        day = _CJK_DAYS[m["zh"] or m["ja"] or m["ko"]]
        week = m["week"] or ""
        if week:  # that week's day, weeks starting on Monday
            weeks = -1 if week.startswith(_LAST_WEEK) else 1 if week.startswith(_NEXT_WEEK) else 0
            return noon + timedelta(days=day - today, weeks=weeks)
        return _nearest(noon, today, day)
    codes = [language] if language in _WEEKDAY_RES else list(_WEEKDAY_RES) if language is None else []
    folded = fold(text)
    for code in codes:
        pattern, days, ahead = _WEEKDAY_RES[code]
        for m in pattern.finditer(folded):
            if m["habit"]:
                continue
            day = days.index(m["day"])
            modifier = m["before"] or m["after"]
            if modifier is None:
                return _nearest(noon, today, day)
            forward = (day - today) % 7 or 7
            if " ".join(modifier.split()) in ahead:
                return noon + timedelta(days=forward)
            return noon - timedelta(days=(today - day) % 7 or 7)
    return None


def _nearest(noon: datetime, today: int, day: int) -> datetime:
    forward = (day - today) % 7
    return noon + timedelta(days=forward if forward <= WEEKDAY_DAYS_AHEAD else forward - 7)


_ISO_RE = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
# Day before month, as everywhere but the United States: 8/5/2025, 8/5, 8.5.2025, 08.05. (not 3.5)
_NUMERIC_RE = re.compile(r"\b(\d{1,2})(?:/(\d{1,2})(?:/(\d{4}|\d{2}))?\b|\.(\d{1,2})\.(\d{4}|\d{2})?)")
_CJK_DATE_RE = re.compile(r"(?:(\d{4})\s*[年년]\s*)?(\d{1,2})\s*[月월]\s*(?:(\d{1,2})\s*[日号일])?")
_NAMED_MONTH_RE = re.compile(
    rf"\b(\d{{1,2}})\.?\s+(?:de\s+|di\s+)?({_alternation(_MONTHS)})\b(?:\s+(?:de\s+)?(\d{{4}}))?",
    re.IGNORECASE,
)
# A month named without a day, after the preposition that puts something in it ("en octubre", "im August",
# "a marzo", "em setembro", "en mars"): its first day in the message's year, as a CJK "4月" is read. Without
# the preposition a month word may be something else (Italian "mai" is "never"); after "since" ("seit
# Januar", "desde marzo") it starts a state, a fact.
_MONTH_ALONE_RE = re.compile(
    rf"(?<!\w)(?:en|em|in|im|a|ad|au\s+mois\s+de|no\s+mes\s+de|nel\s+mese\s+di)"
    rf"\s+({_alternation(_MONTHS)})(?!\w)",
    re.IGNORECASE,
)


def split_statements(text: str) -> list[str]:
    """The sentences of a text in any language, each stripped; empty ones left out."""
    return [s.strip() for s in _SENTENCE_END_RE.split(text) if s and s.strip()]


def is_question(text: str) -> bool:
    return _QUESTION_RE.search(text) is not None


def names_a_day(text: str, language: str | None = None) -> bool:
    """Whether `text` names a day, as `date_mentioned` reads one (a date, a relative day word or a weekday
    of `language`, an ISO 639-1 code; None: of any language)."""
    if any(c.isdigit() for c in text):
        return date_mentioned(text, _ANY_DAY, language) is not None
    return (
        _relative(text, language) is not None
        or _MONTH_ALONE_RE.search(text) is not None
        or _weekday(text, language, _ANY_DAY) is not None
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


def date_mentioned(text: str, anchor: datetime, language: str | None = None) -> datetime | None:
    """Noon of the day a date, a relative day word or a weekday of `language` (None: any) in `text` names,
    resolved against `anchor` (the message's time); None when it names none. A month without a day stands
    for its first day."""
    if m := _ISO_RE.search(text):
        return _day(int(m[1]), int(m[2]), int(m[3]), anchor)
    if m := _CJK_DATE_RE.search(text):
        return _day(_year(m[1], anchor), int(m[2]), int(m[3] or 1), anchor)
    if m := _NAMED_MONTH_RE.search(text):
        return _day(_year(m[3], anchor), _MONTHS[m[2].lower()], int(m[1]), anchor)
    if m := _NUMERIC_RE.search(text):
        return _day(_year(m[3] or m[5], anchor), int(m[2] or m[4]), int(m[1]), anchor)
    # A weekday before the relative words: "上周四" is last week's Thursday, not a week ago.
    if (weekday := _weekday(text, language, anchor)) is not None:
        return weekday
    if (relative := _relative(text, language)) is None:
        if m := _MONTH_ALONE_RE.search(text):
            return _day(anchor.year, _MONTHS[m[1].lower()], 1, anchor)
        return None
    unit, amount = relative
    noon = anchor.replace(hour=12, minute=0, second=0, microsecond=0)
    if unit == _D:
        return noon + timedelta(days=amount)
    if unit == _W:
        saturday = noon + timedelta(days=_SATURDAY - noon.weekday())
        return saturday + timedelta(weeks=amount)
    if unit == _Y:
        return _day(anchor.year + amount, 1, 1, anchor)
    months = anchor.month - 1 + amount
    year, month = anchor.year + months // 12, months % 12 + 1
    return _day(year, month, min(anchor.day, calendar.monthrange(year, month)[1]), anchor)


def _relative(text: str, language: str | None) -> tuple[str, int] | None:
    """The first relative time word of `text` that names a day, as (unit, amount)."""
    table, pattern = _relative_words(language)
    for m in pattern.finditer(text):
        if (meaning := table[" ".join(m[0].lower().replace("’", "'").split())]) is not None:
            return meaning
    return None
