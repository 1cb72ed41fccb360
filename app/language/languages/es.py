"""Spanish: its rules as data, read by the shared engines (`app.language.time_words`, `app.language.formulas`,
`app.language.cues`, `app.language.questions`)."""

from app.language.answer_words import AnswerWords
from app.language.formula_words import FormulaWords
from app.language.relation_words import RelationWords
from app.language.time_words import TimeWords

# How a question asks what was done or is planned, its interrogatives and light verbs ("¿Qué hice…?",
# "Was habe ich … gemacht?", "我…干了啥"): a question of these and a time asks for that time's memories.
QUESTION_WORDS = "qué|que|hice|hiciste|hizo|hicimos|hago|haces|hace|hacemos|hacer|haré|harás|pasó|ocurrió|tengo|tenía|tuve|plan|planes|yo"

TIME = TimeWords(
    relative={
        "hoy": ("day", 0), "esta noche": ("day", 0), "esta tarde": ("day", 0), "esta mañana": ("day", 0),
        "mañana": ("day", 1), "pasado mañana": ("day", 2), "ayer": ("day", -1), "anoche": ("day", -1),
        "anteayer": ("day", -2), "antier": ("day", -2), "antes de ayer": ("day", -2),
        "la semana que viene": ("week", 1), "la próxima semana": ("week", 1), "la semana pasada": ("week", -1),
        "esta semana": ("week", 0), "el mes que viene": ("month", 1), "el próximo mes": ("month", 1),
        "el mes pasado": ("month", -1), "este mes": ("month", 0),
        "este fin de semana": ("weekend", 0), "este finde": ("weekend", 0),
        "el fin de semana pasado": ("weekend", -1), "el finde pasado": ("weekend", -1),
        "el próximo fin de semana": ("weekend", 1), "el finde que viene": ("weekend", 1),
        "el fin de semana que viene": ("weekend", 1),
        "el año pasado": ("year", -1), "el año que viene": ("year", 1), "el próximo año": ("year", 1),
        "este año": ("year", 0),
        "hoy en día": None, "hoy día": None, "por la mañana": None, "de la mañana": None, "la mañana": None, "las mañanas": None,
        "cada mañana": None, "toda la mañana": None,
    },
    weekdays="lunes;martes;miércoles;jueves;viernes;sábado;domingo",
    last="pasado|pasada|último|última|el pasado|la pasada", this="este|esta", next="próximo|próxima|que viene",
    habit="los|todos los|cada",
    months="enero;febrero;marzo;abril;mayo;junio;julio;agosto;septiembre|setiembre;octubre;noviembre;diciembre",
    month_before="en|para|en el mes de|a principios de|a finales de|a mediados de",
    season_before="en|en el|en la|durante el|durante la",
    holiday_before="en|por|para|desde|hasta|antes de|después de|la|el|en la|por la|para la|esta|este",
    of="de|del",
    seasons="primavera;verano;otoño;invierno",
    numbers="un|una|uno;dos;tres;cuatro;cinco;seis;siete;ocho;nueve;diez",
    units={"día": "day", "días": "day", "semana": "week", "semanas": "week", "mes": "month", "meses": "month",
           "año": "year", "años": "year"},
    ago="hace {n} {u}", later="dentro de {n} {u}|en {n} {u}",
    holidays={"christmas": "navidad|navidades|el día de navidad", "christmas eve": "nochebuena",
              "new years eve": "nochevieja", "new years day": "año nuevo", "easter": "semana santa|pascua"},
    since="desde",
    future="voy a|vas a|va a|vamos a|van a|iré|haré|tendré|será|pienso|planeo",
    past="hice|hiciste|hizo|hicimos|fui|fuiste|fue|fuimos|estuve|estuviste|pasé|pasaste|tuve|he|has|ha|hemos|había",
)  # fmt: skip


