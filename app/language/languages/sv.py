"""Swedish: its rules as data, read by the shared engines (`app.language.time_words`, `app.language.formulas`,
`app.language.cues`, `app.language.questions`)."""

from app.language.answer_words import AnswerWords
from app.language.formula_words import FormulaWords
from app.language.relation_words import RelationWords
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
    weekdays="måndag|måndags;tisdag|tisdags;onsdag|onsdags;torsdag|torsdags;fredag|fredags;lördag|lördags;söndag|söndags",
    last="förra|i förra", this="nu på|på", next="nästa|kommande", habit="varje|alla",
    months="januari|jan;februari|feb;mars;april|apr;maj;juni;juli;augusti|aug;september|sep|sept;oktober|okt;november|nov;december|dec",
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
    since="sedan|sen",
    future="ska|kommer att|tänker|planerar",
    past="har|hade|var|gjorde",
)  # fmt: skip


# Its chat formulas (greetings, thanks, agreement, reactions, wishes, guesses, words that say nothing).
FORMULAS = FormulaWords(
    greetings="hej|hejsan|hallå|tjena|tja|god morgon|god kväll|välkommen",
    farewells="hej då|hejdå|vi ses|ha det bra|ha det|god natt|kram|kramar",
    thanks="tack|tack så mycket|tusen tack|stort tack",
    apologies="förlåt|ursäkta|ledsen|tyvärr",
    agreement="ja|nej|japp|jo|okej|ok|visst|absolut|precis|exakt|klart|haha|ah|oj|wow",
    reactions="vad kul|vad roligt|vad fint|vad synd|härligt|grymt|toppen|underbart|grattis",
    well_wishes="lycka till|ha så kul|trevlig helg|trevlig resa|grattis|krya på dig|njut",
    guesses="låter|verkar|ser ut",
    exclaims="vad|så",
    words="bra|dålig|kul|roligt|fint|härligt|grymt|toppen|underbart|synd|verkligen|jätte|så|också|"
    "här|där|nu|alltid|aldrig|sant|igen|äntligen|pff|usch|suck|hmm",
    endings="a|t",
    cause="för",
    anchors="jag|min|mitt|mina|mig|vi|vår|vårt|våra|oss|han|hon|de|hans|hennes",
)  # fmt: skip

# A standing rule for the agent: its cues (from now on, always, never, please…), and how the agent answers
# (answer, write, call me, the language…); something to be done (remind me, I have to…). `fold`ed.
RULE_CUES = "fran och med nu|alltid|aldrig|snalla"
AGENT_CUES = "svara|skriv|kalla mig|anvand|pa svenska|svar|kort|korta|lista|listor"
TASK_CUES = "paminn mig|glom inte|jag maste|vi maste|jag paminner dig|paminner dig|todo:|to-do|paminna mig|maste|behover|senast"

# The shape of a statement (`app.language.shapes`), as regular expressions on its lower-cased text: a
# hypothetical ("om … skulle", "tänk om"), a request to the agent (an imperative before "mig", "kan du…"),
# a standing condition ("när…", "varje gång"), a past action (the supine and the preterite) and the
# speaker's own person.
HYPOTHETICAL = r"\bom\b[^.!?]*\b(?:skulle|vore|hade)\b|\btänk\s+(?:om|dig)\b"
REQUEST = r"^(?:(?:hej|ok|och)[,\s]+)?(?:(?:kan|kunde)\s+du\s+(?:\w+\s+)?\w+\s+mig\b|\w+\s+(?:för\s+)?(?:mig|oss)\b|(?:kan|kunde|skulle)\s+du\b)"
STANDING = r"\b(?:när|varje\s+gång|så\s+fort)\b"
PAST = r"\b(?:har|hade)\s+(?:\w+\s+)?\w+(?:at|it|tt)\b|\b\w{2,}ade\b"
# A prohibition to the agent (a negative imperative, "stop …"): a rule that holds beyond the moment.
PROHIBITION = r"^(?:(?:och|men)[,\s]+)?(?:sluta|aldrig|inga|ingen)\s+\w+"
# A question asked without its mark: an interrogative opening it (a question particle closing it).
INTERROGATIVE = r"^(?:vad|hur|när|varför|vem|vilken|vilket|vilka)\s+(?!för\b)\w+"
# The partner addressed: second-person pronouns and possessives.
PARTNER = r"\b(?:du|dig|din|ditt|dina|ni|er)\b"
SELF = (
    r"^(?:är|har|kan|ska|vill|måste|\w{3,}(?:ar|er|ir))\b|\b(?:jag|min|mitt|mina|mig|vi|vår|vårt|våra|oss)\b"
)


# Whether its sentences often leave the person unsaid, the verb carrying it: a question without a
# pronoun may still be about someone (`app.extraction.chit_chat.refers_to_someone`).
PRO_DROP = False

