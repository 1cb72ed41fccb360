"""Time mentions and how a period is resolved against a day: the calendar every language's time words
come down to.

`app.language.temporal` finds the time a text names with its language's rules (`app.language.languages`:
English's own patterns, the other languages' word tables read by `app.language.time_words`); each of
them builds its mentions here, so "last week", "la semana pasada" and "上周" are the same week, "in
May" and "im Mai" the same month, and an event dated by a statement falls inside the window a question
of the same words asks for. The resolution rules live here once: a day or a month without a year is the
last one for past talk, the next one otherwise, the nearer one when nothing says (`Builder`); "last
summer" is the one just over; a holiday is the last, this or next one as said.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import cached_property
from typing import Literal

from app.core.dates import MONTH_NAMES, format_date

Granularity = Literal["day", "week", "weekend", "month", "season", "year"]
Tense = Literal["past", "future", "present"]


@dataclass(frozen=True)
class TimeMention:
    """One resolved time expression: a period, the instant that stands for it, and where it was found."""

    start: datetime
    end: datetime
    point: datetime
    granularity: Granularity
    label: str
    span: tuple[int, int]


SEASONS: dict[str, int] = {"spring": 3, "summer": 6, "autumn": 9, "winter": 12}
# Holidays people date things by, on fixed days (month, day); Easter and US Thanksgiving move (`holiday`).
FIXED_HOLIDAYS: dict[str, tuple[int, int]] = {
    "new years eve": (12, 31), "new years day": (1, 1), "christmas eve": (12, 24), "christmas": (12, 25),
    "christmas day": (12, 25), "xmas": (12, 25), "boxing day": (12, 26), "valentines day": (2, 14),
    "halloween": (10, 31),
}  # fmt: skip


def in_calendar(*moments: datetime) -> bool:
    """Whether each moment also exists in UTC, the form it is stored and compared in."""
    try:
        for moment in moments:
            moment.astimezone(UTC)
    except OverflowError:
        return False
    return True


def at_day(d: date, like: datetime) -> datetime:
    return datetime.combine(d, time(0, 0), tzinfo=like.tzinfo)


def add_months(d: date, months: int) -> date:
    index = d.year * 12 + (d.month - 1) + months
    year, month = divmod(index, 12)
    return date(year, month + 1, min(d.day, _days_in_month(year, month + 1)))


def _days_in_month(year: int, month: int) -> int:
    nxt = date(year + (month == 12), month % 12 + 1, 1)
    return (nxt - timedelta(days=1)).day


def year2(raw: str) -> int:
    value = int(raw)
    return value + 2000 if value < 100 else value


def safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


class Builder:
    """Builds mentions anchored on one day; one instance per parse. `tense` is the text's when it is
    known; otherwise `tell` reads it from the text, once and only when a mention needs it."""

    def __init__(
        self,
        anchor: datetime,
        text: str,
        tense: Tense | None,
        tell: Callable[[str], Tense] | None = None,
        *,
        leaning: bool = False,
        question: bool = False,
    ) -> None:
        self.anchor = anchor
        self.today = anchor.date()
        self._text = text
        self._tense = tense
        self._tell = tell
        # `tense` is a question's lean, not said by its words ("¿Dónde paso la Navidad?"): what has one
        # occurrence a year is its nearest one.
        self.leaning = leaning
        # A recall question, not a statement: what it names alone may be the time it asks about.
        self.question = question

    @cached_property
    def tense(self) -> Tense:
        # Told only when a mention needs it: most texts that pass the cue gate name no time at all.
        if self._tense is not None:
            return self._tense
        return self._tell(self._text) if self._tell is not None else "present"

    @property
    def nearest(self) -> bool:
        """No tense known nor told (a statement in a language without tense cues): a day or a month
        without a year is in the message's year, a weekday the nearest one."""
        return self._tense is None and self._tell is None

    def day(self, d: date, span: tuple[int, int], label: str | None = None) -> TimeMention:
        start = at_day(d, self.anchor)
        return TimeMention(start, start + timedelta(days=1), start, "day", label or format_date(d), span)

    def week(self, point: date, span: tuple[int, int], label: str) -> TimeMention:
        monday = point - timedelta(days=point.weekday())
        start = at_day(monday, self.anchor)
        return TimeMention(start, start + timedelta(days=7), at_day(point, self.anchor), "week", label, span)

    def weekend(self, saturday: date, span: tuple[int, int]) -> TimeMention:
        start = at_day(saturday, self.anchor)
        label = f"the weekend of {format_date(saturday)}"
        return TimeMention(start, start + timedelta(days=2), start, "weekend", label, span)

    def month(self, year: int, month: int, span: tuple[int, int]) -> TimeMention:
        first = date(year, month, 1)
        start = at_day(first, self.anchor)
        end = at_day(add_months(first, 1), self.anchor)
        return TimeMention(start, end, start, "month", f"{MONTH_NAMES[month - 1]} {year}", span)

    def year(self, year: int, span: tuple[int, int]) -> TimeMention:
        start = at_day(date(year, 1, 1), self.anchor)
        end = at_day(date(year + 1, 1, 1), self.anchor)
        return TimeMention(start, end, start, "year", str(year), span)

    def season(self, name: str, year: int, span: tuple[int, int]) -> TimeMention:
        first = date(year, SEASONS[name], 1)
        start = at_day(first, self.anchor)
        end = at_day(add_months(first, 3), self.anchor)
        return TimeMention(start, end, start, "season", f"{name} {year}", span)

    def pick_year_for_day(self, month: int, day: int) -> date | None:
        """A day without a year: the last one for past talk, the next one otherwise."""
        year = self.today.year
        try:
            candidate = date(year, month, day)
            if self.nearest:
                return candidate  # "el 3 de mayo", said in March: this 3 May
            if self.tense == "past" and candidate > self.today:
                candidate = date(year - 1, month, day)
            elif self.tense != "past" and candidate < self.today:
                candidate = date(year + 1, month, day)
        except ValueError:
            return None
        return candidate

    def pick_month_for_day(self, day: int) -> date | None:
        """A day of the month named alone ("on the 12th"): this month's, or the month before's for past talk
        when it is still to come, the next month's otherwise when it is gone."""
        today = self.today
        candidate = safe_date(today.year, today.month, day)
        if self.nearest:
            return candidate
        if self.tense == "past" and (candidate is None or candidate > today):
            before = add_months(today.replace(day=1), -1)
            return safe_date(before.year, before.month, day)
        if self.tense != "past" and (candidate is None or candidate < today):
            after = add_months(today.replace(day=1), 1)
            return safe_date(after.year, after.month, day)
        return candidate

    def pick_year_for_month(self, month: int) -> int:
        """A month without a year, as a day: the last one for past talk, the next one otherwise ("Mia
        turns five in February", said in December, is next February); the current month is either."""
        year = self.today.year
        if self.nearest:
            return year  # "en octubre", said in March: this October
        if self.tense == "past" and month > self.today.month:
            return year - 1
        if self.tense != "past" and month < self.today.month:
            return year + 1
        return year

    def year_for_month(self, month: int, modifier: str | None) -> int:
        """A month named with "last", "next" or "this" (in any language's words, read as these three), or
        with nothing: "last May" is the latest May before this month, "next May" the first after it."""
        today = self.today
        if modifier == "last":
            return today.year if month < today.month else today.year - 1
        if modifier == "next":
            return today.year if month > today.month else today.year + 1
        if modifier == "this":
            return today.year
        return self.pick_year_for_month(month)


