"""Polish, added as a module and its registration alone (app/language/languages/pl.py and its line in
`MODULES`), end to end over HTTP: its small talk is left out, its tasks, standing rules and dated events
are typed as such, its cases read ("w zeszły czwartek", "3 maja", "w maju", "zeszłego lata"), and its time
questions get their windows and their memories first. (Its blind time questions are in
tests/language/test_time_questions.py with every other language's.)"""

from __future__ import annotations

from datetime import UTC, datetime

import httpx
import pytest

from app.language.detect import detect
from app.language.sentences import split_sentences
from app.language.temporal import find_time
from app.worker.runner import Worker
from tests.language.helpers import check_language_end_to_end

NOW = "2026-12-07T12:00:00+00:00"  # a Monday
# (statement, when it was said, type, event day)
STATEMENTS = [
    ("Cześć!", "2026-12-07T08:00:00+00:00", None, None),
    ("Wczoraj byłem u dentysty, wypadła mi plomba.", "2026-12-07T08:01:00+00:00", "event", "2026-12-06"),
    ("W zeszły czwartek poszliśmy z Olą do teatru.", "2026-12-07T08:02:00+00:00", "event", "2026-12-03"),
    ("Przypomnij mi, żebym zapłacił czynsz za mieszkanie.", "2026-12-07T08:03:00+00:00", "task", None),
    ("Od teraz odpowiadaj mi tylko po polsku.", "2026-12-07T08:04:00+00:00", "instruction", None),
    ("Moja siostra Ola mieszka w Gdańsku i pracuje jako lekarka.", "2026-12-07T08:05:00+00:00", "fact", None),
    ("Dzięki wielkie!", "2026-12-07T08:06:00+00:00", None, None),
    (
        "W przyszłym tygodniu lecę do Krakowa na konferencję.",
        "2026-12-07T08:07:00+00:00",
        "event",
        "2026-12-14",
    ),
]
# (question, window [start, end), the statement whose memory comes first)
QUESTIONS = [
    ("Co robiłem wczoraj?", ("2026-12-06", "2026-12-07"), 1),
    ("Co robiłem w zeszły czwartek?", ("2026-12-03", "2026-12-04"), 2),
    ("Jakie mam plany na przyszły tydzień?", ("2026-12-14", "2026-12-21"), 7),
]


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("Przedwczoraj byłam w kinie.", "2026-12-05", "2026-12-06"),
        ("Dwa tygodnie temu kupiłem rower.", "2026-11-23", "2026-11-30"),  # the week of that day
        ("3 maja byliśmy w Gdańsku.", "2026-05-03", "2026-05-04"),
        ("Zeszłego lata byliśmy nad morzem.", "2026-06-01", "2026-09-01"),
        ("W przyszłym miesiącu zaczynam nową pracę.", "2027-01-01", "2027-02-01"),
        ("W Boże Narodzenie jedziemy do dziadków.", "2026-12-25", "2026-12-26"),
        ("Co czwartek gram w tenisa.", None, None),  # a habit: no day
    ],
)
def test_polish_time_expressions(text: str, start: str | None, end: str | None) -> None:
    mention = find_time(text, datetime(2026, 12, 7, 12, tzinfo=UTC), language="pl")
    if start is None:
        assert mention is None, (text, mention)
        return
    assert mention is not None, text
    assert (mention.start.date().isoformat(), mention.end.date().isoformat()) == (start, end), text


def test_polish_is_detected_and_split_by_its_abbreviations() -> None:
    assert detect("Moja siostra mieszka w Gdańsku i pracuje jako lekarka.").code == "pl"
    assert split_sentences("Byłem u dr. Nowaka, np. w poniedziałek. Potem wróciłem.", "pl") == [
        "Byłem u dr. Nowaka, np. w poniedziałek.",
        "Potem wróciłem.",
    ]


async def test_polish_is_read_by_its_module(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    await check_language_end_to_end(client, profile_url, worker, STATEMENTS, QUESTIONS, now=NOW)
