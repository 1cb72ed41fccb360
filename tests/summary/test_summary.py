"""POST /summary end to end: memories made through the real API, summarised from real PostgreSQL."""

from __future__ import annotations

import asyncio
import re

import httpx
import pytest

from app.core.tokens import estimate_tokens
from app.summary.service import BUDGET_SCALE, SUMMARY_TOKENS
from app.worker.runner import Worker

ORDER = ["## Key Facts", "## Recent Events", "## Active Tasks", "## Last Session", "## Instructions"]

CONVERSATION = [
    {"role": "user", "content": "Hi there!", "timestamp": "2024-05-10T09:00:00Z"},
    {"role": "assistant", "content": "Hello! How can I help?", "timestamp": "2024-05-10T09:00:05Z"},
    {
        "role": "user",
        "content": "I moved to Lisbon last year and I work as a nurse.",
        "timestamp": "2024-05-10T09:01:00Z",
    },
    {
        "role": "user",
        "content": "Yesterday I ran my first half marathon.",
        "timestamp": "2024-05-10T09:02:00Z",
    },
    {"role": "user", "content": "From now on, always answer in French.", "timestamp": "2024-05-10T09:03:00Z"},
    {
        "role": "user",
        "content": "Remind me to renew my passport by June 3.",
        "timestamp": "2024-05-10T09:04:00Z",
    },
]


def _headings(summary: str) -> list[str]:
    return [line for line in summary.splitlines() if line.startswith("## ")]


def _section(summary: str, heading: str) -> list[str]:
    """The bullet lines under one heading."""
    lines = summary.splitlines()
    start = lines.index(heading) + 1
    out: list[str] = []
    for line in lines[start:]:
        if line.startswith("## "):
            break
        if line:
            out.append(line)
    return out


async def _summary(client: httpx.AsyncClient, url: str, **body: str) -> str:
    response = await client.post(f"{url}/summary", json=body)
    assert response.status_code == 200, response.text
    return str(response.json()["summary"])


