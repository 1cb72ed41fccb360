"""Italian: its time words (the other parts of its rules are still in `app.language.formulas` and
`app.language.cues`)."""

from app.language.time_words import TimeWords

# How a question asks what was done or is planned, its interrogatives and light verbs ("¿Qué hice…?",
# "Was habe ich … gemacht?", "我…干了啥"): a question of these and a time asks for that time's memories.
QUESTION_WORDS = "cosa|che|ho|fatto|faccio|fai|fare|farò|successo|previsto|io"

TIME = TimeWords(
    relative={
        "oggi": ("day", 0), "stasera": ("day", 0), "stanotte": ("day", 0), "stamattina": ("day", 0),
        "oggi pomeriggio": ("day", 0), "domani": ("day", 1), "dopodomani": ("day", 2), "ieri": ("day", -1),
        "ieri sera": ("day", -1), "l'altro ieri": ("day", -2), "l'altroieri": ("day", -2), "ieri l'altro": ("day", -2),
        "la prossima settimana": ("week", 1), "la settimana prossima": ("week", 1),
        "la settimana scorsa": ("week", -1), "la scorsa settimana": ("week", -1), "questa settimana": ("week", 0),
        "il mese prossimo": ("month", 1), "il prossimo mese": ("month", 1), "il mese scorso": ("month", -1),
        "lo scorso mese": ("month", -1), "questo mese": ("month", 0),
        "questo fine settimana": ("weekend", 0), "questo weekend": ("weekend", 0), "questo finesettimana": ("weekend", 0),
        "lo scorso fine settimana": ("weekend", -1), "lo scorso weekend": ("weekend", -1),
        "il fine settimana scorso": ("weekend", -1), "il weekend scorso": ("weekend", -1),
        "il prossimo fine settimana": ("weekend", 1), "il prossimo weekend": ("weekend", 1),
        "l'anno scorso": ("year", -1), "lo scorso anno": ("year", -1), "l'anno prossimo": ("year", 1),
        "il prossimo anno": ("year", 1), "quest'anno": ("year", 0),
    },
    weekdays="lunedì;martedì;mercoledì;giovedì;venerdì;sabato;domenica",
    last="scorso|scorsa|passato|passata|lo scorso|la scorsa", this="questo|questa", next="prossimo|prossima",
    habit="il|la|i|le|ogni|tutti i|tutte le",
    months="gennaio;febbraio;marzo;aprile;maggio;giugno;luglio;agosto;settembre;ottobre;novembre;dicembre",
    month_before="a|ad|in|nel mese di|a inizio|a fine|a metà",
    season_before="in|d'|d|durante l'|durante l|quest'|quest",
    holiday_before="a|il|per|prima di|dopo|da|fino a|durante",
    of="di|del",
    seasons="primavera;estate;autunno;inverno",
    numbers="un|una|uno;due;tre;quattro;cinque;sei;sette;otto;nove;dieci",
    units={"giorno": "day", "giorni": "day", "settimana": "week", "settimane": "week", "mese": "month",
           "mesi": "month", "anno": "year", "anni": "year"},
    ago="{n} {u} fa", later="tra {n} {u}|fra {n} {u}",
    holidays={"christmas": "natale", "christmas eve": "vigilia di natale", "new years eve": "capodanno",
              "new years day": "primo dell'anno", "easter": "pasqua"},
    since="da|sin da",
    future="farò|sarò|andrò|avrò|vado a|ho intenzione|prevedo",
    past="ho|hai|abbiamo|avete|hanno|ero|eri|era|sono stato|sono stata|sei stato|sei stata",
)  # fmt: skip
