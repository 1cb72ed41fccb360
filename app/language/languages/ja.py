"""Japanese: its rules as data, read by the shared engines (`app.language.time_words`, `app.language.formulas`,
`app.language.cues`, `app.language.questions`)."""

from app.language.answer_words import AnswerWords
from app.language.formula_words import FormulaWords
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


# Its chat formulas (greetings, thanks, agreement, reactions, wishes, guesses, words that say nothing).
FORMULAS = FormulaWords(
    greetings="こんにちは|こんばんは|おはよう|おはようございます|やあ|どうも|お久しぶり|久しぶり|ようこそ|"
    "おかえり|おかえりなさい|ただいま|はじめまして|元気",
    farewells="さようなら|さよなら|またね|また明日|またあとで|じゃあね|じゃね|じゃあ|バイバイ|おやすみ|"
    "おやすみなさい|お疲れ様|お疲れさま|おつかれさま|お疲れ|失礼します",
    thanks="ありがとう|ありがとうございます|ありがとうございました|どうもありがとう|サンキュー|感謝|"
    "助かる|助かった|助かります|どういたしまして|助かりました",
    apologies="ごめん|ごめんね|ごめんなさい|すみません|すいません|申し訳ない|申し訳ありません|大丈夫|残念",
    agreement="はい|うん|ええ|いいえ|いや|ううん|そう|そうだね|そうですね|そうそう|そうなんだ|そうなんですね|なるほど|了解|"
    "りょうかい|わかった|分かった|わかりました|分かりました|確かに|たしかに|もちろん|いいよ|オッケー|"
    "本当|ほんと|笑|www|ははは|あはは|ふふ|へえ|へー|わあ|わー|えー|えっ|まじ|マジ|あ|お|おお|知らなかった|そうなんだ",
    reactions="すごい|すごーい|凄い|いいね|いいな|いいなあ|よかった|良かった|素敵|すてき|最高|"
    "楽しそう|美味しそう|おいしそう|良さそう|よさそう|大変|かわいい|可愛い|きれい|綺麗|うらやましい|"
    "羨ましい|面白い|おもしろい|おめでとう|おめでとうございます|嬉しい|うれしい",
    well_wishes="頑張って|がんばって|頑張れ|がんばれ|楽しんで|お大事に|気をつけて|気を付けて|いってらっしゃい|"
    "行ってらっしゃい|良い旅を|よい旅を|良い一日を|良い週末を|お幸せに|ゆっくり休んで|おめでとう",
    guesses="でしょう|だろう|だろうね|みたい|らしい|そう",
    words="私|僕|俺|あなた|君|これ|それ|あれ|とても|本当に|ちょっと|すごく|めっちゃ|超|は|が|を|に|で|と|も|"
    "の|へ|から|まで|です|でした|ます|だ|だね|だよ|ね|よ|な|ねえ|なあ|わ|か|かな|よね|じゃん|って|ー|〜|～|また|やっと|はぁ|はあ|うわ|ああ",
    anchors="私|僕|俺|彼|彼女|私たち",
    wish_opens=False,
)  # fmt: skip

# A standing rule for the agent: its cues (from now on, always, never, please…), and how the agent answers
# (answer, write, call me, the language…); something to be done (remind me, I have to…). `fold`ed.
RULE_CUES = "今後|これから|今度から|次から|いつも|絶対|ください|ないで"
AGENT_CUES = "答えて|返事|返信|書いて|と呼んで|使わないで|使って|敬語|絵文字|日本語で|英語で|短く|簡潔に|返事|回答|短く|短め|簡潔|箇条書き|タメ口|emoji"
TASK_CUES = "リマインド|思い出させて|忘れないで|忘れずに|しなきゃ|しないと|しなければ|なきゃ|ないといけない|締め切り|締切|リマインドします|お知らせします|todo:|やること|リマインドして"

