"""Whether a statement tells a lasting circumstance of a person: work and studies, home, family, pets,
health, diet and allergies, what they like, their age and birthday.

The summary puts such facts at the top of an agent's prompt, above passing remarks. Each language has its
own closed class of words for these circumstances, written from the language (kinship terms, the words for
job, home, allergy, liking), never from any conversation: English, then the languages with formula tables
(`app.language.formulas`). Latin-script entries are word starts matched on `fold`ed text ("trabaj" finds
"trabajo", "trabajaba"; one ending in `\b` is a whole word); Chinese, Japanese and Korean ones are found anywhere. Each table reads only its
own language's statements (Swedish "son" is a son, Spanish "son" is "they are"). A statement no table reads
is only not moved up: nothing is dropped by it.
"""

from __future__ import annotations

import re

from app.language.detect import LATIN_CONFIGS as _CONFIGS
from app.language.formulas import fold

_ENGLISH_RE = re.compile(
    r"\b(?:work(?:s|ing)?\s+(?:at|for|as)|job|career|engineer|developer|teacher|nurse|doctor|manager|"
    r"company|employ\w*|hired|promot\w*|studies|studying|student|universit\w*|degree|"
    r"lives?\b|living\s+in|moved\s+to|home|flat|apartment|house|city|from\s+[A-Z]|grew\s+up|"
    r"sister|brother|mum|mom|mother|dad|father|parents?|wife|husband|partner|boyfriend|girlfriend|fianc\w*|"
    r"married|son|daughter|kids?|children|baby|grand\w+|aunt|uncle|cousin|dog|cat|pet|"
    r"allerg\w*|intoleran\w*|asthma|diabet\w*|diagnos\w*|surgery|injur\w*|pregnan\w*|medication|"
    r"vegetarian|vegan|halal|kosher|gluten|"
    r"loves?|hates?|prefers?|favou?rite|can't\s+stand|enjoys?|fan\s+of|birthday|years?\s+old)\b",
    re.IGNORECASE,
)

