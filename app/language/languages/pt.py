"""Portuguese: its time words (the other parts of its rules are still in `app.language.formulas` and
`app.language.cues`)."""

from app.language.time_words import TimeWords

# How a question asks what was done or is planned, its interrogatives and light verbs ("¿Qué hice…?",
# "Was habe ich … gemacht?", "我…干了啥"): a question of these and a time asks for that time's memories.
QUESTION_WORDS = "o que|que|fiz|fez|faço|faz|fazer|farei|vou|vai|aconteceu|planos|eu"

TIME = TimeWords(
    relative={
        "hoje": ("day", 0), "esta noite": ("day", 0), "esta tarde": ("day", 0), "hoje à noite": ("day", 0),
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
