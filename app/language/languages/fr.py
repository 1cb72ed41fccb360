"""French: its rules as data, read by the shared engines (`app.language.time_words`, `app.language.formulas`,
`app.language.cues`, `app.language.questions`)."""

from app.language.answer_words import AnswerWords
from app.language.formula_words import FormulaWords
from app.language.relation_words import RelationWords
from app.language.time_words import TimeWords

# How a question asks what was done or is planned, its interrogatives and light verbs ("¿Qué hice…?",
# "Was habe ich … gemacht?", "我…干了啥"): a question of these and a time asks for that time's memories.
QUESTION_WORDS = "qu'est-ce|qu'est|quoi|que|qu|fait|fais|faire|ferai|passé|prévu|j'ai|ai|est-ce|je|j"

TIME = TimeWords(
    relative={
        "aujourd'hui": ("day", 0), "ce soir": ("day", 0), "cet après-midi": ("day", 0), "ce matin": ("day", 0),
        "demain": ("day", 1), "après-demain": ("day", 2), "hier": ("day", -1), "hier soir": ("day", -1),
        "avant-hier": ("day", -2),
        "la semaine prochaine": ("week", 1), "la semaine dernière": ("week", -1), "cette semaine": ("week", 0),
        "le mois prochain": ("month", 1), "le mois dernier": ("month", -1), "ce mois-ci": ("month", 0),
        "ce week-end": ("weekend", 0), "ce weekend": ("weekend", 0),
        "le week-end dernier": ("weekend", -1), "le weekend dernier": ("weekend", -1),
        "le week-end prochain": ("weekend", 1), "le weekend prochain": ("weekend", 1),
        "l'année dernière": ("year", -1), "l'an dernier": ("year", -1), "l'année passée": ("year", -1),
        "l'année prochaine": ("year", 1), "l'an prochain": ("year", 1), "cette année": ("year", 0),
    },
    weekdays="lundi;mardi;mercredi;jeudi;vendredi;samedi;dimanche",
    last="dernier|dernière|passé|passée", this="ce|cet|cette", next="prochain|prochaine",
    habit="le|les|tous les|chaque",
    months="janvier;février;mars;avril;mai;juin;juillet;août;septembre;octobre;novembre;décembre",
    month_before="en|au mois de|début|fin|mi|courant",
    season_before="en|au|cet|pendant l'|pendant l",
    holiday_before="à|a|pour|avant|après|depuis|jusqu'à|le jour de",
    seasons="printemps;été;automne;hiver",
    numbers="un|une;deux;trois;quatre;cinq;six;sept;huit;neuf;dix",
    units={"jour": "day", "jours": "day", "semaine": "week", "semaines": "week", "mois": "month", "an": "year",
           "ans": "year", "année": "year", "années": "year"},
    ago="il y a {n} {u}|ça fait {n} {u}", later="dans {n} {u}",
    holidays={"christmas": "noël|noel", "christmas eve": "la veille de noël|réveillon de noël",
              "new years eve": "la saint-sylvestre|réveillon du nouvel an", "new years day": "nouvel an|jour de l'an",
              "easter": "pâques"},
    since="depuis",
    future="vais|vas|va|allons|allez|vont|ferai|serai|irai|prévois|compte",
    past="ai|as|avons|avez|ont|avais|avait|étais|était|suis allé|suis allée",
)  # fmt: skip


