"""Chinese: its rules as data, read by the shared engines (`app.language.time_words`, `app.language.formulas`,
`app.language.cues`, `app.language.questions`)."""

from app.language.answer_words import AnswerWords
from app.language.formula_words import FormulaWords
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


# Its chat formulas (greetings, thanks, agreement, reactions, wishes, guesses, words that say nothing).
FORMULAS = FormulaWords(
    greetings="你好|您好|大家好|嗨|哈喽|早|早上好|早安|上午好|中午好|下午好|晚上好|好久不见|欢迎|欢迎回来|在吗|在不在",
    farewells="再见|拜拜|回头见|明天见|下次见|改天见|晚安|回聊|先这样|就这样",
    thanks="谢谢|谢谢你|谢谢您|多谢|感谢|非常感谢|太感谢了|谢啦|谢了|辛苦了|不客气|不用谢",
    apologies="对不起|抱歉|不好意思|没关系|没事|没事儿|可惜|太可惜了|真可惜",
    agreement="好|好的|好吧|好啊|不|不是|不用|好嘞|行|行吧|可以|没问题|对|对的|对啊|对呀|是的|是啊|是呀|嗯|嗯嗯|恩|当然|"
    "明白|明白了|知道了|收到|了解|同意|确实|也是|就是|真的|哈|哈哈|哈哈哈|呵呵|嘻嘻|嘿嘿|哇|哇塞|天哪|天啊|"
    "我的天|哎呀|唉|哦|噢|哟|原来如此|原来是这样|哦哦",
    reactions="太好了|太棒了|真棒|好棒|棒|厉害|好厉害|真厉害|牛|太牛了|真好|不错|挺好|很好|好可爱|可爱|好美|真美|"
    "好漂亮|真漂亮|羡慕|好羡慕|真羡慕|酷|好酷|有意思|好玩|好吃|真香|恭喜|恭喜恭喜|加油|开心|为你高兴|"
    "替你高兴|心疼|辛苦",
    well_wishes="祝|希望你|希望您|加油|一路顺风|一路平安|玩得开心|玩得愉快|注意安全|保重|多保重|早日康复|"
    "好好休息|生日快乐|新年快乐|节日快乐|周末愉快|旅途愉快|恭喜",
    guesses="听起来|看起来|一定很|肯定很|应该很|感觉很|想必",
    # Function words, the language having no snowball list: pronouns, adverbs, particles.
    words="我|你|您|他|她|它|我们|你们|他们|她们|这|那|这个|那个|这样|那样|也|都|很|真|太|好|非常|特别|超|"
    "挺|有点|是|的|了|吗|呢|吧|啊|呀|嘛|哦|喔|啦|哈|嘿|耶|诶|嗯|就|还|又|么|着|过|一下|一定|肯定|应该|又|终于|唉|哎|呃",
    anchors="我|我们|我的|他|她|他们|她们",
)  # fmt: skip

# A standing rule for the agent: its cues (from now on, always, never, please…), and how the agent answers
# (answer, write, call me, the language…); something to be done (remind me, I have to…). `fold`ed.
RULE_CUES = "从现在开始|从今以后|以后|今后|总是|永远|不要|别|请|一律|每次"
AGENT_CUES = (
    "回答|回复|回覆|答复|用中文|用英文|用英语|用日语|叫我|称呼我|表情|简短|简洁|简短点|简单点|列表|分点|emoji"
)
TASK_CUES = "提醒我|别忘了|不要忘了|不要忘记|别忘记|记得要|要记得|我得|我必须|我们得|截止|待办|提醒你|之前得|之前要|之前必须|todo:"

# The shape of a statement (`app.language.shapes`), as regular expressions on its text: a hypothetical
# ("要是…", "假如…", "…就好了"), a request to the agent ("给我…", "帮我…", "你能…", a verb of telling
# opening it, "…一下"), a standing condition ("…的时候", "每次"), a past action ("了", "过", "刚") and the
# speaker's own person.
HYPOTHETICAL = r"要是|假如|假设|如果.*就好了|就好了|万一"
REQUEST = r"^(?:请你?|麻烦你?|帮我|给我|跟我|替我|你(?:能|可以)|能不能|可不可以|讲|说说|告诉我|解释)|(?:一下|听听|看看)[吧呗啊呀]?$"
STANDING = r"的时候|每次|以后|今后"
PAST = r"刚|把[^，。！？,.!?]{1,10}了"
# A prohibition to the agent (a negative imperative, "stop …"): a rule that holds beyond the moment.
PROHIBITION = r"^(?:以后|今后|千万)?(?:别|不要)"
# A question asked without its mark: an interrogative opening it (a question particle closing it).
INTERROGATIVE = r"[吗嘛么][。！!~～]*$|多少|为什么|怎么样|是什么"
# The partner addressed: second-person pronouns and possessives.
PARTNER = r"你|您"
SELF = r"我|咱"


