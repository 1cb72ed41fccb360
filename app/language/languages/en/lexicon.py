"""English's word lists and patterns, which the English extraction rules (`app.extraction`: remarks,
typing_rules, summaries, conversation, default) decide with: small talk, persons, tasks, instructions,
topics, negation, summaries' rewriting.

They live apart from the pipeline so tuning what counts as chit-chat, an instruction or a topic does not
mean reading control flow, and in English's package so no shared engine holds a language's words.
Everything here is compiled once at import.
"""

from __future__ import annotations

import re

_I = re.IGNORECASE


def words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words that carry no information on their own: a sentence made only of these
# ("Wow, that's so cool!", "I'm so happy for you") is chit-chat. Nouns of substance stay out even when
# praise uses them ("work", "job", "photo"): "I love my job" says something; "Great job!" is caught as a
# reaction (REACTION_START_RE) instead.
FILLER = words(
    """
    a an the and or but so to of in on at for with about it its it's that that's this these those is are
    was were be been being am i i'm im me my mine myself you you're your yours yourself we we're our ours
    us he she they them his her their there there's here what what's how how's why when who which just
    really very too also totally definitely absolutely such much many lot lots more most some any all not
    no yes yeah yep yup nope ok okay k kk oh ah aw aww awww wow whoa omg haha hahaha hah lol lmao rofl hehe
    hmm hm um umm uh well right sure cool nice great good awesome amazing wonderful fantastic incredible
    beautiful lovely sweet cute fun funny glad happy sad sorry proud excited thrilled stoked love loved
    like liked hope hoping wish thanks thank thx ty appreciate appreciated agree true exactly indeed same
    either hear heard see seen know knew think thought mean guess feel feels felt sounds sound looks look
    seems seem get gets got have has had do does did can could would will should must might may let let's
    go going gonna keep up one thing things stuff idea ideas news time times day moment moments world life
    means meant everything anything something nothing always never ever again now then soon still yet
    already even only please welcome bye goodbye hi hello hey heya hiya yo mind care take luck best
    congrats congratulations bless dear buddy friend friends man dude girl guys gal inspiring
    inspirational impressive touching heartwarming brave strong super pretty quite kinda truly certainly
    course back out over into from by as if than because while that'll it'll you'll i'll i've you've i'd
    you'd don't doesn't didn't can't won't isn't aren't wasn't weren't huge big gorgeous stunning pic pics
    picture pictures progress achievement accomplishment experience story support
    supportive hard tough rough worth enjoy enjoyed blast perfect exciting interesting
    fascinating brilliant excellent remarkable special meaningful powerful impressed
    touched moved rock rocks rocking keeping doing done say said saying tell telling told share
    sharing shared way ways honestly seriously literally actually basically anyway anyways btw
    hahah hahahaha xd ya yah yea ooh wowza yay woohoo hooray nah meh fine alright alr
    morning evening night afternoon tonight later talk chat catch
    wanna gotta cause cuz coz tho though yourselves ourselves themselves himself herself
    each other someone somebody everyone everybody anyone people person lucky blessed grateful thankful
    want wants wanted checking check touch base
    ha heh worries worry poor genuinely better fair play
    someday awesomeness wholesome adorable precious beautifully wonderfully cheers
    """
)

CHIT_PHRASES = frozenset(
    """
    never mind|nevermind|no worries|no problem|no prob|np|you're welcome|youre welcome|sounds good|got it|
    sounds great|sure thing|my pleasure|of course|same here|me too|me neither|good night|good morning|
    see you|see ya|talk soon|talk later|take care|bye|later|cheers|ok|okay|k|kk|lol|haha|yes|no|yeah|nope|
    yep|right|true|agreed|exactly|indeed|for sure|totally|absolutely|definitely|will do|noted|understood|
    makes sense|fair enough|good to know|good point|i see|oh i see|i know|i know right|you too|thanks|
    thank you|thx|ty|great|cool|nice|awesome|perfect|alright|hmm|hm|oops|wow|omg|yay|aww|congrats|
    congratulations|keep it up|keep up the good work|keep going|you got this|go for it|good luck|best of luck|
    hang in there|stay strong|bless you|love you|miss you|same|interesting|whatever|anyway|so|well
    """.replace("\n", "").split("|")
)

