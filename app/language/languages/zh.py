"""Chinese: its time words (the other parts of its rules are still in `app.language.formulas` and
`app.language.cues`)."""

from app.language.time_words import TimeWords

# How a question asks what was done or is planned, its interrogatives and light verbs ("¿Qué hice…?",
# "Was habe ich … gemacht?", "我…干了啥"): a question of these and a time asks for that time's memories.
QUESTION_WORDS = "我|干嘛|干|做|了|什么|啥|呢|吗|有|安排|发生|那天|的"

TIME = TimeWords(
    relative={
        "今天": ("day", 0), "今晚": ("day", 0), "今天晚上": ("day", 0), "今早": ("day", 0), "今日": ("day", 0),
        "明天": ("day", 1), "明日": ("day", 1), "后天": ("day", 2), "昨天": ("day", -1), "昨晚": ("day", -1),
        "昨日": ("day", -1), "前天": ("day", -2),
        "下周": ("week", 1), "下个星期": ("week", 1), "下星期": ("week", 1), "下礼拜": ("week", 1),
        "上周": ("week", -1), "上个星期": ("week", -1), "上星期": ("week", -1), "上礼拜": ("week", -1),
        "这周": ("week", 0), "本周": ("week", 0), "这个星期": ("week", 0),
        "下个月": ("month", 1), "下月": ("month", 1), "上个月": ("month", -1), "上月": ("month", -1),
        "这个月": ("month", 0), "本月": ("month", 0),
        "这个周末": ("weekend", 0), "这周末": ("weekend", 0), "本周末": ("weekend", 0), "周末": ("weekend", 0),
        "上周末": ("weekend", -1), "上个周末": ("weekend", -1), "下周末": ("weekend", 1), "下个周末": ("weekend", 1),
        "去年": ("year", -1), "明年": ("year", 1), "今年": ("year", 0), "前年": ("year", -2),
    },
    unspaced=True,
    weekday_pattern=r"(?:(?P<habit>每)\s*)?(?:(?P<week>上个?|下个?|这个?|本)\s*)?(?:周|星期|礼拜)(?P<day>[一二三四五六日天])",
    weekday_signs="一;二;三;四;五;六;日天",
    last="上", this="这|本", next="下",
    seasons="春天|春季;夏天|夏季;秋天|秋季;冬天|冬季",
    years={"去年": -1, "今年": 0, "明年": 1, "前年": -2},
    numbers="一;两|二;三;四;五;六;七;八;九;十",
    units={"天": "day", "周": "week", "个星期": "week", "星期": "week", "个礼拜": "week", "个月": "month", "年": "year"},
    ago="{n}{u}前|{n}{u}之前|{n}{u}以前", later="{n}{u}后|{n}{u}之后|{n}{u}以后",
    holidays={"christmas": "圣诞节|圣诞", "christmas eve": "平安夜", "new years day": "元旦", "easter": "复活节"},
    since="自从",
    future="要|将|打算|准备|计划|会|安排",
    past="了|过",
)  # fmt: skip
