"""Chit-chat in other languages than English, through the extractor the worker runs (`extract_memories`):
each structure and formula class of `app.extraction.chit_chat.says_nothing_in` drops what only greets,
thanks, agrees, reacts, wishes well, guesses or says nothing of substance, and keeps a statement of the same
shape that tells something. Typing across languages: a rule for the agent, a task, an event, a fact."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app.core.memory_types import MemoryType
from app.extraction.default import extract_memories
from app.extraction.types import ExtractedMemory, InputMessage
from app.language.detect import detect

AT = datetime(2026, 3, 10, 9, 30, tzinfo=UTC)


def extracted(text: str, language: str, role: str = "user") -> list[ExtractedMemory]:
    """The memories of `text` as a message after a partner's turn, as the worker extracts a window."""
    assert detect(text).code == language, f"{text!r} is read as {detect(text).code}, not {language}"
    partner = "assistant" if role == "user" else "user"
    messages = [
        InputMessage("m0", partner, "Ayer fui a la playa con mis primos.", AT),
        InputMessage("m1", role, text, AT),
    ]
    return extract_memories(messages, new_from=1)


# (chit-chat, a statement of the same shape that tells something, language)
PAIRS = [
    # a greeting with a name, then the news
    ("¡Hola Marta! ¿Qué tal todo?", "¡Hola Marta! Me mudé a Lisboa con mi novio.", "es"),
    # thanks and its "for …" clause
    (
        "Muchas gracias por la receta de ayer.",
        "Muchas gracias, la semana que viene empiezo en Feedzai.",
        "es",
    ),
    (
        "Merci beaucoup pour ton aide, vraiment.",
        "Merci beaucoup, je commence mon nouveau travail lundi.",
        "fr",
    ),
    # an apology
    ("Lo siento mucho, de verdad.", "Lo siento, estuve ingresada en el hospital toda la semana.", "es"),
    # a well-wish
    (
        "Viel Glück bei der Prüfung morgen!",
        "Ich habe die Prüfung bestanden und studiere jetzt Medizin.",
        "de",
    ),
    (
        "Mucha suerte con la entrevista, seguro que te va genial.",
        "Mi entrevista en Zaragoza fue un desastre.",
        "es",
    ),
    # function words and formulas only
    ("Yo también, la verdad.", "Yo también me mudé a Oporto el año pasado.", "es"),
    ("Das ist echt so schön.", "Das ist mein neuer Hund, er heißt Bruno.", "de"),
    # a short guess about the partner's news, anchored to nobody
    ("Klingt nach einem tollen Plan.", "Klingt komisch, aber mein Bruder ist Astronaut.", "de"),
    ("Ça a l'air génial.", "Ça a l'air bête, mais je suis allergique aux arachides.", "fr"),
    ("Parece un sitio precioso.", "Parece mentira, pero mi hermana está embarazada de gemelos.", "es"),
    # an exclamation
    ("¡Qué frío hace!", "¡Qué ilusión, me caso con Pablo en Sevilla!", "es"),
    # Chinese: formulas and function words taken out wherever they stand
    ("谢谢你！太好了！", "谢谢你！我下个月要去上海工作了。", "zh"),
    ("我也是。", "我也是老师，在北京教数学。", "zh"),
    ("祝你玩得开心！", "我怀孕了！", "zh"),
    ("一定很冷吧。", "我辞职了，准备去德国读书。", "zh"),
    # Japanese: a wish is one only alone (the verb comes last)
    ("頑張ってね！", "頑張って、やっと司法試験に合格した！", "ja"),
    ("ありがとう！楽しそう！", "ありがとう！来月大阪に引っ越します。", "ja"),
]


@pytest.mark.parametrize(("chit_chat", "telling", "language"), PAIRS)
def test_chit_chat_is_dropped_and_the_same_shape_that_tells_is_kept(
    chit_chat: str, telling: str, language: str
) -> None:
    assert extracted(chit_chat, language) == [], chit_chat
    (memory,) = extracted(telling, language)
    # Kept as it was said; a greeting or thanks said as a sentence of its own is left out of it.
    assert memory.content in telling and len(memory.content) > len(telling) / 2


@pytest.mark.parametrize(
    "text",
    ["jajajajaja 😂", "kkkkkkkk", "😂😂😂", "!!!", "哈哈哈哈哈", "ㅋㅋㅋㅋ", "Nein, nein!", "Non, merci."],
)
def test_laughter_emoji_and_punctuation_alone_are_reactions(text: str) -> None:
    messages = [
        InputMessage("m0", "assistant", "Mi gato se llama Bruno.", AT),
        InputMessage("m1", "user", text, AT),
    ]
    assert extract_memories(messages, new_from=1) == []


def test_a_chit_chat_sentence_leaves_the_statement_beside_it() -> None:
    (memory,) = extracted("¡Hola! Mañana vuelvo a Sevilla para la boda de mi prima. ¡Un abrazo!", "es")
    assert memory.content == "Mañana vuelvo a Sevilla para la boda de mi prima."
    assert memory.type == MemoryType.EVENT


def test_a_short_reaction_stays_with_the_statement_it_reacts_to() -> None:
    # As the English rules keep "So cool." with the sentence before: the text stays whole.
    (memory,) = extracted("Hemos adoptado un perro de la protectora. ¡Precioso!", "es")
    assert memory.content == "Hemos adoptado un perro de la protectora. ¡Precioso!"
    (memory,) = extracted("Estuve en Granada. ¡Precioso!", "es")  # a short statement, then its reaction
    assert memory.content == "Estuve en Granada. ¡Precioso!"
    (memory,) = extracted("Wir haben die Wohnung in Altona bekommen!! 😄", "de")
    assert memory.content.endswith("😄")


