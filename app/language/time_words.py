"""The time words of a language other than English, as data, and the engine that reads them.

A language module (`app.language.languages.es`, `.de`, `.zh`…) describes its time expressions with a
`TimeWords`: its relative days and periods ("ayer", "la semana pasada", "上个月"), weekdays and months, the
words that make one the last, this or next one, a habit ("los jueves", "jeden Freitag", "每周一": never
dated), numbers and units with the templates of "ago" and "in" ("hace {n} {u}", "vor {n} {u}", "{n}{u}前"), seasons,
holidays, and the prepositions that make a month, a season or a holiday a time ("en mayo", "im Sommer",
"à Noël"). `candidates` finds every expression of a text and builds it with `app.language.time_mentions`,
whose rules resolve it as they resolve English's. Phrases are compared `fold`ed (case and accents
ignored, one character for one, so a span in the folded text is the same span in the text); the words are
each language's own: German "hier" is "here", French "hier" yesterday. Dates written in digits (ISO,
day/month/year, 2026年4月2日) need no words and are read in every language.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from datetime import timedelta

from app.language.folding import fold
from app.language.time_mentions import (
    Builder,
    Tense,
    TimeMention,
    holiday,
    offset,
    period,
    pick_holiday,
    safe_date,
    season,
    year2,
)

# What a relative phrase names: a day (`day`, that many days on), a week, a weekend, a month or a year;
# None for a phrase that holds a time word without naming a time ("por la mañana", "am Morgen").
Relative = tuple[str, int] | None
UNITS = ("day", "week", "month", "year")
SEASON_NAMES = ("spring", "summer", "autumn", "winter")


@dataclass(frozen=True, eq=False)  # one instance a language, compiled once (`compiled`): hashed by identity
class TimeWords:
    """One language's time words. `|` separates alternatives; in `weekdays`, `months`, `seasons` and
    `numbers`, `;` separates the entries (Monday first, January first, spring first, one first) and `|`
    an entry's alternatives."""

    relative: dict[str, Relative] = field(default_factory=dict)
    weekdays: str = ""
    # Before or after a weekday, a season or a holiday: the previous, the current, the next one.
    last: str = ""
    this: str = ""
    next: str = ""
    # Shorter names of the weekdays, read only beside a modifier ("terça passada": Portuguese "segunda"
    # alone is "second"), Monday first.
    weekdays_short: str = ""
    # Before a weekday: it is a habit ("los jueves", "jeden Freitag"), no day.
    habit: str = ""
    months: str = ""
    # Before a month named alone, a season or a holiday: it is a time ("en mayo", "im Sommer", "à Noël").
    month_before: str = ""
    season_before: str = ""
    holiday_before: str = ""
    # Between a day's number and its month ("3 de marzo", "3 di marzo"), and before a year.
    of: str = ""
    seasons: str = ""
    numbers: str = ""
    units: dict[str, str] = field(default_factory=dict)
    # Templates of "N units ago" and "in N units", `{n}` and `{u}` standing for the number and the unit.
    ago: str = ""
    later: str = ""
    # Holiday names ("navidad|nochebuena") by the name `time_mentions.holiday` knows them by.
    holidays: dict[str, str] = field(default_factory=dict)
    # Words before a time that make it the start of a state, not a time something happened ("desde hace
    # dos años", "seit Januar", "depuis trois ans": a duration).
    since: str = ""
    # Words that make a question about what is to come (its "in May" is the next May), or about what was
    # (auxiliaries and past forms: "habe … gemacht", "了"); a question that says neither leans to the past.
    future: str = ""
    past: str = ""
    # Written without spaces (Chinese, Japanese, Korean): phrases are found anywhere, weekdays by
    # `weekday_pattern` (groups `habit`, `week`, `day`), a year word before a season or a holiday
    # ("去年夏天": the summer of last year) by `years`.
    unspaced: bool = False
    weekday_pattern: str = ""
    weekday_signs: str = ""
    years: dict[str, int] = field(default_factory=dict)


def _alternatives(field_: str) -> list[str]:
    return [fold(p.strip()) for p in field_.split("|") if p.strip()]


def _entries(field_: str) -> list[list[str]]:
    return [_alternatives(entry) for entry in field_.split(";") if entry.strip()]


