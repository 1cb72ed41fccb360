"""Polish: its rules as data, read by the shared engines (`app.language.time_words`, `app.language.formulas`,
`app.language.cues`, `app.language.questions`, `app.language.circumstances`). Added as a whole: this module
and its line in `MODULES`, written from the language (its cases: "w maju", "3 maja", "zeszłego lata"),
never from an evaluation's misses."""

from app.language.answer_words import AnswerWords
from app.language.formula_words import FormulaWords
from app.language.relation_words import RelationWords
from app.language.time_words import TimeWords

# How a question asks what was done or is planned, its interrogatives and light verbs ("Co robiłem
# wczoraj?", "Jakie mam plany na weekend?"): a question of these and a time asks for that time's memories.
QUESTION_WORDS = (
    "co|czym|gdzie|jakie|jaki|jaka|robiłem|robiłam|robiłeś|robiliśmy|robił|robiła|zrobiłem|zrobiłam|robię|"
    "robić|robimy|będę|mam|miałem|miałam|plany|planach|w planach|się|działo|dzieje|wydarzyło|stało|"
    "zajmowałem|zajmowałam|było|byłem|byłam|ja|mnie|mi|u|na|w|we"
)

TIME = TimeWords(
    relative={
        "dziś": ("day", 0), "dzisiaj": ("day", 0), "dziś wieczorem": ("day", 0), "dzisiaj wieczorem": ("day", 0),
        "dziś rano": ("day", 0), "dzisiaj rano": ("day", 0), "dziś w nocy": ("day", 0),
        "jutro": ("day", 1), "jutro rano": ("day", 1), "pojutrze": ("day", 2),
        "wczoraj": ("day", -1), "wczoraj wieczorem": ("day", -1), "wczoraj rano": ("day", -1),
        "zeszłej nocy": ("day", -1), "przedwczoraj": ("day", -2),
        "w tym tygodniu": ("week", 0), "ten tydzień": ("week", 0),
        "w przyszłym tygodniu": ("week", 1), "w następnym tygodniu": ("week", 1), "przyszły tydzień": ("week", 1),
        "następny tydzień": ("week", 1), "za tydzień": ("week", 1),
        "w zeszłym tygodniu": ("week", -1), "w ubiegłym tygodniu": ("week", -1),
        "w poprzednim tygodniu": ("week", -1), "zeszły tydzień": ("week", -1), "ubiegły tydzień": ("week", -1),
        "tydzień temu": ("week", -1),
        "w tym miesiącu": ("month", 0), "ten miesiąc": ("month", 0),
        "w przyszłym miesiącu": ("month", 1), "w następnym miesiącu": ("month", 1),
        "przyszły miesiąc": ("month", 1), "następny miesiąc": ("month", 1), "za miesiąc": ("month", 1),
        "w zeszłym miesiącu": ("month", -1), "w ubiegłym miesiącu": ("month", -1),
        "w poprzednim miesiącu": ("month", -1), "zeszły miesiąc": ("month", -1), "ubiegły miesiąc": ("month", -1),
        "miesiąc temu": ("month", -1),
        "w weekend": ("weekend", 0), "ten weekend": ("weekend", 0), "na weekend": ("weekend", 0),
        "najbliższy weekend": ("weekend", 0), "tego weekendu": ("weekend", 0),
        "zeszły weekend": ("weekend", -1), "ubiegły weekend": ("weekend", -1), "ostatni weekend": ("weekend", -1),
        "poprzedni weekend": ("weekend", -1), "zeszłego weekendu": ("weekend", -1),
        "ostatniego weekendu": ("weekend", -1), "w ostatni weekend": ("weekend", -1),
        "przyszły weekend": ("weekend", 1), "następny weekend": ("weekend", 1),
        "przyszłego weekendu": ("weekend", 1),
        "w tym roku": ("year", 0), "ten rok": ("year", 0),
        "w przyszłym roku": ("year", 1), "w następnym roku": ("year", 1), "przyszły rok": ("year", 1),
        "za rok": ("year", 1),
        "w zeszłym roku": ("year", -1), "w ubiegłym roku": ("year", -1), "w poprzednim roku": ("year", -1),
        "zeszły rok": ("year", -1), "rok temu": ("year", -1), "przed rokiem": ("year", -1),
        "co rano": None, "każdego ranka": None, "codziennie rano": None,
    },
    weekdays="poniedziałek|poniedziałku|poniedziałkiem;wtorek|wtorku|wtorkiem;środa|środę|środzie|środą;"
    "czwartek|czwartku|czwartkiem;piątek|piątku|piątkiem;sobota|sobotę|sobocie|sobotą;"
    "niedziela|niedzielę|niedzieli|niedzielą",
    last="zeszły|zeszłą|zeszła|zeszłe|zeszłego|zeszłej|zeszłym|ubiegły|ubiegłą|ubiegła|ubiegłe|ubiegłego|"
    "ubiegłej|ubiegłym|ostatni|ostatnią|ostatniego|ostatniej|ostatnim|poprzedni|poprzednią|poprzedniego|"
    "poprzedniej|poprzednim",
    this="ten|tę|tą|ta|tego|tej|tym",
    next="przyszły|przyszłą|przyszła|przyszłe|przyszłego|przyszłej|przyszłym|następny|następną|następna|"
    "następnego|następnej|następnym|najbliższy|najbliższą|najbliższa|najbliższego|najbliższej|najbliższym",
    # "co czwartek", "w każdy piątek", "we wszystkie niedziele": a habit, no day.
    habit="co|każdy|każdą|każdego|w każdy|w każdą|we wszystkie",
    # Nominative, genitive ("3 maja") and locative ("w maju").
    months="styczeń|stycznia|styczniu;luty|lutego|lutym;marzec|marca|marcu;kwiecień|kwietnia|kwietniu;"
    "maj|maja|maju;czerwiec|czerwca|czerwcu;lipiec|lipca|lipcu;sierpień|sierpnia|sierpniu;"
    "wrzesień|września|wrześniu;październik|października|październiku;listopad|listopada|listopadzie;"
    "grudzień|grudnia|grudniu",
    month_before="w|we|na|na początku|pod koniec|w połowie|z początkiem|z końcem|początkiem|końcem",
    season_before="w|we|na|podczas|całe|całą|całego",
    holiday_before="na|w|we|po|przed|do|podczas|z okazji",
    seasons="wiosna|wiosną|wiosnę|wiosny|wiośnie;lato|latem|lata|lecie;jesień|jesienią|jesieni;"
    "zima|zimą|zimę|zimy|zimie",
    numbers="jeden|jedną|jedna|jednego|jednym;dwa|dwie|dwóch|dwoma;trzy|trzech|trzema|kilka|kilku;"
    "cztery|czterech|czterema;pięć|pięciu;sześć|sześciu;siedem|siedmiu;osiem|ośmiu;dziewięć|dziewięciu;"
    "dziesięć|dziesięciu",
    units={"dzień": "day", "dni": "day", "dnia": "day", "dniami": "day",
           "tydzień": "week", "tygodnie": "week", "tygodni": "week", "tygodnia": "week", "tygodniami": "week",
           "miesiąc": "month", "miesiące": "month", "miesięcy": "month", "miesiąca": "month",
           "miesiącami": "month",
           "rok": "year", "lata": "year", "lat": "year", "roku": "year", "laty": "year", "latami": "year"},
    ago="{n} {u} temu|przed {n} {u}", later="za {n} {u}",
    holidays={"christmas": "boże narodzenie|bożego narodzenia|bożym narodzeniu|święta bożego narodzenia|"
                           "święta|świąt|świętach|świętami|gwiazdka|gwiazdkę|gwiazdki",
              "christmas eve": "wigilia|wigilię|wigilii|wigilią",
              "new years eve": "sylwester|sylwestra|sylwestrze|sylwestrem",
              "new years day": "nowy rok|nowego roku",
              "easter": "wielkanoc|wielkanocy|wielkanocą|święta wielkanocne|świąt wielkanocnych|"
                        "świętach wielkanocnych"},
    since="od|odkąd|od czasu",
    future="będę|będziesz|będzie|będziemy|będziecie|będą|zamierzam|zamierzamy|planuję|planujemy|pojadę|"
    "pójdę|pojedziemy|pójdziemy",
    past="byłem|byłam|byłeś|byłaś|był|była|było|byliśmy|byłyśmy|byli|robiłem|robiłam|robiłeś|robiliśmy|"
    "zrobiłem|zrobiłam|miałem|miałam|działo|wydarzyło|stało|poszedłem|poszłam|pojechałem|pojechałam",
)  # fmt: skip