GREETING_RE = re.compile(
    r"^(?:hi|hello|hey|heya|hiya|yo|howdy|greetings|good\s+(?:morning|afternoon|evening|night)|morning|"
    r"evening|bye|goodbye|see\s+(?:you|ya)|talk\s+(?:to\s+you\s+)?(?:soon|later)|ttyl|cheers|take\s+care|"
    r"welcome\s+back|long\s+time\s+no\s+see|happy\s+(?:birthday|holidays|new\s+year|friday|weekend)|"
    r"nice\s+to\s+(?:meet|see|hear)|great\s+to\s+(?:see|hear)|good\s+to\s+(?:see|hear))\b",
    _I,
)
THANKS_PREFIX_RE = re.compile(
    r"^(?:thanks|thank\s+you|thx|ty|many\s+thanks|much\s+appreciated|appreciate\s+it)"
    r"(?:\s+(?:so|very)\s+much|\s+a\s+(?:lot|ton|bunch)|\s+again)?(?:\s+for\s+[^,.!;:]*)?"
    r"(?:\s*[,.!;:—–-]+\s*|\s*$)",
    _I,
)
REACTION_START_RE = re.compile(
    r"^(?:that's|that\s+is|this\s+is|it's|it\s+is|what\s+an?|how|so|sounds|looks|you're|you\s+are|wow|omg|"
    r"aww+|oh|ooh|whoa|yay|haha\w*|lol|i'm\s+so|i\s+am\s+so|i\s+love\s+(?:that|it|this)|i'm\s+glad|"
    r"glad|good\s+for|congrat\w*|such\s+an?|great|awesome|amazing|nice|cool)\b",
    _I,
)
# Leading interjections that add nothing to a summary ("Yeah, so I went …" → "I went …").
LEADING_FILLER_RE = re.compile(
    r"^(?:(?:oh|ah|aw+|well|yeah|yes|yep|yup|no|nope|so|hey|hi|wow|haha\w*|lol|um+|uh+|hmm+|honestly|"
    r"actually|anyway|anyways|btw|by\s+the\s+way|ok|okay|omg|awesome|great|cool|nice|sure|right|totally|"
    r"absolutely|definitely|true|and|but|also|plus|guess\s+what|you\s+know\s+what|oh\s+man|man|dude|"
    r"thanks|thank\s+you)(?:[\s,!.…:;—–-]+|$))+",
    _I,
)
# "Remember that …", "FYI, …": the wrapper is a request to store what follows.
REMEMBER_WRAPPER_RE = re.compile(
    r"^(?:please\s+)?(?:(?:did|do)\s+(?:you|u)\s+know|guess\s+what,?|remember|note|keep\s+in\s+mind|bear\s+in\s+mind|don't\s+forget|just\s+so\s+you\s+know|"
    r"fyi|for\s+the\s+record|for\s+your\s+information|for\s+future\s+reference|just\s+fyi)"
    r"(?:\s+that)?[\s,:;-]+(?=\S)",
    _I,
)
REQUEST_QUESTION_RE = re.compile(
    r"^(?:(?:so|and|also|hey|ok|okay)[,\s]+)?(?:can|could|would|will)\s+you\s+(?:please\s+)?(?P<rest>.+?)"
    # The trailing spaces and question marks are tried from the start of their run only: linear.
    r"(?<![\s?])\s*\?*$",
    _I,
)
REQUEST_REST_RE = re.compile(
    r"^(?:remind\s+me|always|never|stop|not|don't|answer|reply|respond|write|use|keep|be\s+more|call\s+me|"
    r"address\s+me|speak|talk\s+to\s+me|avoid|format|remember|note|switch|start\s+(?:using|answering)|"
    # Linear: "add" + 2,000 spaces + "x" tried every split of the spaces between `\s+.+\s+` (cubic).
    r"make\s+sure|add\s++.+?(?<=\s)to\s++my)\b",
    _I,
)

