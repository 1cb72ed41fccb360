"""Russian: its rules as data, read by the shared engines (`app.language.time_words`, `app.language.formulas`,
`app.language.cues`, `app.language.questions`). Added as a whole: this module and its line in `MODULES`."""

from app.language.answer_words import AnswerWords
from app.language.formula_words import FormulaWords
from app.language.relation_words import RelationWords
from app.language.time_words import TimeWords

# How a question asks what was done or is planned, its interrogatives and light verbs ("Что я делал вчера?",
# "Какие у меня планы на выходные?"): a question of these and a time asks for that time's memories.
QUESTION_WORDS = (
    "что|чем|я|делал|делала|делали|делаю|буду|будет|было|занимался|занималась|какие|у меня|планы|план|на"
)

TIME = TimeWords(
    relative={
        "сегодня": ("day", 0), "сегодня вечером": ("day", 0), "сегодня утром": ("day", 0),
        "завтра": ("day", 1), "послезавтра": ("day", 2), "вчера": ("day", -1), "вчера вечером": ("day", -1),
        "позавчера": ("day", -2),
        "на этой неделе": ("week", 0), "на следующей неделе": ("week", 1), "на прошлой неделе": ("week", -1),
        "неделю назад": ("week", -1),
        "в этом месяце": ("month", 0), "в следующем месяце": ("month", 1), "в прошлом месяце": ("month", -1),
        "в эти выходные": ("weekend", 0), "на этих выходных": ("weekend", 0),
        "в прошлые выходные": ("weekend", -1), "на прошлых выходных": ("weekend", -1),
        "в следующие выходные": ("weekend", 1), "на следующих выходных": ("weekend", 1),
        "на следующий месяц": ("month", 1), "на прошлый месяц": ("month", -1), "на следующую неделю": ("week", 1),
        "в этом году": ("year", 0), "в прошлом году": ("year", -1), "в следующем году": ("year", 1),
        "год назад": ("year", -1), "месяц назад": ("month", -1),
    },
    weekdays="понедельник;вторник;среду|среда;четверг;пятницу|пятница;субботу|суббота;воскресенье",
    last="прошлый|прошлую|прошлое|прошлым|прошлой|прошлого", this="этот|эту|это|этим|этой",
    next="следующий|следующую|следующее|следующим|следующей|будущий|будущую",
    habit="каждый|каждую|каждое",
    months="январь|января|январе;февраль|февраля|феврале;март|марта|марте;апрель|апреля|апреле;май|мая|мае;"
    "июнь|июня|июне;июль|июля|июле;август|августа|августе;сентябрь|сентября|сентябре;"
    "октябрь|октября|октябре;ноябрь|ноября|ноябре;декабрь|декабря|декабре",
    month_before="в|во|в начале|в конце|в середине",
    season_before="этой|этим",
    holiday_before="на|в|перед|после",
    seasons="весна|весной|весну;лето|летом;осень|осенью;зима|зимой|зиму",
    numbers="один|одну|одна;два|две;три;четыре;пять;шесть;семь;восемь;девять;десять",
    units={"день": "day", "дня": "day", "дней": "day", "неделю": "week", "недели": "week", "недель": "week",
           "месяц": "month", "месяца": "month", "месяцев": "month", "год": "year", "года": "year", "лет": "year"},
    ago="{n} {u} назад", later="через {n} {u}",
    # Christmas is kept on 7 January by most who write Russian: only the New Year is read here.
    holidays={"new years day": "новый год", "new years eve": "новогоднюю ночь|канун нового года"},
    since="с|со|начиная с",
    future="буду|будешь|будет|будем|будут|собираюсь|собираемся|планирую|пойду|поеду|поедем",
    past="был|была|было|были|делал|делала|делали|ходил|ходила|ездил|ездила",
)  # fmt: skip

# Its chat formulas (greetings, thanks, agreement, reactions, wishes, guesses, words that say nothing).
FORMULAS = FormulaWords(
    greetings="привет|приветик|здравствуй|здравствуйте|добрый день|доброе утро|добрый вечер|хай|салют",
    farewells="пока|пока-пока|до свидания|до встречи|до завтра|спокойной ночи|увидимся|всего доброго|целую|обнимаю",
    thanks="спасибо|спасибо большое|большое спасибо|огромное спасибо|благодарю|пожалуйста|не за что",
    apologies="извини|извините|прости|простите|сорри|жаль|как жаль|очень жаль",
    agreement="да|нет|ага|угу|ок|окей|ладно|хорошо|конечно|точно|согласен|согласна|понятно|ясно|именно|"
    "хаха|ахах|ахаха|ха|ой|ого|вау|ну|эх|хм",
    reactions="круто|класс|классно|супер|здорово|отлично|как здорово|как круто|как мило|молодец|молодцы|"
    "поздравляю|ура|офигеть|ничего себе|рад за тебя|рада за тебя",
    well_wishes="удачи|удачи тебе|удачи вам|хорошего дня|хорошего вечера|хороших выходных|приятного аппетита|"
    "счастливого пути|хорошей поездки|с днём рождения|с днем рождения|с новым годом|с праздником|"
    "выздоравливай|поправляйся|береги себя|надеюсь ты|надеюсь у тебя|надеюсь всё|желаю|отдохни",
    guesses="наверное|похоже|звучит|кажется|должно быть|небось",
    exclaims="какой|какая|какое|какие|как",
    words="хорошо|плохо|круто|классно|отлично|прекрасно|красиво|интересно|смешно|грустно|жаль|очень|так|"
    "тоже|также|здесь|тут|там|сейчас|всегда|никогда|ещё|еще|правда|вообще|просто|реально|вещь|штука|снова|наконец|блин|эх|ох|уф|фу|ну",
    endings="ая|ое|ые|ий|ой|ую|ого|а|о|ы|е",
    cause="за",
    anchors="я|мой|моя|моё|мое|мои|меня|мне|мы|наш|наша|наши|нас|он|она|они|его|её|ее|их",
)  # fmt: skip

