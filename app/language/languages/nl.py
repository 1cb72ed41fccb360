"""Dutch: its rules as data, read by the shared engines (`app.language.time_words`, `app.language.formulas`,
`app.language.cues`, `app.language.questions`)."""

from app.language.answer_words import AnswerWords
from app.language.formula_words import FormulaWords
from app.language.relation_words import RelationWords
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
    months="januari|jan;februari|feb;maart|mrt;april|apr;mei;juni;juli;augustus|aug;september|sep|sept;oktober|okt;november|nov;december|dec",
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


# Its chat formulas (greetings, thanks, agreement, reactions, wishes, guesses, words that say nothing).
FORMULAS = FormulaWords(
    greetings="hallo|hoi|hey|hai|goedemorgen|goedemiddag|goedenavond|welkom|hoe gaat het",
    farewells="doei|dag|tot ziens|tot straks|tot morgen|tot later|tot zo|groetjes|welterusten|"
    "slaap lekker",
    thanks="dank je|dank je wel|dankjewel|dank u|dank u wel|bedankt|heel erg bedankt|graag gedaan",
    apologies="sorry|excuus|excuses|het spijt me|pardon|jammer",
    agreement="ja|nee|jazeker|jep|oké|ok|prima|klopt|precies|zeker|inderdaad|goed|natuurlijk|akkoord|"
    "helemaal|haha|hahaha|ah|oh|hm|wauw|wow|weet ik niet|geen idee|precies",
    reactions="wat leuk|wat mooi|wat fijn|wat goed|wat jammer|wat vervelend|gaaf|geweldig|super|top|"
    "leuk|mooi|fijn|gefeliciteerd",
    well_wishes="succes|veel succes|veel plezier|veel geluk|goede reis|fijne vakantie|fijn weekend|"
    "fijne dag|beterschap|gefeliciteerd|van harte|geniet|ik hoop dat je|ik hoop dat jij|"
    "ik hoop dat het|ik hoop dat alles|fijne feestdagen|prettige feestdagen|prettig weekend",
    guesses="klinkt|lijkt|ziet er|moet wel|zal wel|vast",
    exclaims="wat|zo'n|hoe",
    words="goed|slecht|leuk|mooi|fijn|gaaf|geweldig|super|top|tof|lekker|grappig|interessant|"
    "vreselijk|verdrietig|jammer|echt|heel|erg|zo|best|ook|hier|daar|nu|altijd|nooit|nog|"
    "waar|ding|dingen|even|gewoon|wel|weer|alweer|eindelijk|pff|pfff|hmm|hm|ugh|bah",
    endings="en|e",
    cause="voor",
    anchors="ik|mijn|mij|me|wij|we|ons|onze|hij|zij|ze|zijn|haar|hun",
)  # fmt: skip

# A standing rule for the agent: its cues (from now on, always, never, please…), and how the agent answers
# (answer, write, call me, the language…); something to be done (remind me, I have to…). `fold`ed.
RULE_CUES = "vanaf nu|voortaan|altijd|nooit|alsjeblieft|alstublieft"
AGENT_CUES = "antwoord|antwoorden|schrijf|noem me|gebruik|emoji|in het nederlands|in het engels|antwoorden|kort|korte|lijst|lijstjes|tutoyeren|praat"
TASK_CUES = "herinner me|vergeet niet|niet vergeten|ik moet|we moeten|moet nog|ik herinner je|herinner ik je|todo:|to-do|herinneren|me herinneren"

# The shape of a statement (`app.language.shapes`), as regular expressions on its lower-cased text: a
# hypothetical ("als … zou", "stel je voor"), a request to the agent (an imperative before "me", "kun je…"),
# a standing condition ("als je…", "wanneer…"), a past action (the perfect with its participle) and the
# speaker's own person.
HYPOTHETICAL = r"\b(?:als|stel)\b[^.!?]*\b(?:zou|zouden|zou\s+ik|had|was)\b[^.!?]*\b(?:zou|zouden)\b|\bstel\s+je\s+(?:eens\s+)?voor\b"
REQUEST = (
    r"^(?:(?:hé|hey|ok|oké|en)[,\s]+)?(?:\w+\s+(?:me|mij|ons)\s+(?:eens\s+|even\s+)?\w*|(?:kun|kan|kunt|zou)\s+je\b"
    r"|(?:kunt|zou)\s+u\b)"
)
STANDING = r"\b(?:wanneer|als\s+je|als\s+ik|elke\s+keer\s+als|zodra)\b"
PAST = r"\b(?:heb|hebt|heeft|hebben|ben|bent|is|zijn)\b[^.!?,]*\bge\w+(?:d|t|en)\b"
# A prohibition to the agent (a negative imperative, "stop …"): a rule that holds beyond the moment.
PROHIBITION = r"^(?:(?:en|maar)[,\s]+)?(?:geen|nooit)\s+\w+|^stop\s+met\b|^\w+\s+(?:niet|nooit)\s+(?:steeds|meer|altijd)\b"
# A statement opening with a noun phrase of the world (its article): its subject is no one in the chat.
GENERIC = r"^(?:\w+\s+){0,2}?(?:de|het)\s+\w"
# A question asked without its mark: an interrogative opening it (a question particle closing it).
INTERROGATIVE = r"^(?:wat|hoe|waar|wanneer|waarom|wie|welke)\s+(?!een\b|leuk\b|mooi\b|fijn\b)\w+"
# The partner addressed: second-person pronouns and possessives.
PARTNER = r"\b(?:je|jij|jou|jouw|u|jullie)\b"
SELF = r"\b(?:mn|m'n|ik|mijn|mij|me|wij|we|ons|onze)\b"


