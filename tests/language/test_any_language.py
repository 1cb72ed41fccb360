"""Memory in any language, end to end: ingest through HTTP, the worker's real loop, recall through HTTP; and
the same on the embedded server (`agent-memory serve` with nothing configured), whose PostgreSQL has no
extension either.

Each statement is a memory with its text intact and its summary not rewritten into English forms, and a
question in the same language finds it in the top 3.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

from app.core.dates import format_date
from app.language.detect import detect, detect_conversation
from app.worker.runner import Worker
from bench.harness import free_port
from tests.test_serve_embedded import _embedded

# (statement, questions that must find it in the top 3, type it is stored as); a statement in another
# language than English is its own summary, an English one is summarised by the English rules.
ROUND_TRIPS = [
    ("我下个月要去东京出差，住在新宿的酒店。", ["东京出差住在哪里？", "新宿"], "event"),
    ("来月、大阪の友達の結婚式に行きます。", ["結婚式はどこですか？"], "event"),
    ("Me encanta el sushi, sobre todo el de salmón.", ["¿Le gusta el sushi de salmón?", "sushi"], "fact"),
    ("Mein Bruder Tiago wohnt in Berlin.", ["Wo wohnt Tiagos Bruder?", "Where does Tiago live?"], "fact"),
    ("Ma sœur Claire travaille comme infirmière à Lyon.", ["Où travaille Claire ?"], "fact"),
    ("My favourite emoji is 🦄", ["🦄"], "fact"),
]
# Other statements of the same profile, so the questions have something to choose from.
OTHERS = [
    "I moved to Lisbon last year and I work as a nurse.",
    "Mi perro se llama Toby y tiene tres años.",
    "Ich spiele jeden Samstag Fußball mit meinen Kollegen.",
    "我妈妈住在上海，她喜欢做饭。",
    "Nous avons acheté une maison près de la mer.",
    "Mis hermanos viven en Valencia desde hace años.",
]


def _summarises(summary: str, statement: str) -> bool:
    if detect(statement).english:
        return summary == "User's favourite emoji is 🦄"
    return summary == statement  # verbatim: no English pronoun rewriting


def _ids_found(result: dict[str, object]) -> list[str]:
    candidates = result["candidates"]
    assert isinstance(candidates, list)
    return [c["id"] for c in candidates[:3]]


def test_detection_reads_script_first_and_stays_english_when_unsure() -> None:
    assert detect("我下个月要去东京出差，住在新宿的酒店。").config == "simple"
    assert detect("来月、大阪に行きます。").code == "ja"
    assert detect("서울에 살아요").code == "ko"
    assert detect("Mein Bruder Tiago wohnt in Berlin.").config == "german"
    assert detect("Me encanta el sushi, sobre todo el de salmón.").config == "spanish"
    assert detect("Ma sœur Claire travaille comme infirmière à Lyon.").config == "french"
    # Short English replies stay English, whatever the model guesses.
    for text in ("ok", "haha same", "Nice", "Leeds??", "Ha! Accurate.", "🦄", "My favourite emoji is 🦄"):
        assert detect(text).english, text


def test_a_message_its_words_do_not_place_is_read_in_its_conversations_language() -> None:
    spanish = [
        "Mi marido Javier y yo vivimos en Valencia desde hace años.",
        "Javier no come pescado.",
        "Sí, claro.",
    ]
    assert detect("Javier no come pescado.").english  # alone, the model is unsure
    assert [language.code for language in detect_conversation(spanish)] == ["es", "es", "es"]
    # In an English conversation, what is unsure stays English; what is sure keeps its own language.
    english = ["We moved to Leeds last spring.", "Leeds??", "Me encanta el sushi, sobre todo el de salmón."]
    assert [language.code for language in detect_conversation(english)] == ["en", "en", "es"]


async def test_a_short_message_is_indexed_in_its_conversations_language(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    messages = [
        {"role": "user", "content": text, "timestamp": "2026-03-10T09:00:00Z"}
        for text in ("Mi marido Javier y yo vivimos en Valencia desde hace años.", "Javier no come pescado.")
    ]
    response = await client.post(f"{profile_url}/ingest", json={"sessionId": "s1", "messages": messages})
    assert response.status_code == 202, response.text
    await worker.drain()
    # Read in Spanish, "come" is the lexeme "com" the question searches for; read as English, "come".
    hits = (await client.get(f"{profile_url}/search", params={"q": "qué come Javier"})).json()
    assert [h["content"] for h in hits["results"]] == ["Javier no come pescado."], hits


async def test_round_trip_in_every_language(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    messages = [
        {"role": "user", "content": text, "timestamp": "2026-03-10T09:00:00Z"}
        for text in [s for s, _, _ in ROUND_TRIPS] + OTHERS
    ]
    response = await client.post(f"{profile_url}/ingest", json={"sessionId": "s1", "messages": messages})
    assert response.status_code == 202, response.text
    await worker.drain()
    listed = (await client.get(f"{profile_url}/memories", params={"limit": 100})).json()["memories"]
    for statement, questions, kind in ROUND_TRIPS:
        [memory] = [m for m in listed if _summarises(m["summary"], statement)]
        detail = (await client.get(f"{profile_url}/memories/{memory['id']}")).json()
        assert detail["content"] == statement, "the text is kept as it was said"
        assert memory["type"] == kind, memory
        for question in questions:
            found = (await client.post(f"{profile_url}/recall", json={"query": question})).json()
            assert memory["id"] in _ids_found(found), (question, found)
    # Ingest stores messages as English text; the extraction job indexes the others in their language.
    hits = (await client.get(f"{profile_url}/search", params={"q": "hermano vive en Valencia"})).json()
    assert [h["content"] for h in hits["results"]] == ["Mis hermanos viven en Valencia desde hace años."]
    # The event's day is read from the words that name it (下个月: a month after the message).
    tokyo = next(m for m in listed if "东京" in m["summary"])
    assert tokyo["eventTime"].startswith("2026-04-10")


async def test_named_speakers_are_a_prefix_and_questions_and_greetings_are_not_memories(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    messages = [
        {"role": "user", "content": "Marta: ¡Hola! ¿Qué tal el viaje?", "timestamp": "2026-03-10T09:00:00Z"},
        {
            "role": "assistant",
            "content": "Diego: Muy bien. Mañana vuelvo a Sevilla con mi hermana.",
            "timestamp": "2026-03-10T09:01:00Z",
        },
    ]
    await client.post(f"{profile_url}/ingest", json={"sessionId": "s2", "messages": messages})
    await worker.drain()
    listed = (await client.get(f"{profile_url}/memories", params={"limit": 100})).json()["memories"]
    # "Muy bien." is small talk, left out as the English rules leave out "Great." before news.
    assert [m["summary"] for m in listed] == ["Diego: Mañana vuelvo a Sevilla con mi hermana."]
    assert listed[0]["type"] == "event" and listed[0]["eventTime"].startswith("2026-03-11")
    found = (
        await client.post(f"{profile_url}/recall", json={"query": "¿Cuándo vuelve Diego a Sevilla?"})
    ).json()
    assert found["candidates"][0]["id"] == listed[0]["id"]


async def test_remember_keeps_any_language_verbatim(client: httpx.AsyncClient, profile_url: str) -> None:
    for text in (
        "Je déteste la coriandre.",
        "私は毎朝コーヒーを飲みます。",
        "Ich bin allergisch gegen Nüsse 🥜",
    ):
        response = await client.post(f"{profile_url}/remember", json={"content": text})
        assert response.status_code == 201, response.text
        body = response.json()
        assert body["summary"] == text and body["type"] == "fact"
    found = (await client.post(f"{profile_url}/recall", json={"query": "🥜"})).json()
    assert "Nüsse" in found["candidates"][0]["summary"]
    found = (await client.post(f"{profile_url}/recall", json={"query": "コーヒー"})).json()
    assert "コーヒー" in found["candidates"][0]["summary"]


async def test_english_statements_keep_their_emoji(client: httpx.AsyncClient, profile_url: str) -> None:
    body = (
        await client.post(
            f"{profile_url}/remember", json={"content": "My favourite emoji is 🦄 and I use it all the time."}
        )
    ).json()
    assert "🦄" in body["summary"] and body["summary"].startswith("User's favourite emoji is 🦄 and")


def _embedded_all(url: str) -> bool:
    """The profile has an embedding job done and none queued or running."""
    jobs = httpx.get(f"{url}/jobs", params={"limit": 100}, timeout=10).json()["jobs"]
    return any(j["kind"] == "embed" and j["status"] == "done" for j in jobs) and not any(
        j["status"] in ("queued", "running") for j in jobs
    )


def test_round_trip_on_the_embedded_server(tmp_path: Path) -> None:
    server = _embedded(tmp_path / "data", free_port())
    base = server.base_url
    server.spawn()
    try:
        server.wait_ready(timeout=180)
        url = f"{base}/v1/namespaces/langs/profiles/p"
        assert httpx.post(f"{base}/v1/namespaces", json={"name": "langs"}, timeout=10).status_code == 201
        messages = [
            {"role": "user", "content": text, "timestamp": "2026-03-10T09:00:00Z"}
            for text in [s for s, _, _ in ROUND_TRIPS] + OTHERS
        ]
        ingested = httpx.post(f"{url}/ingest", json={"sessionId": "s1", "messages": messages}, timeout=30)
        job = ingested.json()["jobId"]
        deadline = time.monotonic() + 180  # a loaded machine: extraction has no deadline of its own
        while httpx.get(f"{url}/jobs/{job}", timeout=10).json()["status"] != "done":
            assert time.monotonic() < deadline, "extraction did not finish"
            time.sleep(0.2)
        # The memories' embeddings follow extraction as jobs of their own: recall is asked once they are
        # stored, as a user would ask a moment later (before, a loaded machine asked without vectors).
        while not _embedded_all(url):
            assert time.monotonic() < deadline, "embedding did not finish"
            time.sleep(0.2)
        listed = httpx.get(f"{url}/memories", params={"limit": 100}, timeout=10).json()["memories"]
        for statement, questions, _ in ROUND_TRIPS:
            [memory] = [m for m in listed if _summarises(m["summary"], statement)]
            for question in questions:
                found = httpx.post(f"{url}/recall", json={"query": question}, timeout=30).json()
                assert memory["id"] in _ids_found(found), (question, found)
    finally:
        server.stop()


async def test_a_date_is_written_in_the_language_of_its_memory(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    """An answer's and a summary bullet's date beside a memory in another language is written as that
    language writes it; beside an English one, as before ("8 May 2023")."""
    said = datetime.now(UTC).replace(microsecond=0) - timedelta(days=3)
    messages = [
        {"role": "user", "content": text, "timestamp": said.isoformat()}
        for text in (
            "Ayer fui al dentista en Valencia.",
            "我昨天去了上海的医院。",
            "Yesterday I ran a half marathon.",
        )
    ]
    response = await client.post(f"{profile_url}/ingest", json={"sessionId": "d", "messages": messages})
    assert response.status_code == 202, response.text
    await worker.drain()
    day = said - timedelta(days=1)
    spanish, chinese, english = format_date(day, "es"), format_date(day, "zh"), format_date(day)
    assert spanish.endswith(f"de {day.year}") and chinese.startswith(f"{day.year}年") and spanish != english
    found = (await client.post(f"{profile_url}/recall", json={"query": "¿Cuándo fui al dentista?"})).json()
    assert f"Ayer fui al dentista en Valencia ({spanish})" in found["answer"], found["answer"]
    summary = (await client.post(f"{profile_url}/summary", json={})).json()["summary"]
    events = summary.split("## Recent Events", 1)[1].split("##", 1)[0]
    assert f"- {spanish}: Ayer fui al dentista" in events, summary
    assert f"- {chinese}: 我昨天去了上海的医院" in events, summary
    assert f"- {english}: " in events, summary
