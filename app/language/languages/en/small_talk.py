"""English's small talk and the shapes of its sentences, as patterns: a well-wish, a guess or a verdict
about the partner's news, who a statement is anchored to, a question told by word order, a tag question,
news told as a question, what an assistant says that concerns the user, a request or an obligation
without a subject. `app.extraction.chit_chat` applies them to English statements; other languages' small
talk is their modules' `FORMULAS`."""

from __future__ import annotations

import re

_I = re.IGNORECASE

# A well-wish or a send-off: it wishes, it does not tell ("Good luck with the deploy", "Hope your mum
# feels better", "Enjoy the wedding!", "Let me know how it goes!").
WELL_WISH_RE = re.compile(
    r"^(?:good\s+luck|best\s+of\s+luck|(?:i\s+)?hope\s+(?:you|your|u|ur|the|it|she|he|they|things|all|everything)\b|"
    r"(?:i\s+)?wish\s+(?:you|u)\b|have\s+(?:a\s+|an\s+)?(?:fun|good|great|nice|wonderful|lovely|safe|amazing|"
    r"brilliant|fantastic)\b|enjoy\b|safe\s+travels|get\s+well|feel\s+better|merry|happy\s+\w+|"
    r"fingers\s+crossed|break\s+a\s+leg|you\s+got\s+this|you\s+deserve|let\s+me\s+know\s+(?:how|if|when|what)|"
    r"congrat\w*|well\s+done|bon\s+voyage|feel\s+free|sorry\s+for\s+the\s+(?:late|slow)|"
    r"sorry\s+to\s+hear|so\s+sorry\s+to)",
    _I,
)
# A guess or a verdict about what the partner told, not a statement of one's own: "The water must be
# freezing", "I bet the kids loved it", "Sounds like a great place", "That can be really frustrating".
GUESS_RE = re.compile(
    r"\bmust(?:'ve|\s+have)?\s+(?:be|been)\b|^(?:i\s+)?bet\b|^(?:it\s+|that\s+|this\s+)?(?:sounds|looks|seems)\b|"
    r"\b(?:can|could)\s+be\s+(?:really\s+|so\s+|very\s+)?\w+ing\b|^i\s+(?:understand|can\s+imagine)\b",
    _I,
)
# A verdict on something ("weddings are so expensive", "physio is the worst", "the pic is unreal",
# "feedzai sounds like a cool company"): a copula with an intensifier, a superlative or an evaluative
# adjective, or "sounds / looks / seems".
VERDICT_RE = re.compile(
    r"\b(?:is|are|was|were|'s|be|been|ur|you're)\s+(?:(?:so+|such|really|very|super|too|totally|absolutely|"
    r"pretty|quite|kinda|literally|honestly|always|just)\s+)*(?:so+\b|such\b|the\s+(?:worst|best)\b|"
    r"(?:crazy|insane|unreal|wild|brutal|mad|nuts|ridiculous|hilarious|gorgeous|stunning|awful|terrible|"
    r"horrible|lovely|amazing|awesome|great|beautiful|fun|cute|sweet|cool|nice|boring|weird|random)\b)|"
    r"\b(?:sounds|looks|seems)\b",
    _I,
)
# Who a statement is about: the speaker ("I", "my", "we", chat's "im") or a third person. Without either,
# and without anything specific (a name, a number, a time), an English sentence is a remark about the
# world or the partner's news ("weddings are so expensive", "porto is so pretty, lucky you").
ANCHOR_RE = re.compile(
    r"\b(?:i|i'm|im|i've|ive|i'd|i'll|me|my|mine|myself|we|we're|we've|we'd|we'll|us|our|ours|"
    r"he|he's|she|she's|they|they're|they've|him|his|her|hers|them|their|theirs)\b",
    _I,
)
# The first person after the verb that asks ("do I", "should I", "can I"): asking for help, not telling.
ASKING_I_RE = re.compile(r"\b(?:do|does|did|can|could|should|would|will|shall|am|may|might)\s+i\b", _I)
FIRST_PERSON_RE = re.compile(r"\b(?:i|i'm|im|i've|ive|i'd|i'll|me|my|mine|we|we're|we've|us|our)\b", _I)
# A question without its question mark, told by word order: a question word before a verb that asks
# ("how do i boil an egg", "what's the capital of australia", "how r u"), not "when I was in Paris, …".
INTERROGATIVE_RE = re.compile(
    r"^(?:how|what|where|when|why|who|which)(?:'s|'re|\s+(?:do|does|did|is|are|was|were|can|could|should|"
    r"would|will|r|u)\b)",
    _I,
)
# A tag that turns a statement into a question ("always answer in spanish ok?"): the statement is what
# is said.
# Structurally too: a clause of several words, a comma, and a tag of a word or three ("He built the shed out
# of old pallets, remember?", "She's a vet now, isn't she?").
TAG_QUESTION_RE = re.compile(
    r"(?:[\s,]+(?:ok|okay|right|yeah|yes|alright|k|pls|please)|(?<=\w{2})\s*,\s*\w+(?:['’]\w+)?(?:\s+\w+){0,2})"
    r"\s*\?+\s*$",
    _I,
)
TAG_CLAUSE_WORDS = 4
# A tag is a few words at the very end: only the text's last characters are searched, so a long run of
# spaces or commas costs a bounded number of tries (searched whole, `[\s,]+` made the search quadratic).
TAG_WINDOW = 100
ASKS_RE = re.compile(
    r"(?:(?:so|and|but|ok|okay|oh|hey|well)[,\s]+)?(?:do|does|did|is|are|was|were|can|could|would|will|should|have|has|had|am|shall|may)\b",
    _I,
)
# "I'm allergic to peanuts, can you tell her?": a statement of one's own before a request.
STATEMENT_THEN_REQUEST_RE = re.compile(
    r"^(?P<statement>.+?),\s*(?:so\s+|and\s+)?(?:can|could|would|will)\s+(?:you|u)\b[^,]*\?+\s*$", _I
)
# "Did I tell you I got the job?": news told as a question; what follows is the statement.
ANNOUNCING_RE = re.compile(
    r"^(?:(?:did|have)\s+i\s+(?:tell|told|mention(?:ed)?)\s+(?:you|u)|guess\s+what)(?:\s+that)?[\s,:;-]*(?=\S)",
    _I,
)
# What an assistant says to the user that concerns them ("your flight", "you're allergic", "I've booked",
# "I'll answer in Spanish from now on"), as opposed to what it knows about the world ("Python lists are
# mutable", "you can apply online").
AGENT_FOR_USER_RE = re.compile(
    r"\b(?:your|yours|you're|you\s+are|you've|you\s+have|you\s+were|you\s+had)\b|"
    r"\bi(?:'ve|\s+have)\s+(?:booked|added|set|scheduled|saved|noted|created|moved|cancelled|canceled|"
    r"reserved|ordered|sent|put|changed|updated|registered|confirmed)\b|"
    r"\bi(?:'ll|\s+will|\s+won't|\s+will\s+not)\b.*\b(?:from\s+now\s+on|going\s+forward|anymore|again)\b|"
    r"^(?:ok|okay|sure|got\s+it|noted|understood)?[,.!\s]*no\s+more\b|\bfrom\s+now\s+on\b",
    _I,
)
# A request or an obligation without a subject, as chat writes them ("must email the professor", "so no
# wine pairings pls", "can you stop starting every answer with…").
REQUEST_RE = re.compile(
    r"^(?:must|gotta|have\s+to|has\s+to|need\s+to|needs\s+to|got\s+to|should)\b|\b(?:please|pls|plz)\b|"
    r"^(?:can|could|would|will)\s+(?:you|u)\s+(?!\w+\s+me\s*$)",
    _I,
)

# An obligation without a subject, as chat writes a to-do ("need to send the invoice", "gotta pick the car up").
OBLIGATION_START_RE = re.compile(
    r"^(?:(?:so|and|ugh|ok|okay|also|oh)[,\s]+)?(?:must|gotta|have\s+to|need\s+to|got\s+to)\s+\w", _I
)
# A rule asked politely ("pls dont use emoji with me", "so no wine pairings in the recipes pls").
POLITE_RULE_RE = re.compile(
    r"\b(?:pls|please|plz)\b.*\b(?:dont|don't|do\s+not|no|never|stop|always)\b|"
    r"\b(?:dont|don't|no|never|stop|always)\b.*\b(?:pls|please|plz)\b",
    _I,
)
SECOND_PERSON_OR_USER_RE = re.compile(r"\b(?:you|your|yours|you're|you've|u|ur|user|user's)\b", _I)