# Its chat formulas (greetings, thanks, agreement, reactions, wishes, guesses, words that say nothing).
# Polish has no snowball stop list: its commonest function words are in `words`.
FORMULAS = FormulaWords(
    greetings="cześć|czesc|hej|hejka|siema|siemka|elo|witaj|witajcie|witam|dzień dobry|dobry wieczór|czołem|"
    "co słychać|co u ciebie|jak się masz|jak leci",
    farewells="do widzenia|do zobaczenia|na razie|nara|pa|pa pa|papa|trzymaj się|trzymajcie się|dobranoc|"
    "do jutra|do później|pozdrawiam|pozdrowienia|buziaki|buziak|ściskam|całuski",
    thanks="dzięki|dziękuję|dziękuje|dziękujemy|dziękuję bardzo|bardzo dziękuję|dzięki wielkie|"
    "wielkie dzięki|stokrotne dzięki|proszę|proszę bardzo|nie ma za co|nie ma sprawy",
    apologies="przepraszam|sorry|sorki|sory|wybacz|wybaczcie|przykro mi|bardzo mi przykro|szkoda|jaka szkoda",
    agreement="tak|nie|no|no tak|no nie|jasne|no jasne|pewnie|oczywiście|dokładnie|właśnie|zgoda|ok|okej|"
    "okay|dobra|dobrze|spoko|luz|rozumiem|racja|masz rację|prawda|haha|hahaha|ha|och|o|aha|ach|ej|hmm|hm|"
    "wow|ojej|oj|mhm|aj|kurczę",
    reactions="super|świetnie|ekstra|extra|fajnie|czad|kozak|genialnie|rewelacja|rewelacyjnie|wspaniale|"
    "cudownie|pięknie|ale super|ale fajnie|jak fajnie|jak miło|miło|miło mi|gratulacje|gratuluję|brawo|"
    "niesamowite|bomba|zazdroszczę|cieszę się|bardzo się cieszę|ale czad|no proszę",
    well_wishes="powodzenia|miłego dnia|miłego wieczoru|miłego weekendu|udanego weekendu|udanej podróży|"
    "szerokiej drogi|smacznego|wszystkiego najlepszego|wszystkiego dobrego|sto lat|zdrowiej|zdrówka|"
    "wesołych świąt|szczęśliwego nowego roku|trzymam kciuki|baw się dobrze|bawcie się dobrze|odpocznij|"
    "miłej zabawy|mam nadzieję że|oby|dbaj o siebie|wracaj do zdrowia|połamania nóg|gratulacje",
    guesses="brzmi|wygląda|wydaje się|musi być|musiało być|to musi|na pewno było|pewnie było|chyba",
    exclaims="jaki|jaka|jakie|co za|ale",
    words="dobry|dobra|dobre|fajny|fajna|fajne|świetny|piękny|ładny|śmieszny|ciekawy|straszny|smutny|"
    "szkoda|bardzo|tak|też|także|tu|tutaj|tam|teraz|zawsze|nigdy|jeszcze|już|naprawdę|serio|totalnie|"
    "całkiem|no|więc|to|ten|ta|te|jest|są|i|a|ale|w|we|na|z|ze|do|o|że|się|mi|ci|ty|ja|bo|czy|co|jak|"
    "tylko|trochę|coś|nic|po|od|dla|przez|za|u|rzecz|sprawa|chyba|może|znowu|znów|wreszcie|nareszcie|eh|ech|uff|ugh",
    endings="ego|emu|ymi|imi|ych|ich|ach|ami|om|ej|ym|im|ą|ę|a|e|i|o|y|u",
    cause="za",
    anchors="ja|mój|moja|moje|moi|mojego|mojej|mnie|mną|my|nasz|nasza|nasze|nasi|naszego|naszej|nas|nam|"
    "on|ona|oni|one|jego|jej|ich|mu|go",
)  # fmt: skip

