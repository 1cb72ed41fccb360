"""Portuguese: its rules as data, read by the shared engines (`app.language.time_words`, `app.language.formulas`,
`app.language.cues`, `app.language.questions`)."""

from app.language.answer_words import AnswerWords
from app.language.formula_words import FormulaWords
from app.language.relation_words import RelationWords
from app.language.time_words import TimeWords

# How a question asks what was done or is planned, its interrogatives and light verbs ("¿Qué hice…?",
# "Was habe ich … gemacht?", "我…干了啥"): a question of these and a time asks for that time's memories.
QUESTION_WORDS = "o que|que|fiz|fez|faço|faz|fazer|farei|vou|vai|aconteceu|planos|eu"

TIME = TimeWords(
    relative={
        "hoje em dia": None, "hoje": ("day", 0), "esta noite": ("day", 0), "esta tarde": ("day", 0), "hoje à noite": ("day", 0),
        "amanhã": ("day", 1), "depois de amanhã": ("day", 2), "ontem": ("day", -1), "ontem à noite": ("day", -1),
        "anteontem": ("day", -2), "antes de ontem": ("day", -2),
        "na próxima semana": ("week", 1), "semana que vem": ("week", 1), "na semana passada": ("week", -1),
        "semana passada": ("week", -1), "esta semana": ("week", 0), "nesta semana": ("week", 0),
        "no próximo mês": ("month", 1), "mês que vem": ("month", 1), "próximo mês": ("month", 1),
        "no mês passado": ("month", -1), "mês passado": ("month", -1), "este mês": ("month", 0),
        "este fim de semana": ("weekend", 0), "neste fim de semana": ("weekend", 0),
        "esse fim de semana": ("weekend", 0), "nesse fim de semana": ("weekend", 0),
        "o fim de semana passado": ("weekend", -1), "no fim de semana passado": ("weekend", -1),
        "fim de semana passado": ("weekend", -1),
        "o próximo fim de semana": ("weekend", 1), "no próximo fim de semana": ("weekend", 1),
        "o ano passado": ("year", -1), "no ano passado": ("year", -1), "ano passado": ("year", -1),
        "o ano que vem": ("year", 1), "no próximo ano": ("year", 1), "ano que vem": ("year", 1),
        "este ano": ("year", 0),
    },
    weekdays="segunda-feira;terça-feira;quarta-feira;quinta-feira;sexta-feira;sábado;domingo",
    weekdays_short="segunda;terça;quarta;quinta;sexta",
    last="passada|passado|última|último", this="esta|este|nesta|neste|essa|esse|nessa|nesse", next="próxima|próximo|que vem",
    habit="às|aos|todas as|todos os|toda|todo",
    months="janeiro;fevereiro;março;abril;maio;junho;julho;agosto;setembro;outubro;novembro;dezembro",
    month_before="em|no mês de|no início de|no fim de|em meados de",
    season_before="no|na|neste|nesta|durante o|durante a",
    holiday_before="o|a|no|na|pelo|pela|para o|antes do|depois do|desde o|até o|em",
    of="de|do",
    seasons="primavera;verão;outono;inverno",
    numbers="um|uma;dois|duas;três;quatro;cinco;seis;sete;oito;nove;dez",
    units={"dia": "day", "dias": "day", "semana": "week", "semanas": "week", "mês": "month", "meses": "month",
           "ano": "year", "anos": "year"},
    ago="há {n} {u}|{n} {u} atrás", later="daqui a {n} {u}|em {n} {u}|dentro de {n} {u}",
    holidays={"christmas": "natal", "christmas eve": "véspera de natal|consoada", "new years eve": "réveillon",
              "new years day": "ano novo|ano-novo", "easter": "páscoa"},
    since="desde",
    future="vou|vai|vamos|vão|irei|farei|estarei|pretendo|planejo|planeio",
    past="fiz|fez|fizemos|fui|foi|fomos|estive|esteve|passei|passou|tive|teve",
)  # fmt: skip


# Its chat formulas (greetings, thanks, agreement, reactions, wishes, guesses, words that say nothing).
FORMULAS = FormulaWords(
    greetings="olá|oi|oie|bom dia|boa tarde|boa noite|e aí|tudo bem|tudo bom|bem-vindo|bem-vinda",
    farewells="tchau|adeus|até logo|até mais|até amanhã|até breve|até já|falou|beijos|beijo|bjs|"
    "abraços|abraço|fica bem|se cuida|cuida-te",
    thanks="obrigado|obrigada|muito obrigado|muito obrigada|brigado|brigada|valeu|agradeço|de nada",
    apologies="desculpa|desculpe|perdão|foi mal|sinto muito|que pena",
    agreement="sim|não|claro|claro que sim|com certeza|exato|exatamente|certo|tá|tá bom|tá bem|está bem|"
    "beleza|combinado|ok|okay|pode ser|pois é|pois|verdade|isso|isso mesmo|entendi|kkk|kkkk|rsrs|"
    "haha|hahaha|ah|oh|nossa|uau|eita|opa|hum|hmm|não sabia|nem sabia|ah tá",
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
    "cara|gente|mano|então|de novo|finalmente|aff|afe|ufa",
    endings="es|as|os|s|a|o",
    cause="por|pela|pelo",
    anchors="eu|meu|minha|meus|minhas|me|nós|nosso|nossa|nossos|nossas|ele|ela|eles|elas|seu|sua",
)  # fmt: skip