# Its chat formulas (greetings, thanks, agreement, reactions, wishes, guesses, words that say nothing).
FORMULAS = FormulaWords(
    greetings="bonjour|salut|coucou|bonsoir|hello|allô|bienvenue|ça va|comment ça va|quoi de neuf",
    farewells="au revoir|à bientôt|a bientot|à plus|a plus|à demain|à tout à l'heure|à tout|bonne nuit|"
    "bisous|bises|gros bisous|ciao|salut|bonne soirée|bonne journée|prends soin de toi",
    thanks="merci|merci beaucoup|merci bien|merci mille fois|mille mercis|un grand merci|de rien|"
    "je t'en prie|avec plaisir",
    apologies="désolé|désolée|pardon|excuse-moi|excusez-moi|toutes mes excuses|je suis désolé|"
    "je suis désolée|quel dommage|dommage",
    agreement="oui|ouais|ouaip|non|nan|ok|okay|d'accord|dac|bien sûr|exactement|exact|carrément|grave|c'est ça|"
    "entendu|ça marche|ça roule|parfait|tout à fait|voilà|vrai|c'est vrai|évidemment|mdr|ptdr|lol|"
    "haha|hahaha|ah|oh|oh là là|bah|ben|bof|euh|hum|waouh|wow|oups|je savais pas|je ne savais pas|j'savais pas|ah d'accord",
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
    "alors|donc|bah|ben|quoi|hein|encore|enfin|pff|pfff|rah",
    endings="es|e|s|x",
    cause="pour",
    anchors="je|j|moi|mon|ma|mes|nous|notre|nos|il|elle|ils|elles|son|sa|ses|leur|leurs",
)  # fmt: skip

# A standing rule for the agent: its cues (from now on, always, never, please…), and how the agent answers
# (answer, write, call me, the language…); something to be done (remind me, I have to…). `fold`ed.
RULE_CUES = (
    "a partir de maintenant|desormais|dorenavant|a l'avenir|toujours|jamais|s'il te plait|"
    "s'il vous plait|stp|svp|n'utilise|n'ecris|ne reponds|ne m'appelle"
)
AGENT_CUES = (
    "reponds|repondez|reponds-moi|ecris|ecrivez|ecris-moi|parle-moi|appelle-moi|m'appelle|utilise|"
    "vouvoie|tutoie|vouvoyer|tutoyer|vouvoies|tutoies|emoji|emojis|en francais|en anglais|reponses|reponse|courtes|courte|breves|liste|listes|puces"
)
TASK_CUES = (
    "rappelle-moi|rappelle moi|fais-moi penser|n'oublie pas|ne pas oublier|je dois|nous devons|"
    "on doit|il faut que|j'ai besoin de|a faire|faut que|faudrait que|je te rappelle|je te le rappelle|je te rappellerai|je vous rappelle|todo:|to-do"
)


# Whether its sentences often leave the person unsaid, the verb carrying it: a question without a
# pronoun may still be about someone (`app.extraction.chit_chat.refers_to_someone`).
PRO_DROP = False

# A lasting circumstance of a person (`app.language.circumstances`): work and studies | home | family and
# pets | health and diet | likes, age and birthday; word starts, `fold`ed (one ending in `\b` is a whole word).
CIRCUMSTANCES = (
    "travail|infirmi|medecin|ingenieur|prof|avocat|developpeu|designer|boulot|taf\\b|entreprise|emploi|"
    "patron|bureau|carriere|etudi|fac\\b|universite|master|these|j'habite|habite|habitons|demenag|maison|"
    "appart|quartier|ne a|nee a|soeur|frere|mere|pere|maman|papa|parents|fils|fille|femme|mari|copain|"
    "copine|fiance|marie|grand-|oncle|tante|cousin|neveu|niece|chien|chat|enceinte|bebe|allergi|"
    "intoleran|asthme|diabet|diagnosti|coeliaqu|vegetarien|vegan|medicament|j'adore|j'aime|deteste|"
    "prefere|prefere|favori|anniversaire|j'ai \\d+ ans"
)


