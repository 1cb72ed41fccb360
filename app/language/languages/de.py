"""German: its rules as data, read by the shared engines (`app.language.time_words`, `app.language.formulas`,
`app.language.cues`, `app.language.questions`)."""

from app.language.answer_words import AnswerWords
from app.language.formula_words import FormulaWords
from app.language.relation_words import RelationWords
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
    months="januar|jänner|jan;februar|feb;märz|mär;april|apr;mai;juni;juli;august|aug;september|sep|sept;oktober|okt;november|nov;dezember|dez",
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


# Its chat formulas (greetings, thanks, agreement, reactions, wishes, guesses, words that say nothing).
FORMULAS = FormulaWords(
    greetings="hallo|hi|hey|servus|moin|moin moin|grüß gott|grüezi|guten morgen|guten tag|guten abend|"
    "na|na du|willkommen|wie geht's|wie gehts|alles klar",
    farewells="tschüss|tschüs|ciao|bis bald|bis später|bis morgen|bis dann|bis nachher|mach's gut|"
    "machs gut|auf wiedersehen|liebe grüße|lg|viele grüße|gute nacht|schlaf gut",
    thanks="danke|danke schön|dankeschön|danke sehr|vielen dank|vielen lieben dank|herzlichen dank|"
    "tausend dank|besten dank|bitte|bitte schön|gern geschehen|gerne",
    apologies="sorry|entschuldigung|entschuldige|tut mir leid|tut mir echt leid|das tut mir leid|"
    "verzeihung|schade|wie schade",
    agreement="ja|jap|jep|jo|nein|nee|nö|klar|na klar|genau|stimmt|richtig|okay|ok|einverstanden|passt|gut|"
    "natürlich|sicher|freilich|alles klar|verstanden|logo|haha|hahaha|ah|oh|aha|achso|ach so|na ja|"
    "naja|hm|hmm|oha|wow|krass|boah|wusste ich nicht|wusst ich nicht|wusste ich gar nicht|ah okay",
    reactions="wie schön|wie toll|wie cool|wie süß|wie geil|wie blöd|super|toll|cool|geil|klasse|spitze|"
    "wahnsinn|mega|schön|prima|wunderbar|großartig|echt jetzt|ich freu mich für dich|"
    "freut mich|das freut mich|glückwunsch|herzlichen glückwunsch",
    well_wishes="viel glück|viel erfolg|viel spaß|gute besserung|gute reise|gute fahrt|alles gute|"
    "herzlichen glückwunsch|glückwunsch|gratuliere|schönen tag|schönen abend|schönes wochenende|"
    "schönen urlaub|schöne ferien|schöne reise|schönen feierabend|genieß|genieße|genießt|"
    "ich drück dir die daumen|daumen drücken|toi toi toi|erhol dich|ich hoffe du|ich hoffe dir|"
    "ich hoffe es|ich hoffe ihr|ich hoffe alles|hoffentlich geht es dir|pass auf dich auf|komm gut|"
    "frohe weihnachten|frohe ostern|frohes neues|frohes fest|fröhliche weihnachten",
    guesses="klingt|klingen|hört sich|sieht|scheint|muss ja|muss echt|das muss|wird bestimmt|bestimmt|"
    "sicher",
    exclaims="wie|was für|so ein|so eine|so was",
    words="gut|schlecht|schön|toll|super|cool|geil|klasse|prima|spitze|wunderbar|großartig|krass|mega|"
    "lustig|interessant|schrecklich|furchtbar|traurig|schade|blöd|süß|echt|wirklich|total|ziemlich|"
    "voll|richtig|ganz|sehr|so|auch|hier|da|dort|jetzt|immer|nie|noch|wahr|sache|sachen|"
    "mal|halt|eben|eigentlich|naja|gerne|gern|schon wieder|endlich|puh|pff|pfff|uff|ugh|boah|mist",
    endings="en|em|er|es|e",
    cause="für",
    anchors="ich|mein|meine|meinen|meinem|meiner|mir|mich|wir|unser|unsere|unseren|uns|er|sie|"
    "seine|ihre",
)  # fmt: skip

# A standing rule for the agent: its cues (from now on, always, never, please…), and how the agent answers
# (answer, write, call me, the language…); something to be done (remind me, I have to…). `fold`ed.
RULE_CUES = "ab jetzt|von nun an|ab sofort|kunftig|in zukunft|immer|nie|niemals|bitte"
AGENT_CUES = (
    "antworte|antworten sie|schreib|schreibe|schreiben|sprich|nenn mich|nenne mich|verwende|benutze|"
    "nutze|duze|duzen|siez|siezen|emojis|auf deutsch|auf englisch|antworten|antwort|knapp|stichpunkte|liste|listen"
)
TASK_CUES = (
    "erinnere mich|erinner mich|vergiss nicht|nicht vergessen|ich muss|wir mussen|muss noch|"
    "ich sollte|zu erledigen|to-do|muss|mussen|erinnere dich|erinner dich|erinnere ich dich|todo:"
)


