"""How a day is written wherever the product shows one: answers, summaries, extracted summaries, prompts.

One formatter (`8 May 2023`: day, English month name, year), unambiguous whatever the reader's locale, so
a date reads the same in a recall answer, a summary bullet and the LLM's prompt. A date beside a memory in
another language is written as that language writes a date in full (CLDR's long form, through Babel:
"1 de abril de 2023", "1. April 2023", "2023年4月1日").
"""

from __future__ import annotations

from datetime import date, datetime

from babel import UnknownLocaleError
from babel.dates import format_date as _format_in_locale

MONTH_NAMES = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip


# ISO 639-1 codes the detector gives whose CLDR locale has another name (Norwegian: Bokmål).
_LOCALES = {"no": "nb"}


def format_date(day: datetime | date, language: str | None = None) -> str:
    """A day as answers show it: ``8 May 2023`` (a datetime's own date, in its own zone); in `language`
    (ISO 639-1) other than English, as that language writes it in full."""
    if language and language != "en":
        try:
            return str(
                _format_in_locale(
                    date(day.year, day.month, day.day), format="long", locale=_LOCALES.get(language, language)
                )
            )
        except (UnknownLocaleError, ValueError):
            pass  # a code CLDR does not know: the English form
    return f"{day.day} {MONTH_NAMES[day.month - 1]} {day.year}"
