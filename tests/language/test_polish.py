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
    messages = [{"role": "user", "content": text, "timestamp": at} for text, at, _, _ in STATEMENTS]
    response = await client.post(f"{profile_url}/ingest", json={"sessionId": "s1", "messages": messages})
    assert response.status_code == 202, response.text
    await worker.drain()
    listed = (await client.get(f"{profile_url}/memories", params={"limit": 100})).json()["memories"]
    by_summary = {m["summary"]: m for m in listed}
    for text, _, kind, day in STATEMENTS:
        memory = by_summary.get(text)
        if kind is None:
            assert memory is None, f"small talk is left out: {text}"
            continue
        assert memory is not None and memory["type"] == kind, (text, memory, list(by_summary))
        assert (memory["eventTime"] or "")[:10] == (day or ""), (text, memory)
    for question, (start, end), index in QUESTIONS:
        query = {"query": question, "referenceDate": NOW, "trace": True}
        found = (await client.post(f"{profile_url}/recall", json=query)).json()
        window = found["trace"]["analysis"]["timeWindow"]
        assert window is not None, (question, found["trace"])
        got = (datetime.fromisoformat(window["start"]).date(), datetime.fromisoformat(window["end"]).date())
        assert tuple(d.isoformat() for d in got) == (start, end), (question, window)
        assert found["candidates"][0]["summary"] == STATEMENTS[index][0], (question, found["candidates"][:2])