# A standing rule for the agent: its cues (from now on, always, never, please…), and how the agent answers
# (answer, write, call me, the language…); something to be done (remind me, I have to…). `fold`ed ("ł"
# stays "ł": it is a letter of its own, not an accented "l").
RULE_CUES = "od teraz|od tej pory|od dzis|od dzisiaj|na przyszłosc|zawsze|nigdy|prosze|nie uzywaj|przestan"
AGENT_CUES = (
    "odpowiadaj|odpowiedz|pisz|napisz|mow do mnie|nazywaj mnie|zwracaj sie do mnie|uzywaj|po polsku|"
    "po angielsku|emotikon|emotek|emoji|krotko|krocej|zwiezle"
)
TASK_CUES = (
    "przypomnij mi|przypomnij|nie zapomnij|nie moge zapomniec|musze|musimy|mam do zrobienia|do zrobienia|"
    "trzeba|powinienem|powinnam|termin|przypomniec|przypomnisz"
)


# Whether its sentences often leave the person unsaid, the verb carrying it ("Byłem wczoraj u dentysty"):
# a question without a pronoun may still be about someone (`app.extraction.chit_chat.refers_to_someone`).
PRO_DROP = True

# A lasting circumstance of a person (`app.language.circumstances`): work and studies | home | family and
# pets | health and diet | likes, age and birthday; word starts, `fold`ed ("ł" stays "ł").
CIRCUMSTANCES = (
    "prac|pielegniar|lekarz|lekarka|inzynier|nauczyciel|prawnik|programist|informatyk|firm|szef|biur|"
    "kariera|zawod|studi|studiuj|uczelni|uniwersytet|mieszkam|mieszka|mieszkamy|mieszkaja|przeprowadz|"
    "dom\\b|domu\\b|mieszkani|urodzi|wychowa|siostr|brat|mama|mame|matk|tata|taty|tate|ojc|"
    "rodzic|syn|corka|corki|corke|zona|zony|zone|maz\\b|meza|mezem|chłopak|dziewczyn|narzeczon|slub|"
    "babci|babcia|dziadk|wujek|wujka|ciocia|cioci|kuzyn|pies|psa|psem|kot\\b|kota|kotem|zwierz|ciaz|"
    "dzieck|dzieci|alergi|uczulon|nietoleran|astm|cukrzyc|diagnoz|operacj|wegetarian|wegan|lekow|"
    "uwielbiam|kocham|lubie|nienawidz|ulubion|urodzin|mam \\d+ lat"
)

