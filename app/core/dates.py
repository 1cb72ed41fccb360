"""How a day is written wherever the product shows one: answers, summaries, extracted summaries, prompts.

One formatter (`8 May 2023`: day, English month name, year), unambiguous whatever the reader's locale, so
a date reads the same in a recall answer, a summary bullet and the LLM's prompt.
"""

from __future__ import annotations

from datetime import date, datetime

MONTH_NAMES = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip


def format_date(day: datetime | date) -> str:
    """A day as answers show it: ``8 May 2023`` (a datetime's own date, in its own zone)."""
    return f"{day.day} {MONTH_NAMES[day.month - 1]} {day.year}"