def _alternation(phrases: list[str]) -> str:
    ordered = sorted(set(phrases), key=len, reverse=True)
    return "|".join(re.escape(p).replace(r"\ ", r"\s+").replace("'", "['’]") for p in ordered)


@dataclass(frozen=True)
class _Compiled:
    words: TimeWords
    relative: dict[str, Relative]
    relative_re: re.Pattern[str] | None
    weekday_re: re.Pattern[str] | None
    weekday_index: dict[str, int]
    # Names that are a weekday only beside a modifier.
    weekday_short: frozenset[str]
    modifiers: dict[str, str]
    month_index: dict[str, int]
    day_month_re: re.Pattern[str] | None
    month_re: re.Pattern[str] | None
    numbers: dict[str, int]
    units: dict[str, str]
    ago_re: re.Pattern[str] | None
    later_re: re.Pattern[str] | None
    season_index: dict[str, str]
    season_re: re.Pattern[str] | None
    holiday_index: dict[str, str]
    holiday_re: re.Pattern[str] | None
    # In a question a holiday named alone is the time asked about ("¿Dónde paso la Navidad?", "var firade
    # jag jul?"), as in English.
    holiday_asked_re: re.Pattern[str] | None
    years: dict[str, int]
    future_re: re.Pattern[str] | None
    past_re: re.Pattern[str] | None
    since_re: re.Pattern[str] | None


def _bounded(body: str, unspaced: bool) -> str:
    """Whole words in a spaced script, anywhere in an unspaced one."""
    return f"(?:{body})" if unspaced else rf"(?<!\w)(?:{body})(?!\w)"


