"""Base forms of irregular English verbs ("ran" → run, "bought" → buy).

PostgreSQL's english stemmer conflates regular forms (walked, walking → walk) but not irregular ones, so
"What race did I run?" would miss "I ran a marathon". Extraction indexes the base forms of a memory's
irregular verbs in its low-weight context, and recall adds the base forms of a question's: either side
may use the past form.
"""

from __future__ import annotations

import re

# base: irregular forms (past, participle) — the common irregular verbs of English.
_TABLE = """
arise arose arisen|awake awoke awoken|be was were been|bear bore born borne|beat beaten|become became
begin began begun|bend bent|bet|bite bit bitten|bleed bled|blow blew blown|break broke broken|breed bred
bring brought|build built|burn burnt|buy bought|catch caught|choose chose chosen|come came|cost
creep crept|cut|deal dealt|dig dug|do did done|draw drew drawn|dream dreamt|drink drank drunk
drive drove driven|eat ate eaten|fall fell fallen|feed fed|feel felt|fight fought|find found|flee fled
fly flew flown|forbid forbade forbidden|forget forgot forgotten|forgive forgave forgiven|freeze froze frozen
get got gotten|give gave given|go went gone|grind ground|grow grew grown|hang hung|have had|hear heard
hide hid hidden|hit|hold held|hurt|keep kept|kneel knelt|know knew known|lay laid|lead led|lean leant
leap leapt|learn learnt|leave left|lend lent|let|lie lay lain|light lit|lose lost|make made|mean meant
meet met|mistake mistook mistaken|overcome overcame|pay paid|prove proven|put|quit|read|ride rode ridden
ring rang rung|rise rose risen|run ran|say said|see saw seen|seek sought|sell sold|send sent|set|sew sewn
shake shook shaken|shine shone|shoot shot|show shown|shrink shrank shrunk|shut|sing sang sung|sink sank sunk
sit sat|sleep slept|slide slid|speak spoke spoken|speed sped|spend spent|spin spun|spit spat|split|spread
spring sprang sprung|stand stood|steal stole stolen|stick stuck|sting stung|stink stank stunk|strike struck
swear swore sworn|sweep swept|swim swam swum|swing swung|take took taken|teach taught|tear tore torn
tell told|think thought|throw threw thrown|tread trod trodden|understand understood|undergo underwent undergone
wake woke woken|wear wore worn|weave wove woven|weep wept|win won|wind wound|withdraw withdrew withdrawn
write wrote written
"""


def _build() -> dict[str, str]:
    out: dict[str, str] = {}
    for entry in re.split(r"[|\n]", _TABLE):
        words = entry.split()
        if not words:
            continue
        base, forms = words[0], words[1:]
        for form in forms:
            # "found" is also "to found", "lay" the past of "lie": the base form never maps away.
            out.setdefault(form, base)
    return out


LEMMAS: dict[str, str] = _build()
_WORD_RE = re.compile(r"[a-z]+")


def base_forms(text: str) -> list[str]:
    """The base forms of the irregular verb forms in `text`, each once, in order."""
    seen: dict[str, None] = {}
    for word in _WORD_RE.findall(text.lower()):
        base = LEMMAS.get(word)
        if base is not None and base != word:
            seen[base] = None
    return list(seen)
