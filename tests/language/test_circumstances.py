"""Lasting circumstances of a person (work, home, family, health, likes) read in the statement's own
language, for the summary's Key Facts; a passing remark tells none."""

from __future__ import annotations

import pytest

from app.language.circumstances import tells_a_circumstance


@pytest.mark.parametrize(
    ("text", "config", "lasting"),
    [
        ("I work as a nurse at the children's hospital.", "english", True),
        ("The train was packed again.", "english", False),
        ("Trabajo en Feedzai desde marzo.", "spanish", True),
        ("El equipo nacional ganó anoche.", "spanish", False),  # "naci" is a whole word: I was born
        ("Son las cinco y sigue lloviendo.", "spanish", False),  # Swedish "son" is read in Swedish only
        ("Ich bin allergisch gegen Nüsse.", "german", True),
        ("Das Magazin ist heute erschienen.", "german", False),
        ("Je suis à la fac depuis septembre.", "french", True),
        ("C'est facile à dire.", "french", False),
        ("Min man heter Erik.", "swedish", True),
        ("Man kan aldrig veta.", "swedish", False),
        ("我在腾讯做服务器开发。", "simple", True),
        ("地铁特别挤，人太多了。", "simple", False),
        ("猫が大好きです。", "simple", True),
        ("여동생이 서울에 살아요.", "simple", True),
        ("Мой брат живёт в Казани и работает врачом.", "russian", True),
        ("Поезд опять опоздал на двадцать минут.", "russian", False),
    ],
)
def test_a_lasting_circumstance_is_read_in_its_language(text: str, config: str, lasting: bool) -> None:
    assert tells_a_circumstance(text, config) is lasting
