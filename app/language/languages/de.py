"""German: its time words (the other parts of its rules are still in `app.language.formulas` and
`app.language.cues`)."""

from app.language.time_words import TimeWords

# How a question asks what was done or is planned, its interrogatives and light verbs ("¿Qué hice…?",
# "Was habe ich … gemacht?", "我…干了啥"): a question of these and a time asks for that time's memories.
QUESTION_WORDS = "was|habe|hab|hast|hat|haben|hatte|gemacht|mache|mach|machst|macht|machen|passiert|los|geplant|ich|denn|eigentlich"

TIME = TimeWords(
    relative={
        "heute": ("day", 0), "heute abend": ("day", 0), "heute morgen": ("day", 0), "heute nachmittag": ("day", 0),
        "morgen": ("day", 1), "übermorgen": ("day", 2), "gestern": ("day", -1), "gestern abend": ("day", -1),
        "vorgestern": ("day", -2),
        "nächste woche": ("week", 1), "nächsten woche": ("week", 1), "kommende woche": ("week", 1),
        "letzte woche": ("week", -1), "letzten woche": ("week", -1), "vorige woche": ("week", -1),
        "vergangene woche": ("week", -1), "diese woche": ("week", 0),
        "nächsten monat": ("month", 1), "nächster monat": ("month", 1), "kommenden monat": ("month", 1),
        "letzten monat": ("month", -1), "letzter monat": ("month", -1), "vorigen monat": ("month", -1),
        "vergangenen monat": ("month", -1), "diesen monat": ("month", 0),
        "dieses wochenende": ("weekend", 0), "am wochenende": ("weekend", 0), "diesem wochenende": ("weekend", 0),
        "letztes wochenende": ("weekend", -1), "letzten wochenende": ("weekend", -1),
        "vergangenes wochenende": ("weekend", -1), "vergangenen wochenende": ("weekend", -1),
        "nächstes wochenende": ("weekend", 1), "nächsten wochenende": ("weekend", 1),
        "letztes jahr": ("year", -1), "letzten jahr": ("year", -1), "voriges jahr": ("year", -1),
        "vergangenes jahr": ("year", -1), "nächstes jahr": ("year", 1), "nächsten jahr": ("year", 1),
        "dieses jahr": ("year", 0),
        "am morgen": None, "guten morgen": None, "jeden morgen": None, "den ganzen morgen": None,
        "morgens": None,
    },
    weekdays="montag;dienstag;mittwoch;donnerstag;freitag;samstag|sonnabend;sonntag",
    last="letzten|letzter|letztes|letzte|vergangenen|vergangener|vergangenes|vorigen|voriger|vorletzten",
    this="diesen|dieser|dieses|diese|am", next="nächsten|nächster|nächstes|nächste|kommenden|kommender|kommendes",
    habit="jeden|immer|an allen",
    months="januar|jänner;februar;märz;april;mai;juni;juli;august;september;oktober;november;dezember",
    month_before="im|in|anfang|ende|mitte|im monat",
    season_before="im|in|über den|den ganzen",
    holiday_before="an|am|zu|über|vor|nach|seit|bis|an den|über die",
    seasons="frühling|frühjahr;sommer;herbst;winter",
    numbers="einem|einer|ein|eine|einen;zwei;drei;vier;fünf;sechs;sieben;acht;neun;zehn",
    units={"tag": "day", "tagen": "day", "tage": "day", "woche": "week", "wochen": "week", "monat": "month",
           "monaten": "month", "monate": "month", "jahr": "year", "jahren": "year", "jahre": "year"},
    ago="vor {n} {u}", later="in {n} {u}",
    holidays={"christmas": "weihnachten|weihnachtstag|ersten weihnachtstag|erster weihnachtstag", "christmas eve": "heiligabend|heiligen abend",
              "new years eve": "silvester", "new years day": "neujahr", "easter": "ostern"},
    since="seit",
    future="werde|wirst|wird|werden|werdet|vorhaben|habe vor|hast vor|plane|geplant",
    past="habe|hab|hast|hat|haben|hatte|hatten|war|warst|waren|gewesen",
)  # fmt: skip
