"""What can be read from a statement in any language without its grammar: where its sentences end, whether
it is a question, whether it is only a greeting or thanks, and the day a date or a relative day word
names.

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

# A sentence ends at . ! ? … followed by a space, or at the full-width marks of CJK text (no space follows
# them), or at a line break.
_SENTENCE_END_RE = re.compile(r"(?<=[.!?…])\s+|(?<=[。！？])\s*|\n\s*")
_QUESTION_RE = re.compile(r"[?？؟]\s*[\"'”’»)\]]*\s*$")
_CONTENT_RE = re.compile(r"\w|[\u2190-\u2bff\U0001f000-\U0001faff]")
_WORD_RE = re.compile(r"\w+")

# Whole statements that carry nothing: greetings, thanks, farewells, laughter, acknowledgements.
_COURTESY_WORDS = """hola gracias muchas adiós adios chao vale jaja jajaja buenas buenos días dias noches tardes
    hallo danke schön schon tschüss tschüs servus moin ja nein genau super
    bonjour bonsoir merci salut coucou oui non beaucoup bisous
    olá ola obrigado obrigada tchau oi sim
    ciao grazie buongiorno buonasera sì
    hoi dank je wel doei hej tack
    ok okay haha hahaha lol
    你好 您好 谢谢 谢谢你 再见 哈哈 哈哈哈 好的 好 嗯 是的 不客气
    こんにちは こんばんは おはよう ありがとう ありがとうございます さようなら はい うん
    안녕 안녕하세요 감사합니다 고마워 네 응 ㅋㅋ ㅋㅋㅋ"""
_COURTESIES = frozenset(_COURTESY_WORDS.split())

_RELATIVE_DAYS: dict[str, int] = {
    **dict.fromkeys(("hoy", "heute", "aujourd'hui", "hoje", "oggi", "vandaag", "idag", "今天", "今日", "오늘"), 0),
    **dict.fromkeys(
        ("mañana", "morgen", "demain", "amanhã", "domani", "imorgon", "明天", "明日", "내일"), 1
    ),
    **dict.fromkeys(("pasado mañana", "übermorgen", "après-demain", "后天", "明後日", "모레"), 2),
    **dict.fromkeys(("ayer", "gestern", "hier", "ontem", "ieri", "gisteren", "igår", "昨天", "昨日", "어제"), -1),
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


def _alternation(words: Iterable[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


_RELATIVE = _RELATIVE_DAYS | _RELATIVE_MONTHS
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


def is_courtesy(text: str) -> bool:
    """Only greetings, thanks, laughter or acknowledgements ("¡Hola!", "Danke schön!", "谢谢！"), or no
    word nor symbol at all."""
    if _CONTENT_RE.search(text) is None:
        return True
    words = _WORD_RE.findall(text.lower())
    return bool(words) and all(w in _COURTESIES for w in words)


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
        months = anchor.month - 1 + _RELATIVE_MONTHS[phrase]
        year, month = anchor.year + months // 12, months % 12 + 1
        return _day(year, month, min(anchor.day, calendar.monthrange(year, month)[1]), anchor)
    return None