# A standing rule for the agent: its cues (from now on, always, never, please…), and how the agent answers
# (answer, write, call me, the language…); something to be done (remind me, I have to…). `fold`ed.
RULE_CUES = (
    "a partir de agora|de agora em diante|daqui pra frente|sempre|nunca|por favor|nao use|nao escreva|"
    "nao responda|nao me chame"
)
AGENT_CUES = "responda|escreva|escreve|fala comigo|me chama|me chame|use|usa|emoji|emojis|em portugues|em ingles|respostas|resposta|curtas|curto|curtos|direto|direta|lista|listas|topicos|de voce|de tu"
TASK_CUES = (
    "me lembra|lembra-me|lembre-me|me lembre|nao esquecer|nao esqueca|tenho que|tenho de|temos que|"
    "preciso|precisamos|devo|te lembro|vou te lembrar|te lembrarei|lembro voce|lembro vc|todo:|to-do|tarefa:"
)

# The shape of a statement (`app.language.shapes`), as regular expressions on its lower-cased text: a
# hypothetical (an if-clause in the imperfect subjunctive, "imagina se…"), a request to the agent ("me
# explica…", "pode…"), a standing condition ("quando…", "sempre que…"), a past action (the preterite,
# "acabei de") and the speaker's own person (pronouns, possessives, first-person verb forms).
HYPOTHETICAL = r"(?<!como\s)\bse\s+(?:\w+\s+){0,2}\w+(?:sse|ssem|ssemos)\b|\bimagin(?:a|e)\s+(?:se|que|só)\b|\bse\s+.*\b\w+r(?:ia|iam)\b"
REQUEST = (
    r"^(?:(?:ei|oi|ah|ok|então|e)[,\s]+)?(?:me\s+(?:\w+[ae]|diz)\b|(?:pode|poderia|você\s+pode|vc\s+pode)\b"
    r"|(?:não|nao)\s+(?:me\s+)?\w+[ae]s?\b)"
)
STANDING = r"\b(?:quando|sempre\s+que|toda\s+vez\s+que)\b"
PAST = (
    r"\b\w+(?<![aeiáéí]r)ei\b|\b\w{2,}(?<!est)ou\b|\b\w+(?:aram|eram|iram)\b|\b(?:fui|foi|fomos|fiz|fez|fizemos|tive"
    r"|teve|estive|esteve|pude|disse|vi|vimos)\b|\bacab(?:ei|ou|amos)\s+de\b"
)
# A prohibition to the agent (a negative imperative, "stop …"): a rule that holds beyond the moment.
PROHIBITION = r"^(?:(?:e|mas)[,\s]+)?(?:não|nao|nunca)\s+(?:me\s+)?\w+[ae]\b|^para\s+de\b|^evit[ae]\b"
# A statement opening with a noun phrase of the world (its article): its subject is no one in the chat.
GENERIC = r"^(?:\w+\s+){0,2}?(?:o|a|os|as)\s+\w"
# A question asked without its mark: an interrogative opening it (a question particle closing it).
INTERROGATIVE = r"^(?:o\s+que|quando|onde|por\s*que|qual|quais|quanto|quantos|quantas|quem)\s+\w+"
# The partner addressed: second-person pronouns and possessives.
PARTNER = r"\b(?:você|voce|vc|tu|te|ti|contigo|o\s+senhor|a\s+senhora)\b"
SELF = (
    r"\b(?:eu|meu|minha|meus|minhas|me|comigo|nós|nosso|nossa|nossos|nossas|a\s+gente)\b|\b\w+(?:amos|emos|imos)\b"
    r"|\b(?:sou|estou|tô|to|vou|tenho|fui|fiz|tive|estive|posso|quero|sei|faço)\b|\b\w+(?<![aeiáéí]r)ei\b"
    r"|\b(?:não|nao|já\s+não)\s+\w{2,}o\b"
)


# Whether its sentences often leave the person unsaid, the verb carrying it: a question without a
# pronoun may still be about someone (`app.extraction.chit_chat.refers_to_someone`).
PRO_DROP = True

# A lasting circumstance of a person (`app.language.circumstances`): work and studies | home | family and
# pets | health and diet | likes, age and birthday; word starts, `fold`ed (one ending in `\b` is a whole word).
CIRCUMSTANCES = (
    "trabalh|enfermeir|medic|engenheir|professor|advogad|programador|desenvolvedor|gerente|empresa|"
    "emprego|chefe|escritorio|carreira|estud|faculdade|universidade|mestrado|moro|mora|moramos|moram|"
    "mudei|mudamos|casa|apartamento|bairro|nasci|irma|irmao|mae|pai|pais|filho|filha|espos|marido|mulher|"
    "namorad|casad|avo|sobrinh|primo|prima|cachorro|cao|gato|gravida|bebe|alergi|alergic|intoleran|asma|"
    "diabet|diagnostic|celiac|vegetarian|vegan|remedio|adoro|amo|gosto|odeio|prefiro|favorit|aniversario|"
    "tenho \\d+ anos"
)