# Its chat formulas (greetings, thanks, agreement, reactions, wishes, guesses, words that say nothing).
FORMULAS = FormulaWords(
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
    "buah|uf|uff|mmm|hmm|no lo sabía|no sabía|ni idea",
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
    "hombre|mujer|tipo|eh|oye|mira|pues|entonces|otra vez|de nuevo|por fin|puf|buf",
    endings="es|as|os|s|a|o",
    cause="por",
    anchors="yo|mi|mis|me|mío|mía|nosotros|nosotras|nuestro|nuestra|nuestros|nuestras|él|ella|ellos|"
    "ellas|su|sus|le|les",
)  # fmt: skip

# A standing rule for the agent: its cues (from now on, always, never, please…), and how the agent answers
# (answer, write, call me, the language…); something to be done (remind me, I have to…). `fold`ed.
RULE_CUES = (
    "a partir de ahora|de ahora en adelante|desde ahora|siempre|nunca|jamas|por favor|porfa|no uses|"
    "no escribas|no respondas|no contestes|no me llames|no me hables"
)
AGENT_CUES = (
    "responde|respondeme|respondas|responder|contesta|contestame|contestes|escribe|escribeme|escribas|"
    "hablame|hables|llamame|me llames|usa|uses|utiliza|utilices|tuteame|tutees|de usted|de tu|emoji|emojis|"
    "en espanol|en ingles|en aleman|en frances|resumenes|respuestas|respuesta|corto|cortas|cortos|breve|breves|"
    "resumen|vinetas|listas"
)
TASK_CUES = (
    "recuerdame|recordarme|no olvides|no te olvides|que no se me olvide|tengo que|tenemos que|debo|"
    "debemos|hay que|pendiente|tengo q|tenemos q|hay q|te recuerdo|te lo recuerdo|te recordare|te recordaremos|todo:|to-do|pendiente:"
)

# The shape of a statement (`app.language.shapes`), as regular expressions on its lower-cased text: a
# hypothetical (an if-clause in the imperfect subjunctive, "imagine that…"), a request to the agent (an
# imperative with its enclitic, "me explicas…", a negative imperative), a standing condition ("cuando…",
# "siempre que…"), a past action (the preterite, the perfect, "acabo de") and the speaker's own person
# (pronouns, possessives, first-person verb forms).
HYPOTHETICAL = (
    r"(?<!como\s)\bsi\s+(?:\w+\s+){0,2}\w+[aeiu](?:ra|ras|ramos|ran|se|ses|semos|sen)\b|\bimag[ií]n(?:ate|a|e|emos)\s+(?:que|si)\b"
    r"|(?<!como\s)\bsi\s+.*\b\w+r(?:ía|ías|íamos|ían)\b"
)
REQUEST = (
    r"^(?:(?:oye|porfa|venga|va|y|ah|ok|vale)[,\s]+)?(?:\w{2,}[aeií]r?(?:me|nos|melo|mela|noslo)\b|dime\b|dame\b|hazme\b"
    r"|me\s+\w+(?:as|es)\b|no\s+(?:me\s+|nos\s+)?\w+(?:es|as)\b|(?:puedes|podrías|podrias|pod[eé]s)\b)"
)
STANDING = r"\b(?:cuando|siempre\s+que|cada\s+vez\s+que)\b"
PAST = (
    r"\b\w{2,}[bcdgjlmnprstvz](?:é|ó)\b|\b\w+(?:aste|iste|aron|ieron)\b"
    # "fui/fue" is both ir and ser: an action where it goes somewhere ("fue al cine"), a state otherwise
    # ("fue bastante larga"), as English's past states are not actions.
    r"|\b(?:fui|fue|fuimos|fueron)\s+(?:a|al|hasta|para)\b|\b(?:hice|hizo|hicimos"
    r"|tuve|tuvo|estuve|estuvimos|pude|dije|vi|vimos|caí)\b|\bacab(?:o|amos|a)\s+de\b"
    r"|\b(?:he|has|ha|hemos|han)\s+(?:\w+\s+)?\w+(?:ado|ido)\b"
)
# A prohibition to the agent (a negative imperative, "stop …"): a rule that holds beyond the moment.
PROHIBITION = (
    r"^(?:(?:y|pero|porfa|oye)[,\s]+)?(?:no|nunca|jamás|jamas)\s+(?:me\s+|nos\s+)?\w+(?:es|as)\b|^deja\s+de\b"
)
# A statement opening with a noun phrase of the world (its article): its subject is no one in the chat.
GENERIC = r"^(?:\w+\s+){0,2}?(?:el|la|los|las|lo)\s+\w"
# A question asked without its mark: an interrogative opening it (a question particle closing it).
INTERROGATIVE = r"^(?:qué|cómo|cuándo|dónde|por\s+qué|cuál|cuáles|cuántos?|cuántas?|quién|quiénes)\s+\w+"
# The partner addressed: second-person pronouns and possessives.
PARTNER = r"\b(?:tú|tu|te|ti|contigo|usted|vosotros|os)\b"
SELF = (
    r"\b(?:yo|mi|mis|me|conmigo|nosotros|nosotras|nuestr[oa]s?|nos)\b|\b\w+(?:amos|emos|(?<!ís)imos)\b"
    r"|\b(?:soy|estoy|voy|tengo|he|fui|hice|tuve|estuve|puedo|quiero|sé)\b|\b\w{2,}[bcdgjlmnprstvz]é\b"
    r"|\b(?:no|ya\s+no|tampoco)\s+\w{2,}o\b"
)