# The shape of a statement (`app.language.shapes`), as regular expressions on its text: a hypothetical
# ("もし…", "…たらいいのに"), a request to the agent (a te-form closing the sentence, "教えて", "ください"),
# a standing condition ("…とき", "…時は", "毎回"), a past action (a clause closing on た/だ) and the speaker's
# own person.
HYPOTHETICAL = r"もし|(?:たら|れば|なら)(?:いい|良い)のに|のにな[あぁー]?$"
REQUEST = r"(?:て|で)(?:ください|下さい|くれ|ほしい|欲しい|ね|よ|な|〜|～|ー|!|！)*[。!！〜～]*$|教えて|ください|お願い"
STANDING = r"とき|時は|時に|際は|毎回|いつも"
PAST = r"た(?:ー|〜|～|！|!|…|よ|わ|ね|の|な|っ)*(?=$|[、。！!？?\s])"
# A prohibition to the agent (a negative imperative, "stop …"): a rule that holds beyond the moment.
PROHIBITION = r"ないで(?:ください|下さい|ね|よ|ほしい|欲しい)?[。!！〜～]*$|やめて"
# A question asked without its mark: an interrogative opening it (a question particle closing it).
INTERROGATIVE = r"(?:ですか|ますか|か|っけ|かな)[。]?$"
# The partner addressed: second-person pronouns and possessives.
PARTNER = r"あなた|君|きみ|お前"
SELF = r"私|僕|俺|うち|わたし|あたし"


# Whether its sentences often leave the person unsaid, the verb carrying it: a question without a
# pronoun may still be about someone (`app.extraction.chit_chat.refers_to_someone`).
PRO_DROP = True

# A lasting circumstance of a person (`app.language.circumstances`): work and studies | home | family and
# pets | health and diet | likes, age and birthday; found anywhere.
CIRCUMSTANCES = (
    "仕事|エンジニア|開発|教師|医者|看護師|弁護士|働いて|勤めて|会社|職場|上司|転職|大学|専攻|勉強|住んで|引っ越|実家|出身|生まれ|育ち|姉|妹|兄|弟|母|父|両親|息子|娘|妻|夫|"
    "彼氏|彼女|婚約|結婚|祖父|祖母|おじいちゃん|おばあちゃん|子供|子ども|赤ちゃん|妊娠|犬|猫|ペット|アレルギー|喘息|糖尿病|診断|手術|ベジタリアン|好き|嫌い|誕生日|歳"
)

# What a question asks for, and what makes a memory hold it (`app.recall.answer_types`): found anywhere in
# a text, as words are not spaced; single kanji that are parts of other words ("町", "山") left out.
ANSWERS = AnswerWords(
    types={
        **dict.fromkeys(("指示",), "instruction"),
        **dict.fromkeys(("タスク", "やること", "リマインダー", "リマインド"), "task"),
    },
    time_asked="いつ|何年|何月|何日|何曜日|何時|どのくらい前|どれくらい前",
    number_asked="いくつ|何人|何個|何回|何歳|いくら|どのくらい|どれくらい|何匹|何本",
    place_asked="どこ|どの町|どの街|どの国|どの店|どのレストラン",
    person_asked="誰|だれ|どなた",
    times="今日 昨日 明日 一昨日 明後日 今夜 昨夜 週末 先週 来週 今週 先月 来月 今月 去年 来年 今年 誕生日 クリスマス"
    " 正月 お盆",
    numbers="二 三 四 五 六 七 八 九 十 百 千 万 一つ 二つ 三つ 四つ 五つ 二人 三人",
    places="公園 都市 ビーチ カフェ レストラン スーパー 市場 ホテル 空港 学校 大学 病院 教会 美術館 博物館 ジム バー"
    " 会社 事務所 図書館",
    people="母 お母さん 父 お父さん 姉 妹 兄 弟 妻 嫁 夫 旦那 息子 娘 叔母 叔父 いとこ 祖母 おばあちゃん 祖父"
    " おじいちゃん 友達 友人 上司 同僚 彼氏 彼女 先生 医者 コーチ",
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