# A standing rule for the agent: its cues (from now on, always, never, please…), and how the agent answers
# (answer, write, call me, the language…); something to be done (remind me, I have to…). `fold`ed.
RULE_CUES = (
    "с этого момента|отныне|впредь|всегда|никогда|пожалуиста|не используи|не пиши|не называи|плз|пжл|пж"
)
AGENT_CUES = "отвечаи|ответь|пиши|напиши|называи меня|зови меня|используи|на русском|на англииском|эмодзи|смаилики|ответы|ответ|коротко|кратко|списком|на ты|на вы"
TASK_CUES = "напомни|напомни мне|не забудь|мне нужно|мне надо|надо|нужно|я должен|я должна|напомню|я напомню|туду|todo:|напомнить|не забыть"

# The shape of a statement (`app.language.shapes`), as regular expressions on its lower-cased text: a
# hypothetical (the particle "бы", "представь"), a request to the agent (an imperative before "мне",
# "можешь…"), a standing condition ("когда…", "каждый раз"), a past action (the perfective past) and the
# speaker's own person.
HYPOTHETICAL = r"(?<!\w)(?:бы|б)(?!\w)|(?<!\w)представ(?:ь|ьте)(?!\w)"
REQUEST = (
    r"^(?:(?:слушай|ну|ок|и)[,\s]+)?(?:\w+(?:и|й|ите|йте)\s+(?:мне|нам)(?!\w)|(?:можешь|можете|мог\w*\s+бы)(?!\w)"
    r"|не\s+\w+(?:й|и|йте|ите)(?!\w))"
)
STANDING = r"(?<!\w)(?:когда|каждый\s+раз|всякий\s+раз|если)(?!\w)"
PAST = r"(?<!\w)(?:с|по|за|у|вы|про|пере|при|от|на)\w+(?:л|ла|ли|лся|лась|лись)(?!\w)"
# A prohibition to the agent (a negative imperative, "stop …"): a rule that holds beyond the moment.
PROHIBITION = (
    r"^(?:(?:и|но)[,\s]+)?(?:не|никогда\s+не)\s+\w+(?:й|и|йте|ите)(?!\w)|^хватит(?!\w)|^не\s+надо(?!\w)"
)
# A question asked without its mark: an interrogative opening it (a question particle closing it).
INTERROGATIVE = r"^(?:что|как|где|когда|почему|зачем|кто|какой|какая|какие|сколько)\s+\w+"
# The partner addressed: second-person pronouns and possessives.
PARTNER = r"(?<!\w)(?:ты|тебя|тебе|тобой|твой|твоя|твои|вы|вас|вам|ваш)(?!\w)"
SELF = r"^(?:\w+\s+){0,2}\w+(?:ю|у)(?!\w)|(?<!\w)(?:я|мой|моя|моё|мое|мои|моего|моей|меня|мне|мной|мы|наш|наша|наши|нас|нам)(?!\w)"


# Whether its sentences often leave the person unsaid, the verb carrying it: a question without a
# pronoun may still be about someone (`app.extraction.chit_chat.refers_to_someone`).
PRO_DROP = False

# A lasting circumstance of a person (`app.language.circumstances`): work and studies | home | family and
# pets | health and diet | likes, age and birthday; word starts, `fold`ed ("й" is "и", "ё" is "е").
CIRCUMSTANCES = (
    "работ|врач|инженер|учител|программист|разработчик|юрист|медсестр|компани|фирм|офис|начальник|"
    "професси|учусь|учится|студент|университет|институт|живу|живет|живем|живут|переехал|квартир|дом\\b|"
    "родил|вырос|выросла|сестр|брат|мама|мать|папа|отец|родител|сын|дочь|дочк|дочер|жена|муж\\b|мужем|"
    "парень|девушк|помолвлен|женат|замужем|бабушк|дедушк|дяд|тетя|тети|тетк|двоюродн|собак|кот\\b|кошк|питом|"
    "беременн|ребен|дети|детеи|аллерги|астм|диабет|диагноз|операци|вегетариан|веган|лекарств|люблю|"
    "обожаю|ненавижу|любим|день рождения|мне \\d+ (?:лет|год)"
)


