"""Cues read from a statement in any language: sentence ends, questions, the day a date names, rules for the
agent and things to be done."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app.language.cues import (
    asks_for_a_rule,
    date_mentioned,
    is_question,
    names_a_day,
    names_a_task,
    split_statements,
)
from app.language.formulas import fold

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
        ("Le week-end prochain on déménage.", "2026-03-21"),
        ("Ich bin letztes Jahr nach Hamburg gezogen.", "2025-01-01"),  # a year stands for its first day
        ("明年我要结婚。", "2027-01-01"),
    ],
)
def test_a_named_day_is_resolved_against_the_message(text: str, day: str) -> None:
    found = date_mentioned(text, ANCHOR)
    assert found is not None and found.date().isoformat() == day


@pytest.mark.parametrize(
    "text", ["Mein Bruder Tiago wohnt in Berlin.", "Pesa 3.5 kilos.", "Tengo 30 años.", "Morgens laufe ich."]
)
def test_no_day_where_none_is_named(text: str) -> None:
    assert date_mentioned(text, ANCHOR) is None


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
        # a month without a day: its first day, in the message's year
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
    found = date_mentioned(text, ANCHOR, language)
    assert (found.date().isoformat() if found else None) == day
    assert names_a_day(text, language) is (day is not None)


def test_korean_and_japanese_are_folded_as_written() -> None:
    """Folding strips accents ("Adiós" → "adios"); Hangul syllables and voiced kana are letters of their
    own, not a base letter with a mark: a Korean cue is found in Korean text, and only there."""
    assert fold("앞으로 반말로") == "앞으로 반말로" and fold("がんばって") == "がんばって"
    assert fold("ÉCOLE Adiós") == "ecole adios"
    assert asks_for_a_rule("앞으로는 반말로 편하게 대답해줘")
    assert not asks_for_a_rule("아버지는 항상 반지를 끼고 계세요")  # always, and no request of the agent


def test_statements_and_questions() -> None:
    assert split_statements("我要去东京。你呢？ Hola. ¿Qué tal?\nBien") == [
        "我要去东京。",
        "你呢？",
        "Hola.",
        "¿Qué tal?",
        "Bien",
    ]
    assert is_question("¿Qué comida le gusta?") and is_question("东京出差住在哪里？")
    assert not is_question("Me encanta el sushi.")


def test_a_named_day_is_seen_whatever_the_day_it_is_read_against() -> None:
    assert names_a_day("Hasta mañana") and names_a_day("Am 8. Mai") and names_a_day("下个月")
    assert not names_a_day("Tengo 30 años") and not names_a_day("Me encanta el sushi")


@pytest.mark.parametrize(
    "text",
    [
        "A partir de ahora respóndeme en español.",
        "Bitte antworte immer auf Deutsch.",
        "Désormais, réponds-moi en français.",
        "D'ora in poi scrivimi in italiano.",
        "以后请用中文回答。",
        "今後は日本語で答えてください。",
    ],
)
def test_a_standing_rule_for_the_agent_in_any_language(text: str) -> None:
    assert asks_for_a_rule(text), text


@pytest.mark.parametrize(
    "text",
    [
        "A partir de ahora voy al gimnasio los lunes.",  # from now on, but nothing about the agent
        "Mi hermano siempre escribe poemas.",  # always, but no request
        "Ich habe immer Hunger.",
        "我以后想去日本。",
    ],
)
def test_no_rule_without_both_cues(text: str) -> None:
    assert not asks_for_a_rule(text), text


@pytest.mark.parametrize(
    ("text", "task"),
    [
        ("Tengo que renovar el pasaporte.", True),
        ("Erinnere mich an den Zahnarzttermin.", True),
        ("Je dois appeler le plombier.", True),
        ("提醒我交房租。", True),
        ("明日までに報告書を出さなきゃ。", True),
        ("금요일까지 집주인한테 말해줘야 됨", True),  # Korean obligation: -아/어야 되다 / 하다, any verb
        ("Todo bien por aquí, vivo en Valencia.", False),  # "todo" is "everything"
        ("Mein Bruder wohnt in Berlin.", False),
        ("我记得他叫Tom。", False),
    ],
)
def test_something_to_be_done_in_any_language(text: str, task: bool) -> None:
    assert names_a_task(text) is task, text
