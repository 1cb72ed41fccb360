"""Cues read from a statement in any language: sentence ends, questions, rules for the agent and things to
be done (the day a statement names: tests/language/test_time_languages.py)."""

from __future__ import annotations

import pytest

from app.language.cues import asks_for_a_rule, is_question, names_a_task
from app.language.formulas import fold
from app.language.sentences import split_sentences


def test_korean_and_japanese_are_folded_as_written() -> None:
    """Folding strips accents ("Adiós" → "adios"); Hangul syllables and voiced kana are letters of their
    own, not a base letter with a mark: a Korean cue is found in Korean text, and only there."""
    assert fold("앞으로 반말로") == "앞으로 반말로" and fold("がんばって") == "がんばって"
    assert fold("ÉCOLE Adiós") == "ecole adios"
    assert asks_for_a_rule("앞으로는 반말로 편하게 대답해줘")
    assert not asks_for_a_rule("아버지는 항상 반지를 끼고 계세요")  # always, and no request of the agent


def test_statements_and_questions() -> None:
    assert split_sentences("我要去东京。你呢？ Hola. ¿Qué tal?\nBien") == [
        "我要去东京。",
        "你呢？",
        "Hola.",
        "¿Qué tal?",
        "Bien",
    ]
    # One splitter for every language: its abbreviations and initials end no sentence, a CJK mark needs no
    # space after it, a list item's marker is layout.
    assert split_sentences("Fui con la Sra. García y J. Pérez. Después cenamos.", "es") == [
        "Fui con la Sra. García y J. Pérez.",
        "Después cenamos.",
    ]
    assert split_sentences("Dr. Lee said hi, e.g. to Ann. Then we left.\n- milk\n- eggs", "en") == [
        "Dr. Lee said hi, e.g. to Ann.",
        "Then we left.",
        "milk",
        "eggs",
    ]
    assert split_sentences(
        "Приеду в пятницу, т.е. через неделю. Куплю хлеб, молоко и т.д. Потом домой.", "ru"
    ) == [
        "Приеду в пятницу, т.е. через неделю.",
        "Куплю хлеб, молоко и т.д.",
        "Потом домой.",
    ]
    assert is_question("¿Qué comida le gusta?") and is_question("东京出差住在哪里？")
    assert not is_question("Me encanta el sushi.")


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