# Instruction cues: about how the agent should behave.
FROM_NOW_ON_RE = re.compile(
    r"^(?:(?:ok|okay|also|and|but|so|please|hey|one\s+more\s+thing)[,!.]?\s+)*"
    r"(?:from\s+now\s+on|going\s+forward|moving\s+forward|in\s+(?:the\s+)?future|henceforth|"
    r"for\s+future\s+(?:chats|conversations|replies|answers)|next\s+time)[,:]?\s+(?P<rest>.+)",
    _I,
)
IMPERATIVE_START_RE = re.compile(
    r"^(?:(?:ok|okay|also|and|but|so|hey)[,!]?\s+)*(?:please\s+|pls\s+|kindly\s+)?(?P<verb>always|never|don't|do\s+not|"
    r"stop|quit|avoid|answer|respond|reply|write|use|keep|be|format|speak|talk|explain|summari[sz]e|give|show|"
    r"include|add|skip|call|address|list|provide|limit|stick|switch|translate|default|make\s+sure|"
    r"remember\s+to|refer\s+to|try\s+to|no\s+more|only)\b",
    _I,
)
PREFER_YOU_RE = re.compile(
    r"\bI(?:\s+would|'d)?\s+(?:really\s+)?(?:prefer|want|need|like|love|hate|expect)\s+(?:it\s+)?(?:if\s+|when\s+)?you\b"
    r"|\bI\s+(?:would|'d)\s+(?:like|love|prefer)\s+(?:it\s+if\s+)?you\b|\bI\s+don't\s+(?:want|like)\s+(?:it\s+)?"
    r"(?:when\s+)?you\b|\byou\s+should\s+(?:always|never)\b|\byour\s+(?:answers|responses|replies|tone|messages)"
    r"\s+should\b|\bplease\s+(?:always|never|don't|do\s+not|stop|use|answer|reply|respond|write|keep|be|call|"
    r"address|speak|talk|avoid)\b|\b(?:call|address)\s+me\s+(?:as\s+)?[A-Z]",
    _I,
)
AGENT_CUE_RE = re.compile(
    r"\b(?:answers?|responses?|repl(?:y|ies)|respond|emojis?|emoticons|markdown|bullet(?:s|\s+points?)?|format\w*|"
    r"tone|formal|informal|casual|concise|brief(?:ly)?|shorter|longer|verbose|wordy|detailed|succinct|"
    r"language|english|french|spanish|german|italian|portuguese|japanese|chinese|mandarin|korean|dutch|"
    r"russian|arabic|hindi|metric|imperial|celsius|fahrenheit|code|examples?|sources|citations?|tables?|json|"
    r"headings?|headers?|jargon|plain|sarcas\w*|jokes?|summar\w*|explanations?|explain|call\s+me|"
    r"address\s+me|ask\s+me|tell\s+me|remind\s+me|first\s+name|my\s+name|(?:short|long)\s+(?:answers|replies)|"
    r"one\s+sentence|paragraphs?|exclamation|capital|caps|lists?|numbered|step[\s-]by[\s-]step|"
    r"apologi[sz]\w*|disclaimers?|spoilers?|recommend\w*|suggest\w*|units?|timezone|time\s+zone|currency)\b",
    _I,
)

# Task cues: something to be done.
STRONG_TASK_RE = re.compile(r"\bremind\s+me\b|\bforget\b|\bto-?do\b", _I)
TASK_RE = re.compile(
    r"\bremind\s+me\b|\breminder\b|\bto-?do\b|\bdon't\s+(?:let\s+me\s+)?forget\b|\bdo\s+not\s+forget\b|"
    r"\bmake\s+sure\s+(?:I|to|we)\b|\bdeadline\b|\bdue\s+(?:on|by|date|next|tomorrow|today|this|in|before)\b|"
    r"\b(?:I|we)(?:'ve)?\s+(?:really\s+|still\s+|also\s+|just\s+|definitely\s+|urgently\s+)?(?:need|have|"
    r"got)\s+to\s+(?!say\b|admit\b|agree\b|tell\s+you\b|confess\b|hand\s+it\b|be\s+honest\b|laugh\b)|"
    r"\b(?:I|we)\s+must\s+(?!have\b|be\b)|\bI\s+gotta\b|\b(?:I|we)\s+should\s+(?!have\b|'ve\b|totally\b|"
    r"definitely\b|be\b)|\b(?:I'm|I\s+am|we're)\s+supposed\s+to\b|\bon\s+my\s+(?:list|to-do)\b|"
    r"\b(?:I|we)(?:'ll|\s+will)\s+(?:\w+ly\s+)?(?:send|call|email|e-mail|text|book|buy|pick\s+up|finish|"
    r"submit|pay|renew|schedule|check|fix|bring|return|get\s+back|follow\s+up|look\s+into|remind|"
    r"let\s+you\s+know|clean|cancel|order|prepare|set\s+up|update|review|share|send\s+over|drop\s+off|"
    r"file|sign|register|confirm|reply)\b|\bneeds?\s+to\s+be\s+(?:done|finished|submitted|sent|paid|"
    r"renewed|fixed)\b",
    _I,
)
DEADLINE_RE = re.compile(
    r"\b(?:by|before|until|no\s+later\s+than)\s+(?:the\s+)?(?:end\s+of|tomorrow|tonight|today|next|this|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|"
    r"nov|dec|noon|midnight)",
    _I,
)

