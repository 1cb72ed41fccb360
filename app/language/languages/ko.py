"""Korean: its rules as data, read by the shared engines (`app.language.time_words`, `app.language.formulas`,
`app.language.cues`, `app.language.questions`)."""

from app.language.answer_words import AnswerWords
from app.language.formula_words import FormulaWords
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


# Its chat formulas (greetings, thanks, agreement, reactions, wishes, guesses, words that say nothing).
FORMULAS = FormulaWords(
    greetings="안녕|안녕하세요|하이|반가워|반가워요|오랜만이야|오랜만이에요|좋은 아침",
    farewells="잘가|잘 가|안녕히 가세요|잘자|잘 자|잘 자요|또 봐|다음에 봐|내일 봐|잘 자|잘 자요|내일 봐|또 봐",
    thanks="감사합니다|고마워|고마워요|고맙습니다|땡큐|천만에요",
    apologies="미안|미안해|미안해요|죄송합니다|죄송해요|괜찮아|괜찮아요",
    agreement="네|응|예|아니|아니요|아뇨|그래|그래요|알겠어|알겠어요|알겠습니다|맞아|맞아요|진짜|정말|물론|오케이|ㅋㅋ|ㅋㅋㅋ|ㅎㅎ|"
    "ㅎㅎㅎ|헐|와|오|몰랐어|몰랐어요|그렇구나",
    reactions="좋아|좋아요|좋다|대박|멋지다|멋져요|최고|귀여워|부럽다|부러워|재밌겠다|축하해|축하해요|축하합니다",
    well_wishes="화이팅|파이팅|힘내|힘내요|축하해|축하해요|축하합니다|조심히|잘 다녀와|즐거운|좋은 하루|푹 쉬어|"
    "건강하세요",
    guesses="같아|같아요|겠다|겠네요",
    words="나|너|저|우리|정말|진짜|너무|아주|완전|요|네요|다|또|드디어|에휴|아휴|하아",
    anchors="나|저|우리|내|제",
    wish_opens=False,
)  # fmt: skip

# A standing rule for the agent: its cues (from now on, always, never, please…), and how the agent answers
# (answer, write, call me, the language…); something to be done (remind me, I have to…). `fold`ed.
RULE_CUES = "앞으로|지금부터|이제부터|항상|절대|주세요|마세요"
AGENT_CUES = "대답|답장|반말|존댓말|이모지|한국어로|영어로|불러|답변|짧게|간단히|이모티콘|emoji|말투"
TASK_CUES = "알려줘|잊지 마|잊지마|야 돼|야 됨|야 되|야 해|야 한다|야겠|마감|야 함|알려드릴게요|알려 드릴게요|알림 드릴게요|알려줄게|todo:|할 일|알려줄 수"

# The shape of a statement (`app.language.shapes`), as regular expressions on its text: a hypothetical
# ("만약…", "…면 좋겠다", "…텐데"), a request to the agent (the -아/어 주다 imperative), a standing
# condition ("…때", "항상"), a past action (the past -았/었/했) and the speaker's own person.
HYPOTHETICAL = r"만약|만일|(?:면|다면)\s?좋겠|텐데"
REQUEST = r"줘|주세요|줄래|주실래요|주시겠어요|주시면"
STANDING = r"때|항상|앞으로"
PAST = r"[았었였했갔왔봤줬났랐켰졌쳤렸셨]"
# A prohibition to the agent (a negative imperative, "stop …"): a rule that holds beyond the moment.
PROHIBITION = r"지\s?마(?:세요|요)?|지\s?말아"
# A question asked without its mark: an interrogative opening it (a question particle closing it).
INTERROGATIVE = r"(?:까|까요|니|나요|냐|어때|뭐야|뭐지)[~.]?$"
# The partner addressed: second-person pronouns and possessives.
PARTNER = r"너|당신|네가|니가"
SELF = r"(?:^|\s)(?:(?:나|내|저|제|우리|저희)(?:는|가|도|의|랑|한테)?|난|전)(?=\s|$)"


# Whether its sentences often leave the person unsaid, the verb carrying it: a question without a
# pronoun may still be about someone (`app.extraction.chit_chat.refers_to_someone`).
PRO_DROP = True

# A lasting circumstance of a person (`app.language.circumstances`): work and studies | home | family and
# pets | health and diet | likes, age and birthday; found anywhere.
CIRCUMSTANCES = (
    "일해|개발|엔지니어|선생님|의사|간호사|변호사|회사|직장|직업|상사|대학|전공|공부|살아|살고|이사|고향|태어|자랐|언니|누나|여동생|오빠|형|남동생|엄마|아빠|부모|아들|딸|"
    "아내|남편|남자친구|여자친구|남친|여친|약혼|결혼|할머니|할아버지|아이|아기|임신|강아지|고양이|반려|알레르기|천식|당뇨|진단|수술|채식|좋아|싫어|생일|살이"
)

# What a question asks for, and what makes a memory hold it (`app.recall.answer_types`): found anywhere in
# a word, as particles join their nouns ("서울에서"); single syllables that are parts of other words left out.
ANSWERS = AnswerWords(
    types={
        **dict.fromkeys(("지시", "지침"), "instruction"),
        **dict.fromkeys(("할 일", "할일", "작업", "리마인더"), "task"),
    },
    time_asked="언제|몇 년|몇 월|며칠|무슨 요일|몇 시|얼마나 전|얼마 전",
    number_asked="몇|얼마나|얼마",
    place_asked="어디|어느 도시|어느 나라|어느 식당|무슨 식당",
    person_asked="누구|누가",
    times="오늘 어제 내일 그저께 그제 모레 주말 지난주 다음주 이번주 지난달 다음달 이번달 작년 내년 올해 생일 크리스마스"
    " 설날 추석",
    numbers="하나 다섯 여섯 일곱 여덟 아홉 스물 서른 마흔 쉰",
    places="공원 도시 마을 나라 해변 바닷가 호수 카페 식당 레스토랑 가게 시장 호텔 공항 학교 대학교 대학 병원 교회 박물관"
    " 미술관 헬스장 술집 사무실 회사 도서관 정원",
    people="엄마 어머니 아빠 아버지 누나 언니 오빠 여동생 남동생 동생 아내 와이프 남편 아들 딸 이모 고모 삼촌 사촌"
    " 할머니 할아버지 친구 상사 팀장 동료 이웃 남자친구 여자친구 선생님 의사 코치",
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