# Whether its sentences often leave the person unsaid, the verb carrying it: a question without a
# pronoun may still be about someone (`app.extraction.chit_chat.refers_to_someone`).
PRO_DROP = False

# A lasting circumstance of a person (`app.language.circumstances`): work and studies | home | family and
# pets | health and diet | likes, age and birthday; word starts, `fold`ed (one ending in `\b` is a whole word).
CIRCUMSTANCES = (
    "arbeit|krankenpfleg|pfleger|arzt|arztin|ingenieur|lehrer|anwalt|entwickler|programmierer|job|firma|"
    "beruf|chef|buro|karriere|studier|studium|uni\\b|ausbildung|wohn|umgezogen|ziehe|haus|stadt|geboren|"
    "aufgewachsen|schwester|bruder|mutter|vater|mama|papa|eltern|sohn|tochter|frau|mann|freund|freundin|"
    "verlobt|verheiratet|oma|opa|grosseltern|onkel|tante|cousin|neffe|nichte|hund|katze|haustier|"
    "schwanger|baby|allergi|unvertraglich|asthma|diabet|diagnos|zoliakie|vegetari|vegan|medikament|liebe|"
    "mag\\b|hasse|lieblings|geburtstag|bin \\d+"
)


# Words a full stop does not end a sentence after (`app.language.sentences`), and those after which it
# ends one only before a capital.
ABBREVIATIONS = "z.b|bzw|usw|ca|dr|nr|str|evtl|ggf|u.a|d.h|prof|inkl|vgl|hr|bspw|sog|geb|max|min"
SOFT_ABBREVIATIONS = "etc|jan|feb|mär|apr|jun|jul|aug|sep|sept|okt|nov|dez|mo|di|mi|do|fr|sa|so"
# The shape of a statement (`app.language.shapes`), as regular expressions on its lower-cased text: a
# hypothetical (the Konjunktiv II after "wenn", or opening the sentence; "stell dir vor"), a request to the
# agent (an imperative before "mir", "kannst du…"), a standing condition ("wenn du…", "immer wenn"), a
# past action (the perfect with its participle) and the speaker's own person.
HYPOTHETICAL = (
    r"\b(?:wenn|falls)\b[^.!?]*\b(?:würde|würd|würden|würdest|wäre|wären|wärst|hätte|hätten|hättest|könnte|könnten)\b"
    r"|^(?:hätte|wäre|könnte|würde)\s+(?:ich|wir|man|er|sie|du)\b|\bstell\s+(?:dir|euch)\s+(?:mal\s+)?vor\b"
)
REQUEST = (
    r"^(?:(?:hey|ok|also|und|bitte)[,\s]+)?(?:\w+(?<![^e]t)\s+(?:mir|uns)\b|(?:kannst|könntest|kannste)\s+du\b"
    r"|(?:können|könnten)\s+sie\b)"
)
STANDING = r"\b(?:wenn|immer\s+wenn|sobald|jedes\s+mal\s+wenn)\b"
PAST = (
    r"\b(?:habe|hab|hast|hat|haben|habt|hatte|bin|bist|ist|sind|seid|war)\b[^.!?,]*\bge(?!gen\b|hen\b|ben\b)\w+(?:t|en)\b"
    r"|\b(?:sind|bin)\s+(?:\w+\s+){0,3}zurück\b"
)
# A prohibition to the agent (a negative imperative, "stop …"): a rule that holds beyond the moment.
PROHIBITION = r"^(?:(?:und|aber|bitte)[,\s]+)?keine?\s+\w+\s+mehr\b|^hör\s+(?:mal\s+)?auf\b"
# A statement opening with a noun phrase of the world (its article): its subject is no one in the chat.
GENERIC = r"^(?:\w+\s+){0,2}?(?:der|die|das|den|dem|des)\s+\w"
# A question asked without its mark: an interrogative opening it (a question particle closing it).
INTERROGATIVE = (
    r"^(?:was|wie|wo|wann|warum|wieso|weshalb|wer|welche[rsnm]?)\s+(?!für\b|schön\b|toll\b|cool\b|geil\b)\w+"
)
# The partner addressed: second-person pronouns and possessives.
PARTNER = r"\b(?:du|dich|dir|dein|deine|deinen|deinem|deiner|ihr|euch|sie)\b"
SELF = r"^(?:hab|habe|bin|war|muss|kann|will|sind|waren|hatte|hatten)\b|\b(?:ich|mein|meine|meinen|meinem|meiner|meines|mir|mich|wir|unser|unsere|unseren|unserem|uns|hab|bin)\b"