# Past happenings without a date still make an event ("I ran a charity race").
PAST_ACTION_RE = re.compile(
    r"\b(?:I|we|(?!(?:It|That|This|There|What|Which|Who|How|Why|When|Where|Also|So|And|But)\b)[A-Z][a-z]+)"
    r"\s+(?:just\s+|finally\s+|recently\s+|also\s+|actually\s+|already\s+|even\s+|"
    r"officially\s+)?(?:went|visited|took|attended|joined|started|finished|completed|met|saw|bought|made|ran|"
    r"won|signed|painted|adopted|moved|travel+ed|got|had\s+(?:a|an|my|our|the)|gave|hosted|organi[sz]ed|"
    r"participated|volunteered|celebrated|graduated|launched|published|performed|played|baked|cooked|built|"
    r"created|wrote|read|watched|hiked|camped|climbed|swam|explored|tried|learned|learnt|received|lost|"
    r"found|quit|left|returned|came\s+back|decided|applied|passed|failed|spent|threw|held|taught|sold|drew|"
    r"planted|bumped\s+into|ran\s+into|caught\s+up|picked\s+up|signed\s+up|took\s+up|went\s+to|"
    r"(?!(?:want|need|lov|lik|hop|us|seem|plann|wish|mean|decid|tri|start|expect|intend|suppos)ed\b)"
    r"[a-z]+ed\s+(?:a|an|my|our|the|to|in|at|with|some|this|that|for|on|up|out|into|back|by))\b"
)
PAST_STATE_RE = re.compile(r"\bused\s+to\b|\bwas\s+born\b|\bgrew\s+up\b", _I)

