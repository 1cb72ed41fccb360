"""English: its time expressions ("yesterday", "last Friday", "the 3rd of May", "two weeks ago", "at
Christmas", "early next year"), its tense cues and the words that name a time in a question.

The patterns find every time expression of a text (`candidates`); `app.language.temporal` picks one and
`app.language.time_mentions` resolves it, as it does every other language's. Everything is pure
regular-expression work: it runs for every extracted sentence, so it must stay cheap.
"""

from __future__ import annotations

import re
from datetime import timedelta

from app.language.time_mentions import (
    Builder,
    Tense,
    TimeMention,
    offset,
    period,
    pick_holiday,
    safe_date,
    season,
    year2,
)

_MONTHS: dict[str, int] = {
    "jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4,
    "may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8, "sep": 9, "sept": 9,
    "september": 9, "oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12,
}  # fmt: skip
_WEEKDAYS: dict[str, int] = {
    "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6,
}  # fmt: skip
_NUMBERS: dict[str, int] = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
    "thirty": 30, "a couple of": 2, "couple of": 2, "a couple": 2, "a few": 3, "few": 3,
    "several": 3,
}  # fmt: skip
_SEASON_WORDS: dict[str, int] = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}
# The words that name a month, a day of the week or a season on their own (lower case, abbreviations
# included), for readers that only ask whether a text names a time.
CALENDAR_WORDS = frozenset(_MONTHS) | frozenset(_WEEKDAYS) | frozenset(_SEASON_WORDS)
# The words that name a span or a moment of time by its kind ("days", "weekend", "tonight").
PERIOD_WORDS = frozenset(
    ("day", "week", "fortnight", "month", "year", "weekend", "night", "morning", "afternoon", "evening",
     "hour", "minute", "yesterday", "today", "tomorrow", "tonight")
)  # fmt: skip
# Holidays people date things by, on fixed days (month, day); Easter and US Thanksgiving move (`_holiday`).
_MONTH_RE = (
    r"(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_NUM_RE = (
    r"(?P<num>\d{1,3}|a couple of|couple of|a couple|a few|few|several|an?|one|two|three|four|five|six"
    r"|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty)"
)
_WEEKDAY_RE = r"(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_I = re.IGNORECASE

# Cheap gate: most sentences mention no time at all, and skipping the dozen
# pattern scans for them is what keeps extraction fast. This regex is the gate
# for text that is not ASCII; ASCII text (nearly all) takes `_cues`, which
# asks the same of the lowered text with plain substring tests, a few
# microseconds where one case-insensitive alternation scan costs a hundred.
# Every holiday `_HOLIDAY_RE` knows holds one of these (lowered).
_HOLIDAY_CUES = (
    "new year", "christmas", "xmas", "boxing day", "valentine", "halloween", "easter", "thanksgiving",
)  # fmt: skip


def names_a_holiday(text: str) -> bool:
    """Whether the words name a holiday ("Easter", "New Year's Eve"): a name, not a relative time."""
    low = text.lower()
    return any(cue in low for cue in _HOLIDAY_CUES)


GATE_RE = re.compile(
    r"\d|yesterday|today|tonight|tomorrow|\bago\b|\blast\b|\bnext\b|\bthis\b|\bpast\b|\bcoming\b"
    rf"|{'|'.join(_HOLIDAY_CUES)}"
    r"|\bin (?:an?|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple|several)\b|day|month"
    r"|\bjan|\bfeb|\bmar|\bapr|\bmay\b|\bjun|\bjul|\baug|\bsep|\boct|\bnov|\bdec|spring|summer|autumn"
    r"|\bfall\b|winter|recent|lately|\bnight\b|the year",
    _I,
)
# Each literal below is contained in what one alternative of `GATE_RE` matches
# (lowered), so a text without any of them (and without a digit) cannot pass it.
_GATE_CUES = (
    "yesterday", "today", "tonight", "tomorrow", "ago", "last", "next", "this", "past", "coming",
    "in a", "in one", "in two", "in three", "in four", "in five", "in six", "in seven", "in eight",
    "in nine", "in ten", "in several", "day", "month", "jan", "feb", "mar", "apr", "may", "jun",
    "jul", "aug", "sep", "oct", "nov", "dec", "spring", "summer", "autumn", "fall", "winter",
    "recent", "lately", "night", "the year", *_HOLIDAY_CUES,
)  # fmt: skip
_MONTH_CUES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MOD_CUES = ("last", "this", "next", "coming", "past", "previous")
_ASCII_DIGIT_RE = re.compile(r"[0-9]")