# Whether its sentences often leave the person unsaid, the verb carrying it: a question without a
# pronoun may still be about someone (`app.extraction.chit_chat.refers_to_someone`).
PRO_DROP = True

# A lasting circumstance of a person (`app.language.circumstances`): work and studies | home | family and
# pets | health and diet | likes, age and birthday; word starts, `fold`ed (one ending in `\b` is a whole word).
CIRCUMSTANCES = (
    "trabaj|enfermer|medic|ingenier|profesor|abogad|programador|desarrollador|disenador|gerente|empresa|"
    "emple|jefe|oficina|carrera|estudi|universidad|facultad|master|doctorado|vivo|vives|vive|vivimos|"
    "viven|mude|mudamos|mudo|casa|piso|apartamento|barrio|nacid|naci\\b|herman|madre|padre|mama|papa|"
    "padres|hijo|hija|espos|marido|novio|novia|pareja|casad|abuel|sobrin|primo|prima|perro|gato|mascota|"
    "embarazad|bebe|alergi|alergic|intoleran|asma|diabet|diagnostic|celiac|vegetarian|vegan|medicacion|"
    "operaron|me encanta|me gusta|odio|prefiero|favorit|cumpleanos|tengo \\d+ anos"
)


# Words a full stop does not end a sentence after (`app.language.sentences`), and those after which it
# ends one only before a capital.
ABBREVIATIONS = "sr|sra|srta|dr|dra|ud|uds|ej|p.ej|aprox|núm|pág|av|avda|dña|prof"
SOFT_ABBREVIATIONS = "etc|ene|feb|mar|abr|may|jun|jul|ago|sept|oct|nov|dic"