# Topic keys: attributes a newer statement replaces rather than adds to.
PROFESSIONS = (
    "teacher|nurse|doctor|physician|engineer|developer|programmer|designer|lawyer|attorney|accountant|chef|"
    "cook|writer|author|artist|painter|musician|photographer|student|scientist|researcher|professor|"
    "counsell?or|therapist|social\\s+worker|manager|consultant|firefighter|police\\s+officer|cop|pilot|"
    "architect|pharmacist|dentist|vet|veterinarian|librarian|journalist|electrician|plumber|mechanic|"
    "carpenter|barista|waiter|waitress|bartender|cashier|salesperson|entrepreneur|freelancer|analyst|"
    "intern|paramedic|surgeon|psychologist|psychiatrist|translator|editor|actor|actress|dancer|singer|"
    "coach|trainer|farmer|soldier|data\\s+scientist|product\\s+manager|software\\s+engineer|web\\s+developer|"
    "graphic\\s+designer|real\\s+estate\\s+agent|banker|economist|mathematician|biologist|chemist|"
    "physicist|historian|tutor|principal|midwife|caregiver|ceo|cto|founder|owner|marketer|recruiter|"
    "receptionist|secretary|assistant|technician|contractor|lecturer|postdoc|phd\\s+student"
)
HOME_CITY_RE = re.compile(
    r"\b(?:I|[Ww]e)\s+(?:have\s+|had\s+|'ve\s+)?(?:just\s+|recently\s+|finally\s+|now\s+)?(?:moved|relocated)"
    r"\s+(?:back\s+)?(?:here\s+)?to\s+[A-Z]|\b(?:I|[Ww]e)\s+(?:now\s+|currently\s+|still\s+)?live\s+in\s+[A-Z]|"
    r"\b(?:I'm|I\s+am|[Ww]e're|[Ww]e\s+are)\s+(?:now\s+|currently\s+)?(?:living|based|settled)\s+in\s+[A-Z]|"
    r"\b[Mm]y\s+home\s+is\s+(?:in\s+)?[A-Z]|\b[Mm]y\s+(?:home\s+)?city\s+is\s+[A-Z]"
)
HOMETOWN_RE = re.compile(
    r"\b(?:I'm|I\s+am)\s+(?:originally\s+)?from\s+[A-Z]|\bI\s+grew\s+up\s+in\s+[A-Z]|\b[Mm]y\s+hometown\s+is\b|"
    r"\bI\s+was\s+born\s+in\s+[A-Z]"
)
JOB_RE = re.compile(
    r"\bI\s+(?:now\s+|currently\s+)?work\s+as\s+an?\b|\bmy\s+(?:job|occupation|profession|job\s+title)\s+is\b|"
    r"\bI\s+(?:just\s+)?(?:got|started|landed|accepted|took)\s+(?:a\s+|my\s+|the\s+)?(?:new\s+)?"
    r"(?:job|position|role)\s+as\b|"
    r"\b(?:I'm|I\s+am)\s+(?:now\s+|currently\s+|still\s+)?(?:working\s+as\s+)?an?\s+(?:[a-z-]+\s+){0,2}"
    r"(?:" + PROFESSIONS + r")\b(?!\s+(?:at\s+heart|friend|fan))",
    _I,
)
EMPLOYER_RE = re.compile(
    r"\bI\s+(?:now\s+|currently\s+)?work\s+(?:at|for)\s+[A-Z]|\bI\s+(?:just\s+)?(?:got|started|landed|"
    r"accepted)\s+(?:a\s+)?(?:new\s+)?(?:job|position|role)\s+(?:at|with)\s+[A-Z]|\bI\s+joined\s+[A-Z]\w+\s+as\b"
)
NAME_RE = re.compile(r"\bmy\s+(?:full\s+|first\s+)?name\s+is\b|\b(?:I'm|I\s+am)\s+called\s+[A-Z]", _I)
AGE_RE = re.compile(
    r"\b(?:I'm|I\s+am)\s+(?:\d{1,3}|[a-z]+(?:-[a-z]+)?)\s+(?:years?\s+old|yrs?\s+old|y/o)\b|"
    r"\b(?:I'm|I\s+am)\s+\d{2}(?=\s*(?:[.!,;]|$|\s+and\b|\s+now\b|\s+this\b))|\bI\s+(?:just\s+)?turned\s+\d{1,3}\b|"
    r"\bmy\s+age\s+is\b",
    _I,
)
PARTNER_RE = re.compile(
    r"\b[Mm]y\s+(?:wife|husband|partner|girlfriend|boyfriend|fianc[eé]e?|spouse)(?:'s\s+name)?\s+is\s+(?:called\s+"
    r"|named\s+)?[A-Z]|\b(?:I'm|I\s+am)\s+(?:now\s+|happily\s+)?(?:married|engaged)\s+to\s+[A-Z]|"
    r"\b(?:I'm|I\s+am)\s+(?:now\s+)?(?:dating|seeing)\s+[A-Z]"
)
RELATIONSHIP_RE = re.compile(
    r"\b(?:I'm|I\s+am)\s+(?:now\s+|happily\s+|still\s+|recently\s+)?(?:single|married|divorced|engaged|"
    r"widowed|separated)\b(?!\s+to\b)",
    _I,
)
_PETS = r"dog|cat|puppy|kitten|hamster|rabbit|bunny|parrot|horse|turtle|tortoise|snake|guinea\s+pig|ferret|lizard|goldfish"
PET_RE = re.compile(
    rf"\bmy\s+(?:\w+\s+)?(?P<animal>{_PETS})(?:'s\s+name)?\s+is\s+(?:called\s+|named\s+)?[A-Z]|"
    rf"\bI\s+(?:have|adopted|got|rescued|bought)\s+an?\s+(?:\w+\s+)?(?P<animal2>{_PETS})\s+(?:named|called)\s+[A-Z]",
    _I,
)
DIET_RE = re.compile(
    r"\b(?:I'm|I\s+am)\s+(?:now\s+|a\s+|strictly\s+|fully\s+|mostly\s+)*(?:vegetarian|vegan|pescatarian|"
    r"gluten[\s-]free|lactose[\s-]intolerant|keto|celiac|coeliac)\b|\bI\s+(?:don't|do\s+not|no\s+longer|"
    r"never|can't|cannot)\s+eat\s+(?:any\s+)?(?:meat|fish|pork|beef|dairy|gluten|animal\s+products|eggs)\b",
    _I,
)
BIRTHDAY_RE = re.compile(r"\bmy\s+birthday\s+is\b|\bI\s+was\s+born\s+on\b", _I)
STUDIES_RE = re.compile(
    r"\b(?:I'm|I\s+am)\s+(?:now\s+|currently\s+)?(?:studying|majoring\s+in|doing\s+a\s+(?:degree|phd|masters?)"
    r"\s+in)\b|\bI\s+study\s+\w|\bmy\s+major\s+is\b",
    _I,
)
FAVOURITE_RE = re.compile(
    r"\bmy\s+(?:(?:all[\s-]time|absolute|new|current|personal|top)\s+)?(?:favou?rite|fave|fav)\s+"
    r"(?P<thing>[a-z]+(?:\s+[a-z]+)?)\s+(?:is|are|has\s+(?:always\s+)?been|would\s+be|was|'s)\b|"
    r"\b(?:is|are)\s+(?:still\s+|now\s+|definitely\s+|probably\s+)?my\s+(?:(?:all[\s-]time|absolute|new)\s+)?"
    r"(?:favou?rite|fave)\s+(?P<thing2>[a-z]+(?:\s+[a-z]+)?)\b",
    _I,
)
MY_X_IS_RE = re.compile(
    r"\bmy\s+(?P<thing>[a-z]+(?:\s+[a-z]+){0,2}?)(?P<name>'s\s+name)?\s+(?:is|'s)\s+(?:now\s+)?(?P<value>\S+)",
    _I,
)
GENERIC_ATTRIBUTES = words(
    """
    name email address phone number birthday job occupation profession title role major school university
    college employer company boss manager wife husband partner girlfriend boyfriend fiance fiancee spouse
    goal dream hobby passion religion nationality zodiac sign height weight blood type shoe size
    username handle timezone team car bike language website nickname pronouns
    """
)
ATTRIBUTE_SUFFIXES = ("name", "number", "address", "size", "type", "goal", "id", "email", "handle")
SPELLING = {
    "colour": "color", "colours": "color", "flavour": "flavor", "flavours": "flavor", "favourite": "favorite",
    "theatre": "theater", "neighbour": "neighbor", "neighbourhood": "neighborhood", "jewellery": "jewelry",
    "organisation": "organization", "programme": "program", "grey": "gray", "movies": "movie",
    "films": "film", "colors": "color", "books": "book", "songs": "song", "foods": "food",
    "bands": "band", "artists": "artist", "shows": "show", "sports": "sport", "games": "game",
    "authors": "author", "cities": "city", "countries": "country", "animals": "animal",
    "drinks": "drink", "snacks": "snack", "flowers": "flower", "genres": "genre", "places": "place",
}  # fmt: skip
NEGATION_RE = re.compile(
    r"\b(?:not|no\s+longer|never|don't|doesn't|didn't|isn't|wasn't|aren't|anymore)\b", _I
)