# Words a full stop does not end a sentence after (`app.language.sentences`), and those after which it
# ends one only before a capital.
ABBREVIATIONS = "m|mme|mlle|dr|pr|p.ex|cf|env|av|bd|st|ste"
SOFT_ABBREVIATIONS = "etc|janv|févr|avr|juil|sept|oct|nov|déc"
# The shape of a statement (`app.language.shapes`), as regular expressions on its lower-cased text: a
# hypothetical (si + the imperfect, "imagine si…"), a request to the agent (an imperative with "-moi",
# "tu peux…"), a standing condition ("quand…", "chaque fois que…"), a past action (the passé composé,
# "je viens de") and the speaker's own person.
HYPOTHETICAL = (
    r"(?<!comme\s)\bsi\s+(?:j['’]|je\s+|tu\s+|t['’]|on\s+|il\s+|elle\s+|nous\s+|vous\s+|ils\s+|elles\s+|c['’])(?:\w+\s+)?\w+(?:ais|ait|ions|iez|aient)\b"
    r"|\bimagine[sz]?\s+(?:si|que)\b"
)
REQUEST = (
    r"^(?:(?:dis|bon|ok|alors|et|sinon)[,\s]+)?(?:\w+-(?:moi|nous)\b|(?:tu\s+peux|tu\s+pourrais|vous\s+pouvez"
    r"|vous\s+pourriez|peux-tu|pouvez-vous|pourriez-vous|est-ce\s+que\s+(?:tu|vous)\s+(?:peux|pourrais|pouvez|pourriez))\b"
    r"|(?:ne\s+|n['’])(?:me\s+|m['’])?\w+\s+(?:pas|jamais|plus)\b)"
)
STANDING = r"\b(?:quand|lorsque|chaque\s+fois\s+que|dès\s+que)\b"
PAST = (
    r"\b(?:j['’]ai|t['’]as|tu\s+as|on\s+a|il\s+a|elle\s+a|nous\s+avons|vous\s+avez|ils\s+ont|elles\s+ont)\s+"
    r"(?:(?:déjà|enfin|bien|encore|vraiment|tout|trop|jamais)\s+)?\w+(?:é|ée|és|i|is|it|u|ue|us|ert)\b"
    r"|\b(?:suis|es|est|sommes|êtes|sont)\s+(?:(?:déjà|enfin|bien|encore|vraiment|tout)\s+)?"
    r"(?:allée?s?|venue?s?|partie?s?|rentrée?s?|arrivée?s?|née?s?|morte?s?|tombée?s?|passée?s?|sortie?s?|restée?s?)\b"
    r"|\b(?:me|m['’]|se|s['’]|nous)\s*(?:suis|est|sommes|sont)\s+\w+(?:é|ée|és|ées|i|ie|is|it|u|ue|us)\b"
    r"|\b(?:je\s+viens|on\s+vient|nous\s+venons)\s+d['’e]|\bon\s+rentre\s+d"
)
# A prohibition to the agent (a negative imperative, "stop …"): a rule that holds beyond the moment.
PROHIBITION = r"^(?:(?:et|mais)[,\s]+)?(?:ne\s+|n[\'’])(?:me\s+|m[\'’])?\w+(?:-moi)?\s+(?:pas|jamais|plus)\b|^arr[êe]te[sz]?\s+de\b|^évite[sz]?\b"
# A statement opening with a noun phrase of the world (its article): its subject is no one in the chat.
GENERIC = r"^(?:\w+\s+){0,2}?(?:le|la|les|l[\'’])\s*\w"
# A question asked without its mark: an interrogative opening it (a question particle closing it).
INTERROGATIVE = (
    r"^(?:qu[\'’]est-ce|comment|pourquoi|quand|où|quel|quelle|quels|quelles|combien|c[\'’]est\s+quoi)\b"
)
# The partner addressed: second-person pronouns and possessives.
PARTNER = r"\b(?:tu|t|te|toi|vous)\b"
SELF = r"\b(?:je|j|moi|mon|ma|mes|me|m|nous|notre|nos|on)\b"