@functools.cache
def compiled(words: TimeWords) -> _Compiled:
    """A language's words compiled once."""
    u = words.unspaced
    relative = {" ".join(fold(k).split()): v for k, v in words.relative.items()}
    modifiers = {
        **{p: "last" for p in _alternatives(words.last)},
        **{p: "this" for p in _alternatives(words.this)},
        **{p: "next" for p in _alternatives(words.next)},
    }
    mods = _alternation(list(modifiers)) or "(?!)"
    short = {p: i for i, entry in enumerate(_entries(words.weekdays_short)) for p in entry}
    weekday_index = {**short, **{p: i for i, entry in enumerate(_entries(words.weekdays)) for p in entry}}
    weekday_re: re.Pattern[str] | None
    if words.weekday_pattern:
        weekday_index = {sign: i for i, signs in enumerate(words.weekday_signs.split(";")) for sign in signs}
        weekday_re = re.compile(words.weekday_pattern)
    elif weekday_index:
        habit = _alternation(_alternatives(words.habit)) or "(?!)"
        weekday_re = re.compile(
            rf"(?<!\w)(?:(?P<habit>{habit})\s+|(?P<before>{mods})\s+)?(?P<day>{_alternation(list(weekday_index))})"
            rf"(?!\w)(?:\s+(?P<after>{mods})(?!\w))?"
        )
    else:
        weekday_re = None
    month_index = {p: i + 1 for i, entry in enumerate(_entries(words.months)) for p in entry}
    months = _alternation(list(month_index))
    of = (
        rf"(?:\s*(?:{_alternation(_alternatives(words.of))})\s*|\s+)" if words.of else r"\s*" if u else r"\s+"
    )
    year = rf"(?:{of}(?P<y>\d{{4}}))?"
    day_month_re = month_re = None
    if months:
        day_month_re = re.compile(rf"(?<!\d)(?P<d>\d{{1,2}})(?:\.|er|º|°)?{of}(?P<m>{months})(?!\w){year}")
        before = _alternation(_alternatives(words.month_before))
        prefix = rf"(?<!\w)(?:(?P<pre>{before})\s+|(?P<mod>{mods})\s+)" if before else "(?!)"
        month_re = re.compile(
            rf"(?:{prefix}(?P<m>{months})(?!\w)(?:\s+(?P<post>{mods})(?!\w))?{year}"
            rf"|(?<!\w)(?P<m2>{months})\s+(?P<y2>\d{{4}}))"
        )
    numbers = {p: i + 1 for i, entry in enumerate(_entries(words.numbers)) for p in entry}
    units = {fold(k): v for k, v in words.units.items()}
    number = rf"(?P<n>\d{{1,3}}|{_alternation(list(numbers))})" if numbers else r"(?P<n>\d{1,3})"
    unit = rf"(?P<u>{_alternation(list(units))})" if units else "(?!)"

    def template(field_: str) -> re.Pattern[str] | None:
        """One pattern of a field's templates, each its own alternative with its own group names."""
        forms = [re.escape(t).replace(r"\ ", r"\s*" if u else r"\s+") for t in _alternatives(field_)]
        alternatives = [
            f.replace(r"\{n\}", number.replace("?P<n>", f"?P<n{i}>"), 1).replace(
                r"\{u\}", unit.replace("?P<u>", f"?P<u{i}>"), 1
            )
            for i, f in enumerate(forms)
        ]
        return re.compile("|".join(_bounded(a, u) for a in alternatives)) if alternatives else None

    season_index = {p: SEASON_NAMES[i] for i, entry in enumerate(_entries(words.seasons)) for p in entry}
    years = {fold(k): v for k, v in words.years.items()}
    year_words = _alternation(list(years)) or "(?!)"
    season_re = None
    if season_index:
        seasons = _alternation(list(season_index))
        if u:
            season_re = re.compile(
                rf"(?:(?P<yw>{year_words})|(?P<mod>{mods}))\s*(?:的|の)?\s*(?P<s>{seasons})"
            )
        else:
            before = _alternation(_alternatives(words.season_before)) or "(?!)"
            season_re = re.compile(
                rf"(?<!\w)(?:(?P<pre>{before})\s+|(?P<mod>{mods})\s+)?(?P<s>{seasons})(?!\w)"
                rf"(?:\s+(?P<post>{mods})(?!\w))?{year}"
            )
    holiday_index = {fold(p): key for key, names in words.holidays.items() for p in _alternatives(names)}
    holiday_re = holiday_asked_re = None
    if holiday_index:
        names = _alternation(list(holiday_index))
        if u:
            holiday_re = holiday_asked_re = re.compile(
                rf"(?:(?:(?P<yw>{year_words})|(?P<mod>{mods}))\s*(?:的|の)?\s*)?(?P<h>{names})"
            )
        else:
            before = _alternation(_alternatives(words.holiday_before)) or "(?!)"
            # After a preposition or a modifier, or opening the text ("Noël au ski cette année"): "me
            # encanta la Navidad" says nothing about when.
            holiday_re = re.compile(
                rf"(?:^|(?<!\w)(?P<pre>{before})\s+|(?<!\w)(?P<mod>{mods})\s+)(?P<h>{names})(?!\w)"
                rf"(?:\s+(?P<post>{mods})(?!\w))?"
            )
            holiday_asked_re = re.compile(
                rf"(?:(?<!\w)(?P<pre>{before})\s+|(?<!\w)(?P<mod>{mods})\s+)?(?<!\w)(?P<h>{names})(?!\w)"
                rf"(?:\s+(?P<post>{mods})(?!\w))?"
            )
    future, past, since = _alternatives(words.future), _alternatives(words.past), _alternatives(words.since)
    return _Compiled(
        words=words,
        relative=relative,
        relative_re=re.compile(_bounded(_alternation(list(relative)), u)) if relative else None,
        weekday_re=weekday_re,
        weekday_index=weekday_index,
        weekday_short=frozenset(short) - frozenset(_alternatives(words.weekdays.replace(";", "|"))),
        modifiers=modifiers,
        month_index=month_index,
        day_month_re=day_month_re,
        month_re=month_re,
        numbers=numbers,
        units=units,
        ago_re=template(words.ago),
        later_re=template(words.later),
        season_index=season_index,
        season_re=season_re,
        holiday_index=holiday_index,
        holiday_re=holiday_re,
        holiday_asked_re=holiday_asked_re,
        years=years,
        future_re=re.compile(_bounded(_alternation(future), u)) if future else None,
        past_re=re.compile(_bounded(_alternation(past), u)) if past else None,
        # Ends where the time begins: "desde " before "hace dos años".
        since_re=re.compile(rf"{_bounded(_alternation(since), u)}\s*$") if since else None,
    )


def tense_said(text: str, words: TimeWords) -> Tense | None:
    """The tense a question's words say, in this language: what is to come ("¿Qué voy a hacer en mayo?"),
    what was ("Was habe ich am Wochenende gemacht?"), or None."""
    c = compiled(words)
    folded = fold(text)
    if c.future_re is not None and c.future_re.search(folded):
        return "future"
    if c.past_re is not None and c.past_re.search(folded):
        return "past"
    return None


