"""Shared pieces of the speed benchmarks: a real server in a subprocess on a throw-away database,
a lean keep-alive HTTP client for load loops, percentiles and a table printer.

Not run on its own; see bench/bench_memory_core.py and bench/bench_recall.py. Everything talks to
127.0.0.1 only: the local PostgreSQL (AGENT_MEMORY_BENCH_SERVER_URL, default
postgresql://postgres@127.0.0.1:5432/test) and the server this module starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import random
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import httpx

ROOT = Path(__file__).resolve().parents[1]
AGENT_MEMORY = ROOT / ".venv" / "bin" / "agent-memory"
SERVER_URL = os.environ.get("AGENT_MEMORY_BENCH_SERVER_URL", "postgresql://postgres@127.0.0.1:5432/test")
ADMIN_KEY = "amk_benchadmin_" + secrets.token_hex(16)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def with_database(url: str, database: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path="/" + database))


async def create_database(prefix: str = "bench") -> tuple[str, str]:
    """A fresh database on the local server; returns (name, libpq URL)."""
    name = f"{prefix}_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(SERVER_URL)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return name, with_database(SERVER_URL, name)


async def drop_database(name: str) -> None:
    admin = await asyncpg.connect(SERVER_URL)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


@dataclass
class Server:
    """`agent-memory serve` as a subprocess, its stderr kept in a file for when it dies."""

    env: dict[str, str]
    worker: bool = True
    extra_args: list[str] = field(default_factory=list)
    # The working directory: `serve --workers N` starts its API processes with it first on their sys.path,
    # so a checkout served through PYTHONPATH must be served from its own directory as well.
    cwd: Path = ROOT
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    log_path: Path | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def spawn(self) -> float:
        """Start the process; returns the monotonic time it was spawned."""
        args = [str(AGENT_MEMORY), "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        if not self.worker:
            args.append("--no-worker")
        args.extend(self.extra_args)
        env = {**os.environ, "AGENT_MEMORY_LOG_LEVEL": "WARNING", "AGENT_MEMORY_ADMIN_KEY": ADMIN_KEY}
        env.update(self.env)
        self.log_path = Path(f"/tmp/agent-memory-bench-{self.port}.log")
        log = self.log_path.open("wb")
        started = time.monotonic()
        self.process = subprocess.Popen(args, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=self.cwd)
        log.close()
        return started

    async def wait_ready(self, timeout: float = 60.0) -> float:
        """Poll /readyz until 200; returns the monotonic time it first answered ready."""
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(base_url=self.base_url, timeout=2.0) as client:
            while time.monotonic() < deadline:
                if self.process is not None and self.process.poll() is not None:
                    raise RuntimeError(f"server exited with {self.process.returncode}:\n{self.log_tail()}")
                with contextlib.suppress(httpx.TransportError):
                    if (await client.get("/readyz")).status_code == 200:
                        return time.monotonic()
                await asyncio.sleep(0.02)
        raise TimeoutError(f"server not ready after {timeout}s:\n{self.log_tail()}")

    def log_tail(self, lines: int = 30) -> str:
        if self.log_path is None or not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def stop(self, timeout: float = 15.0) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@contextlib.asynccontextmanager
async def bench_database(keep: bool, prefix: str = "bench") -> AsyncIterator[str]:
    """A fresh database for one benchmark run, dropped at the end unless `keep`."""
    name, url = await create_database(prefix)
    print(f"database {name} on {urlsplit(SERVER_URL).netloc}")
    try:
        yield url
    finally:
        if keep:
            print(f"kept database {name}")
        else:
            await drop_database(name)


@contextlib.asynccontextmanager
async def running_server(
    database_url: str,
    *,
    worker: bool = True,
    extra_args: Sequence[str] = (),
    env: dict[str, str] | None = None,
    cwd: Path = ROOT,
) -> AsyncIterator[Server]:
    """`agent-memory serve` on `database_url` until the block ends; `env`: more environment for it, `cwd`:
    the directory it runs in."""
    server = Server(
        env={"AGENT_MEMORY_DATABASE_URL": database_url, **(env or {})},
        worker=worker,
        extra_args=list(extra_args),
        cwd=cwd,
    )
    server.spawn()
    try:
        # Generous: on a shared machine under heavy load, starting two API processes and a worker took over 60 s.
        await server.wait_ready(timeout=300)
        yield server
    finally:
        server.stop()


async def scoped_key(server: Server, namespace: str) -> str:
    """Create the namespace and a key scoped to it, as an agent deployment would use."""
    async with httpx.AsyncClient(
        base_url=server.base_url, headers={"Authorization": f"Bearer {ADMIN_KEY}"}, timeout=30
    ) as client:
        created = await client.post("/v1/namespaces", json={"name": namespace})
        assert created.status_code in (201, 409), created.text
        key = await client.post(f"/v1/namespaces/{namespace}/keys", json={"name": "bench"})
        assert key.status_code == 201, key.text
        return str(key.json()["key"])


class LeanClient:
    """One keep-alive HTTP/1.1 connection with next to no client-side work per request.

    The load generator shares the two cores with the server and PostgreSQL; httpx spends a few hundred
    microseconds of CPU per request, which at 1,000+ requests/s would be measured as server time. This
    speaks just enough HTTP for JSON requests to our own server (Content-Length bodies, no chunking).
    """

    def __init__(self, port: int, key: str | None) -> None:
        self.port = port
        auth = f"Authorization: Bearer {key}\r\n" if key else ""
        self._headers = f"Host: 127.0.0.1\r\n{auth}Content-Type: application/json\r\n"
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

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


def print_table(title: str, headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    cells = [[_cell(v) for v in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(headers)]
    print(f"\n{title}")
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for row in cells:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))
    sys.stdout.flush()


def _cell(value: Any) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return "-"
        return f"{value:,.2f}" if abs(value) < 100 else f"{value:,.0f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


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