# What a question asks for, and what makes a memory hold it (`app.recall.answer_types`). "qui" also opens a
# relative clause: only "qui" at the start or after a preposition asks for a person.
ANSWERS = AnswerWords(
    types={
        **dict.fromkeys(("consigne", "consignes", "instruction", "instructions"), "instruction"),
        **dict.fromkeys(
            ("tâche", "tâches", "rappel", "rappels", "liste de tâches", "choses à faire"), "task"
        ),
    },
    time_asked="quand|quelle année|quel mois|quel jour|quelle date|quelle heure|il y a combien de temps|depuis quand",
    number_asked="combien|quel âge",
    place_asked="où|dans quelle ville|quelle ville|quel pays|quel restaurant|quel hôtel",
    person_asked="^qui|qui est|qui était|avec qui|à qui|de qui|pour qui|c'est qui",
    times="aujourd'hui hier demain weekend week noël pâques anniversaire réveillon",
    relative="dernier dernière prochain prochaine passé passée ce cette",
    periods="semaine mois année an week weekend soir",
    relative_follows=True,
    numbers="deux trois quatre cinq six sept huit neuf dix onze douze quinze vingt trente quarante cinquante cent"
    " mille million douzaine moitié",
    places="rue avenue boulevard place parc ville village pays île plage lac rivière montagne café restaurant"
    " boutique magasin marché hôtel aéroport gare école université fac hôpital clinique église musée galerie"
    " bar bureau bibliothèque ferme jardin quartier",
    place_before="à en au aux visité visiter",
    people="maman mère papa père sœur soeur frère femme mari fils fille tante oncle cousin cousine nièce neveu mamie"
    " papi ami amie copain copine patron patronne chef collègue voisin voisine partenaire prof professeur"
    " médecin docteur coach",
    plural="s",
)
_FR_MOTHERS, _FR_FATHERS = ("mère", "maman"), ("père", "papa")
_FR_DOGS, _FR_CATS = ("chien", "chienne", "chiot"), ("chat", "chatte", "chaton")
# The people and pets a question names by their relation, and how a conversation names them (`app.recall.relations`).
RELATIONS = RelationWords(
    relations={
        **dict.fromkeys(("mari", "époux"), ("mari", "époux")),
        **dict.fromkeys(("femme", "épouse"), ("femme", "épouse")),
        **dict.fromkeys(
            ("conjoint", "conjointe", "partenaire"),
            ("conjoint", "conjointe", "partenaire", "mari", "femme", "copain", "copine"),
        ),
        "copain": ("copain",),
        "copine": ("copine",),
        "fils": ("fils",),
        "fille": ("fille",),
        "enfants": ("fils", "fille", "enfant", "enfants"),
        **dict.fromkeys(_FR_MOTHERS, _FR_MOTHERS),
        **dict.fromkeys(_FR_FATHERS, _FR_FATHERS),
        "parents": _FR_MOTHERS + _FR_FATHERS,
        **dict.fromkeys(("sœur", "soeur"), ("sœur", "soeur")),
        "frère": ("frère",),
        **dict.fromkeys(("patron", "patronne", "chef"), ("patron", "patronne", "chef")),
        **dict.fromkeys(_FR_DOGS, _FR_DOGS),
        **dict.fromkeys(_FR_CATS, _FR_CATS),
    },
    owners="mon|ma|mes|notre|nos|son|sa|ses|leur",
    owners_after="mon|ma|notre|son|sa|leur",
    naming="appelé|appelée|nommé|nommée|qui s'appelle|s'appelle",
    copula="est",
)
# Words that carry no meaning in a question (`app.recall.query`).
QUESTION_NOISE = "souviens rappelles rappelle dit raconté mentionné parlé sais quelque chose"

# The parts this language has none of, each with what happens instead (never a statement dropped).
LACKS = {
    "SPELLINGS": "no other spellings of its words: a question's words are matched as written",
    "LEMMAS": "no table of irregular forms: its words are stemmed by its snowball stemmer, or searched as said",
    "CATEGORIES": "no table of categories: a question's words are searched as said, without their instances",
    "NEGATION": "no rule reads negation: a negated statement is kept verbatim, typed like any other",
    "SECOND_PERSON": "no rule rewrites the second person: a statement is kept verbatim, its speaker as a prefix",
}