# What a question asks for, and what makes a memory hold it (`app.recall.answer_types`).
ANSWERS = AnswerWords(
    types={
        **dict.fromkeys(("instrucción", "instrucciones"), "instruction"),
        **dict.fromkeys(
            ("tarea", "tareas", "pendientes", "recordatorio", "recordatorios", "lista de tareas"), "task"
        ),
    },
    time_asked="cuándo|en qué año|qué año|en qué mes|qué mes|qué día|qué fecha|a qué hora|hace cuánto|desde cuándo",
    number_asked="cuántos|cuántas|cuánto|cuánta|cuantos|cuantas|qué edad",
    place_asked="dónde|adónde|en qué ciudad|qué ciudad|en qué país|qué país|qué restaurante|qué pueblo",
    person_asked="quién|quiénes|con quién|a quién|de quién",
    times="hoy ayer mañana anoche anteayer finde navidad navidades pascua nochebuena nochevieja cumpleaños cumple",
    relative="pasado pasada próximo próxima este esta",
    periods="semana mes año finde noche",
    relative_follows=True,
    numbers="dos tres cuatro cinco seis siete ocho nueve diez once doce quince veinte treinta cuarenta cincuenta"
    " cien ciento mil millón millones docena",
    places="calle avenida plaza parque ciudad pueblo país isla playa lago río montaña café cafetería restaurante"
    " tienda mercado hotel aeropuerto estación escuela colegio universidad hospital clínica iglesia museo galería"
    " gimnasio bar oficina biblioteca granja jardín barrio",
    place_before="en desde visité visitamos visitar",
    people="mamá madre papá padre hermana hermano esposa esposo mujer marido hijo hija tía tío primo prima sobrino"
    " sobrina abuela abuelo amigo amiga jefe jefa colega compañero compañera vecino vecina novio novia pareja"
    " profesor profesora médico médica entrenador",
    plural="s",
)
_ES_PARTNERS = ("pareja", "novio", "novia", "marido", "mujer", "esposo", "esposa")
_ES_MOTHERS, _ES_FATHERS = ("madre", "mamá", "mama"), ("padre", "papá", "papa")
_ES_DOGS, _ES_CATS = ("perro", "perra", "perrito", "perrita"), ("gato", "gata", "gatito", "gatita")
# The people and pets a question names by their relation, and how a conversation names them (`app.recall.relations`).
RELATIONS = RelationWords(
    relations={
        **dict.fromkeys(("marido", "esposo"), ("marido", "esposo")),
        **dict.fromkeys(("esposa", "mujer"), ("esposa", "mujer")),
        "pareja": _ES_PARTNERS,
        "novio": ("novio",),
        "novia": ("novia",),
        "hijo": ("hijo",),
        "hija": ("hija",),
        "hijos": ("hijo", "hija", "hijos"),
        **dict.fromkeys(_ES_MOTHERS, _ES_MOTHERS),
        **dict.fromkeys(_ES_FATHERS, _ES_FATHERS),
        "padres": _ES_MOTHERS + _ES_FATHERS,
        "hermana": ("hermana",),
        "hermano": ("hermano",),
        "abuela": ("abuela", "abuelita"),
        "abuelo": ("abuelo", "abuelito"),
        **dict.fromkeys(("jefe", "jefa"), ("jefe", "jefa")),
        **dict.fromkeys(_ES_DOGS, _ES_DOGS),
        **dict.fromkeys(_ES_CATS, _ES_CATS),
        "mascota": ("mascota", *_ES_DOGS, *_ES_CATS),
    },
    owners="mi|mis|nuestro|nuestra|su|sus",
    owners_after="mi|nuestro|nuestra|su",
    naming="llamado|llamada|que se llama|se llama",
    copula="es",
)
# Words that carry no meaning in a question (`app.recall.query`).
QUESTION_NOISE = "recuerdas acuerdas recuerdo dije dijiste conté contaste mencioné mencionaste hablé hablamos sabes algo cosa"

# The parts this language has none of, each with what happens instead (never a statement dropped).
LACKS = {
    "SPELLINGS": "no other spellings of its words: a question's words are matched as written",
    "LEMMAS": "no table of irregular forms: its words are stemmed by its snowball stemmer, or searched as said",
    "CATEGORIES": "no table of categories: a question's words are searched as said, without their instances",
    "NEGATION": "no rule reads negation: a negated statement is kept verbatim, typed like any other",
    "SECOND_PERSON": "no rule rewrites the second person: a statement is kept verbatim, its speaker as a prefix",
}