# Words a full stop does not end a sentence after (`app.language.sentences`), and those after which it
# ends one only before a capital.
ABBREVIATIONS = "т.е|т.к|др|ул|им|проф|см|тыс|млн|руб|стр"
SOFT_ABBREVIATIONS = "т.д|т.п"

# What a question asks for, and what makes a memory hold it (`app.recall.answer_types`). Its nouns are
# declined: the forms a memory most often holds are listed.
ANSWERS = AnswerWords(
    types={
        **dict.fromkeys(("инструкция", "инструкции", "инструкций"), "instruction"),
        **dict.fromkeys(("задача", "задачи", "задач", "напоминание", "напоминания", "список дел"), "task"),
    },
    time_asked="когда|в каком году|какого числа|в какой день|в каком месяце|во сколько|сколько времени назад"
    "|как давно|с каких пор",
    number_asked="сколько|какого возраста",
    place_asked="где|куда|откуда|в каком городе|какой город|в какой стране|какой ресторан|в каком ресторане",
    person_asked="кто|кого|кому|с кем|чей|чья|чьё",
    times="сегодня вчера завтра позавчера послезавтра выходные выходных рождество рождества пасха пасху рождения",
    relative="прошлой прошлом прошлый прошлую следующей следующем следующий следующую этой этом этот эту",
    periods="неделе неделю месяце месяц году год выходных выходные",
    numbers="два две три четыре пять шесть семь восемь девять десять одиннадцать двенадцать пятнадцать двадцать"
    " тридцать сорок пятьдесят сто тысяча тысяч миллион десяток пара половина",
    places="улица улице улицу парк парке город городе деревня деревне страна стране остров острове пляж пляже"
    " озеро озере река реке горы горах кафе ресторан ресторане магазин магазине рынок рынке отель отеле"
    " гостиница аэропорт аэропорту вокзал вокзале школа школе университет университете больница больнице"
    " церковь музей музее спортзал бар офис офисе библиотека библиотеке сад саду",
    place_before="в во на из около посетил посетила посетили",
    people="мама маме маму мать папа папе папу отец сестра сестре сестру брат брату жена жене муж мужем мужу сын"
    " сына дочь дочка тётя тетя дядя племянник племянница бабушка дедушка друг подруга друга начальник"
    " начальница коллега сосед соседка партнёр парень девушка учитель учительница врач тренер",
)
_RU_DOGS, _RU_CATS = ("собака", "собаку", "пёс", "пса", "щенок"), ("кошка", "кошку", "кот", "кота", "котёнок")
# The people and pets a question names by their relation, and how a conversation names them, in their
# usual cases (`app.recall.relations`).
RELATIONS = RelationWords(
    relations={
        **dict.fromkeys(("муж", "мужа", "мужу", "мужем"), ("муж", "мужа", "мужем")),
        **dict.fromkeys(("жена", "жену", "жене", "женой"), ("жена", "жену", "женой")),
        **dict.fromkeys(("сын", "сына", "сыну"), ("сын", "сына")),
        **dict.fromkeys(("дочь", "дочери", "дочка", "дочку"), ("дочь", "дочка", "дочку")),
        **dict.fromkeys(("мама", "маму", "маме", "мать", "матери"), ("мама", "маму", "мать")),
        **dict.fromkeys(("папа", "папу", "папе", "отец", "отца"), ("папа", "папу", "отец", "отца")),
        **dict.fromkeys(("сестра", "сестру", "сестре"), ("сестра", "сестру")),
        **dict.fromkeys(("брат", "брата", "брату"), ("брат", "брата")),
        **dict.fromkeys(("собака", "собаку", "собаки", "пёс", "пса"), _RU_DOGS),
        **dict.fromkeys(("кошка", "кошку", "кот", "кота"), _RU_CATS),
        "начальник": ("начальник", "начальница", "шеф"),
        "парень": ("парень",),
        "девушка": ("девушка",),
    },
    owners="мой|моя|мою|моего|моей|мои|наш|наша|нашу|его|её|ее|их",
    owners_after="мой|моя|наш|наша",
    naming="по имени|по кличке|которого зовут|которую зовут|зовут",
)
# Words that carry no meaning in a question (`app.recall.query`).
QUESTION_NOISE = "помнишь помните говорил говорила рассказывал рассказывала упоминал упоминала знаешь"

# The parts this language has none of, each with what happens instead (never a statement dropped).
LACKS = {
    "SPELLINGS": "no other spellings of its words: a question's words are matched as written",
    "LEMMAS": "no table of irregular forms: its words are stemmed by its snowball stemmer, or searched as said",
    "CATEGORIES": "no table of categories: a question's words are searched as said, without their instances",
    "GENERIC": "no article opens a noun phrase: a remark about the world that names no one is kept",
    "NEGATION": "no rule reads negation: a negated statement is kept verbatim, typed like any other",
    "SECOND_PERSON": "no rule rewrites the second person: a statement is kept verbatim, its speaker as a prefix",
}
