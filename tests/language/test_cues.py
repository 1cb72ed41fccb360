"""Cues read from a statement in any language: sentence ends, questions, courtesies, the day a date names."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app.language.cues import date_mentioned, is_courtesy, is_question, split_statements

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


def test_statements_questions_and_courtesies() -> None:
    assert split_statements("我要去东京。你呢？ Hola. ¿Qué tal?\nBien") == [
        "我要去东京。",
        "你呢？",
        "Hola.",
        "¿Qué tal?",
        "Bien",
    ]
    assert is_question("¿Qué comida le gusta?") and is_question("东京出差住在哪里？")
    assert not is_question("Me encanta el sushi.")
    for text in ("¡Hola!", "Danke schön!", "谢谢！", "...", "jajaja"):
        assert is_courtesy(text), text
    for text in ("🦄", "Hola Marta, me mudé a Lisboa.", "谢谢你的礼物，我很喜欢。"):
        assert not is_courtesy(text), text