# Words a full stop does not end a sentence after (`app.language.sentences`), and those after which it
# ends one only before a capital.
ABBREVIATIONS = "sr|sra|dr|dra|prof|ex|av|pág|aprox|nº"
SOFT_ABBREVIATIONS = "etc|jan|fev|mar|abr|mai|jun|jul|ago|set|out|nov|dez"

# What a question asks for, and what makes a memory hold it (`app.recall.answer_types`).
ANSWERS = AnswerWords(
    types={
        **dict.fromkeys(("instrução", "instruções"), "instruction"),
        **dict.fromkeys(("tarefa", "tarefas", "lembrete", "lembretes", "lista de tarefas"), "task"),
    },
    time_asked="quando|em que ano|que ano|qual ano|que mês|qual mês|que dia|qual dia|que data|que horas"
    "|há quanto tempo|desde quando",
    number_asked="quantos|quantas|quanto|quanta|que idade",
    place_asked="onde|aonde|em que cidade|qual cidade|que cidade|qual país|que país|qual restaurante|que restaurante",
    person_asked="quem|com quem",
    times="hoje ontem amanhã anteontem natal páscoa aniversário réveillon",
    relative="passado passada próximo próxima este esta neste nesta",
    periods="semana mês ano noite",
    relative_follows=True,
    numbers="dois duas três quatro cinco seis sete oito nove dez onze doze quinze vinte trinta quarenta cinquenta"
    " cem cento mil milhão dúzia metade",
    places="rua avenida praça parque cidade vila aldeia país ilha praia lago rio montanha café restaurante loja"
    " mercado hotel aeroporto estação escola faculdade universidade hospital clínica igreja museu galeria"
    " academia bar escritório biblioteca fazenda jardim bairro",
    place_before="em no na para visitei visitamos visitar",
    people="mãe mamãe pai papai irmã irmão esposa esposo mulher marido filho filha tia tio primo prima sobrinho"
    " sobrinha avó avô amigo amiga chefe colega vizinho vizinha namorado namorada parceiro parceira professor"
    " professora médico médica treinador",
    plural="s",
)
_PT_PARTNERS = ("parceiro", "parceira", "namorado", "namorada", "marido", "esposa", "esposo", "mulher")
_PT_MOTHERS, _PT_FATHERS = ("mãe", "mamãe"), ("pai", "papai")
_PT_DOGS, _PT_CATS = ("cachorro", "cachorra", "cão", "cadela"), ("gato", "gata", "gatinho")
# The people and pets a question names by their relation, and how a conversation names them (`app.recall.relations`).
RELATIONS = RelationWords(
    relations={
        **dict.fromkeys(("marido", "esposo"), ("marido", "esposo")),
        **dict.fromkeys(("esposa", "mulher"), ("esposa", "mulher")),
        **dict.fromkeys(("parceiro", "parceira"), _PT_PARTNERS),
        "namorado": ("namorado",),
        "namorada": ("namorada",),
        "filho": ("filho",),
        "filha": ("filha",),
        "filhos": ("filho", "filha", "filhos"),
        **dict.fromkeys(_PT_MOTHERS, _PT_MOTHERS),
        **dict.fromkeys(_PT_FATHERS, _PT_FATHERS),
        "pais": _PT_MOTHERS + _PT_FATHERS,
        "irmã": ("irmã",),
        "irmão": ("irmão",),
        "avó": ("avó",),
        "avô": ("avô",),
        "chefe": ("chefe",),
        **dict.fromkeys(_PT_DOGS, _PT_DOGS),
        **dict.fromkeys(_PT_CATS, _PT_CATS),
    },
    owners="meu|minha|meus|minhas|o meu|a minha|nosso|nossa|seu|sua",
    owners_after="meu|minha|o meu|a minha|nosso|nossa",
    naming="chamado|chamada|que se chama|se chama|chama",
    copula="é",
)
# Words that carry no meaning in a question (`app.recall.query`).
QUESTION_NOISE = "lembra lembras lembro disse contei mencionei falei sabe sabes alguma coisa"

# The parts this language has none of, each with what happens instead (never a statement dropped).
LACKS = {
    "SPELLINGS": "no other spellings of its words: a question's words are matched as written",
    "LEMMAS": "no table of irregular forms: its words are stemmed by its snowball stemmer, or searched as said",
    "CATEGORIES": "no table of categories: a question's words are searched as said, without their instances",
    "NEGATION": "no rule reads negation: a negated statement is kept verbatim, typed like any other",
    "SECOND_PERSON": "no rule rewrites the second person: a statement is kept verbatim, its speaker as a prefix",
}