# What a question asks for, and what makes a memory hold it (`app.recall.answer_types`). Every noun is
# capitalised, so a capital says nothing of a name, and a place's name cannot be told from a noun after "in".
ANSWERS = AnswerWords(
    types={
        **dict.fromkeys(("anweisung", "anweisungen"), "instruction"),
        **dict.fromkeys(
            ("aufgabe", "aufgaben", "to-do", "to-dos", "todo-liste", "to-do-liste", "aufgabenliste"), "task"
        ),
    },
    time_asked="wann|welches jahr|welchem jahr|welcher monat|welchem monat|welcher tag|welchem tag|welches datum"
    "|um wie viel uhr|wie lange her|seit wann",
    number_asked="wie viele|wie viel|wieviel|wieviele|wie lange|wie alt|wie weit|wie oft|wie groß",
    place_asked="wo|wohin|woher|in welcher stadt|welche stadt|welches land|welchem land|welches restaurant"
    "|welchem restaurant",
    person_asked="wer|wen|wem|wessen|mit wem",
    times="heute gestern morgen vorgestern übermorgen wochenende weihnachten ostern silvester heiligabend geburtstag",
    relative="letzte letzten letztes letzter nächste nächsten nächstes nächster diese diesen dieses vorige vorigen",
    periods="woche monat jahr wochenende abend nacht",
    numbers="zwei drei vier fünf sechs sieben acht neun zehn elf zwölf fünfzehn zwanzig dreißig vierzig fünfzig"
    " hundert tausend million dutzend paar hälfte",
    places="straße platz park stadt dorf land insel strand see fluss berg café restaurant laden geschäft markt hotel"
    " flughafen bahnhof schule universität uni krankenhaus klinik kirche museum galerie fitnessstudio kneipe bar"
    " büro bibliothek garten",
    people="mama mutter papa vater schwester bruder frau mann ehefrau ehemann sohn tochter tante onkel cousin"
    " cousine nichte neffe oma großmutter opa großvater freund freundin chef chefin kollege kollegin nachbar"
    " nachbarin partner partnerin lehrer lehrerin arzt ärztin trainer",
    names_capitalised=False,
)
_DE_MOTHERS, _DE_FATHERS = ("mutter", "mama", "mami"), ("vater", "papa")
_DE_PETS = ("hund", "welpe", "katze", "kater", "haustier")
# The people and pets a question names by their relation, and how a conversation names them (`app.recall.relations`).
RELATIONS = RelationWords(
    relations={
        **dict.fromkeys(("mann", "ehemann"), ("mann", "ehemann")),
        **dict.fromkeys(("frau", "ehefrau"), ("frau", "ehefrau")),
        **dict.fromkeys(
            ("partner", "partnerin"), ("partner", "partnerin", "freund", "freundin", "mann", "frau")
        ),
        "freund": ("freund",),
        "freundin": ("freundin",),
        "sohn": ("sohn",),
        "tochter": ("tochter",),
        **dict.fromkeys(("kinder", "kind"), ("sohn", "tochter", "kind", "kinder")),
        **dict.fromkeys(_DE_MOTHERS, _DE_MOTHERS),
        **dict.fromkeys(_DE_FATHERS, _DE_FATHERS),
        "eltern": _DE_MOTHERS + _DE_FATHERS,
        "schwester": ("schwester",),
        "bruder": ("bruder",),
        **dict.fromkeys(("oma", "großmutter"), ("oma", "großmutter")),
        **dict.fromkeys(("opa", "großvater"), ("opa", "großvater")),
        **dict.fromkeys(("chef", "chefin"), ("chef", "chefin")),
        "hund": ("hund", "welpe"),
        **dict.fromkeys(("katze", "kater"), ("katze", "kater")),
        "haustier": _DE_PETS,
    },
    owners="mein|meine|meinen|meinem|meiner|unser|unsere|unseren|unserem|sein|seine|seinen|ihr|ihre|ihren",
    owners_after="mein|meine|unser|unsere|sein|seine|ihr|ihre",
    naming="namens|heißt|genannt",
    copula="ist",
)
# Words that carry no meaning in a question (`app.recall.query`).
QUESTION_NOISE = (
    "erinnerst erinnern weißt gesagt erzählt erwähnt gesprochen eigentlich nochmal irgendwas etwas"
)

# The parts this language has none of, each with what happens instead (never a statement dropped).
LACKS = {
    "SPELLINGS": "no other spellings of its words: a question's words are matched as written",
    "LEMMAS": "no table of irregular forms: its words are stemmed by its snowball stemmer, or searched as said",
    "CATEGORIES": "no table of categories: a question's words are searched as said, without their instances",
    "NEGATION": "no rule reads negation: a negated statement is kept verbatim, typed like any other",
    "SECOND_PERSON": "no rule rewrites the second person: a statement is kept verbatim, its speaker as a prefix",
}