# Words a full stop does not end a sentence after (`app.language.sentences`), and those after which it
# ends one only before a capital.
ABBREVIATIONS = "np|tzn|tj|dr|prof|mgr|inż|ul|godz|m.in|św|nr|tel|wg|ds"
SOFT_ABBREVIATIONS = "itd|itp|zł|tys|mln|min"

# The shape of a statement (`app.language.shapes`), as regular expressions on its lower-cased text: a
# hypothetical (the conditional "gdyby…", "-bym", "wyobraź sobie"), a request to the agent (an imperative
# before "mi", "możesz…"), a prohibition ("nie" and an imperative, "przestań"), a standing condition
# ("kiedy…", "za każdym razem"), a past action (the past tense in -ł), the speaker's own person and the
# partner's.
HYPOTHETICAL = (
    r"\b(?:gdyby|gdybym|gdybyś|gdybyśmy|jakbym|jakby)\b|\b\w+(?:łbym|łabym|libyśmy)\b|\bwyobraź\s+sobie\b"
)
REQUEST = (
    r"^(?:(?:hej|ok|i)[,\s]+)?(?:\w+(?:aj|uj|ij|yj|nij|edz|ij)\s+mi\b|(?:powiedz|opowiedz|wytłumacz|wyjaśnij|daj|pokaż)\b"
    r"|(?:możesz|mógłbyś|mogłabyś|możecie|czy\s+możesz)\b)"
)
PROHIBITION = r"^(?:(?:i|ale)[,\s]+)?(?:nigdy\s+)?nie\s+\w+(?:aj|uj|ij|yj|ów|órz|isz|ysz)\b|^przestań\b"
STANDING = r"\b(?:kiedy|gdy|zawsze\s+gdy|za\s+każdym\s+razem)\b"
PAST = r"\b\w+(?:łem|łam|łeś|łaś|liśmy|łyśmy|ł|ła|ło|li|ły)\b"
# A question asked without its mark: an interrogative opening it (a question particle closing it).
INTERROGATIVE = r"^(?:co|gdzie|kiedy|dlaczego|czemu|kto|który|która|które|ile)\s+\w+"
# The partner addressed: second-person pronouns and possessives.
PARTNER = r"\b(?:ty|ciebie|cię|tobie|ci|tobą|twój|twoja|twoje|wy|was|wam|pan|pani)\b"
SELF = (
    r"\b(?:ja|mój|moja|moje|moi|mojego|mojej|mnie|mi|mną|my|nasz|nasza|nasze|nas|nam)\b"
    r"|\b(?:jestem|mam|będę|muszę|chcę|mogę|jesteśmy|mamy)\b|\b\w+(?:łem|łam|liśmy|łyśmy)\b"
)

