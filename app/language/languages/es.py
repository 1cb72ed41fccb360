"""Spanish: its time words (the other parts of its rules are still in `app.language.formulas` and
`app.language.cues`)."""

from app.language.time_words import TimeWords

# How a question asks what was done or is planned, its interrogatives and light verbs ("¿Qué hice…?",
# "Was habe ich … gemacht?", "我…干了啥"): a question of these and a time asks for that time's memories.
QUESTION_WORDS = "qué|que|hice|hiciste|hizo|hicimos|hago|haces|hace|hacemos|hacer|haré|harás|pasó|ocurrió|tengo|tenía|tuve|plan|planes|yo"

TIME = TimeWords(
    relative={
        "hoy": ("day", 0), "esta noche": ("day", 0), "esta tarde": ("day", 0), "esta mañana": ("day", 0),
        "mañana": ("day", 1), "pasado mañana": ("day", 2), "ayer": ("day", -1), "anoche": ("day", -1),
        "anteayer": ("day", -2), "antier": ("day", -2), "antes de ayer": ("day", -2),
        "la semana que viene": ("week", 1), "la próxima semana": ("week", 1), "la semana pasada": ("week", -1),
        "esta semana": ("week", 0), "el mes que viene": ("month", 1), "el próximo mes": ("month", 1),
        "el mes pasado": ("month", -1), "este mes": ("month", 0),
        "este fin de semana": ("weekend", 0), "este finde": ("weekend", 0),
        "el fin de semana pasado": ("weekend", -1), "el finde pasado": ("weekend", -1),
        "el próximo fin de semana": ("weekend", 1), "el finde que viene": ("weekend", 1),
        "el fin de semana que viene": ("weekend", 1),
        "el año pasado": ("year", -1), "el año que viene": ("year", 1), "el próximo año": ("year", 1),
        "este año": ("year", 0),
        "por la mañana": None, "de la mañana": None, "la mañana": None, "las mañanas": None,
        "cada mañana": None, "toda la mañana": None,
    },
    weekdays="lunes;martes;miércoles;jueves;viernes;sábado;domingo",
    last="pasado|pasada|último|última|el pasado|la pasada", this="este|esta", next="próximo|próxima|que viene",
    habit="los|todos los|cada",
    months="enero;febrero;marzo;abril;mayo;junio;julio;agosto;septiembre|setiembre;octubre;noviembre;diciembre",
    month_before="en|para|en el mes de|a principios de|a finales de|a mediados de",
    season_before="en|en el|en la|durante el|durante la",
    holiday_before="en|por|para|desde|hasta|antes de|después de|la|el|en la|por la|para la|esta|este",
    of="de|del",
    seasons="primavera;verano;otoño;invierno",
    numbers="un|una|uno;dos;tres;cuatro;cinco;seis;siete;ocho;nueve;diez",
    units={"día": "day", "días": "day", "semana": "week", "semanas": "week", "mes": "month", "meses": "month",
           "año": "year", "años": "year"},
    ago="hace {n} {u}", later="dentro de {n} {u}|en {n} {u}",
    holidays={"christmas": "navidad|navidades|el día de navidad", "christmas eve": "nochebuena",
              "new years eve": "nochevieja", "new years day": "año nuevo", "easter": "semana santa|pascua"},
    since="desde",
    future="voy a|vas a|va a|vamos a|van a|iré|haré|tendré|será|pienso|planeo",
    past="hice|hiciste|hizo|hicimos|fui|fuiste|fue|fuimos|estuve|estuviste|pasé|pasaste|tuve|he|has|ha|hemos|había",
)  # fmt: skip