# Whether its sentences often leave the person unsaid, the verb carrying it: a question without a
# pronoun may still be about someone (`app.extraction.chit_chat.refers_to_someone`).
PRO_DROP = False

# A lasting circumstance of a person (`app.language.circumstances`): work and studies | home | family and
# pets | health and diet | likes, age and birthday; word starts, `fold`ed (one ending in `\b` is a whole word).
CIRCUMSTANCES = (
    "werk|verpleeg|arts|ingenieur|leraar|advocaat|ontwikkelaar|baan|bedrijf|baas|kantoor|studeer|studie|"
    "universiteit|woon|verhuisd|huis|stad|geboren|opgegroeid|zus|broer|moeder|vader|mama|papa|ouders|"
    "zoon|dochter|vrouw|mijn man|vriend|vriendin|verloofd|getrouwd|oma|opa|oom|tante|neef|nicht|hond|"
    "kat\\b|zwanger|baby|allergi|astma|diabet|diagnose|vegetari|veganist|medicijn|hou van|ik vind|haat|"
    "favoriet|lievelings|verjaardag|ben \\d+ jaar"
)

# What a question asks for, and what makes a memory hold it (`app.recall.answer_types`).
ANSWERS = AnswerWords(
    types={
        **dict.fromkeys(("instructie", "instructies"), "instruction"),
        **dict.fromkeys(("taak", "taken", "to-do", "to-dolijst", "takenlijst"), "task"),
    },
    time_asked="wanneer|welk jaar|welke maand|welke dag|welke datum|hoe laat|hoe lang geleden|sinds wanneer",
    number_asked="hoeveel|hoe lang|hoe oud|hoe ver|hoe vaak|hoe groot",
    place_asked="waar|waarheen|in welke stad|welke stad|welk land|welk restaurant",
    person_asked="wie|met wie|van wie|aan wie",
    times="vandaag gisteren morgen eergisteren overmorgen vanavond weekend kerst kerstmis pasen verjaardag",
    relative="vorige vorig afgelopen volgende volgend deze dit",
    periods="week maand jaar weekend avond",
    numbers="twee drie vier vijf zes zeven acht negen tien elf twaalf vijftien twintig dertig veertig vijftig"
    " honderd duizend miljoen dozijn paar helft",
    places="straat weg laan plein park stad dorp land eiland strand meer rivier berg café restaurant winkel markt"
    " hotel vliegveld station school universiteit ziekenhuis kliniek kerk museum galerie sportschool kroeg bar"
    " kantoor bibliotheek boerderij tuin buurt",
    place_before="in naar uit bij bezocht bezoeken",
    people="mama moeder papa vader zus zuster broer vrouw man echtgenote echtgenoot zoon dochter tante oom neef"
    " nicht oma opa vriend vriendin baas collega buurman buurvrouw partner leraar lerares dokter arts coach",
)
_NL_MOTHERS, _NL_FATHERS = ("moeder", "mama"), ("vader", "papa")
_NL_CATS = ("kat", "poes", "kater")
# The people and pets a question names by their relation, and how a conversation names them (`app.recall.relations`).
RELATIONS = RelationWords(
    relations={
        "man": ("man",),
        "vrouw": ("vrouw",),
        "partner": ("partner", "vriend", "vriendin", "man", "vrouw"),
        "vriend": ("vriend",),
        "vriendin": ("vriendin",),
        "zoon": ("zoon",),
        "dochter": ("dochter",),
        "kinderen": ("zoon", "dochter", "kind", "kinderen"),
        **dict.fromkeys(_NL_MOTHERS, _NL_MOTHERS),
        **dict.fromkeys(_NL_FATHERS, _NL_FATHERS),
        "ouders": _NL_MOTHERS + _NL_FATHERS,
        **dict.fromkeys(("zus", "zuster"), ("zus", "zuster")),
        "broer": ("broer",),
        "oma": ("oma",),
        "opa": ("opa",),
        "baas": ("baas",),
        "hond": ("hond", "puppy"),
        **dict.fromkeys(_NL_CATS, _NL_CATS),
    },
    owners="mijn|m'n|onze|ons|zijn|z'n|haar|hun",
    owners_after="mijn|onze|ons|zijn|haar|hun",
    naming="genaamd|die heet|heet",
    copula="is",
)
# Words that carry no meaning in a question (`app.recall.query`).
QUESTION_NOISE = "herinner herinnert weet gezegd verteld genoemd gesproken eigenlijk iets"

# The parts this language has none of, each with what happens instead (never a statement dropped).
LACKS = {
    "SPELLINGS": "no other spellings of its words: a question's words are matched as written",
    "LEMMAS": "no table of irregular forms: its words are stemmed by its snowball stemmer, or searched as said",
    "CATEGORIES": "no table of categories: a question's words are searched as said, without their instances",
    "ABBREVIATIONS": "no abbreviation list: a full stop ends a sentence unless a lower-case word follows it or "
    "it closes a single letter",
    "NEGATION": "no rule reads negation: a negated statement is kept verbatim, typed like any other",
    "SECOND_PERSON": "no rule rewrites the second person: a statement is kept verbatim, its speaker as a prefix",
}