def offset(b: Builder, n: int, unit: str, span: tuple[int, int]) -> TimeMention:
    today = b.today
    ref = format_date(today)
    if unit == "day":
        d = today + timedelta(days=n)
        return b.day(d, span)
    if unit in ("week", "fortnight"):
        days = 7 * n * (2 if unit == "fortnight" else 1)
        d = today + timedelta(days=days)
        count = abs(n) * (2 if unit == "fortnight" else 1)
        word = "week" if count == 1 else f"{count} weeks"
        label = f"{word} before {ref}" if n < 0 else f"{word} after {ref}"
        return b.week(d, span, f"the {label}" if count == 1 else label)
    if unit == "month":
        d = add_months(today, n)
        mention = b.month(d.year, d.month, span)
        return TimeMention(mention.start, mention.end, at_day(d, b.anchor), "month", mention.label, span)
    d = safe_date(today.year + n, today.month, min(today.day, 28)) or today
    mention = b.year(d.year, span)
    return TimeMention(mention.start, mention.end, at_day(d, b.anchor), "year", mention.label, span)


def period(b: Builder, mod: str, unit: str, span: tuple[int, int]) -> TimeMention:
    today = b.today
    step = {"last": -1, "past": -1, "previous": -1, "this": 0, "next": 1, "coming": 1}[mod]
    ref = format_date(today)
    if unit == "week":
        d = today + timedelta(days=7 * step)
        label = {-1: f"the week before {ref}", 0: f"the week of {ref}", 1: f"the week after {ref}"}[step]
        return b.week(d, span, label)
    if unit == "weekend":
        cur = today.weekday()
        if step < 0:
            back = (cur - 5) % 7
            if cur >= 5:
                back += 7
            return b.weekend(today - timedelta(days=back), span)
        ahead = (5 - cur) % 7
        if cur == 6:
            ahead = -1 if step == 0 else 6
        elif step > 0 and cur == 5:
            ahead = 7
        elif step == 0 and cur < 5 and b.tense == "past" and not b.leaning:
            ahead -= 7  # "What did I do this weekend?", asked on a Monday: the one just gone
        return b.weekend(today + timedelta(days=ahead), span)
    if unit == "month":
        d = add_months(today.replace(day=1), step)
        return b.month(d.year, d.month, span)
    return b.year(today.year + step, span)


