"""Korean: its time words (the other parts of its rules are still in `app.language.formulas` and
`app.language.cues`)."""

from app.language.time_words import TimeWords

# How a question asks what was done or is planned, its interrogatives and light verbs ("¿Qué hice…?",
# "Was habe ich … gemacht?", "我…干了啥"): a question of these and a time asks for that time's memories.
QUESTION_WORDS = "뭐|뭘|했|했어|했지|했더라|더라|해|하지|할|하기로|에|나|내가|무엇"

TIME = TimeWords(
    relative={
        "오늘": ("day", 0), "내일": ("day", 1), "모레": ("day", 2), "어제": ("day", -1), "그저께": ("day", -2),
        "그제": ("day", -2), "엊그제": ("day", -2),
        "다음 주": ("week", 1), "다음주": ("week", 1), "지난주": ("week", -1), "지난 주": ("week", -1),
        "이번 주": ("week", 0), "이번주": ("week", 0),
        "다음 달": ("month", 1), "다음달": ("month", 1), "지난달": ("month", -1), "지난 달": ("month", -1),
        "이번 달": ("month", 0), "이번달": ("month", 0),
        "이번 주말": ("weekend", 0), "이번주말": ("weekend", 0),
        "지난 주말": ("weekend", -1), "지난주말": ("weekend", -1), "다음 주말": ("weekend", 1), "다음주말": ("weekend", 1),
        "하루 전": ("day", -1), "이틀 전": ("day", -2), "사흘 전": ("day", -3), "나흘 전": ("day", -4),
        "이틀 후": ("day", 2), "사흘 후": ("day", 3),
        "작년": ("year", -1), "지난해": ("year", -1), "내년": ("year", 1), "올해": ("year", 0),
    },
    unspaced=True,
    weekday_pattern=r"(?:(?P<habit>매주)\s*)?(?:(?P<week>지난\s?주|다음\s?주|이번\s?주)\s*)?(?P<day>[월화수목금토일])요일",
    weekday_signs="월;화;수;목;금;토;일",
    last="지난", this="이번|올", next="다음",
    seasons="봄;여름;가을;겨울",
    years={"작년": -1, "지난해": -1, "올해": 0, "내년": 1},
    numbers="한|하나|일;두|둘|이;세|셋|삼;네|넷|사;다섯|오;여섯|육;일곱|칠;여덟|팔;아홉|구;열|십",
    units={"일": "day", "주": "week", "주일": "week", "달": "month", "개월": "month", "년": "year"},
    ago="{n} {u} 전|{n} {u}전", later="{n} {u} 후|{n} {u} 뒤",
    holidays={"christmas": "크리스마스|성탄절", "christmas eve": "크리스마스 이브", "new years day": "새해 첫날|신정",
              "easter": "부활절"},
    future="예정|거예요|할 거|갈 거|계획|기로",
    past="었|았|했|였",
)  # fmt: skip
