"""The one time parser in every language the service has time words for: the day a statement names
(extraction) and the window a question asks about (recall), by the same words and rules."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app.language.detect import detect
from app.language.temporal import names_a_day, resolve_event_time

ANCHOR = datetime(2026, 3, 10, 9, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("我下个月要去东京出差，住在新宿的酒店。", "2026-04-10"),
        ("Mañana voy al médico.", "2026-03-11"),
        ("Ich war gestern im Kino.", "2026-03-09"),
        ("Am 8. Mai fliege ich nach Rom.", "2026-05-08"),
        ("Le 14 juillet on part en Bretagne.", "2026-07-14"),
        ("El 3 de mayo de 2025 nos casamos.", "2025-05-03"),
        ("会议在2026年4月2日。", "2026-04-02"),
        ("来週、大阪に行きます。", "2026-03-17"),
        ("내일 서울에 가요", "2026-03-11"),
        ("Nos vemos el 12/04.", "2026-04-12"),
        ("Treffen am 08.05. im Büro", "2026-05-08"),
        ("Esta noche cenamos en casa de Lucía.", "2026-03-10"),
        ("昨晚我们去看了电影。", "2026-03-09"),
        ("Este fin de semana voy a Granada.", "2026-03-14"),  # the anchor is a Tuesday: that Saturday
        ("上周末我们去了长城。", "2026-03-07"),
        ("Le week-end prochain on déménage.", "2026-03-14"),  # the coming one, as "next weekend" is
        ("Ich bin letztes Jahr nach Hamburg gezogen.", "2025-01-01"),  # a year stands for its first day
        ("明年我要结婚。", "2027-01-01"),
    ],
)
def test_a_named_day_is_resolved_against_the_message(text: str, day: str) -> None:
    found = resolve_event_time(text, ANCHOR, detect(text).code)
    assert found is not None and found.date().isoformat() == day


@pytest.mark.parametrize(
    "text", ["Mein Bruder Tiago wohnt in Berlin.", "Pesa 3.5 kilos.", "Tengo 30 años.", "Morgens laufe ich."]
)
def test_no_day_where_none_is_named(text: str) -> None:
    assert resolve_event_time(text, ANCHOR, detect(text).code) is None


@pytest.mark.parametrize(
    ("text", "language", "day"),
    [
        ("Hier on a fêté l'anniversaire de Léa.", "fr", "2026-03-09"),
        ("Ich wohne hier seit drei Jahren.", "de", None),  # German "hier" is "here"
        ("Por la mañana trabajo en la panadería.", "es", None),  # in the morning, not tomorrow
        ("Esta mañana fui al dentista.", "es", "2026-03-10"),
        ("Mañana por la mañana vuelo a Roma.", "es", "2026-03-11"),
        ("Am Morgen gehe ich joggen.", "de", None),
        ("Heute Morgen war ich beim Arzt.", "de", "2026-03-10"),
        ("Morgen fliege ich nach Wien.", "de", "2026-03-11"),
        ("어제 부산에 갔어요", "ko", "2026-03-09"),
        # a month without a day: its first day, in the message's year (a statement says no tense)
        ("Me mudo a Lisboa en octubre por trabajo.", "es", "2026-10-01"),
        ("Meine Schwester heiratet im August.", "de", "2026-08-01"),
        ("Ich arbeite seit Januar bei der Sparkasse.", "de", None),  # since: a state, not a day
        ("Non ci sono mai stato.", "it", None),  # Italian "mai" is "never"
        # weekdays (the anchor is a Tuesday): next or last as said, else the nearest, never a habit
        ("El jueves tengo que llamar al seguro.", "es", "2026-03-12"),
        ("El jueves pasado fui al médico.", "es", "2026-03-05"),
        ("Los jueves voy al gimnasio.", "es", None),
        ("Letzten Freitag war ich krank.", "de", "2026-03-06"),
        ("Donnerstags gehe ich schwimmen.", "de", None),
        ("Le jeudi je fais du yoga.", "fr", None),
        ("É a segunda vez que vou lá.", "pt", None),  # "segunda" alone is "second"
        ("上周四我去了医院。", "zh", "2026-03-05"),
        ("下周二要交材料。", "zh", "2026-03-17"),
        ("每周一开会。", "zh", None),
        ("先週の木曜日に病院に行った。", "ja", "2026-03-05"),
        ("지난주 목요일에 병원에 갔어요", "ko", "2026-03-05"),
    ],
)
def test_relative_days_are_read_in_their_own_language(text: str, language: str, day: str | None) -> None:
    found = resolve_event_time(text, ANCHOR, language)
    assert (found.date().isoformat() if found else None) == day
    assert names_a_day(text, language) is (day is not None)


def test_a_named_day_is_seen_whatever_the_day_it_is_read_against() -> None:
    assert names_a_day("Hasta mañana") and names_a_day("Am 8. Mai") and names_a_day("下个月")
    assert not names_a_day("Tengo 30 años") and not names_a_day("Me encanta el sushi")