AGENT_TOPICS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("agent.address_as", re.compile(r"\b(?:call|address)\s+me\b|\bmy\s+(?:first\s+)?name\b", _I)),
    ("agent.emoji", re.compile(r"\bemojis?\b|\bemoticons\b|\bsmileys?\b", _I)),
    (
        "agent.language",
        re.compile(
            r"\b(?:in|speak|use|switch\s+to|answer\s+in|reply\s+in)\s+(?:english|french|spanish|german|italian|"
            r"portuguese|japanese|chinese|mandarin|korean|dutch|russian|arabic|hindi|polish|swedish|turkish)\b"
            r"|\blanguage\b",
            _I,
        ),
    ),
    (
        "agent.format",
        re.compile(
            r"\bbullet|\bmarkdown\b|\btables?\b|\bjson\b|\bheadings?\b|\bheaders?\b|\bnumbered\b|"
            r"\bplain\s+text\b|\bcode\s+blocks?\b|\bformat\w*\b|\blists?\b|\bparagraphs?\b",
            _I,
        ),
    ),
    (
        "agent.length",
        re.compile(
            r"\bconcise\b|\bbrief\w*\b|\bshort\w*\b|\blong\w*\b|\bdetailed\b|\bverbose\b|\bsuccinct\b|"
            r"\bwordy\b|\bone\s+sentence\b|\bto\s+the\s+point\b|\blength\b",
            _I,
        ),
    ),
    (
        "agent.tone",
        re.compile(
            r"\btone\b|\bformal\b|\binformal\b|\bcasual\w*\b|\bfriendly\b|\bprofessional\b|\bpolite\b|"
            r"\bfunny\b|\bhumou?r\b|\bsarcas\w*\b|\bserious\b|\bwarm\b|\benthusiastic\b|\bblunt\b|"
            r"\bdirect\b|\bjokes?\b|\bcheerful\b",
            _I,
        ),
    ),
    ("agent.units", re.compile(r"\bmetric\b|\bimperial\b|\bcelsius\b|\bfahrenheit\b|\bunits?\b", _I)),
)

