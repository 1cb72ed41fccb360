"""Swedish: its time words (the other parts of its rules are still in `app.language.formulas` and
`app.language.cues`)."""

from app.language.time_words import TimeWords

# How a question asks what was done or is planned, its interrogatives and light verbs ("¿Qué hice…?",
# "Was habe ich … gemacht?", "我…干了啥"): a question of these and a time asks for that time's memories.
QUESTION_WORDS = "vad|gjorde|gör|göra|hände|jag"

TIME = TimeWords(
    relative={
        "idag": ("day", 0), "i dag": ("day", 0), "ikväll": ("day", 0), "i kväll": ("day", 0),
        "imorgon": ("day", 1), "i morgon": ("day", 1), "igår": ("day", -1), "i går": ("day", -1),
        "i förrgår": ("day", -2), "nästa vecka": ("week", 1), "förra veckan": ("week", -1), "den här veckan": ("week", 0),
        "nästa månad": ("month", 1), "förra månaden": ("month", -1),
        "i helgen": ("weekend", 0), "förra helgen": ("weekend", -1), "nästa helg": ("weekend", 1),
        "förra året": ("year", -1), "i fjol": ("year", -1), "nästa år": ("year", 1), "i år": ("year", 0),
    },
    weekdays="måndag;tisdag;onsdag;torsdag;fredag;lördag;söndag",
    last="förra|i förra", this="nu på|på", next="nästa|kommande", habit="varje|alla",
    months="januari;februari;mars;april;maj;juni;juli;augusti;september;oktober;november;december",
    month_before="i|i början av|i slutet av",
    season_before="i|under",
    holiday_before="i|till|på|efter|före|sedan",
    seasons="våras|vår;somras|sommar;höstas|höst;vintras|vinter",
    numbers="en|ett;två;tre;fyra;fem;sex;sju;åtta;nio;tio",
    units={"dag": "day", "dagar": "day", "vecka": "week", "veckor": "week", "månad": "month", "månader": "month",
           "år": "year"},
    ago="för {n} {u} sedan", later="om {n} {u}",
    holidays={"christmas": "jul|juldagen", "christmas eve": "julafton", "new years eve": "nyårsafton",
              "new years day": "nyårsdagen", "easter": "påsk"},
    since="sedan",
    future="ska|kommer att|tänker|planerar",
    past="har|hade|var|gjorde",
)  # fmt: skip