class Cues:
    """Which pattern families can match an ASCII text, told by substring tests on its lowered form: a
    pattern whose every match contains one of a family's literals is not run on a text without them.
    Every test is a necessary condition only, so the patterns find exactly what they would without it."""

    __slots__ = ("low", "digit")

    def __init__(self, text: str) -> None:
        self.low = text.lower()
        self.digit = _ASCII_DIGIT_RE.search(text) is not None

    def any(self, words: tuple[str, ...]) -> bool:
        return any(map(self.low.__contains__, words))

    def gate(self) -> bool:
        return self.digit or self.any(_GATE_CUES)


_ISO_RE = re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})\b")
_SLASH_RE = re.compile(
    r"(?:(?P<prep>\b(?:on|by|until|till|before|after|since|from)\s+))?"
    r"\b(?P<a>\d{1,2})/(?P<b>\d{1,2})(?:/(?P<y>\d{4}|\d{2}))?\b(?!/)",
    _I,
)
_ORDINALS = {
    word: n
    for n, word in enumerate(
        re.split(
            r"\s+",
            "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
            "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth twenty-first "
            "twenty-second twenty-third twenty-fourth twenty-fifth twenty-sixth twenty-seventh twenty-eighth "
            "twenty-ninth thirtieth thirty-first",
        ),
        start=1,
    )
}
_ORDINAL_RE = "|".join(sorted(_ORDINALS, key=len, reverse=True))
_DAY_MONTH_RE = re.compile(
    r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?(?:the\s+)?(?P<d>\d{1,2}|"
    + _ORDINAL_RE
    + r")(?:st|nd|rd|th)?"
    r"\s+(?:of\s+)?" + _MONTH_RE + r"(?:,?\s+(?P<y>\d{4}))?\b",
    _I,
)
# A day of the month named alone ("on the 12th", "moved to the 15th", "the 28th, van's booked"): only where
# nothing but a pause or a clause follows, so "the 3rd floor" or "the 2nd time" is no date.
_DAY_ALONE_RE = re.compile(
    r"\bthe\s+(?P<d>\d{1,2})(?:st|nd|rd|th)\b"
    r"(?=\s*(?:[,.!?;:)]|$)|\s+(?:and|but|so|at|for|because|when|with|then)\b)",
    _I,
)
_MONTH_DAY_RE = re.compile(
    r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?" + _MONTH_RE
    + r"\s+(?:the\s+)?(?P<d>\d{1,2})(?:st|nd|rd|th)?(?![\d:])(?:,?\s+(?P<y>\d{4}))?\b",
    _I,
)  # fmt: skip
_MONTH_YEAR_RE = re.compile(r"\b" + _MONTH_RE + r",?\s+(?P<y>\d{4})\b", _I)
# A bare month name is only a date after a preposition or a modifier: "may" is
# a modal verb and "march" a verb, so "in May" counts and "you may" does not.
_MONTH_ONLY_RE = re.compile(
    r"\b(?P<pre>in|during|since|until|till|through|by|last|next|this|early|late|mid|end of|"
    r"beginning of|start of|back in)[\s-]+(?:(?:early|late|mid)[\s-]+)?"
    + _MONTH_RE
    + r"(?![\w-])(?!\.?,?\s+(?:the\s+)?\d)",
    _I,
)
_RELDAY_RE = re.compile(
    r"\b(?P<rel>the\s+day\s+before\s+yesterday|the\s+day\s+after\s+tomorrow|yesterday|today|tonight"
    r"|tomorrow|last\s+night|this\s+(?:morning|afternoon|evening)|earlier\s+today)\b",
    _I,
)
_AGO_RE = re.compile(
    r"\b" + _NUM_RE + r"\s+(?P<unit>day|week|fortnight|month|year)s?\s+(?P<dir>ago|back|earlier)\b", _I
)
_IN_N_RE = re.compile(
    r"\b(?:in|within)\s+" + _NUM_RE + r"\s+(?P<unit>day|week|fortnight|month|year)s?\b"
    r"|\b" + _NUM_RE.replace("?P<num>", "?P<num2>") + r"\s+(?P<unit2>day|week|month|year)s?\s+from\s+now\b",
    _I,
)
_WEEKDAY_PHRASE_RE = re.compile(
    r"(?<!every\s)(?<!each\s)\b(?:(?P<mod>last|this|next|coming|past)\s+)?" + _WEEKDAY_RE + r"(?!s\b)\b", _I
)
_WEEKDAY_ABBR_RE = re.compile(
    r"\b(?P<mod>last|this|next|coming|past)\s+(?P<wd>mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\b\.?", _I
)
_WEEKDAY_ABBR = {
    "mon": 0,
    "tue": 1,
    "tues": 1,
    "wed": 2,
    "thu": 3,
    "thur": 3,
    "thurs": 3,
    "fri": 4,
    "sat": 5,
    "sun": 6,
}
_PERIOD_RE = re.compile(
    r"\b(?P<mod>last|this|next|past|previous|coming)\s+(?P<unit>week|weekend|month|year)\b", _I
)
# "the year" alone names this one only as a part of it ("at the start of the year"; "the end of the day"
# is an idiom, not a time).
_PART_OF_THE_RE = re.compile(
    r"\b(?:start|beginning|end|middle)\s+of\s+(?P<p>the\s+(?P<unit>month|year))\b", _I
)
# A part of a longer period just before it: "the start of 2024", "early May", "late last summer".
_PART_BEFORE_RE = re.compile(
    r"(?:\b(?P<part>start|beginning|end|middle)\s+of\s+|\b(?P<third>early|mid|late)[-\s]+)$", _I
)
_PART_THIRD = {"start": 0, "beginning": 0, "early": 0, "middle": 1, "mid": 1, "end": 2, "late": 2}
_PART_LABEL = {0: "early", 1: "mid", 2: "late"}
_SEASON_RE = re.compile(
    r"\b(?:(?P<mod>last|this|next|past|in|during|over\s+the|in\s+the|back\s+in)\s+)?"
    r"(?:(?P<third>early|mid|late)[-\s]+)?(?P<season>spring|summer|fall|autumn|winter)(?:\s+(?:of\s+)?(?P<y>\d{4}))?\b",
    _I,
)
# A holiday dates something only after a modifier or a preposition ("on Christmas Eve", "last Easter"):
# "I love Christmas" says nothing about when, as "I love summer" does not.
_HOLIDAY_NAMES = (
    r"(?P<h>new\s+year[’']?s[’']?\s+(?:eve|day)|christmas(?:\s+(?:eve|day))?|xmas|boxing\s+day"
    r"|valentine[’']?s[’']?\s+day|halloween|easter(?:\s+sunday)?|thanksgiving)\b"
)
_HOLIDAY_RE = re.compile(
    r"\b(?P<mod>last|this|next|on|at|over|for|by|before|after|since|until|during|around|from)\s+"
    + _HOLIDAY_NAMES,
    _I,
)
# In a question a holiday alone is the time asked about ("Where am I spending Christmas?").
_HOLIDAY_ASKED_RE = re.compile(
    r"(?:\b(?P<mod>last|this|next|on|at|over|for|by|before|after|since|until|during|around|from)\s+)?\b"
    + _HOLIDAY_NAMES,
    _I,
)
_YEAR_RE = re.compile(
    r"\b(?:in|since|during|of|from|back\s+in|until|by)\s+(?:(?:early|mid|late)[-\s]+)?(?P<y>(?:19|20)\d{2})\b(?!-)",
    _I,
)
RECENT_RE = re.compile(r"\b(?:recently|lately|these\s+days|the\s+past\s+few\s+(?:days|weeks))\b", _I)
# A question about what lies ahead without naming when ("Do I have any trips coming up?").
UPCOMING_RE = re.compile(
    r"\b(?:upcoming|coming\s+up|(?:in\s+the\s+)?(?:near\s+)?future|soon|planned|plans)\b", _I
)
RECENT_DAYS = 31
UPCOMING_DAYS = 366
_CLOCK_RE = re.compile(
    r"\b(?:at\s+)?(?P<h>\d{1,2})(?::(?P<mi>\d{2}))?\s*(?P<ap>a\.?m\.?|p\.?m\.?)(?!\w)"
    r"|\bat\s+(?P<h2>\d{1,2}):(?P<mi2>\d{2})\b|\bat\s+(?P<noon>noon|midnight)\b",
    _I,
)
FUTURE_RE = re.compile(
    r"\b(?:will|shall|won't|going\s+to|gonna|plan(?:s|ning)?\s+to|planning|about\s+to|next|upcoming"
    r"|can't\s+wait|cannot\s+wait|looking\s+forward|hope\s+to|hoping\s+to|intend|scheduled|due\s+(?:on|by|in|date|next)|need\s+to"
    r"|have\s+to|has\s+to|must|remind|tomorrow|coming|from\s+now|later\s+this|by\s+then"
    # Booking something is done in the past for a date to come: "I signed up for the race in October".
    r"|signed\s+up\s+for|booked|registered\s+for|tickets\s+for|sign\s+up\s+for)\b|'ll\b",
    _I,
)
_ED_ADJECTIVES = frozenset(
    re.split(
        r"\s+",
        "interested excited tired married scared worried bored pleased surprised stressed named called "
        "based related supposed engaged retired obsessed prepared dedicated determined inspired motivated "
        "thrilled amazed overwhelmed relaxed concerned involved qualified talented blessed red used need "
        "feed seed bed shed bled speed indeed exceed proceed succeed",
    )
)
_PAST_WORDS = frozenset(
    re.split(
        r"\s+",
        "was were did had went got made took saw met ran began came bought found felt left lost thought "
        "told wrote said knew gave won spent sent built taught caught brought heard kept slept drove flew "
        "swam sang ate drank sat stood became chose forgot grew paid sold threw wore broke fell held led "
        "rode shook stole struck tore woke ago yesterday last earlier",
    )
)
_WORD_RE = re.compile(r"[a-z']+")


def detect_tense(text: str) -> Tense:
    """Guess whether a statement talks about the past, the future or neither.

    Future cues win because a plan often mentions a past reference too
    ("I booked it last week, we fly on 8 May" is ambiguous either way, and a
    wrong past date is more harmful for reminders than a wrong future one).
    """
    if FUTURE_RE.search(text):
        return "future"
    for word in _WORD_RE.findall(text.lower()):
        if word in _PAST_WORDS or (word.endswith("ed") and len(word) > 3 and word not in _ED_ADJECTIVES):
            return "past"
    return "present"


def _num(raw: str) -> int | None:
    raw = " ".join(raw.lower().split())
    if raw.isdigit():
        return int(raw)
    return _NUMBERS.get(raw)


def candidates(text: str, b: Builder, cues: Cues | None) -> list[TimeMention]:
    """Every time expression of `text`. With `cues` (ASCII text), a pattern family runs only when the
    text holds a literal every one of its matches contains."""
    found: list[TimeMention] = []
    today = b.today
    has_digit = cues is None or cues.digit
    has_month = cues is None or cues.any(_MONTH_CUES)
    has_modifier = cues is None or cues.any(_MOD_CUES)

    def has(*words: str) -> bool:
        return cues is None or cues.any(words)

    for m in _ISO_RE.finditer(text) if has_digit and "-" in text else ():
        d = safe_date(int(m["y"]), int(m["m"]), int(m["d"]))
        if d:
            found.append(b.day(d, m.span()))

    for m in _SLASH_RE.finditer(text) if has_digit and "/" in text else ():
        if not m["y"] and not m["prep"]:
            continue  # "50/50" or "1/2 cup": a bare pair of numbers is too often not a date
        a, c = int(m["a"]), int(m["b"])
        month, day = (a, c) if a <= 12 else (c, a)  # US order unless that cannot be a month
        if m["y"]:
            d = safe_date(year2(m["y"]), month, day)
        elif 1 <= month <= 12:
            d = b.pick_year_for_day(month, day)
        else:
            d = None
        if d:
            found.append(b.day(d, (m.start("a"), m.end())))

    for rx in (_DAY_MONTH_RE, _MONTH_DAY_RE) if has_month else ():
        for m in rx.finditer(text):
            month = _MONTHS[m["mon"].lower().rstrip(".")]
            raw_day = m["d"].lower()
            day = int(raw_day) if raw_day.isdigit() else _ORDINALS[raw_day]
            if m["mon"].lower() == "may" and not m["mon"][0].isupper() and not m["y"]:
                continue
            d = safe_date(int(m["y"]), month, day) if m["y"] else b.pick_year_for_day(month, day)
            if d:
                found.append(b.day(d, m.span()))

    for m in _DAY_ALONE_RE.finditer(text) if has_digit else ():
        d = b.pick_month_for_day(int(m["d"])) if 1 <= int(m["d"]) <= 31 else None
        if d:
            found.append(b.day(d, m.span()))

    for m in _MONTH_YEAR_RE.finditer(text) if has_month and has_digit else ():
        found.append(b.month(int(m["y"]), _MONTHS[m["mon"].lower().rstrip(".")], m.span()))

    for m in _MONTH_ONLY_RE.finditer(text) if has_month else ():
        mon_raw = m["mon"]
        pre = m["pre"].lower()
        if mon_raw.lower() in ("may", "march", "mar") and not mon_raw[0].isupper() and pre == "this":
            continue  # "this may be", "this march"
        month = _MONTHS[mon_raw.lower().rstrip(".")]
        year = b.year_for_month(month, pre)
        found.append(
            b.month(year, month, (m.start("mon") if pre in ("in", "during") else m.start(), m.end()))
        )

    relday = has("yesterday", "today", "tonight", "tomorrow", "night", "morning", "afternoon", "evening")
    for m in _RELDAY_RE.finditer(text) if relday else ():
        rel = " ".join(m["rel"].lower().split())
        if rel == "the day before yesterday":
            d = today - timedelta(days=2)
        elif rel == "the day after tomorrow":
            d = today + timedelta(days=2)
        elif rel in ("yesterday", "last night"):
            d = today - timedelta(days=1)
        elif rel == "tomorrow":
            d = today + timedelta(days=1)
        else:
            d = today
        found.append(b.day(d, m.span()))

    units = has("day", "week", "fortnight", "month", "year")
    for m in _AGO_RE.finditer(text) if units and has("ago", "back", "earlier") else ():
        n = _num(m["num"])
        if n is None:
            continue
        found.append(offset(b, -n, m["unit"].lower(), m.span()))

    for m in _IN_N_RE.finditer(text) if units else ():
        raw, unit = (m["num"], m["unit"]) if m["num"] else (m["num2"], m["unit2"])
        n = _num(raw)
        if n is None:
            continue
        found.append(offset(b, n, unit.lower(), m.span()))

    weekday_matches = (
        [(m, _WEEKDAYS[m["wd"].lower()]) for m in _WEEKDAY_PHRASE_RE.finditer(text)] if has("day") else []
    )
    if has_modifier:
        weekday_matches += [(m, _WEEKDAY_ABBR[m["wd"].lower()]) for m in _WEEKDAY_ABBR_RE.finditer(text)]
    for m, wd in weekday_matches:
        mod = (m["mod"] or "").lower()
        cur = today.weekday()
        if mod in ("last", "past"):
            d = today - timedelta(days=(cur - wd) % 7 or 7)
        elif mod == "this":
            d = today + timedelta(days=wd - cur)
        elif mod in ("next", "coming"):
            d = today + timedelta(days=(wd - cur) % 7 or 7)
        elif b.tense == "past":
            d = today - timedelta(days=(cur - wd) % 7 or 7)
        else:
            d = today + timedelta(days=(wd - cur) % 7 or 7)
        found.append(b.day(d, m.span()))

    for m in _PERIOD_RE.finditer(text) if has_modifier else ():
        found.append(period(b, m["mod"].lower(), m["unit"].lower(), m.span()))

    for m in _PART_OF_THE_RE.finditer(text) if has("start", "beginning", "end", "middle") else ():
        found.append(period(b, "this", m["unit"].lower(), m.span("p")))

    for m in _SEASON_RE.finditer(text) if has("spring", "summer", "fall", "autumn", "winter") else ():
        mod = " ".join((m["mod"] or "").lower().split())
        if not mod and not m["y"] and not m["third"]:
            continue  # "I love summer" says nothing about when
        # A part of the season ("late summer") is `_narrowed`'s, which reads it before the span.
        span = (m.start("season") if m["third"] else m.start(), m.end())
        found.append(season(b, m["season"].lower(), mod, m["y"], span))

    holidays = _HOLIDAY_ASKED_RE if b.question else _HOLIDAY_RE
    for m in holidays.finditer(text) if has(*_HOLIDAY_CUES) else ():
        name = re.sub(r"[’']", "", " ".join(m["h"].lower().split()))
        d = pick_holiday(b, name, (m["mod"] or "").lower())
        found.append(b.day(d, (m.start("h"), m.end())))

    for m in _YEAR_RE.finditer(text) if has_digit else ():
        found.append(b.year(int(m["y"]), (m.start("y"), m.end())))

    return found


def with_clock(text: str, mention: TimeMention) -> TimeMention:
    if mention.granularity != "day":
        return mention
    m = _CLOCK_RE.search(text)
    if not m:
        return mention
    if m["noon"]:
        hour, minute = (12, 0) if m["noon"].lower() == "noon" else (0, 0)
    elif m["h2"]:
        hour, minute = int(m["h2"]), int(m["mi2"])
    else:
        hour, minute = int(m["h"]), int(m["mi"] or 0)
        pm = m["ap"].lower().startswith("p")
        if hour == 12:
            hour = 12 if pm else 0
        elif pm:
            hour += 12
    if hour > 23 or minute > 59:
        return mention
    point = mention.start.replace(hour=hour, minute=minute)
    return TimeMention(mention.start, mention.end, point, "day", mention.label, mention.span)


def narrowed(text: str, mention: TimeMention) -> TimeMention:
    """A month, season or year named as a part ("the start of 2024", "early May", "the end of last year"):
    its first, middle or last third."""
    if mention.granularity not in ("month", "season", "year"):
        return mention
    m = _PART_BEFORE_RE.search(text, max(0, mention.span[0] - 20), mention.span[0])
    if m is None:
        return mention
    third = _PART_THIRD[(m["part"] or m["third"]).lower()]
    days = (mention.end - mention.start).days
    start = mention.start + timedelta(days=round(days * third / 3))
    end = mention.end if third == 2 else mention.start + timedelta(days=round(days * (third + 1) / 3))
    label = f"{_PART_LABEL[third]} {mention.label}"
    return TimeMention(start, end, start, mention.granularity, label, (m.start(), mention.span[1]))


WHEN_RE = re.compile(r"^\s*(?:when|what\s+(?:date|day|time|year|month))\b", _I)
