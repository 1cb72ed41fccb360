"""French: its time words (the other parts of its rules are still in `app.language.formulas` and
`app.language.cues`)."""

from app.language.time_words import TimeWords

# How a question asks what was done or is planned, its interrogatives and light verbs ("¿Qué hice…?",
# "Was habe ich … gemacht?", "我…干了啥"): a question of these and a time asks for that time's memories.
QUESTION_WORDS = "qu'est-ce|qu'est|quoi|que|qu|fait|fais|faire|ferai|passé|prévu|j'ai|ai|est-ce|je|j"

TIME = TimeWords(
    relative={
        "aujourd'hui": ("day", 0), "ce soir": ("day", 0), "cet après-midi": ("day", 0), "ce matin": ("day", 0),
        "demain": ("day", 1), "après-demain": ("day", 2), "hier": ("day", -1), "hier soir": ("day", -1),
        "avant-hier": ("day", -2),
        "la semaine prochaine": ("week", 1), "la semaine dernière": ("week", -1), "cette semaine": ("week", 0),
        "le mois prochain": ("month", 1), "le mois dernier": ("month", -1), "ce mois-ci": ("month", 0),
        "ce week-end": ("weekend", 0), "ce weekend": ("weekend", 0),
        "le week-end dernier": ("weekend", -1), "le weekend dernier": ("weekend", -1),
        "le week-end prochain": ("weekend", 1), "le weekend prochain": ("weekend", 1),
        "l'année dernière": ("year", -1), "l'an dernier": ("year", -1), "l'année passée": ("year", -1),
        "l'année prochaine": ("year", 1), "l'an prochain": ("year", 1), "cette année": ("year", 0),
    },
    weekdays="lundi;mardi;mercredi;jeudi;vendredi;samedi;dimanche",
    last="dernier|dernière|passé|passée", this="ce|cet|cette", next="prochain|prochaine",
    habit="le|les|tous les|chaque",
    months="janvier;février;mars;avril;mai;juin;juillet;août;septembre;octobre;novembre;décembre",
    month_before="en|au mois de|début|fin|mi|courant",
    season_before="en|au|cet|pendant l'|pendant l",
    holiday_before="à|a|pour|avant|après|depuis|jusqu'à|le jour de",
    seasons="printemps;été;automne;hiver",
    numbers="un|une;deux;trois;quatre;cinq;six;sept;huit;neuf;dix",
    units={"jour": "day", "jours": "day", "semaine": "week", "semaines": "week", "mois": "month", "an": "year",
           "ans": "year", "année": "year", "années": "year"},
    ago="il y a {n} {u}|ça fait {n} {u}", later="dans {n} {u}",
    holidays={"christmas": "noël|noel", "christmas eve": "la veille de noël|réveillon de noël",
              "new years eve": "la saint-sylvestre|réveillon du nouvel an", "new years day": "nouvel an|jour de l'an",
              "easter": "pâques"},
    since="depuis",
    future="vais|vas|va|allons|allez|vont|ferai|serai|irai|prévois|compte",
    past="ai|as|avons|avez|ont|avais|avait|étais|était|suis allé|suis allée",
)  # fmt: skip