# What a question asks for, and what makes a memory hold it (`app.recall.answer_types`). Its nouns are
# declined: the forms a memory most often holds are listed.
ANSWERS = AnswerWords(
    types={
        **dict.fromkeys(("instrukcja", "instrukcje", "instrukcji"), "instruction"),
        **dict.fromkeys(
            (
                "zadanie",
                "zadania",
                "zadań",
                "przypomnienie",
                "przypomnienia",
                "lista zadań",
                "rzeczy do zrobienia",
            ),
            "task",
        ),
    },
    time_asked="kiedy|w którym roku|którego dnia|w jakim miesiącu|o której|jak dawno|od kiedy|ile czasu temu",
    number_asked="ile|ilu|w jakim wieku",
    place_asked="gdzie|dokąd|skąd|w jakim mieście|jakie miasto|w jakim kraju|jaka restauracja|w jakiej restauracji",
    person_asked="kto|kogo|komu|z kim|czyj|czyja|czyje",
    times="dzisiaj dziś wczoraj jutro przedwczoraj pojutrze weekend weekendzie święta wigilia wielkanoc urodziny"
    " sylwester",
    relative="zeszłym zeszłego zeszły ostatnim ostatni przyszłym przyszłego przyszły następnym tym ten",
    periods="tygodniu tydzień miesiącu miesiąc roku rok weekend weekendzie",
    numbers="dwa dwie trzy cztery pięć sześć siedem osiem dziewięć dziesięć jedenaście dwanaście piętnaście"
    " dwadzieścia trzydzieści czterdzieści pięćdziesiąt sto tysiąc milion tuzin pół połowa",
    places="ulica ulicy park parku miasto mieście wieś wsi kraj kraju wyspa wyspie plaża plaży jezioro jeziorze"
    " rzeka rzece góry górach kawiarnia kawiarni restauracja restauracji sklep sklepie rynek rynku hotel hotelu"
    " lotnisko lotnisku dworzec dworcu szkoła szkole uniwersytet uczelnia szpital szpitalu kościół muzeum"
    " galeria siłownia siłowni bar biuro biurze biblioteka bibliotece ogród ogrodzie",
    place_before="w we na z do odwiedziłem odwiedziłam odwiedziliśmy",
    people="mama mamy mamą matka tata taty tatą ojciec siostra siostry siostrą brat brata bratem żona żony żoną mąż"
    " męża mężem syn syna córka córki ciocia wujek kuzyn kuzynka babcia dziadek przyjaciel przyjaciółka kolega"
    " koleżanka szef szefowa sąsiad sąsiadka partner partnerka chłopak dziewczyna nauczyciel nauczycielka lekarz"
    " lekarka trener",
)
_PL_DOGS, _PL_CATS = ("pies", "psa", "piesek", "pieska", "szczeniak"), ("kot", "kota", "kotka", "kotek")
# The people and pets a question names by their relation, and how a conversation names them, in their
# usual cases (`app.recall.relations`).
RELATIONS = RelationWords(
    relations={
        **dict.fromkeys(("mąż", "męża", "mężem", "mężowi"), ("mąż", "męża", "mężem")),
        **dict.fromkeys(("żona", "żony", "żonę", "żoną", "żonie"), ("żona", "żonę", "żoną")),
        **dict.fromkeys(("syn", "syna", "synem"), ("syn", "syna")),
        **dict.fromkeys(("córka", "córki", "córkę", "córką"), ("córka", "córkę")),
        **dict.fromkeys(("mama", "mamy", "mamę", "mamą", "matka", "matki"), ("mama", "mamę", "matka")),
        **dict.fromkeys(
            ("tata", "taty", "tatę", "tatą", "ojciec", "ojca"), ("tata", "tatę", "ojciec", "ojca")
        ),
        **dict.fromkeys(("siostra", "siostry", "siostrę"), ("siostra", "siostrę")),
        **dict.fromkeys(("brat", "brata", "bratem"), ("brat", "brata")),
        **dict.fromkeys(("pies", "psa", "psem", "psu"), _PL_DOGS),
        **dict.fromkeys(("kot", "kota", "kotem"), _PL_CATS),
        **dict.fromkeys(("szef", "szefowa"), ("szef", "szefowa")),
        "chłopak": ("chłopak",),
        "dziewczyna": ("dziewczyna",),
    },
    owners="mój|moja|moją|mojego|moje|moi|nasz|nasza|naszą|jego|jej|ich",
    owners_after="mój|moja|nasz|nasza",
    naming="o imieniu|imieniem|który się nazywa|która się nazywa|nazywa się|ma na imię",
    copula="to",
)
# Words that carry no meaning in a question (`app.recall.query`).
QUESTION_NOISE = "pamiętasz pamiętam mówiłem mówiłam powiedziałem powiedziałam wspominałem wspominałam wiesz"

# The parts this language has none of, each with what happens instead (never a statement dropped).
LACKS = {
    "SPELLINGS": "no other spellings of its words: a question's words are matched as written",
    "LEMMAS": "no table of irregular forms: its words are stemmed by its snowball stemmer, or searched as said",
    "CATEGORIES": "no table of categories: a question's words are searched as said, without their instances",
    "GENERIC": "no article opens a noun phrase: a remark about the world that names no one is kept",
    "NEGATION": "no rule reads negation: a negated statement is kept verbatim, typed like any other",
    "SECOND_PERSON": "no rule rewrites the second person: a statement is kept verbatim, its speaker as a prefix",
}