# Summary rewriting: first and second person to names.
MODALS = words(
    "can could will would shall should may might must can't couldn't won't wouldn't shouldn't mustn't 'll 'd"
)
ADVERBS = words(
    """
    really also just never always still usually often sometimes actually totally absolutely definitely
    recently finally even already only mostly rarely kinda truly honestly seriously literally basically
    officially now currently personally genuinely certainly probably
    """
)
IRREGULAR_PAST = words(
    """
    went was were had did got made took saw met ran began came bought found felt left lost thought told wrote
    said knew gave won spent sent built taught caught brought heard kept slept drove flew swam sang ate
    drank sat stood understood became chose forgot grew paid sold threw wore broke fell held led rode shook
    stole struck tore woke drew hid fed fought hung lit meant quit shut split spread stuck swept swore
    wept withdrew sought dealt shot arose awoke bore beat bent bit blew bred burst clung crept dug dove
    dreamt fled flung forbade forgave froze knelt laid leapt lent lay mistook overcame rang rose sank shone
    shrank slid smelt sped spun spat sprang stank stung strove swung trod underwent wound wrung put cut hit
    let set hurt cost read cast been gone done seen known given taken eaten driven written
    ridden spoken broken chosen forgotten frozen stolen woken grown shown thrown flown drawn worn torn
    begun sung swum drunk rung
    """
)
THIRD_PERSON = {
    "am": "is", "have": "has", "do": "does", "don't": "doesn't", "haven't": "hasn't", "go": "goes",
    "are": "is", "aren't": "isn't", "was": "was", "were": "was", "weren't": "wasn't",
}  # fmt: skip


# ---------------------------------------------------------------- sentences, persons, summaries, context

YES_NO_RE = re.compile(
    r"^(?:yes|yeah|yep|yup|no|nope|nah|not\s+yet|definitely|of\s+course|sure|absolutely|totally|kind\s+of|sort\s+of)\b",
    _I,
)
AUX_QUESTION_RE = re.compile(
    r"^(?:\w+[,!]?\s+)?(?:do|does|did|have|has|are|is|was|were|can|could|will|would|should)\s+(?:you|u|ya)\b",
    _I,
)
DEPENDENT_START = words(
    "it it's its that that's this they they're them he she he's she's his her their there so and but which "
    "too also plus both those these"
)
YOU_RE = re.compile(r"\b(?:you|your|you're|you've|u)\b", _I)
FIRST_PERSON_RE = re.compile(r"\b(?:I|I'm|I've|I'd|we|we're|we've|my|our|us)\b", _I)
CONTRACTIONS_I = {"i'm": "{} is", "i've": "{} has", "i'll": "{} will", "i'd": "{} would"}
CONTRACTIONS_YOU = {"you're": "{} is", "you've": "{} has", "you'll": "{} will", "you'd": "{} would"}
INVERTED = {
    "are": "is", "were": "was", "have": "has", "do": "does", "aren't": "isn't", "weren't": "wasn't",
    "haven't": "hasn't", "don't": "doesn't",
}  # fmt: skip
SUBJECT_BEFORE = words("and but so because when if that then while though although or as since")
MONTH_WORD_RE = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b", _I)
DATE_PREPOSITION_RE = re.compile(r"\b(?:on|by|until|till|before|after|since|from)$", _I)
# A clause that ends in a copula ("first day was …", "the party is …"): its time phrase is its complement.
COPULA_END_RE = re.compile(r"\b(?:is|was|were|are|be|been|'s|’s)$", _I)
PHOTO_OF_RE = re.compile(r"^(?:a|an)\s+(?:photo|picture|image|pic|snapshot|screenshot)\s+of\s+", _I)
REFERENT_RE = re.compile(r"\b(?:it|its|them|they|this|that|there|these|those|one|he|she|him|her)\b", _I)
# What a topic key's attribute is asked as ("What does Tom do for a living?" → user.job).
SLOT_WORDS = {
    "job": "job work career occupation profession living", "employer": "work job company employer",
    "home_city": "live lives city home town moved", "hometown": "hometown grew born from",
    "partner": "partner relationship", "relationship_status": "relationship partner single dating",
    "age": "age old years", "diet": "diet eat food", "birthday": "birthday born",
    "studies": "study studies school university degree course", "name": "name called",
}  # fmt: skip
# "…, and I …" / "… but my …": where one sentence starts a second statement with its own subject.
CLAUSE_BREAK_RE = re.compile(
    r"\s*(?:,\s*|;\s*)?\b(?:and|but|plus|also)\s+(?=(?:I|I'm|I've|I'll|I'd|my|we|we're|our)\b)|;\s+",
    _I,
)
# A clause that points back at the other one ("… and I love it there") is not a statement of its own.
BACK_REFERENCE_RE = re.compile(r"\b(?:it|it's|there|them|that|this|those|these|one)\b", _I)
# Imperatives that set a standing rule even unaddressed ("Never use emoji"); other imperatives need a cue
# that the agent is meant ("Explain it to me"), else between friends they are advice.
# A standing condition put to the agent: what it should do whenever it does something ("when you write code
# for me use typescript", "keep in mind I'm colorblind when you suggest colours"), or a habit of its answers
# asked to stop ("can you stop starting every answer with…"). Read only where no named friend speaks.
STANDING_CONDITION_RE = re.compile(
    r"\bwhen(?:ever)?\s+you(?:'re)?\s+(?!were\b|was\b|have\s+a\b|get\s+a\s+chance\b)\w+"
    r"|^(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:stop|quit)\s+\w+ing\b",
    _I,
)
STANDING_RULE_VERBS = frozenset({"always", "never", "don't", "do not", "stop", "avoid", "only", "no more"})
# Words a favourite's thing may end on that are not part of it ("my favourite colour is" → colour).
FAVOURITE_TRAILING = words("is are was of")
# Replaceable attributes of a person, by the pattern that states one, in the order they are tried.
PERSON_TOPICS: tuple[tuple[re.Pattern[str], str], ...] = (
    (NAME_RE, "name"),
    (HOME_CITY_RE, "home_city"),
    (HOMETOWN_RE, "hometown"),
    (PARTNER_RE, "partner"),
    (EMPLOYER_RE, "employer"),
    (JOB_RE, "job"),
    (AGE_RE, "age"),
    (RELATIONSHIP_RE, "relationship_status"),
    (DIET_RE, "diet"),
    (BIRTHDAY_RE, "birthday"),
    (STUDIES_RE, "studies"),
)
# Words that stay as they are after a third-person subject ("User too", "User gonna …").
NO_THIRD_PERSON = words("too myself alone both all gotta gonna wanna")
# The agent's "your X" about the user, read as the user's own words for topic detection.
TO_FIRST_PERSON = {"your": "my", "you're": "I'm", "you": "I", "yours": "mine"}
SECOND_PERSON_RE = re.compile(r"\b(?:your|you're|yours|you)\b", _I)
# Conjunctions that may join two statements in one sentence (checked before CLAUSE_BREAK_RE runs).
CLAUSE_JOINERS = ("and", "but", "plus", "also")
# Verb endings that take "-es" in the third person ("watch" → "watches").
ES_ENDINGS = ("s", "x", "z", "ch", "sh", "o")
# Words that start a new person (no conjugation after them); "your" forms the addressee's possessive.
PERSON_WORDS = words("i you my your")
SECOND_PERSON_POSSESSIVES = words("your yours ur")

