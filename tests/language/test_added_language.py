"""A language added as a module and its registration alone (Russian: app/language/languages/ru.py and its
line in `MODULES`), end to end over HTTP: its small talk is left out, its tasks, standing rules and dated
events are typed as such, and its time questions get their windows and their memories first."""

from __future__ import annotations

import httpx

from app.worker.runner import Worker
from tests.language.helpers import check_language_end_to_end

NOW = "2026-12-07T12:00:00+00:00"  # a Monday
# (statement, when it was said, type, event day)
STATEMENTS = [
    ("Привет!", "2026-12-07T08:00:00+00:00", None, None),
    ("Вчера я ходил к стоматологу, пломба выпала.", "2026-12-07T08:01:00+00:00", "event", "2026-12-06"),
    ("В прошлый четверг мы с Ольгой ходили в театр.", "2026-12-07T08:02:00+00:00", "event", "2026-12-03"),
    ("Напомни мне оплатить квартиру до пятницы.", "2026-12-07T08:03:00+00:00", "task", None),
    ("С этого момента отвечай мне только на русском.", "2026-12-07T08:04:00+00:00", "instruction", None),
    ("Моя сестра Ольга живёт в Новосибирске и работает врачом.", "2026-12-07T08:05:00+00:00", "fact", None),
    ("Спасибо большое!", "2026-12-07T08:06:00+00:00", None, None),
    (
        "На следующей неделе я лечу в Казань на конференцию.",
        "2026-12-07T08:07:00+00:00",
        "event",
        "2026-12-14",
    ),
]
# (question, window [start, end), the statement whose memory comes first)
QUESTIONS = [
    ("Что я делал вчера?", ("2026-12-06", "2026-12-07"), 1),
    ("Что я делал в прошлый четверг?", ("2026-12-03", "2026-12-04"), 2),
    ("Какие у меня планы на следующей неделе?", ("2026-12-14", "2026-12-21"), 7),
]


async def test_russian_is_read_by_its_module(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    await check_language_end_to_end(
        client, profile_url, worker, STATEMENTS, QUESTIONS, now=NOW, language="ru"
    )
