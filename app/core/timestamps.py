"""Timestamp types for request bodies: refused (422) when the time has no UTC form in Python's calendar.

Any RFC 3339 offset is accepted and kept, but `0001-01-01T00:00:00+14:00` is year 0 in UTC and
`9999-12-31T23:59:59-14:00` year 10000: neither has a Python `datetime`, so the driver's conversion to UTC
on the way to PostgreSQL failed with a 500. The two very ends of the calendar are refused too: asyncpg
stores them as -infinity and infinity, which read back as times without a zone.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated

from pydantic import AfterValidator, AwareDatetime

OUT_OF_RANGE = "must fall within the years 1–9999 once converted to UTC, ends excluded"
_ENDS = (datetime.min.replace(tzinfo=UTC), datetime.max.replace(tzinfo=UTC))


def has_utc_form(value: datetime) -> bool:
    try:
        utc = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    except OverflowError:
        return False
    return utc not in _ENDS


def _in_utc_range(value: datetime) -> datetime:
    if not has_utc_form(value):
        raise ValueError(OUT_OF_RANGE)
    return value


Timestamp = Annotated[datetime, AfterValidator(_in_utc_range)]
AwareTimestamp = Annotated[AwareDatetime, AfterValidator(_in_utc_range)]


def earlier_by(moment: datetime, period: timedelta) -> datetime:
    """`moment` − `period`, or the calendar's first instant when that would fall before it (a message of
    year 1 looks back no further)."""
    first = datetime.min.replace(tzinfo=moment.tzinfo)
    return moment - period if moment - first > period else first
