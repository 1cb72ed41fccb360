"""Base forms of irregular English verbs ("ran" → run, "bought" → buy): `app.language.lemmas` reads
them."""

# base: irregular forms (past, participle) — the common irregular verbs of English.
LEMMAS = """
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