# A lasting circumstance of a person (`app.language.circumstances`): work and studies | home | family and
# pets | health and diet | likes, age and birthday; word starts, `fold`ed (one ending in `\b` is a whole word).
CIRCUMSTANCES = (
    "jobb|sjukskot|lakare|ingenjor|larare|advokat|utvecklare|arbet|foretag|chef|plugg|studer|universitet|"
    "bor\\b|flyttade|hus|lagenhet|stad|fodd|uppvuxen|syster|bror|mamma|pappa|foraldrar|son|dotter|fru|"
    "min man|pojkvan|flickvan|sambo|forlovad|gift|mormor|farmor|morfar|farfar|kusin|hund|katt|gravid|"
    "bebis|allergi|astma|diabet|diagnos|vegetarian|vegan|medicin|alskar|gillar|hatar|favorit|fodelsedag|"
    "ar \\d+ ar"
)

# What a question asks for, and what makes a memory hold it (`app.recall.answer_types`). "var" is also
# "was": only "var" opening the question asks where.
ANSWERS = AnswerWords(
    types={
        **dict.fromkeys(("instruktion", "instruktioner"), "instruction"),
        **dict.fromkeys(
            ("uppgift", "uppgifter", "påminnelse", "påminnelser", "att göra-lista", "att göra"), "task"
        ),
    },
    time_asked="när|vilket år|vilken månad|vilken dag|vilket datum|hur dags|hur länge sedan|sedan när",
    number_asked="hur många|hur mycket|hur länge|hur gammal|hur långt|hur ofta|hur stor",
    place_asked="^var|vart|varifrån|i vilken stad|vilken stad|vilket land|vilken restaurang",
    person_asked="vem|vems|med vem",
    times="idag igår imorgon förrgår ikväll helgen jul julafton påsk midsommar födelsedag nyår",
    relative="förra nästa denna detta",
    periods="vecka veckan månad månaden år året helg helgen",
    numbers="två tre fyra fem sex sju åtta nio tio elva tolv femton tjugo trettio fyrtio femtio hundra tusen"
    " miljon dussin",
    places="gata gatan väg torg park stad by land ö strand sjö älv flod berg café kafé restaurang butik affär"
    " marknad hotell flygplats station skola universitet sjukhus klinik kyrka museum galleri gym pub bar kontor"
    " bibliotek gård trädgård",
    place_before="i till från nära besökte besöka",
    people="mamma mor pappa far syster bror fru man make maka son dotter moster faster morbror farbror kusin"
    " mormor farmor morfar farfar vän kompis chef kollega granne partner sambo pojkvän flickvän lärare läkare"
    " tränare",
)
_SV_PARTNERS = ("sambo", "partner", "pojkvän", "flickvän", "man", "make", "fru", "maka")
_SV_MOTHERS, _SV_FATHERS = ("mamma", "mor"), ("pappa", "far")
# The people and pets a question names by their relation, and how a conversation names them (`app.recall.relations`).
RELATIONS = RelationWords(
    relations={
        **dict.fromkeys(("man", "make"), ("man", "make")),
        **dict.fromkeys(("fru", "maka"), ("fru", "maka")),
        **dict.fromkeys(("sambo", "partner"), _SV_PARTNERS),
        "pojkvän": ("pojkvän",),
        "flickvän": ("flickvän",),
        "son": ("son",),
        "dotter": ("dotter",),
        "barn": ("son", "dotter", "barn"),
        **dict.fromkeys(_SV_MOTHERS, _SV_MOTHERS),
        **dict.fromkeys(_SV_FATHERS, _SV_FATHERS),
        "föräldrar": _SV_MOTHERS + _SV_FATHERS,
        "syster": ("syster",),
        "bror": ("bror",),
        "mormor": ("mormor",),
        "farmor": ("farmor",),
        "morfar": ("morfar",),
        "farfar": ("farfar",),
        "chef": ("chef",),
        "hund": ("hund", "valp"),
        "katt": ("katt", "kattunge"),
    },
    owners="min|mitt|mina|vår|vårt|våra|hans|hennes|deras",
    owners_after="min|mitt|vår|vårt|hans|hennes|deras",
    naming="som heter|heter|vid namn",
    copula="är",
)
# Words that carry no meaning in a question (`app.recall.query`).
QUESTION_NOISE = "minns ihåg sa sagt berättade berättat nämnde nämnt vet något"

# The parts this language has none of, each with what happens instead (never a statement dropped).
LACKS = {
    "SPELLINGS": "no other spellings of its words: a question's words are matched as written",
    "LEMMAS": "no table of irregular forms: its words are stemmed by its snowball stemmer, or searched as said",
    "CATEGORIES": "no table of categories: a question's words are searched as said, without their instances",
    "ABBREVIATIONS": "no abbreviation list: a full stop ends a sentence unless a lower-case word follows it or "
    "it closes a single letter",
    "GENERIC": "no article opens a noun phrase: a remark about the world that names no one is kept",
    "NEGATION": "no rule reads negation: a negated statement is kept verbatim, typed like any other",
    "SECOND_PERSON": "no rule rewrites the second person: a statement is kept verbatim, its speaker as a prefix",
}