def season(b: Builder, name: str, mod: str, year_raw: str | None, span: tuple[int, int]) -> TimeMention:
    name = "autumn" if name == "fall" else name
    today = b.today
    if year_raw:
        return b.season(name, int(year_raw), span)
    start_month = SEASONS[name]

    def bounds(year: int) -> tuple[date, date]:
        first = date(year, start_month, 1)
        return first, add_months(first, 3)

    year = today.year
    if mod in ("last", "past"):
        # The most recent one that is over: "last summer" in September is the summer just gone.
        while bounds(year)[1] > today:
            year -= 1
    elif mod == "next":
        while bounds(year)[0] <= today:
            year += 1
    elif mod == "this":
        if start_month == 12 and today.month <= 2:
            year -= 1
    else:
        # "in the summer": the current or nearest one in the direction the sentence leans.
        if b.tense == "past":
            while bounds(year)[0] > today:
                year -= 1
        else:
            while bounds(year)[1] <= today:
                year += 1
    return b.season(name, year, span)


def holiday(name: str, year: int) -> date:
    """The day of a holiday in a year."""
    if name.startswith("easter"):
        # Easter Sunday, Gregorian calendar (the anonymous computus, as in Meeus).
        a, b, c = year % 19, year // 100, year % 100
        d, e = b // 4, b % 4
        g = (8 * b + 13) // 25
        h = (19 * a + b - d - g + 15) % 30
        i, k = c // 4, c % 4
        ell = (32 + 2 * e + 2 * i - h - k) % 7
        m = (a + 11 * h + 19 * ell) // 433
        month = (h + ell - 7 * m + 90) // 25
        return date(year, month, (h + ell - 7 * m + 33 * month + 19) % 32)
    if name == "thanksgiving":  # the United States': November's fourth Thursday
        first = date(year, 11, 1)
        return first + timedelta(days=(3 - first.weekday()) % 7 + 21)
    month, day = FIXED_HOLIDAYS[name]
    return date(year, month, day)


def pick_holiday(b: Builder, name: str, mod: str) -> date:
    """Which year's holiday: the last one before today for "last" or past talk, the next one after it for
    "next" or talk of what is to come, this year's for "this", the nearest one for a question whose
    words say neither."""
    today = b.today
    if mod == "this":
        return holiday(name, today.year)
    days = [holiday(name, year) for year in (today.year - 1, today.year, today.year + 1)]
    if mod not in ("last", "next") and b.leaning:
        return min(days, key=lambda d: abs((d - today).days))
    if mod == "last" or (mod != "next" and b.tense == "past"):
        return max(d for d in days if d < today or (mod != "last" and d == today))
    return min(d for d in days if d > today or (mod != "next" and d == today))
