"""Related words for query expansion: a question names a category ("what vehicle", "do for a living"),
the conversation names the instance ("a 1978 Vespa", "I'm a nurse"). Plain words; PostgreSQL stems them.

Keys are lower-case question words (plural `s` stripped before lookup); values are what might stand for
them in a conversation. Kept small and general: these weigh far less than the question's own words.
"""

from __future__ import annotations

_JOBS = (
    "job work career engineer developer programmer nurse teacher doctor manager designer lawyer accountant "
    "chef cook electrician plumber midwife scientist researcher professor consultant analyst architect "
    "mechanic firefighter paramedic therapist pharmacist barista baker writer artist photographer "
    "student intern promotion hired office company"
)
_PARTNER = "boyfriend girlfriend husband wife partner fiance fiancee dating married wedding engaged"
_HEALTH = "hospital doctor surgery operation er emergency physio injury injured broke stroke sick diagnosis"

RELATED: dict[str, str] = {
    "job": _JOBS, "work": _JOBS, "living": _JOBS, "career": _JOBS, "occupation": _JOBS,
    "profession": _JOBS, "employ": _JOBS, "employed": _JOBS, "employer": "company firm office work",
    "vehicle": "car scooter moped motorcycle motorbike bike bicycle truck van suv",
    "car": "car scooter truck van suv drive",
    "pet": "dog cat puppy kitten hamster rabbit parrot",
    "animal": "dog cat puppy kitten hamster rabbit parrot horse",
    "dog": "puppy retriever labrador terrier poodle beagle spaniel collie shepherd husky rescue",
    "cat": "kitten tabby rescue",
    "sport": "running marathon football soccer tennis basketball swimming climbing cycling yoga gym hiking",
    "exercise": "running marathon gym yoga swimming cycling climbing",
    "hobby": "painting pottery reading hiking gardening cooking baking photography knitting climbing guitar",
    "instrument": "guitar piano violin drums cello flute saxophone ukulele",
    "music": "song band concert album guitar piano",
    "book": "novel author read reading",
    "married": _PARTNER, "marry": _PARTNER, "wedding": _PARTNER, "engaged": _PARTNER, "spouse": _PARTNER,
    "partner": _PARTNER, "relationship": _PARTNER, "dating": _PARTNER, "single": _PARTNER,
    "kid": "son daughter twins baby boys girls children",
    "child": "son daughter twins baby boys girls kids",
    "children": "son daughter twins baby boys girls kids",
    "family": "mom mum dad mother father sister brother parents grandmother grandma grandfather grandpa",
    "parent": "mom mum dad mother father",
    "city": "town live lives moved home",
    "live": "city town moved home apartment house",
    "hometown": "grew born city town",
    "health": _HEALTH, "sick": _HEALTH, "ill": _HEALTH, "injury": _HEALTH, "medical": _HEALTH,
    "emergency": "er hospital ambulance",
    "trip": "travel flight flew visit vacation holiday",
    "travel": "trip flight flew visit vacation holiday",
    "vacation": "trip holiday travel beach",
    "holiday": "trip vacation travel beach",
    "food": "eat cook dinner restaurant dish vegetarian vegan",
    "diet": "vegetarian vegan meat eat",
    "house": "apartment flat bungalow cottage home",
    "study": "school university college degree course class",
    "school": "university college degree course class",
    "education": "school university college degree course class study",
    "gift": "present gave bought",
    "birthday": "birthday turns born",
    "furniture": "table chair desk shelf bed sofa bench",
    "friend": "friends buddy mate",
}  # fmt: skip


def related_words(words: set[str]) -> str:
    """The related words of a question's raw words, as one string for PostgreSQL to stem."""
    out: list[str] = []
    for word in sorted(words):
        found = RELATED.get(word) or (RELATED.get(word[:-1]) if word.endswith("s") else None)
        if found:
            out.append(found)
    return " ".join(out)
