"""Shared pieces of the load benchmarks: a lean keep-alive HTTP client for load loops, percentiles, and
realistic generated text (memories, chat turns, questions). The database and the server come from
bench/harness.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import random
from collections.abc import Sequence
from typing import Any


class LeanClient:
    """One keep-alive HTTP/1.1 connection with next to no client-side work per request.

    The load generator shares the two cores with the server and PostgreSQL; httpx spends a few hundred
    microseconds of CPU per request, which at 1,000+ requests/s would be measured as server time. This
    speaks just enough HTTP for JSON requests to our own server (Content-Length bodies, no chunking).
    """

    def __init__(self, port: int, key: str | None, headers: dict[str, str] | None = None) -> None:
        self.port = port
        self._extra = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
        self.use_key(key)
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    def use_key(self, key: str | None) -> None:
        """The key the next requests send (None: none)."""
        auth = f"Authorization: Bearer {key}\r\n" if key else ""
        self._headers = f"Host: 127.0.0.1\r\n{auth}{self._extra}Content-Type: application/json\r\n"

    async def connect(self) -> None:
        self._reader, self._writer = await asyncio.open_connection("127.0.0.1", self.port)

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(Exception):
                await self._writer.wait_closed()

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, bytes]:
        payload = b"" if body is None else json.dumps(body, separators=(",", ":")).encode()
        return await self.request_bytes(method, path, payload)

    async def request_bytes(self, method: str, path: str, payload: bytes) -> tuple[int, bytes]:
        """A request whose JSON body is already encoded (large bodies sent many times, e.g. ingest)."""
        if self._writer is None or self._reader is None:
            await self.connect()
        assert self._writer is not None and self._reader is not None
        head = f"{method} {path} HTTP/1.1\r\n{self._headers}Content-Length: {len(payload)}\r\n\r\n"
        self._writer.write(head.encode() + payload)
        raw = await self._reader.readuntil(b"\r\n\r\n")
        status = int(raw[9:12])
        length = 0
        for line in raw.split(b"\r\n"):
            if line[:15].lower() == b"content-length:":
                length = int(line[15:])
                break
        data = await self._reader.readexactly(length) if length else b""
        return status, data


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (p in 0–100) of unsorted values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


# -- realistic text ------------------------------------------------------------------------------
# Word lists for generated conversations and memories: enough distinct names, places and activities
# that a full-text term matches a realistic sliver of a profile, not half of it or nothing.

# fmt: off
NAMES = [
    "Maria", "Ana", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonas",
    "Kemal", "Lena", "Marco", "Nadia", "Oscar", "Priya", "Quentin", "Rosa", "Samir", "Tara", "Umar",
    "Vera", "Wen", "Ximena", "Yusuf", "Zoe", "Aiden", "Bianca", "Carlos", "Daria", "Emeka", "Fatima",
    "Gustav", "Hana", "Ivan", "Julia", "Kofi", "Laura", "Mateo", "Nina", "Olga", "Pablo", "Rania",
    "Sven", "Tomas", "Uma", "Viktor", "Wanda", "Yara", "Amir", "Beatriz", "Caroline", "Melanie",
    "Daniel", "Esther", "Felix", "Gloria", "Hugo", "Irene", "Jamal", "Karin", "Leo", "Mona", "Nils",
    "Omar", "Paula", "Rafael", "Sofia", "Theo", "Ulla", "Valentina", "Walter", "Xavier", "Yuki",
    "Zara", "Abel", "Bea", "Cyrus", "Dora", "Eli"
]
PLACES = [
    "Lisbon", "Porto", "Madrid", "Seville", "Paris", "Lyon", "Marseille", "Berlin", "Munich",
    "Hamburg", "Vienna", "Prague", "Warsaw", "Krakow", "Budapest", "Athens", "Rome", "Milan", "Naples",
    "Florence", "Venice", "Oslo", "Bergen", "Stockholm", "Copenhagen", "Helsinki", "Dublin",
    "Edinburgh", "London", "Manchester", "Leeds", "Amsterdam", "Rotterdam", "Brussels", "Zurich",
    "Geneva", "Istanbul", "Cairo", "Nairobi", "Lagos", "Accra", "Dakar", "Casablanca", "Tunis",
    "Dubai", "Mumbai", "Delhi", "Bangalore", "Colombo", "Bangkok", "Hanoi", "Singapore", "Jakarta",
    "Manila", "Tokyo", "Kyoto", "Osaka", "Seoul", "Busan", "Beijing", "Shanghai", "Sydney",
    "Melbourne", "Perth", "Auckland", "Toronto", "Montreal", "Vancouver", "Quebec", "Chicago",
    "Boston", "Denver", "Seattle", "Austin", "Miami", "Lima", "Bogota", "Quito", "Santiago",
    "Montevideo", "Havana", "Tbilisi", "Yerevan", "Almaty", "Reykjavik", "Tallinn", "Riga", "Vilnius"
]
ACTIVITIES = [
    "hiking", "swimming", "painting", "pottery", "rock climbing", "salsa dancing", "baking sourdough",
    "playing the cello", "learning Japanese", "running a half marathon", "birdwatching", "kayaking",
    "knitting", "chess", "photography", "gardening", "cycling", "yoga", "surfing", "camping",
    "woodworking", "singing in a choir", "playing tennis", "sketching", "writing poetry",
    "volunteering at the shelter", "fishing", "skiing", "playing the guitar", "reading mysteries",
    "brewing beer", "making pasta", "playing basketball", "learning Spanish", "sailing",
    "skateboarding", "bouldering", "stand-up paddling", "playing the piano", "watching old films",
    "trail running", "cooking curry", "calligraphy", "astronomy", "scuba diving", "ice skating",
    "horse riding", "fencing", "meditation", "origami"
]
RELATIONS = [
    "sister", "brother", "mother", "father", "cousin", "aunt", "uncle", "daughter", "son",
    "grandmother", "grandfather", "neighbour", "colleague", "boss", "friend", "roommate", "partner",
    "husband", "wife", "mentor"
]
JOBS = [
    "nurse", "teacher", "software engineer", "architect", "chef", "carpenter", "lawyer", "pharmacist",
    "journalist", "electrician", "accountant", "veterinarian", "pilot", "firefighter",
    "graphic designer", "dentist", "librarian", "photographer", "physiotherapist", "translator",
    "social worker", "baker", "marine biologist", "data analyst"
]
THINGS = [
    "bike", "camera", "guitar", "laptop", "passport", "sofa", "tent", "kayak", "telescope", "car",
    "piano", "blender", "backpack", "running shoes", "winter coat", "sewing machine", "drone",
    "espresso machine", "keyboard", "sketchbook"
]
FOODS = [
    "sushi", "tacos", "ramen", "paella", "lasagna", "pho", "falafel", "dumplings", "curry", "pizza",
    "risotto", "empanadas", "pierogi", "shakshuka", "bibimbap", "moussaka", "ceviche", "goulash",
    "pad thai", "jollof rice"
]
PETS = [
    "dog", "cat", "parrot", "rabbit", "hamster", "turtle", "horse", "goldfish"
]
PET_NAMES = [
    "Max", "Luna", "Bella", "Charlie", "Milo", "Coco", "Rocky", "Daisy", "Simba", "Nala", "Oreo",
    "Pepper", "Biscuit", "Ziggy"
]
MONTHS = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
    "November", "December"
]
WEEKDAYS = [
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"
]
# fmt: on
CHITCHAT = (
    "Hey, how are you?",
    "Thanks, that's really helpful!",
    "Haha, that's funny.",
    "Good morning!",
    "Okay, sounds good.",
    "What do you think?",
    "Sure, I can help with that.",
    "That sounds wonderful!",
    "Got it, thanks.",
    "See you later!",
)


def memory_statement(rng: Any, i: int) -> tuple[str, str, str, str | None]:
    """One statement as the extractor would store it: (type, summary, content, topic_key).

    `i` makes every statement distinct (content is unique per profile in the schema).
    """
    name, name2 = rng.choice(NAMES), rng.choice(NAMES)
    place, act = rng.choice(PLACES), rng.choice(ACTIVITIES)
    rel, job, thing, food = rng.choice(RELATIONS), rng.choice(JOBS), rng.choice(THINGS), rng.choice(FOODS)
    month, day = rng.choice(MONTHS), rng.choice(WEEKDAYS)
    n = i % 97 + 2
    roll = rng.random()
    if roll < 0.12:
        content = f"My {rel} {name} works as a {job} in {place} and has done so for {n} years."
        summary = f"User's {rel} {name} works as a {job} in {place}"
        return "fact", summary, content, None
    if roll < 0.22:
        content = f"I have a {rng.choice(PETS)} named {rng.choice(PET_NAMES)} who loves {act} with me, since {n} weeks."
        summary = content.replace("I have", "User has").replace(" me,", " User,")
        return "fact", summary, content, None
    if roll < 0.32:
        content = f"I really love {food}, especially the one from the little place near {place} ({n})."
        return "fact", f"User loves {food}, especially from a place near {place}", content, None
    if roll < 0.42:
        content = f"I've been into {act} for {n} months now, usually with {name} on {day}s."
        return "fact", f"User has been into {act} for {n} months, with {name} on {day}s", content, None
    if roll < 0.47:
        content = f"I live in {place} now, near the old {rng.choice(['harbour', 'market', 'station', 'park'])} ({n})."
        return "fact", f"User lives in {place}", content, "user.home_city"
    if roll < 0.62:
        content = f"Last {day} I went {act} with {name} in {place} and it was amazing ({n})."
        return "event", f"User went {act} with {name} in {place}", content, None
    if roll < 0.72:
        content = f"On {n % 28 + 1} {month} {name} and I are flying to {place} for {name2}'s wedding."
        return (
            "event",
            f"User and {name} fly to {place} for {name2}'s wedding on {n % 28 + 1} {month}",
            content,
            None,
        )
    if roll < 0.80:
        content = f"Yesterday I bought a new {thing} for {n * 10} euros at a shop in {place}."
        return "event", f"User bought a new {thing} for {n * 10} euros in {place}", content, None
    if roll < 0.90:
        content = f"I need to call {name} about the {thing} before {day}, reminder number {n}."
        return "task", f"User needs to call {name} about the {thing} before {day}", content, None
    style = rng.choice(
        [
            "answer in short bullet points",
            "mention prices in euros",
            "avoid jargon",
            "use metric units",
            "greet me by my first name",
            "suggest vegetarian options",
            "keep replies under 100 words",
        ]
    )
    content = f"Please always {style} when we talk about {act} ({n})."
    return "instruction", f"Always {style} when talking about {act}", content, None


def chat_message(rng: Any, i: int) -> tuple[str, str]:
    """One chat turn (role, content): mostly informative user statements, some chit-chat and replies."""
    roll = rng.random()
    if roll < 0.15:
        return rng.choice(("user", "assistant")), rng.choice(CHITCHAT)
    if roll < 0.40:
        name, place, act = rng.choice(NAMES), rng.choice(PLACES), rng.choice(ACTIVITIES)
        return "assistant", rng.choice(
            (
                f"That sounds lovely! How did {name} like {place}?",
                f"Great that you keep up with {act}. Do you go every week?",
                f"Noted. I'll keep that in mind next time we talk about {place}.",
                f"What was the best part of {act} with {name}?",
            )
        )
    _, _, content, _ = memory_statement(rng, i)
    return "user", content


def ingest_batch(seed: int, size: int) -> bytes:
    """A `size`-message conversation's `messages` array, encoded once; each request gives it a new
    session, so every message is new (a message's identity includes its session)."""
    rng = random.Random(seed)
    messages = [dict(zip(("role", "content"), chat_message(rng, i), strict=True)) for i in range(size)]
    return json.dumps(messages, separators=(",", ":")).encode()


def recall_question(rng: Any) -> str:
    """A question of the kind an agent asks its memory."""
    name, place, act = rng.choice(NAMES), rng.choice(PLACES), rng.choice(ACTIVITIES)
    rel, thing, food = rng.choice(RELATIONS), rng.choice(JOBS), rng.choice(FOODS)
    return str(
        rng.choice(
            (
                f"Where did I go {act} with {name}?",
                f"What does my {rel} do for work?",
                f"When am I flying to {place}?",
                f"How much did my new {rng.choice(THINGS)} cost?",
                f"Who do I usually go {act} with?",
                f"What do I need to tell {name}?",
                "Which city do I live in?",
                f"Do I like {food}?",
                f"Who works as a {thing}?",
                f"What did I do in {place} last week?",
                f"How should you format your answers about {act}?",
                "What pets do I have?",
            )
        )
    )