_ISO_RE = re.compile(r"(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)")
# Day before month, as everywhere but the United States: 8/5/2025, 8/5, 8.5.2025, 08.05. (not 3.5)
_NUMERIC_RE = re.compile(
    r"(?<![\d/.])(\d{1,2})(?:/(\d{1,2})(?:/(\d{4}|\d{2}))?(?![\d/])|\.(\d{1,2})\.(\d{4}|\d{2})?)"
)
# 2026年4月2日, 4月, 4월 2일, 五月, 三月份: a month by its number, with or without its day.
_HAN_NUMBERS = {c: i for i, c in enumerate("一二三四五六七八九十", start=1)}
_CJK_DATE_RE = re.compile(
    r"(?:(?P<y>\d{4})\s*[年년]\s*)?(?P<m>\d{1,2}|十[一二]?|[一二三四五六七八九十])\s*[月월](?!曜|요일)份?"
    r"\s*(?:(?P<d>\d{1,2})\s*[日号일])?"
)
WEEKDAY_DAYS_AHEAD = 3
# How far before a time its "since" is looked for: the word and the spaces after it (a bounded look keeps
# the work linear in a text of many times).
SINCE_CHARS = 12


def _han_number(raw: str) -> int:
    if raw.isdigit():
        return int(raw)
    return sum(_HAN_NUMBERS[c] for c in raw) if raw.startswith("十") else _HAN_NUMBERS[raw]


def candidates(text: str, b: Builder, words: TimeWords) -> list[TimeMention]:
    """Every time expression of `text` in the language `words` describe, resolved by `b`."""
    c = compiled(words)
    folded = fold(text)
    found: list[TimeMention] = []
    digits = any(ch.isdigit() for ch in text)
    for m in _ISO_RE.finditer(folded) if digits else ():
        if d := safe_date(int(m[1]), int(m[2]), int(m[3])):
            found.append(b.day(d, m.span()))
    for m in _NUMERIC_RE.finditer(folded) if digits else ():
        month, day, y = int(m[2] or m[4]), int(m[1]), m[3] or m[5]
        d = (
            safe_date(year2(y), month, day)
            if y
            else b.pick_year_for_day(month, day)
            if 1 <= month <= 12
            else None
        )
        if d:
            found.append(b.day(d, m.span()))
    if words.unspaced:
        for m in _CJK_DATE_RE.finditer(folded):
            month = _han_number(m["m"])
            if not 1 <= month <= 12:
                continue
            if m["d"]:
                day = int(m["d"])
                d = safe_date(int(m["y"]), month, day) if m["y"] else b.pick_year_for_day(month, day)
                if d:
                    found.append(b.day(d, m.span()))
            else:
                found.append(
                    b.month(int(m["y"]) if m["y"] else b.pick_year_for_month(month), month, m.span())
                )
    for m in c.day_month_re.finditer(folded) if c.day_month_re is not None and digits else ():
        month, day = c.month_index[" ".join(m["m"].split())], int(m["d"])
        d = safe_date(int(m["y"]), month, day) if m["y"] else b.pick_year_for_day(month, day)
        if d:
            found.append(b.day(d, m.span()))
    for m in c.month_re.finditer(folded) if c.month_re is not None else ():
        found.append(_month(b, c, m))
    for m in c.relative_re.finditer(folded) if c.relative_re is not None else ():
        meaning = c.relative[" ".join(m[0].replace("’", "'").split())]
        if meaning is not None:
            found.append(_relative(b, *meaning, m.span()))
    for m in c.weekday_re.finditer(folded) if c.weekday_re is not None else ():
        if (mention := _weekday(b, c, m)) is not None:
            found.append(mention)
    for pattern, sign in ((c.ago_re, -1), (c.later_re, 1)):
        for m in pattern.finditer(folded) if pattern is not None else ():
            # The template that matched: its groups are `n<i>` and `u<i>`.
            groups = {k[0]: v for k, v in m.groupdict().items() if v is not None}
            raw = " ".join(groups["n"].split())
            n = int(raw) if raw.isdigit() else c.numbers.get(raw)
            if n is not None:
                found.append(offset(b, sign * n, c.units[" ".join(groups["u"].split())], m.span()))
    for m in c.season_re.finditer(folded) if c.season_re is not None else ():
        if (mention := _season(b, c, m)) is not None:
            found.append(mention)
    holidays = c.holiday_asked_re if b.question else c.holiday_re
    for m in holidays.finditer(folded) if holidays is not None else ():
        found.append(_holiday(b, c, m))
    if c.since_re is not None:
        found = [
            t for t in found if not c.since_re.search(folded, max(0, t.span[0] - SINCE_CHARS), t.span[0])
        ]
    return found


