"""Japanese: its time words (the other parts of its rules are still in `app.language.formulas` and
`app.language.cues`)."""

from app.language.time_words import TimeWords

# How a question asks what was done or is planned, its interrogatives and light verbs ("¿Qué hice…?",
# "Was habe ich … gemacht?", "我…干了啥"): a question of these and a time asks for that time's memories.
QUESTION_WORDS = "何|なに|した|して|してた|する|っけ|だっけ|予定|って|の|は|に|を|か|ん|だ|てた|た"

TIME = TimeWords(
    relative={
        "今日": ("day", 0), "きょう": ("day", 0), "今夜": ("day", 0), "今晩": ("day", 0), "今朝": ("day", 0),
        "明日": ("day", 1), "あした": ("day", 1), "あす": ("day", 1), "明後日": ("day", 2), "あさって": ("day", 2),
        "昨日": ("day", -1), "きのう": ("day", -1), "昨夜": ("day", -1), "昨晩": ("day", -1),
        "一昨日": ("day", -2), "おととい": ("day", -2), "おとつい": ("day", -2),
        "来週": ("week", 1), "先週": ("week", -1), "今週": ("week", 0),
        "来月": ("month", 1), "先月": ("month", -1), "今月": ("month", 0),
        "今週末": ("weekend", 0), "この週末": ("weekend", 0), "週末": ("weekend", 0), "先週末": ("weekend", -1),
        "来週末": ("weekend", 1),
        "去年": ("year", -1), "昨年": ("year", -1), "来年": ("year", 1), "今年": ("year", 0),
    },
    unspaced=True,
    weekday_pattern=r"(?:(?P<habit>毎週)\s*)?(?:(?P<week>先週|来週|今週)の?\s*)?(?P<day>[月火水木金土日])曜日?",
    weekday_signs="月;火;水;木;金;土;日",
    last="先週", this="今週|この", next="来週|次の",
    seasons="春;夏;秋;冬",
    years={"去年": -1, "昨年": -1, "今年": 0, "来年": 1},
    numbers="一;二;三;四;五;六;七;八;九;十",
    units={"日": "day", "週間": "week", "週": "week", "か月": "month", "ヶ月": "month", "カ月": "month",
           "ヵ月": "month", "箇月": "month", "年": "year"},
    ago="{n}{u}前", later="{n}{u}後",
    holidays={"christmas": "クリスマス", "christmas eve": "クリスマスイブ|クリスマス・イブ", "new years eve": "大晦日",
              "new years day": "元日|元旦|お正月|正月", "easter": "イースター|復活祭"},
    future="予定|つもり|行きます|します",
    past="した|だった|ました|てた|った",
)  # fmt: skip
