"""The shape of a statement in another language than English (`app.language.shapes`), through the extractor
the worker runs: a hypothetical, a one-off request to the agent, thanks with a word of praise and a remark
about the world that names no one are dropped, and a statement of the same shape that tells something of
someone is kept; a request that names how the agent answers or holds a standing condition, and a
prohibition, are rules; a past action is an event; a reminder the agent undertakes is a task. Every
language module gives each shape or says it has none."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app.core.memory_types import MemoryType
from app.extraction.default import extract_memories
from app.extraction.types import ExtractedMemory, InputMessage
from app.language.detect import detect
from app.language.languages import MODULES
from app.language.parts import SHAPES

AT = datetime(2026, 3, 10, 9, 30, tzinfo=UTC)


def extracted(
    text: str, language: str, role: str = "user", partner_said: str = "Vale."
) -> list[ExtractedMemory]:
    assert detect(text).code == language, f"{text!r} is read as {detect(text).code}, not {language}"
    partner = "assistant" if role == "user" else "user"
    messages = [InputMessage("m0", partner, partner_said, AT), InputMessage("m1", role, text, AT)]
    return extract_memories(messages, new_from=1)


# (what tells nothing that lasts, a statement of the same shape that tells something, language)
PAIRS = [
    # a hypothetical against a plan
    (
        "Si tuviera un barco navegaría por todo el Mediterráneo.",
        "Si llueve el sábado me quedo en casa.",
        "es",
    ),
    (
        "Wenn ich reich wäre, würde ich eine Insel kaufen.",
        "Ich habe letztes Jahr ein Haus in Graz gekauft.",
        "de",
    ),
    ("Se avessi le ali volerei fino in Sardegna.", "Mio fratello vive in Sardegna da dieci anni.", "it"),
    (
        "Si j'étais un oiseau je partirais vers le sud.",
        "Je pars vers le sud avec mes parents en juillet.",
        "fr",
    ),
    ("要是我会飞就好了", "我下个月要飞去成都出差", "zh"),
    # a one-off request against a reminder asked for
    ("Cuéntame algo interesante sobre los pulpos.", "Recuérdame que tengo que llamar a mi abuela.", "es"),
    ("Erzähl mir was über Vulkane.", "Erinnere mich bitte daran, den Pass zu verlängern.", "de"),
    ("Raconte-moi une histoire de pirates.", "Rappelle-moi d'appeler le garagiste.", "fr"),
    ("Me explica como funciona a bolsa de valores.", "Me lembra de pagar o aluguel na sexta.", "pt"),
    # thanks and a word of praise against thanks and news
    ("Muchas gracias, genial como siempre.", "Gracias, al final me dieron el piso en Valencia.", "es"),
    ("Danke dir, echt super erklärt!", "Danke, ich habe die Stelle in Leipzig bekommen.", "de"),
    # a remark about the world against one about oneself
    (
        "Les trains de banlieue sont toujours en retard.",
        "Mon train de banlieue est toujours en retard.",
        "fr",
    ),
    ("Die Mieten in München sind einfach absurd.", "Meine Miete in München ist einfach absurd.", "de"),
    # a remark about the world against one that opens with a name, its article after the name's verb
    (
        "Los alquileres en Madrid están por las nubes.",
        "Luna necesita la vacuna antes de junio.",
        "es",
    ),
    ("O trânsito de São Paulo está cada vez pior.", "Paulo comprou o carro novo.", "pt"),
]


@pytest.mark.parametrize(("idle", "telling", "language"), PAIRS)
def test_an_idle_shape_is_dropped_and_the_same_shape_that_tells_is_kept(
    idle: str, telling: str, language: str
) -> None:
    assert extracted(idle, language) == []
    assert extracted(telling, language) != []


@pytest.mark.parametrize(
    ("text", "language", "kind"),
    [
        ("Háblame siempre de usted, por favor.", "es", MemoryType.INSTRUCTION),
        ("Cuando te pida una receta, ponla para cuatro personas.", "es", MemoryType.INSTRUCTION),
        ("No me pongas nunca listas larguísimas.", "es", MemoryType.INSTRUCTION),
        ("以后别给我发那么长的回答", "zh", MemoryType.INSTRUCTION),
        ("Ayer me compré una bicicleta de montaña.", "es", MemoryType.EVENT),
        ("Ho finito il corso di fotografia.", "it", MemoryType.EVENT),
        ("Vivo en Bilbao con mi pareja.", "es", MemoryType.FACT),
    ],
)
def test_shapes_type_what_is_kept(text: str, language: str, kind: MemoryType) -> None:
    memories = extracted(text, language)
    assert [m.type for m in memories] == [kind], memories


def test_a_reminder_the_agent_undertakes_is_a_task() -> None:
    memories = extracted(
        "Claro, te recuerdo el jueves que tienes que renovar el carnet.",
        "es",
        role="assistant",
        partner_said="recuérdame el jueves lo del carnet",
    )
    assert [m.type for m in memories] == [MemoryType.TASK]


def test_an_answer_to_the_partners_question_is_kept_whatever_its_shape() -> None:
    remark = "Los pasteles de la boda estaban buenísimos, la verdad."
    assert extracted(remark, "es") == []
    assert extracted(remark, "es", partner_said="¿Qué tal los pasteles de la boda?") != []


def test_every_language_module_gives_each_shape_or_says_it_has_none() -> None:
    for code, module in MODULES.items():
        lacks = getattr(module, "LACKS", {})
        for part in SHAPES:
            assert (getattr(module, part, None) is not None) != (part in lacks), (code, part)