def test_a_number_keeps_a_statement_that_would_be_a_wish() -> None:
    (memory,) = extracted("Mucha suerte, la entrevista es el 14 de junio a las 10.", "es")
    assert memory.event_time is not None and memory.event_time.date().isoformat() == "2026-06-14"


@pytest.mark.parametrize(
    ("text", "language", "kind"),
    [
        ("A partir de ahora respóndeme siempre en español, por favor.", "es", MemoryType.INSTRUCTION),
        ("Bitte antworte mir ab jetzt immer auf Deutsch.", "de", MemoryType.INSTRUCTION),
        ("以后请用中文回答我的问题。", "zh", MemoryType.INSTRUCTION),
        ("Tengo que renovar el pasaporte antes del verano.", "es", MemoryType.TASK),
        ("Je dois appeler le plombier pour la fuite.", "fr", MemoryType.TASK),
        ("提醒我交房租和水电费。", "zh", MemoryType.TASK),
        ("Mañana tengo una cita con el dentista en Valencia.", "es", MemoryType.EVENT),
        ("Mein Bruder Tiago wohnt seit Jahren in Berlin.", "de", MemoryType.FACT),
    ],
)
def test_statements_are_typed_by_cues_across_languages(text: str, language: str, kind: MemoryType) -> None:
    (memory,) = extracted(text, language)
    assert memory.type == kind


def test_the_agent_speaking_as_itself_gives_itself_no_rule() -> None:
    (memory,) = extracted(
        "A partir de ahora siempre te responderé en español, Marta.", "es", role="assistant"
    )
    assert memory.type != MemoryType.INSTRUCTION


def test_a_short_text_read_as_english_without_an_english_word_is_judged_by_the_other_languages() -> None:
    # Too short for the detector to be sure: read as English, but the English rules cannot judge it.
    for text in ("¡Hola Marta!", "Merci Paul !"):
        assert detect(text).english
        messages = [
            InputMessage("m0", "assistant", "Mi gato se llama Bruno.", AT),
            InputMessage("m1", "user", text, AT),
        ]
        assert extract_memories(messages, new_from=1) == [], text
    messages = [InputMessage("m1", "user", "¡Hola Marta! Me mudé a Lisboa", AT)]
    assert [m.content for m in extract_memories(messages)] == ["Me mudé a Lisboa"]


def after(partner: str, text: str, language: str, role: str = "user") -> list[ExtractedMemory]:
    """The memories of `text` said after the partner's turn `partner`."""
    assert detect(text).code == language, f"{text!r} is read as {detect(text).code}, not {language}"
    messages = [
        InputMessage("m0", "assistant" if role == "user" else "user", partner, AT),
        InputMessage("m1", role, text, AT),
    ]
    return extract_memories(messages, new_from=1)


@pytest.mark.parametrize(
    ("bare", "telling", "language"),
    [
        ("¿Qué tal el viaje a Granada?", "¿Es normal que me duela tanto la espalda desde que trabajo en el almacén?", "es"),
        ("Wie war denn der Urlaub in Italien?", "Meinst du, ich sollte meinen Job bei Bosch kündigen und nach Hamburg ziehen?", "de"),
        ("Et toi, tu fais quoi ce soir ?", "C'est normal que mon fils ne dorme plus depuis qu'il a commencé la crèche ?", "fr"),
        ("周末过得怎么样？", "我最近老是失眠，是不是因为换了新工作压力太大？", "zh"),
        ("週末どうだった？", "来月から大阪に転勤なんだけど、家賃の相場ってどれくらい？", "ja"),
    ],
)  # fmt: skip
def test_a_question_is_kept_when_it_tells_of_the_asker(bare: str, telling: str, language: str) -> None:
    """As in English: a question that only asks is no memory; one that carries a statement of the asker's
    own (anchored to a person, or a clause of its own before what it asks) is kept as it was said."""
    assert extracted(bare, language) == [], bare
    (memory,) = extracted(telling, language)
    assert memory.content == telling


@pytest.mark.parametrize(
    ("partner", "conversation", "telling", "language"),
    [
        (
            "el jueves tengo que llamar al seguro del coche, avísame porfa",
            "¡De nada! Aquí estoy para lo que necesites.",
            "Entendido, te avisaré para que llames al seguro del coche.",
            "es",
        ),
        (
            "j'ai encore raté l'entretien avec le client",
            "Je comprends que ce soit frustrant. Tu veux en parler un peu ?",
            "Pour l'entretien avec le client, je t'ai préparé une liste de questions.",
            "fr",
        ),
        (
            "签证材料得交上去，提醒我一下",
            "不客气！有什么需要随时找我～",
            "好的，我会提醒你提交签证材料。",
            "zh",
        ),
    ],
)
def test_the_agent_keeps_only_what_concerns_the_user(
    partner: str, conversation: str, telling: str, language: str
) -> None:
    """The assistant speaking as itself: an offer of more help or sympathy is conversation; what takes up
    the user's own matter (or names a day, a number, a standing undertaking) is kept."""
    assert after(partner, conversation, language, role="assistant") == [], conversation
    (memory,) = after(partner, telling, language, role="assistant")
    assert memory.content == telling