def _mod(c: _Compiled, *raw: str | None) -> str:
    for r in raw:
        if r:
            return c.modifiers.get(" ".join(r.split()), "")
    return ""


def _month(b: Builder, c: _Compiled, m: re.Match[str]) -> TimeMention:
    if m["m2"]:
        return b.month(int(m["y2"]), c.month_index[m["m2"]], m.span())
    month = c.month_index[" ".join(m["m"].split())]
    mod = _mod(c, m["mod"], m["post"])
    year = int(m["y"]) if m["y"] else b.year_for_month(month, mod)
    start = m.start("m") if m["pre"] else m.start()
    return b.month(year, month, (start, m.end()))


def _relative(b: Builder, unit: str, amount: int, span: tuple[int, int]) -> TimeMention:
    if unit == "weekend":
        return period(b, {-1: "last", 0: "this"}.get(amount, "next"), "weekend", span)
    if unit == "week" and amount == 0:
        return period(b, "this", "week", span)
    if unit == "year":
        return b.year(b.today.year + amount, span)
    return offset(b, amount, unit, span)


def _weekday(b: Builder, c: _Compiled, m: re.Match[str]) -> TimeMention | None:
    if m["habit"]:
        return None
    today = b.today
    cur = today.weekday()
    groups = m.groupdict()
    if c.words.weekday_pattern:
        day = c.weekday_index[m["day"]]
        week = " ".join((groups.get("week") or "").split())
        mod = next((v for k, v in c.modifiers.items() if week and week.startswith(k)), "")
        if mod:  # that week's day, weeks starting on Monday
            weeks = {"last": -1, "this": 0, "next": 1}[mod]
            return b.day(today + timedelta(days=day - cur, weeks=weeks), m.span())
    else:
        day = c.weekday_index[m["day"]]
        mod = _mod(c, groups.get("before"), groups.get("after"))
        if not mod and m["day"] in c.weekday_short:
            return None  # "É a segunda vez": a short name alone is no weekday
    if mod == "last":
        d = today - timedelta(days=(cur - day) % 7 or 7)
    elif mod == "next":
        d = today + timedelta(days=(day - cur) % 7 or 7)
    elif mod == "this":
        d = today + timedelta(days=day - cur)
    elif b.nearest:
        forward = (day - cur) % 7
        d = today + timedelta(days=forward if forward <= WEEKDAY_DAYS_AHEAD else forward - 7)
    elif b.tense == "past":
        d = today - timedelta(days=(cur - day) % 7)
    else:
        d = today + timedelta(days=(day - cur) % 7)
    return b.day(d, m.span())


def _season(b: Builder, c: _Compiled, m: re.Match[str]) -> TimeMention | None:
    name = c.season_index[" ".join(m["s"].split())]
    groups = m.groupdict()
    if groups.get("yw"):
        return b.season(name, b.today.year + c.years[" ".join(m["yw"].split())], m.span())
    mod = _mod(c, groups.get("mod"), groups.get("post"))
    if not mod and not groups.get("pre") and not groups.get("y"):
        return None  # "me encanta el verano" says nothing about when
    start = m.start("s") if groups.get("pre") else m.start()
    return season(b, name, mod or "in", groups.get("y"), (start, m.end()))


def _holiday(b: Builder, c: _Compiled, m: re.Match[str]) -> TimeMention:
    name = c.holiday_index[" ".join(m["h"].split())]
    groups = m.groupdict()
    if groups.get("yw"):
        return b.day(holiday(name, b.today.year + c.years[" ".join(m["yw"].split())]), m.span())
    mod = _mod(c, groups.get("mod"), groups.get("post"))
    start = m.start("h") if groups.get("pre") else m.start()
    return b.day(pick_holiday(b, name, mod or "on"), (start, m.end()))