# Word starts, folded (lower case, no accents), by language: work and studies | home | family and pets |
# health and diet | likes, age and birthday.
_WORD_STARTS = {
    "es": "trabaj|enfermer|medic|ingenier|profesor|abogad|programador|desarrollador|disenador|gerente|empresa|emple|jefe|oficina|carrera|estudi|universidad|facultad|master|doctorado|"
    "vivo|vives|vive|vivimos|viven|mude|mudamos|mudo|casa|piso|apartamento|barrio|nacid|naci\\b|"
    "herman|madre|padre|mama|papa|padres|hijo|hija|espos|marido|novio|novia|pareja|casad|abuel|sobrin|"
    "primo|prima|perro|gato|mascota|embarazad|bebe|"
    "alergi|alergic|intoleran|asma|diabet|diagnostic|celiac|vegetarian|vegan|medicacion|operaron|"
    "me encanta|me gusta|odio|prefiero|favorit|cumpleanos|tengo \\d+ anos",
    "pt": "trabalh|enfermeir|medic|engenheir|professor|advogad|programador|desenvolvedor|gerente|empresa|emprego|chefe|escritorio|carreira|estud|faculdade|universidade|mestrado|"
    "moro|mora|moramos|moram|mudei|mudamos|casa|apartamento|bairro|nasci|"
    "irma|irmao|mae|pai|pais|filho|filha|espos|marido|mulher|namorad|casad|avo|sobrinh|primo|prima|"
    "cachorro|cao|gato|gravida|bebe|"
    "alergi|alergic|intoleran|asma|diabet|diagnostic|celiac|vegetarian|vegan|remedio|"
    "adoro|amo|gosto|odeio|prefiro|favorit|aniversario|tenho \\d+ anos",
    "fr": "travail|infirmi|medecin|ingenieur|prof|avocat|developpeu|designer|boulot|taf\\b|entreprise|emploi|patron|bureau|carriere|etudi|fac\\b|universite|master|these|"
    "j'habite|habite|habitons|demenag|maison|appart|quartier|ne a|nee a|"
    "soeur|frere|mere|pere|maman|papa|parents|fils|fille|femme|mari|copain|copine|fiance|marie|"
    "grand-|oncle|tante|cousin|neveu|niece|chien|chat|enceinte|bebe|"
    "allergi|intoleran|asthme|diabet|diagnosti|coeliaqu|vegetarien|vegan|medicament|"
    "j'adore|j'aime|deteste|prefere|prefere|favori|anniversaire|j'ai \\d+ ans",
    "it": "lavor|infermier|medico|ingegner|insegnant|avvocat|sviluppator|programmator|azienda|ufficio|capo|carriera|studi|universita|laurea|master|dottorato|"
    "vivo|vive|viviamo|abito|abita|trasferit|casa|appartamento|quartiere|nato\\b|nata\\b|"
    "sorell|fratell|madre|padre|mamma|papa|genitori|figli|moglie|marito|fidanzat|sposat|nonn|zio|zia|"
    "cugin|nipot|cane|gatto|incinta|"
    "allergi|intolleran|asma|diabet|diagnos|celiac|vegetarian|vegan|farmac|"
    "adoro|amo|mi piace|odio|preferisco|preferit|compleanno|ho \\d+ anni",
    "de": "arbeit|krankenpfleg|pfleger|arzt|arztin|ingenieur|lehrer|anwalt|entwickler|programmierer|job|firma|beruf|chef|buro|karriere|studier|studium|uni\\b|ausbildung|"
    "wohn|umgezogen|ziehe|haus|stadt|geboren|aufgewachsen|"
    "schwester|bruder|mutter|vater|mama|papa|eltern|sohn|tochter|frau|mann|freund|freundin|verlobt|"
    "verheiratet|oma|opa|grosseltern|onkel|tante|cousin|neffe|nichte|hund|katze|haustier|schwanger|baby|"
    "allergi|unvertraglich|asthma|diabet|diagnos|zoliakie|vegetari|vegan|medikament|"
    "liebe|mag\\b|hasse|lieblings|geburtstag|bin \\d+",
    "nl": "werk|verpleeg|arts|ingenieur|leraar|advocaat|ontwikkelaar|baan|bedrijf|baas|kantoor|studeer|studie|universiteit|"
    "woon|verhuisd|huis|stad|geboren|opgegroeid|"
    "zus|broer|moeder|vader|mama|papa|ouders|zoon|dochter|vrouw|mijn man|vriend|vriendin|verloofd|getrouwd|"
    "oma|opa|oom|tante|neef|nicht|hond|kat\\b|zwanger|baby|"
    "allergi|astma|diabet|diagnose|vegetari|veganist|medicijn|"
    "hou van|ik vind|haat|favoriet|lievelings|verjaardag|ben \\d+ jaar",
    "sv": "jobb|sjukskot|lakare|ingenjor|larare|advokat|utvecklare|arbet|foretag|chef|plugg|studer|universitet|"
    "bor\\b|flyttade|hus|lagenhet|stad|fodd|uppvuxen|"
    "syster|bror|mamma|pappa|foraldrar|son|dotter|fru|min man|pojkvan|flickvan|sambo|forlovad|gift|"
    "mormor|farmor|morfar|farfar|kusin|hund|katt|gravid|bebis|"
    "allergi|astma|diabet|diagnos|vegetarian|vegan|medicin|"
    "alskar|gillar|hatar|favorit|fodelsedag|ar \\d+ ar",
}
# Found anywhere in the text, by language.
_CJK_WORDS = {
    "zh": "工作|开发|工程师|程序员|老师|医生|护士|律师|设计师|经理|上班|公司|老板|同事|职业|学习|大学|研究生|专业|住在|搬到|搬家|家在|老家|出生|长大|"
    "姐姐|妹妹|哥哥|弟弟|妈妈|爸爸|父母|儿子|女儿|老婆|老公|妻子|丈夫|男朋友|女朋友|对象|结婚|爷爷|奶奶|外婆|外公|"
    "孩子|宝宝|怀孕|狗|猫|宠物|过敏|哮喘|糖尿病|诊断|手术|吃素|素食|喜欢|爱吃|讨厌|最爱|生日|岁",
    "ja": "仕事|エンジニア|開発|教師|医者|看護師|弁護士|働いて|勤めて|会社|職場|上司|転職|大学|専攻|勉強|住んで|引っ越|実家|出身|生まれ|育ち|"
    "姉|妹|兄|弟|母|父|両親|息子|娘|妻|夫|彼氏|彼女|婚約|結婚|祖父|祖母|おじいちゃん|おばあちゃん|子供|子ども|"
    "赤ちゃん|妊娠|犬|猫|ペット|アレルギー|喘息|糖尿病|診断|手術|ベジタリアン|好き|嫌い|誕生日|歳",
    "ko": "일해|개발|엔지니어|선생님|의사|간호사|변호사|회사|직장|직업|상사|대학|전공|공부|살아|살고|이사|고향|태어|자랐|"
    "언니|누나|여동생|오빠|형|남동생|엄마|아빠|부모|아들|딸|아내|남편|남자친구|여자친구|남친|여친|약혼|결혼|"
    "할머니|할아버지|아이|아기|임신|강아지|고양이|반려|알레르기|천식|당뇨|진단|수술|채식|좋아|싫어|생일|살이",
}


def _latin_pattern(field: str) -> re.Pattern[str]:
    starts = sorted(field.split("|"), key=len, reverse=True)
    return re.compile(
        "(?<!\\w)(?:" + "|".join(s.replace(" ", r"\s+").replace("'", "['’]") for s in starts) + ")"
    )


# Each language's table by the full-text configuration its memories are stored with (`detect.search_config`);
# a text of a script without spaces ("simple") is read with the Chinese, Japanese and Korean words.
_BY_CONFIG = {_CONFIGS[code]: _latin_pattern(field) for code, field in _WORD_STARTS.items()}
_CJK_RE = re.compile(
    "|".join(sorted({w for f in _CJK_WORDS.values() for w in f.split("|")}, key=len, reverse=True))
)


def tells_a_circumstance(text: str, config: str = "english") -> bool:
    """Whether `text`, stored with the full-text configuration `config` (its language), tells a lasting
    circumstance of a person."""
    if config == "english":
        return _ENGLISH_RE.search(text) is not None
    pattern = _BY_CONFIG.get(config)
    if pattern is not None:
        return pattern.search(fold(text)) is not None
    return _CJK_RE.search(text) is not None
