"""Italian: its rules as data, read by the shared engines (`app.language.time_words`, `app.language.formulas`,
`app.language.cues`, `app.language.questions`)."""

from app.language.answer_words import AnswerWords
from app.language.formula_words import FormulaWords
from app.language.relation_words import RelationWords
from app.language.time_words import TimeWords

# How a question asks what was done or is planned, its interrogatives and light verbs ("¿Qué hice…?",
# "Was habe ich … gemacht?", "我…干了啥"): a question of these and a time asks for that time's memories.
QUESTION_WORDS = "cosa|che|ho|fatto|faccio|fai|fare|farò|successo|previsto|io"

TIME = TimeWords(
    relative={
        "di oggi": None, "d'oggi": None, "oggi giorno": None, "oggigiorno": None, "oggi": ("day", 0), "stasera": ("day", 0), "stanotte": ("day", 0), "stamattina": ("day", 0),
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


# Its chat formulas (greetings, thanks, agreement, reactions, wishes, guesses, words that say nothing).
FORMULAS = FormulaWords(
    greetings="ciao|salve|buongiorno|buonasera|buon pomeriggio|benvenuto|benvenuta|come va|come stai",
    farewells="arrivederci|a presto|a dopo|a domani|ci vediamo|ci sentiamo|buonanotte|baci|un bacio|"
    "un abbraccio|abbracci|buona giornata|buona serata",
    thanks="grazie|grazie mille|grazie tante|ti ringrazio|prego|di niente",
    apologies="scusa|scusami|scusate|mi dispiace|mi dispiace tanto|perdono|che peccato|peccato",
    agreement="sì|si|no|certo|certamente|esatto|esattamente|va bene|d'accordo|ok|okay|perfetto|giusto|vero|"
    "è vero|capito|ovvio|infatti|haha|ahah|ahahah|ah|oh|eh|boh|mah|uffa|wow|non lo sapevo|non sapevo",
    reactions="che bello|che bella|che figo|che carino|che carina|che fortuna|che invidia|che brutto|"
    "fantastico|bellissimo|bellissima|stupendo|meraviglioso|sono contento per te|"
    "sono contenta per te|complimenti|congratulazioni",
    well_wishes="in bocca al lupo|buona fortuna|buon viaggio|buone vacanze|buon weekend|buon fine settimana|"
    "buon divertimento|divertiti|divertitevi|goditi|goditela|auguri|tanti auguri|buon compleanno|"
    "complimenti|congratulazioni|rimettiti presto|guarisci presto|spero che tu|spero che ti|spero che il|"
    "spero che la|spero che vada|spero che tutto|riposati",
    guesses="sembra|sembrano|deve essere|dev'essere|immagino|scommetto",
    exclaims="che|quanto|quanta",
    words="bene|male|bello|bella|buono|buona|figo|carino|carina|fantastico|perfetto|stupendo|"
    "interessante|divertente|orribile|triste|peccato|fortuna|invidia|così|molto|tanto|troppo|davvero|"
    "proprio|anche|qui|lì|adesso|ora|sempre|mai|ancora|vero|cosa|cose|dai|"
    "allora|quindi|di nuovo|finalmente|uffa|mah|boh",
    endings="i|e|a|o",
    cause="per",
    anchors="io|mio|mia|miei|mie|mi|noi|nostro|nostra|nostri|nostre|lui|lei|loro|suo|sua",
)  # fmt: skip

# A standing rule for the agent: its cues (from now on, always, never, please…), and how the agent answers
# (answer, write, call me, the language…); something to be done (remind me, I have to…). `fold`ed.
RULE_CUES = (
    "d'ora in poi|da ora in poi|da adesso in poi|sempre|mai|per favore|non usare|non scrivere|"
    "non rispondere|non chiamarmi"
)
AGENT_CUES = "rispondi|rispondimi|scrivi|scrivimi|parlami|chiamami|usa|usare|emoji|in italiano|in inglese|risposte|risposta|brevi|breve|corte|del tu|del lei|elenco|elenchi|punti elenco"
TASK_CUES = "ricordami|ricordarmi|non dimenticare|non dimenticarti|devo|dobbiamo|bisogna|ho bisogno di|da fare|ti ricordo|ti ricordero|te lo ricordo|todo:|to-do"

# The shape of a statement (`app.language.shapes`), as regular expressions on its lower-cased text: a
# hypothetical (an if-clause in the imperfect subjunctive, an opening "fossi…", "pensa se…"), a request to
# the agent (an imperative with its enclitic, "mi spieghi…"), a standing condition ("quando…", "ogni volta
# che…"), a past action (the passato prossimo, "sono appena…") and the speaker's own person.
HYPOTHETICAL = (
    r"(?<!come\s)\bse\s+(?:\w+\s+){0,2}\w+(?:ssi|sse|ssimo|ste|ssero)\b|^\w+ssi\b|\b(?:pensa|immagina|immaginati)\s+se\b"
    r"|\bse\s+.*\b\w+r(?:ei|ebbe|emmo|ebbero)\b"
)
REQUEST = (
    r"^(?:(?:ehi|dai|ok|allora|e)[,\s]+)?(?:\w{3,}[aei]mi\b|dimmi\b|dammi\b|fammi\b|mi\s+\w+i\b|(?:puoi|potresti)\b"
    r"|non\s+(?:\w+rmi|\w+re)\b)"
)
STANDING = r"\b(?:quando|ogni\s+volta\s+che|tutte\s+le\s+volte\s+che)\b"
PAST = (
    r"\b(?:ho|hai|ha|abbiamo|avete|hanno)\s+(?:\w+\s+){0,2}\w+(?:ato|uto|ito|ata|uta|ita|ati|iti|ute|atto|etto|esso|osto)\b"
    r"|\b(?:sono|sei|è|siamo|siete)\s+(?:\w+\s+){0,2}\w+(?:ato|ata|ati|ate|uto|uta|uti|ito|ita|iti|ite)\b"
)
# A prohibition to the agent (a negative imperative, "stop …"): a rule that holds beyond the moment.
PROHIBITION = r"^(?:(?:e|ma)[,\s]+)?(?:non|mai)\s+(?:\w+rmi|\w+re)\b|^smetti(?:la)?\s+di\b|^evita\b"
# A statement opening with a noun phrase of the world (its article): its subject is no one in the chat.
GENERIC = r"^(?:\w+\s+){0,2}?(?:il|lo|la|i|gli|le|l[\'’])\s*\w"
# A question asked without its mark: an interrogative opening it (a question particle closing it).
INTERROGATIVE = r"^(?:cosa|che\s+cosa|quando|dove|perché|quale|quali|quanto|quanti|quante|chi)\s+\w+"
# The partner addressed: second-person pronouns and possessives.
PARTNER = r"\b(?:tu|te|ti|tuo|tua|tuoi|lei|voi|vi)\b"
SELF = (
    r"\b(?:io|mio|mia|miei|mie|mi|me|noi|nostro|nostra|nostri|nostre|ci)\b|\b\w+(?:iamo)\b"
    r"|\b(?:ho|vado|faccio|sto|posso|voglio|devo|so|abbiamo|siamo)\b"
    r"|\b(?:non|non\s+più)\s+\w{2,}o\b"
)


# Whether its sentences often leave the person unsaid, the verb carrying it: a question without a
# pronoun may still be about someone (`app.extraction.chit_chat.refers_to_someone`).
PRO_DROP = True

# A lasting circumstance of a person (`app.language.circumstances`): work and studies | home | family and
# pets | health and diet | likes, age and birthday; word starts, `fold`ed (one ending in `\b` is a whole word).
CIRCUMSTANCES = (
    "lavor|infermier|medico|ingegner|insegnant|avvocat|sviluppator|programmator|azienda|ufficio|capo|"
    "carriera|studi|universita|laurea|master|dottorato|vivo|vive|viviamo|abito|abita|trasferit|casa|"
    "appartamento|quartiere|nato\\b|nata\\b|sorell|fratell|madre|padre|mamma|papa|genitori|figli|moglie|"
    "marito|fidanzat|sposat|nonn|zio|zia|cugin|nipot|cane|gatto|incinta|allergi|intolleran|asma|diabet|"
    "diagnos|celiac|vegetarian|vegan|farmac|adoro|amo|mi piace|odio|preferisco|preferit|compleanno|"
    "ho \\d+ anni"
)


# Words a full stop does not end a sentence after (`app.language.sentences`), and those after which it
# ends one only before a capital.
ABBREVIATIONS = "sig|sig.ra|dott|dott.ssa|prof|ing|avv|es|ecc|p.es|pag|ca"
SOFT_ABBREVIATIONS = "ecc|gen|feb|mar|apr|mag|giu|lug|ago|sett|ott|nov|dic"

# What a question asks for, and what makes a memory hold it (`app.recall.answer_types`).
ANSWERS = AnswerWords(
    types={
        **dict.fromkeys(("istruzione", "istruzioni"), "instruction"),
        **dict.fromkeys(
            ("compito", "compiti", "promemoria", "cose da fare", "lista delle cose da fare"), "task"
        ),
    },
    time_asked="quando|in che anno|che anno|quale anno|che mese|quale mese|che giorno|quale giorno|che data"
    "|a che ora|quanto tempo fa|da quando",
    number_asked="quanti|quante|quanto|quanta",
    place_asked="dove|in quale città|quale città|che città|quale paese|che paese|quale ristorante|che ristorante",
    person_asked="chi|con chi|a chi|di chi",
    times="oggi ieri domani stasera stamattina altroieri weekend natale pasqua compleanno capodanno ferragosto",
    relative="scorso scorsa prossimo prossima questo questa",
    periods="settimana mese anno weekend sera",
    relative_follows=True,
    numbers="due tre quattro cinque sei sette otto nove dieci undici dodici quindici venti trenta quaranta"
    " cinquanta cento mille milione dozzina paio metà",
    places="via strada piazza parco città paese villaggio isola spiaggia lago fiume montagna bar caffè ristorante"
    " negozio mercato albergo hotel aeroporto stazione scuola università ospedale clinica chiesa museo galleria"
    " palestra ufficio biblioteca giardino quartiere",
    place_before="a in da visitato visitare",
    people="mamma madre papà padre sorella fratello moglie marito figlio figlia zia zio cugino cugina nipote nonna"
    " nonno amico amica capo collega vicino vicina fidanzato fidanzata compagno compagna ragazzo ragazza"
    " insegnante professore professoressa medico dottore allenatore",
)
_IT_PARTNERS = ("compagno", "compagna", "fidanzato", "fidanzata", "marito", "moglie")
_IT_CHILDREN = ("figlio", "figlia", "figli", "bambino", "bambina", "bambini")
_IT_MOTHERS, _IT_FATHERS = ("madre", "mamma"), ("padre", "papà")
_IT_DOGS, _IT_CATS = ("cane", "cagnolino", "cucciolo"), ("gatto", "gatta", "gattino")
# The people and pets a question names by their relation, and how a conversation names them (`app.recall.relations`).
RELATIONS = RelationWords(
    relations={
        "marito": ("marito",),
        "moglie": ("moglie",),
        **dict.fromkeys(("compagno", "compagna"), _IT_PARTNERS),
        **dict.fromkeys(("fidanzato", "ragazzo"), ("fidanzato", "ragazzo")),
        **dict.fromkeys(("fidanzata", "ragazza"), ("fidanzata", "ragazza")),
        "figlio": ("figlio",),
        "figlia": ("figlia",),
        **dict.fromkeys(("figli", "bambini"), _IT_CHILDREN),
        **dict.fromkeys(_IT_MOTHERS, _IT_MOTHERS),
        **dict.fromkeys(_IT_FATHERS, _IT_FATHERS),
        "genitori": _IT_MOTHERS + _IT_FATHERS,
        "sorella": ("sorella",),
        "fratello": ("fratello",),
        "nonna": ("nonna",),
        "nonno": ("nonno",),
        "capo": ("capo",),
        **dict.fromkeys(_IT_DOGS, _IT_DOGS),
        **dict.fromkeys(_IT_CATS, _IT_CATS),
    },
    owners="mio|mia|miei|mie|il mio|la mia|i miei|le mie|nostro|nostra|suo|sua",
    owners_after="mio|mia|nostro|nostra|suo|sua",
    naming="chiamato|chiamata|che si chiama|si chiama",
    copula="è",
)
# Words that carry no meaning in a question (`app.recall.query`).
QUESTION_NOISE = "ricordi ricordo detto raccontato menzionato parlato sai qualcosa cosa"

# The parts this language has none of, each with what happens instead (never a statement dropped).
LACKS = {
    "SPELLINGS": "no other spellings of its words: a question's words are matched as written",
    "LEMMAS": "no table of irregular forms: its words are stemmed by its snowball stemmer, or searched as said",
    "CATEGORIES": "no table of categories: a question's words are searched as said, without their instances",
    "NEGATION": "no rule reads negation: a negated statement is kept verbatim, typed like any other",
    "SECOND_PERSON": "no rule rewrites the second person: a statement is kept verbatim, its speaker as a prefix",
}