# Whether its sentences often leave the person unsaid, the verb carrying it: a question without a
# pronoun may still be about someone (`app.extraction.chit_chat.refers_to_someone`).
PRO_DROP = True

# A lasting circumstance of a person (`app.language.circumstances`): work and studies | home | family and
# pets | health and diet | likes, age and birthday; found anywhere.
CIRCUMSTANCES = (
    "工作|开发|工程师|程序员|老师|医生|护士|律师|设计师|经理|上班|公司|老板|同事|职业|学习|大学|研究生|专业|住在|搬到|搬家|家在|老家|出生|长大|姐姐|妹妹|哥哥|弟弟|妈妈|爸爸|"
    "父母|儿子|女儿|老婆|老公|妻子|丈夫|男朋友|女朋友|对象|结婚|爷爷|奶奶|外婆|外公|孩子|宝宝|怀孕|狗|猫|宠物|过敏|哮喘|糖尿病|诊断|手术|吃素|素食|喜欢|爱吃|讨厌|最爱|生日|"
    "岁"
)

# What a question asks for, and what makes a memory hold it (`app.recall.answer_types`): found anywhere in
# a text, as words are not spaced; single characters that are parts of other words ("市", "山") left out.
ANSWERS = AnswerWords(
    types={
        **dict.fromkeys(("指示", "指令"), "instruction"),
        **dict.fromkeys(("待办事项", "待办", "任务", "提醒"), "task"),
    },
    time_asked="什么时候|几时|哪年|哪一年|几月|哪个月|哪天|哪一天|几号|几点|多久以前|多久前|多长时间以前",
    number_asked="多少|几个|几岁|多大|多久|多长时间|多远|几次",
    place_asked="哪里|哪儿|在哪|去哪|哪个城市|哪座城市|哪个国家|哪家",
    person_asked="谁",
    times="今天 昨天 明天 前天 后天 今晚 昨晚 周末 春节 中秋 圣诞 国庆 生日 元旦 去年 明年 今年 上周 下周 上个月"
    " 下个月 这个月 星期 礼拜",
    numbers="两 二 三 四 五 六 七 八 九 十 百 千 万",
    places="广场 公园 城市 国家 海滩 咖啡馆 餐厅 饭店 商店 超市 市场 酒店 宾馆 机场 车站 火车站 学校 大学 医院 诊所"
    " 教堂 博物馆 健身房 酒吧 办公室 公司 图书馆 农场 花园",
    people="妈妈 母亲 爸爸 父亲 姐姐 妹妹 哥哥 弟弟 老婆 妻子 老公 丈夫 儿子 女儿 阿姨 叔叔 舅舅 姑姑 奶奶 爷爷 外婆"
    " 外公 姥姥 朋友 老板 同事 邻居 男朋友 女朋友 对象 老师 医生 教练",
    names_capitalised=False,
    unspaced=True,
)

# The parts this language has none of, each with what happens instead (never a statement dropped).
LACKS = {
    "SPELLINGS": "no other spellings of its words: a question's words are matched as written",
    "RELATIONS": "no relation words: a question naming a relation is searched by its words as said",
    "QUESTION_NOISE": "no list of empty question words: every word of a question is searched",
    "LEMMAS": "no table of irregular forms: its words are stemmed by its snowball stemmer, or searched as said",
    "CATEGORIES": "no table of categories: a question's words are searched as said, without their instances",
    "ABBREVIATIONS": "no abbreviation list: a full stop ends a sentence unless a lower-case word follows it or "
    "it closes a single letter",
    "GENERIC": "no article opens a noun phrase: a remark about the world that names no one is kept",
    "NEGATION": "no rule reads negation: a negated statement is kept verbatim, typed like any other",
    "SECOND_PERSON": "no rule rewrites the second person: a statement is kept verbatim, its speaker as a prefix",
}