async def test_sections_in_order_with_dated_events(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    ingested = await client.post(f"{profile_url}/ingest", json={"sessionId": "s1", "messages": CONVERSATION})
    assert ingested.status_code == 202, ingested.text
    await worker.drain()

    summary = await _summary(client, profile_url)
    assert _headings(summary) == ORDER, summary
    assert any("Lisbon" in line for line in _section(summary, "## Key Facts"))
    events = _section(summary, "## Recent Events")
    assert any(line.startswith("- 9 May 2024: ") and "marathon" in line for line in events), events
    assert not any(line.endswith("(9 May 2024)") for line in events), "the date is said once"
    assert any("passport" in line for line in _section(summary, "## Active Tasks"))
    assert any("French" in line for line in _section(summary, "## Instructions"))
    assert all(line.startswith("- ") for h in ORDER for line in _section(summary, h))
    # chit-chat is not a memory, so the session's memories (not its messages) make Last Session
    assert not any("Hi there" in line for line in _section(summary, "## Last Session"))
    assert summary == await _summary(client, profile_url), "deterministic"


async def test_key_facts_list_what_the_people_said_before_the_assistants_own_words(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    messages = [
        {"role": "user", "content": "I have mild asthma and carry an inhaler.", "timestamp": "2026-03-01T09:00:00Z"},
        {"role": "user", "content": "My daughter Lina loves dinosaurs and drawing.", "timestamp": "2026-03-01T09:01:00Z"},
        {"role": "assistant", "content": "Your plan is three easy runs a week, a good start for a beginner.",
         "timestamp": "2026-03-01T09:02:00Z"},
        {"role": "assistant", "content": "Your bag needs a warm layer and a waterproof jacket for the evening walks.",
         "timestamp": "2026-03-01T09:03:00Z"},
    ]  # fmt: skip
    response = await client.post(f"{profile_url}/ingest", json={"sessionId": "s1", "messages": messages})
    assert response.status_code == 202
    await worker.drain()
    facts = _section(await _summary(client, profile_url), "## Key Facts")
    people = [i for i, line in enumerate(facts) if "asthma" in line or "dinosaurs" in line]
    agent = [i for i, line in enumerate(facts) if "runs a week" in line or "waterproof" in line]
    assert len(people) == 2 and len(agent) == 2 and max(people) < min(agent), facts


async def test_empty_sections_are_left_out(client: httpx.AsyncClient, profile_url: str) -> None:
    created = await client.post(f"{profile_url}/remember", json={"content": "Never use emojis in replies."})
    assert created.status_code == 201 and created.json()["type"] == "instruction"
    summary = await _summary(client, profile_url)
    assert _headings(summary) == ["## Instructions"], summary
    assert summary == "## Instructions\n- " + _section(summary, "## Instructions")[0][2:]
    assert not summary.endswith("\n")


async def test_empty_profile_and_missing_profile(client: httpx.AsyncClient, profile_url: str) -> None:
    assert (await client.put(profile_url)).status_code == 201
    assert await _summary(client, profile_url) == ""
    empty_body = await client.post(f"{profile_url}/summary")
    assert empty_body.status_code == 200 and empty_body.json() == {"summary": ""}
    missing = await client.post(profile_url.replace("alice", "nobody") + "/summary", json={})
    assert missing.status_code == 404 and missing.json()["code"] == "profile_not_found"
    bogus = await client.post(f"{profile_url}/summary", json={"bogus": 1})
    assert bogus.status_code == 422
    too_long = await client.post(f"{profile_url}/summary", json={"sessionId": "x" * 65})
    assert too_long.status_code == 422


async def test_session_id_picks_last_session_and_tasks_follow_the_newest(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    older = [
        {
            "role": "user",
            "content": "I adopted a beagle named Max.",
            "timestamp": "2024-03-01T10:00:00Z",
        },
        {
            "role": "user",
            "content": "I need to book a vet appointment for Max.",
            "timestamp": "2024-03-01T10:01:00Z",
        },
    ]
    newer = [
        {
            "role": "user",
            "content": "I started learning the cello with a teacher called Ingrid.",
            "timestamp": "2024-03-20T18:00:00Z",
        },
        {
            "role": "user",
            "content": "I need to buy new cello strings.",
            "timestamp": "2024-03-20T18:01:00Z",
        },
    ]
    # The newer conversation is ingested first: recency is the conversation's clock, not ingest order.
    await client.post(f"{profile_url}/ingest", json={"sessionId": "new", "messages": newer})
    await client.post(f"{profile_url}/ingest", json={"sessionId": "old", "messages": older})
    await worker.drain()

    default = await _summary(client, profile_url)
    last = " ".join(_section(default, "## Last Session"))
    assert "cello" in last and "beagle" not in last, default
    tasks = _section(default, "## Active Tasks")
    assert len(tasks) == 2 and "strings" in tasks[0] and "vet" in tasks[1], tasks

    chosen = await _summary(client, profile_url, sessionId="old")
    last = " ".join(_section(chosen, "## Last Session"))
    assert "beagle" in last and "cello" not in last, chosen
    # Last Session lists the session's memories newest last
    assert last.index("beagle") < last.index("vet")

    unknown = await _summary(client, profile_url, sessionId="no-such-session")
    assert "## Last Session" not in unknown and "## Active Tasks" in unknown


async def test_last_session_without_memories_digests_its_messages(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    await client.post(f"{profile_url}/remember", json={"content": "I live in Porto."})
    chat = [
        {"role": "user", "content": "Hello!"},
        {"role": "assistant", "content": "Hi! What would you like to talk about today?"},
        {"role": "user", "content": "Thanks, that's all."},
    ]
    await client.post(f"{profile_url}/ingest", json={"sessionId": "chat", "messages": chat})
    await worker.drain()
    summary = await _summary(client, profile_url)
    assert _headings(summary) == ["## Key Facts", "## Last Session"], summary
    assert _section(summary, "## Last Session") == [
        "- User: Hello!",
        "- Assistant: Hi! What would you like to talk about today?",
        "- User: Thanks, that's all.",
    ]


async def test_the_digest_names_the_speakers(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    await client.post(f"{profile_url}/remember", json={"content": "I live in Porto."})
    chat = [
        {"role": "user", "name": "Marta", "content": "Hello!"},
        {"role": "assistant", "content": "Ben: Hi Marta!"},
    ]
    await client.post(f"{profile_url}/ingest", json={"sessionId": "chat", "messages": chat})
    await worker.drain()
    summary = await _summary(client, profile_url)
    assert _section(summary, "## Last Session") == ["- Marta: Hello!", "- Ben: Hi Marta!"], summary


async def test_superseded_memories_never_appear(client: httpx.AsyncClient, profile_url: str) -> None:
    await client.post(f"{profile_url}/remember", json={"content": "My favourite colour is blue."})
    await client.post(f"{profile_url}/remember", json={"content": "My favourite colour is green now."})
    summary = await _summary(client, profile_url)
    assert "green" in summary and "blue" not in summary, summary


async def test_budget_holds_on_a_large_profile(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    names = ["Ana", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonas"]
    places = ["Lisbon", "Oslo", "Kyoto", "Lima", "Dakar", "Quebec", "Tbilisi", "Hanoi", "Perth", "Bergen"]
    messages: list[dict[str, str]] = []
    for i in range(400):
        name, place = names[i % 10], places[(i // 10) % 10]
        day = 1 + i % 28
        kind = i % 4
        if kind == 0:
            content = f"My friend {name} number {i} lives in {place} and collects old maps."
        elif kind == 1:
            content = f"Yesterday I met {name} in {place} for the {i}th time at the harbour cafe."
        elif kind == 2:
            content = f"I need to send {name} the photos from {place} before trip {i}."
        else:
            content = f"Always call {name} by the nickname {place}{i} when you mention them."
        messages.append({"role": "user", "content": content, "timestamp": f"2024-06-{day:02d}T10:00:00Z"})
    for start in range(0, len(messages), 200):
        response = await client.post(
            f"{profile_url}/ingest",
            json={"sessionId": f"big{start}", "messages": messages[start : start + 200]},
        )
        assert response.status_code == 202, response.text
    await worker.drain()
    counts = (await client.get(profile_url)).json()["counts"]["memories"]
    assert sum(counts.values()) >= 300, counts

    summary = await _summary(client, profile_url)
    tokens = estimate_tokens(summary)
    assert SUMMARY_TOKENS * 0.9 <= tokens <= SUMMARY_TOKENS, tokens
    headings = _headings(summary)
    assert headings == [h for h in ORDER if h in headings] and len(headings) >= 4, headings
    # no section crowds out the others: each holds well under half the budget
    for heading in headings:
        body = "\n".join(_section(summary, heading))
        assert estimate_tokens(body) < SUMMARY_TOKENS / 2, (heading, estimate_tokens(body))
    assert not re.search(r"\n{3,}", summary)
    # responseLength scales the budget.
    for length, scale in BUDGET_SCALE.items():
        response = await client.post(f"{profile_url}/summary", json={"responseLength": length})
        scaled = estimate_tokens(response.json()["summary"])
        assert SUMMARY_TOKENS * scale * 0.9 <= scaled <= SUMMARY_TOKENS * scale, (length, scaled)


async def test_scoped_key_of_another_namespace_gets_404(
    client: httpx.AsyncClient, anon: httpx.AsyncClient, ns: str, profile_url: str
) -> None:
    await client.post(f"{profile_url}/remember", json={"content": "I live in Porto."})
    other = ns + "-o"
    assert (await client.post("/v1/namespaces", json={"name": other})).status_code == 201
    key = (await client.post(f"/v1/namespaces/{other}/keys", json={"name": "k"})).json()["key"]
    auth = {"Authorization": f"Bearer {key}"}
    denied = await anon.post(f"{profile_url}/summary", json={}, headers=auth)
    assert denied.status_code == 404
    assert "Porto" not in denied.text
    assert (await anon.post(f"{profile_url}/summary", json={})).status_code == 401
    own_key = (await client.post(f"/v1/namespaces/{ns}/keys", json={"name": "k"})).json()["key"]
    allowed = await anon.post(
        f"{profile_url}/summary", json={}, headers={"Authorization": f"Bearer {own_key}"}
    )
    assert allowed.status_code == 200 and "Porto" in allowed.json()["summary"]


async def test_key_facts_put_substance_before_one_liners(client: httpx.AsyncClient, profile_url: str) -> None:
    url = f"{profile_url}/remember"
    await client.post(
        url, json={"content": "The harbour bakery in Vigo opens at six and sells the best empanadas in town."}
    )
    for remark in ("Classic.", "Obviously.", "Priorities."):
        await asyncio.sleep(0.005)  # distinct ULID milliseconds: each remark is newer than the bakery
        await client.post(url, json={"content": remark})
    summary = (await client.post(f"{profile_url}/summary", json={})).json()["summary"]
    first_fact = summary.split("\n")[1]
    assert "bakery" in first_fact, summary


async def test_an_unknown_field_is_refused_naming_the_accepted_ones(
    client: httpx.AsyncClient, profile_url: str
) -> None:
    await client.post(f"{profile_url}/remember", json={"content": "I live in Porto."})
    response = await client.post(f"{profile_url}/summary", json={"sessionID": "s1"})
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert detail.startswith("body.sessionID: unknown field") and "sessionId" in detail, detail
    nested = await client.post(
        f"{profile_url}/ingest", json={"messages": [{"role": "user", "content": "hi", "speaker": "Ann"}]}
    )
    assert nested.status_code == 422, nested.text
    assert "role, content, name, timestamp, metadata" in nested.json()["detail"], nested.json()


@pytest.mark.parametrize(
    ("lasting", "incidental"),
    [
        (
            ["Trabajo de enfermera en el hospital de Valencia.", "Soy alérgica a los cacahuetes."],
            ["El tren iba lleno de gente, como siempre.", "La película fue bastante larga y lenta."],
        ),
        (
            ["我在腾讯做服务器开发。", "我对花生过敏。"],
            ["地铁特别挤，人太多了。", "那部电影有点太长了。"],
        ),
    ],
)
async def test_key_facts_put_lasting_circumstances_first_in_any_language(
    client: httpx.AsyncClient, profile_url: str, lasting: list[str], incidental: list[str]
) -> None:
    """Work, health and the like lead Key Facts in Spanish and Chinese as in English, though newer passing
    remarks were stored after them."""
    for content in [*lasting, *incidental]:
        await asyncio.sleep(0.005)  # distinct ULID milliseconds: the remarks are the newest
        response = await client.post(f"{profile_url}/remember", json={"content": content})
        assert response.status_code == 201, response.text
    facts = _section(await _summary(client, profile_url), "## Key Facts")
    assert len(facts) == 4, facts
    assert {f.removeprefix("- ") for f in facts[:2]} == set(lasting), facts
