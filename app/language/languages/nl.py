"""Dutch: its time words (the other parts of its rules are still in `app.language.formulas` and
`app.language.cues`)."""

from app.language.time_words import TimeWords

# How a question asks what was done or is planned, its interrogatives and light verbs ("¿Qué hice…?",
# "Was habe ich … gemacht?", "我…干了啥"): a question of these and a time asks for that time's memories.
QUESTION_WORDS = "wat|heb|deed|gedaan|doe|doen|gebeurd|ik"

TIME = TimeWords(
    relative={
        "vandaag": ("day", 0), "vanavond": ("day", 0), "vanmiddag": ("day", 0), "vanochtend": ("day", 0),
        "vanmorgen": ("day", 0), "morgen": ("day", 1), "overmorgen": ("day", 2), "gisteren": ("day", -1),
        "gisteravond": ("day", -1), "eergisteren": ("day", -2),
        "volgende week": ("week", 1), "vorige week": ("week", -1), "deze week": ("week", 0),
        "volgende maand": ("month", 1), "vorige maand": ("month", -1), "deze maand": ("month", 0),
        "dit weekend": ("weekend", 0), "vorig weekend": ("weekend", -1), "volgend weekend": ("weekend", 1),
        "vorig jaar": ("year", -1), "volgend jaar": ("year", 1), "dit jaar": ("year", 0),
        "goedemorgen": None, "goede morgen": None, "'s morgens": None,
    },
    weekdays="maandag;dinsdag;woensdag;donderdag;vrijdag;zaterdag;zondag",
    last="vorige|afgelopen", this="deze", next="volgende|komende", habit="elke|iedere",
    months="januari;februari;maart;april;mei;juni;juli;augustus;september;oktober;november;december",
    month_before="in|begin|eind|half",
    season_before="in de|deze|afgelopen",
    holiday_before="met|rond|na|voor|sinds|tot",
    seasons="lente|voorjaar;zomer;herfst|najaar;winter",
    numbers="een|één;twee;drie;vier;vijf;zes;zeven;acht;negen;tien",
    units={"dag": "day", "dagen": "day", "week": "week", "weken": "week", "maand": "month", "maanden": "month",
           "jaar": "year", "jaren": "year"},
    ago="{n} {u} geleden", later="over {n} {u}",
    holidays={"christmas": "kerst|kerstmis", "christmas eve": "kerstavond", "new years eve": "oudejaarsavond|oud en nieuw",
              "new years day": "nieuwjaarsdag", "easter": "pasen"},
    since="sinds",
    future="ga|gaat|gaan|zal|zullen|van plan",
    past="heb|hebt|heeft|hebben|had|hadden|was|waren|deed|deden",
)  # fmt: skip