# A state since a time ("ever since May"): the time starts it, it does not date it.
SINCE_RE = re.compile(
    r"\b(?:ever\s+)?since\s+(?:the\s+)?(?:\d|[A-Za-z]+\s+\d{4}\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)",
    re.IGNORECASE,
)

# Words only English uses among the languages written in Latin script here (not "a", "on", "me", "die").
ENGLISH_WORDS = frozenset(
    [
        "the",
        "is",
        "are",
        "was",
        "were",
        "to",
        "of",
        "and",
        "it",
        "it's",
        "that",
        "this",
        "with",
        "for",
        "you",
        "i",
        "i'm",
        "my",
        "we",
        "be",
        "have",
        "has",
        "had",
        "just",
        "so",
        "what",
        "how",
        "not",
        "from",
        "your",
        "at",
        "by",
        "will",
        "would",
        "can",
        "do",
        "did",
        "does",
        "been",
        "there",
        "they",
        "he",
        "she",
        "but",
        "or",
        "if",
        "about",
        "like",
        "im",
        "lol",
        "omg",
        "tbh",
        "ngl",
        "btw",
        "brb",
        "gtg",
        "idk",
        "imo",
        "pls",
        "u",
        "ur",
    ]
)

# The offline session summary (`app.sessions.summariser`): a sentence that is only chatter, and one that
# leaves something open.
CHATTER_RE = re.compile(
    r"^(hi|hello|hey|thanks|thank you|ok|okay|sure|great|cool|got it|sounds good|you're welcome|bye)\b[\s!.,]*$",
    re.IGNORECASE,
)
OPEN_MARKERS_RE = re.compile(
    r"\b(todo|to do|need to|needs to|have to|must|should|next step|next|remind|pending|follow up|later|"
    r"not yet|still)\b",
    re.IGNORECASE,
)

# Capitalised words that introduce a line but are labels, not people.
LABELS = frozenset(
    re.split(
        r"\s+",
        "note notes ps p.s update reminder todo to-do question answer q a re fwd subject warning "
        "important edit tip summary example step task action deadline instruction instructions rule fact "
        "event date time location address email phone agenda goal goals context background error hint "
        "disclaimer correction status result results output input me us source sources link url http "
        "https fyi btw nb tl;dr tldr also and but so quick reminder side note fun fact pro tip new update",
    )
)
