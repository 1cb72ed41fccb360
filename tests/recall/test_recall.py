"""Recall through HTTP on real PostgreSQL: paraphrases, time windows, deletions, hostile queries, scoping."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.recall.schemas import DEFAULT_MIN_SCORE
from app.worker.runner import Worker

CONVERSATION = [
    ("user", "I just started a new job as a veterinary nurse at a clinic in Leeds.", "2024-05-01T10:00:00Z"),
    ("assistant", "Congratulations! How are the first days going?", "2024-05-01T10:00:30Z"),
    ("user", "My sister Ana is getting married in Porto next spring.", "2024-05-01T10:01:00Z"),
    ("user", "I adopted a grey cat called Miso two weeks ago.", "2024-05-01T10:02:00Z"),
    ("user", "We watched the Eurovision final with friends last night.", "2024-05-12T21:00:00Z"),
    ("user", "Yesterday I went climbing at the bouldering gym for the first time.", "2024-05-20T09:00:00Z"),
    ("user", "I'm allergic to penicillin, so keep that in mind.", "2024-05-20T09:05:00Z"),
]


async def _ingest(
    client: httpx.AsyncClient, url: str, worker: Worker, session_id: str, messages: list[dict[str, str]]
) -> None:
    """Ingest one session's messages and let the worker extract them."""
    response = await client.post(f"{url}/ingest", json={"sessionId": session_id, "messages": messages})
    assert response.status_code == 202
    await worker.drain()


async def _load(
    client: httpx.AsyncClient, url: str, worker: Worker, turns: list[tuple[str, str, str]] = CONVERSATION
) -> None:
    """Ingest (role, content, timestamp) turns as one session and let the worker extract them."""
    messages = [{"role": r, "content": c, "timestamp": t} for r, c, t in turns]
    await _ingest(client, url, worker, "s1", messages)


async def _recall(client: httpx.AsyncClient, url: str, query: str, **extra: object) -> dict[str, Any]:
    response = await client.post(f"{url}/recall", json={"query": query, **extra})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def _both_stages(
    client: httpx.AsyncClient, url: str, query: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The answer of the first stage alone (`low`), then of the default level (the second stage too)."""
    return await _recall(client, url, query, thinkingLevel="low"), await _recall(client, url, query)


async def test_paraphrased_question_finds_the_fact(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    await _load(client, profile_url, worker)
    result = await _recall(client, profile_url, "Which job did the user start at the animal clinic?")
    assert result["count"] >= 1
    assert "veterinary" in result["candidates"][0]["summary"].lower()
    assert "veterinary" in result["answer"].lower()
    scores = [c["score"] for c in result["candidates"]]
    # Absolute relevance: the best is likely to answer, none is below the default minScore.
    assert all(DEFAULT_MIN_SCORE <= s <= 1 for s in scores)
    assert scores == sorted(scores, reverse=True)
    # "work" finds "job": the memory's generated keywords name the category of what it says
    widened = await _recall(client, profile_url, "Where does the user work these days?", thinkingLevel="high")
    assert "veterinary" in widened["candidates"][0]["summary"].lower()
    pet = await _recall(client, profile_url, "What is the name of the user's cat?")
    assert "Miso" in pet["candidates"][0]["summary"]


async def test_temporal_question_ranks_the_event_in_the_window_first(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    await _load(client, profile_url, worker)
    result = await _recall(
        client, profile_url, "What did I do two days ago?", referenceDate="2024-05-21", thinkingLevel="medium"
    )
    assert result["count"] >= 1
    top = result["candidates"][0]
    assert "climbing" in top["summary"].lower(), result["candidates"]
    assert top["eventTime"].startswith("2024-05-19")
    assert "19 May 2024" in result["answer"], "dates in the answer are absolute"


async def test_superseded_and_deleted_memories_never_appear(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    await client.post(f"{profile_url}/remember", json={"content": "My favourite colour is blue."})
    newer = (
        await client.post(f"{profile_url}/remember", json={"content": "My favourite colour is green."})
    ).json()
    result = await _recall(client, profile_url, "favourite colour")
    assert [c["id"] for c in result["candidates"]] == [newer["id"]]
    assert "blue" not in result["answer"]
    await client.delete(f"{profile_url}/memories/{newer['id']}")
    gone = await _recall(client, profile_url, "favourite colour")
    assert gone == {"count": 0, "answer": "", "candidates": []}


@pytest.mark.parametrize(
    "query",
    [
        "' OR 1=1 --",
        "!!!",
        "&|:*()",
        "🙂🚀 émoji 🎉",
        "word " * 204,
        "a & b | !c <-> d",
        "'",
        "\\",
        ":*",
        "((((",
    ],
)
async def test_hostile_queries_never_error(
    client: httpx.AsyncClient, profile_url: str, worker: Worker, query: str
) -> None:
    await client.post(f"{profile_url}/remember", json={"content": "I like word games and emoji puzzles."})
    for level in ("low", "high"):
        response = await client.post(
            f"{profile_url}/recall", json={"query": query[:1024], "thinkingLevel": level}
        )
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["count"] == len(body["candidates"])


async def test_nothing_matches_gives_empty_answer(client: httpx.AsyncClient, profile_url: str) -> None:
    await client.post(f"{profile_url}/remember", json={"content": "I play the violin."})
    assert await _recall(client, profile_url, "quantum chromodynamics") == {
        "count": 0,
        "answer": "",
        "candidates": [],
    }


async def test_validation(client: httpx.AsyncClient, profile_url: str) -> None:
    await client.put(profile_url)
    assert (await client.post(f"{profile_url}/recall", json={"query": ""})).status_code == 422
    too_long = await client.post(f"{profile_url}/recall", json={"query": "x" * 1025})
    assert too_long.status_code == 422 and "1024" in too_long.json()["detail"]
    bad_date = await client.post(f"{profile_url}/recall", json={"query": "x", "referenceDate": "not a date"})
    assert bad_date.status_code == 422
    assert (await client.post(f"{profile_url}/recall", json={"query": "x", "limit": 101})).status_code == 422
    assert (
        await client.post(f"{profile_url}/recall", json={"query": "x", "thinkingLevel": "max"})
    ).status_code == 422


async def test_limit_and_response_length(client: httpx.AsyncClient, profile_url: str) -> None:
    for i in range(30):
        await client.post(
            f"{profile_url}/remember", json={"content": f"I visited museum number {i} in Paris."}
        )
    few = await _recall(client, profile_url, "museum Paris", limit=3)
    assert few["count"] == 3
    # minScore 0: thirty alike memories, each unlikely to be the one meant, all go into the answer's budget.
    short = await _recall(client, profile_url, "museum Paris", limit=30, responseLength="short", minScore=0)
    long = await _recall(client, profile_url, "museum Paris", limit=30, responseLength="long", minScore=0)
    assert len(short["answer"]) < len(long["answer"])
    assert len(short["answer"]) <= 60 * 4 + 80


async def test_scoped_key_on_another_namespace_is_404(
    client: httpx.AsyncClient, ns: str, anon: httpx.AsyncClient
) -> None:
    other = ns + "-x"
    await client.post("/v1/namespaces", json={"name": other})
    await client.post(f"/v1/namespaces/{other}/profiles/p/remember", json={"content": "secret plans"})
    key = (await client.post(f"/v1/namespaces/{ns}/keys", json={"name": "k"})).json()["key"]
    response = await anon.post(
        f"/v1/namespaces/{other}/profiles/p/recall",
        json={"query": "plans"},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert response.status_code == 404


async def test_reference_dates_at_the_edges_of_the_calendar(
    client: httpx.AsyncClient, profile_url: str
) -> None:
    # Regression: "yesterday" against 0001-01-01, "in 3 days" against 9999-12-31, and a window starting at
    # local midnight of year 1 at +14:00 (year 0 in UTC) overflowed Python's calendar with a 500.
    await client.post(f"{profile_url}/remember", json={"content": "Yesterday I went to the dentist."})
    questions = ["what did I do yesterday?", "two weeks ago", "in May last year", "next Friday", "in 3 days",
                 "what happened last week and next month?", "recently"]  # fmt: skip
    references = ["0001-01-01", "9999-12-31", "0001-01-01T20:00:00+14:00", "9999-12-31T03:00:00-14:00",
                  "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z"]  # fmt: skip
    for reference in references:
        for question in questions:
            response = await client.post(
                f"{profile_url}/recall",
                json={"query": question, "referenceDate": reference, "thinkingLevel": "high"},
            )
            assert response.status_code == 200, (reference, question, response.text)
    for reference in ["0001-01-01T05:00:00+14:00", "9999-12-31T23:59:59-14:00"]:  # no UTC form at all
        response = await client.post(
            f"{profile_url}/recall", json={"query": "yesterday", "referenceDate": reference}
        )
        assert response.status_code == 422, response.text


async def test_readme_example_finds_the_race_and_its_date(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    # The README walk-through, word for word: "race" is never said and "ran" is not "run" to the stemmer.
    messages = [
        {"role": "user", "content": "I moved to Lisbon last year and I work as a nurse.",
         "timestamp": "2024-05-10T09:00:00Z"},
        {"role": "user", "content": "Yesterday I ran my first half marathon.", "timestamp": "2024-05-10T09:01:00Z"},
        {"role": "user", "content": "From now on, always answer in French."},
    ]  # fmt: skip
    await _ingest(client, profile_url, worker, "chat-1", messages)
    result = await _recall(client, profile_url, "What race did I run, and when?", referenceDate="2024-05-10")
    assert result["count"] >= 1
    top = result["candidates"][0]
    assert "half marathon" in top["summary"], result
    assert top["eventTime"].startswith("2024-05-09")
    assert result["answer"].startswith("User ran their first half marathon (9 May 2024)"), result["answer"]
    assert "asked:" not in result["answer"] and "Yesterday" not in result["answer"]


async def test_time_only_question_is_answered_by_the_window(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    messages = [
        {"role": "user", "content": "I work as a translator.", "timestamp": "2026-05-02T09:00:00Z"},
        {"role": "user", "content": "Yesterday I went to a pottery class with my sister Ana.",
         "timestamp": "2026-05-20T18:00:00Z"},
    ]  # fmt: skip
    await _ingest(client, profile_url, worker, "s1", messages)
    for level in ("low", "medium", "high"):
        result = await _recall(
            client, profile_url, "What did I do yesterday?", referenceDate="2026-05-21", thinkingLevel=level
        )
        assert result["count"] >= 1, level
        assert "pottery" in result["candidates"][0]["summary"], (level, result)
        assert "translator" not in " ".join(c["summary"] for c in result["candidates"])
        assert "pottery class" in result["answer"] and "19 May 2026" in result["answer"]


async def test_a_question_about_what_is_coming_up_gets_the_events_ahead_soonest_first(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    messages = [
        {"role": "user", "content": "Yesterday I went to the dentist.", "timestamp": "2026-12-01T09:00:00Z"},
        {"role": "user", "content": "We're flying to Tokyo on 3 April for two weeks.",
         "timestamp": "2026-12-01T09:01:00Z"},
        {"role": "user", "content": "My cousin's wedding is on 9 January in Porto.",
         "timestamp": "2026-12-01T09:02:00Z"},
        {"role": "user", "content": "I work as a translator.", "timestamp": "2026-12-01T09:03:00Z"},
    ]  # fmt: skip
    await _ingest(client, profile_url, worker, "s1", messages)
    for level in ("low", "medium"):
        result = await _recall(
            client, profile_url, "What is coming up?", referenceDate="2026-12-03", thinkingLevel=level
        )
        summaries = [c["summary"] for c in result["candidates"]]
        # Soonest first, and nothing that lies behind.
        assert [s for s in summaries if "wedding" in s or "Tokyo" in s][:2] == summaries[:2], (
            level,
            summaries,
        )
        assert "wedding" in summaries[0] and "Tokyo" in summaries[1], (level, summaries)
        assert not any("dentist" in s for s in summaries), (level, summaries)
    trips = await _recall(client, profile_url, "Do I have any trips coming up?", referenceDate="2026-12-03")
    assert "Tokyo" in trips["candidates"][0]["summary"] and "3 April 2027" in trips["answer"], trips


async def test_a_question_naming_a_type_gets_its_memories(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    messages = [
        {"role": "user", "content": "I need to renew my passport before June.", "timestamp": "2026-12-01T09:00:00Z"},
        {"role": "user", "content": "Remind me to call the plumber on Friday.", "timestamp": "2026-12-01T09:01:00Z"},
        {"role": "user", "content": "I keep a list of films to watch.", "timestamp": "2026-12-01T09:02:00Z"},
        {"role": "user", "content": "I work as a translator.", "timestamp": "2026-12-01T09:03:00Z"},
    ]  # fmt: skip
    await _ingest(client, profile_url, worker, "s1", messages)
    for query in ("What's on my to-do list?", "What tasks do I have?", "Any reminders?"):
        result = await _recall(client, profile_url, query, referenceDate="2026-12-03")
        top = {c["summary"] for c in result["candidates"][:2]}
        assert all(c["type"] == "task" for c in result["candidates"][:2]), (query, result)
        assert any("passport" in s for s in top) and any("plumber" in s for s in top), (query, result)


async def test_a_question_about_the_family_finds_each_relative(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    for content in (
        "I live in Lisbon with my wife Ana.",
        "My daughter Mia turns five in February.",
        "My brother Tom lives in Manchester.",
        "I work as a translator.",
    ):
        assert (await client.post(f"{profile_url}/remember", json={"content": content})).status_code == 201
    result = await _recall(client, profile_url, "Tell me about my family.", minScore=0)
    top = " ".join(c["summary"] for c in result["candidates"][:3])
    assert "Ana" in top and "Mia" in top and "Tom" in top, result


async def test_a_person_named_by_their_relation_is_found_by_their_name(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    messages = [
        {"role": "user", "content": "My husband Sam teaches chemistry.", "timestamp": "2026-03-01T09:00:00Z"},
        {"role": "user", "content": "We have a beagle called Waffles.", "timestamp": "2026-03-01T09:01:00Z"},
        {"role": "user", "content": "Sam doesn't eat fish at all.", "timestamp": "2026-03-02T09:00:00Z"},
        {"role": "user", "content": "Waffles needs his booster jab before June.", "timestamp": "2026-03-02T09:01:00Z"},
        {"role": "user", "content": "I don't eat much bread.", "timestamp": "2026-03-02T09:02:00Z"},
        {"role": "user", "content": "The vet is near the station.", "timestamp": "2026-03-02T09:03:00Z"},
    ]  # fmt: skip
    await _ingest(client, profile_url, worker, "s1", messages)

    def order(result: dict[str, Any], *words: str) -> list[int]:
        summaries = [c["summary"] for c in result["candidates"]]
        # A memory that is no candidate ranks after every one.
        return [next((i for i, s in enumerate(summaries) if word in s), len(summaries)) for word in words]

    # "Sam doesn't eat fish" shares only "eat" with the question, as the user's own bread does.
    husband = await _recall(client, profile_url, "What does the user's husband not eat?", minScore=0)
    fish, bread = order(husband, "fish", "bread")
    assert fish < bread and fish <= 1, husband
    dog = await _recall(client, profile_url, "Which jab is the dog due?", minScore=0)
    booster, vet = order(dog, "booster", "vet")
    assert booster <= 1 and booster < vet, dog


# The same in other languages, with their own relation words (`RELATIONS` of their modules): the relative
# and the pet are named once ("mi marido Javier", "einen Hund namens Bello"), then only by name.
RELATIVES_IN_OTHER_LANGUAGES = {
    "es": (
        ["Mi marido Javier enseña química.", "Tenemos una perra que se llama Luna.", "Javier no come pescado, nunca le ha gustado.",
         "Luna necesita su vacuna antes de junio.", "Yo casi no como pan.", "El veterinario está cerca de la estación."],
        "¿Qué no le gusta comer a mi marido?", ("pescado", "pan"),
        "¿Qué le toca a la perra antes del verano?", ("vacuna", "veterinario"),
    ),
    "de": (
        ["Mein Mann Jonas unterrichtet Chemie.", "Wir haben einen Hund namens Bello.", "Jonas mag überhaupt keinen Fisch essen.",
         "Bello braucht vor Juni seine Impfung.", "Ich esse kaum Brot.", "Der Tierarzt ist am Bahnhof."],
        "Was mag mein Mann nicht essen?", ("Fisch", "Brot"),
        "Was steht beim Hund vor dem Sommer an?", ("Impfung", "Tierarzt"),
    ),
}  # fmt: skip


@pytest.mark.parametrize("language", sorted(RELATIVES_IN_OTHER_LANGUAGES))
async def test_a_relative_is_found_by_their_name_in_other_languages(
    client: httpx.AsyncClient, profile_url: str, worker: Worker, language: str
) -> None:
    statements, about_partner, (answer, other), about_pet, (pet_answer, pet_other) = (
        RELATIVES_IN_OTHER_LANGUAGES[language]
    )
    messages = [
        {"role": "user", "content": text, "timestamp": f"2026-03-0{1 + i // 2}T09:0{i}:00Z"}
        for i, text in enumerate(statements)
    ]
    await _ingest(client, profile_url, worker, "s1", messages)

    def rank(result: dict[str, Any], word: str) -> int:
        summaries = [c["summary"] for c in result["candidates"]]
        return next((i for i, s in enumerate(summaries) if word in s), len(summaries))

    partner = await _recall(client, profile_url, about_partner, minScore=0, trace=True)
    assert partner["trace"]["analysis"]["language"] == language, partner["trace"]["analysis"]
    assert partner["trace"]["analysis"]["relations"], partner["trace"]["analysis"]
    assert rank(partner, answer) <= 1 and rank(partner, answer) < rank(partner, other), [
        (c["summary"], c["score"]) for c in partner["candidates"]
    ]
    pet = await _recall(client, profile_url, about_pet, minScore=0)
    assert rank(pet, pet_answer) <= 1 and rank(pet, pet_answer) < rank(pet, pet_other), pet


async def test_what_the_user_said_ranks_above_the_assistants_own_words(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    messages = [
        {"role": "user", "content": "I want to run a half marathon in October.", "timestamp": "2026-03-01T09:00:00Z"},
        {"role": "assistant", "content": "A good half marathon plan: run three times a week and add 1 km to "
         "the long run every week.", "timestamp": "2026-03-01T09:00:30Z"},
        {"role": "user", "content": "Noted. I have mild asthma, so I carry an inhaler when I run.",
         "timestamp": "2026-03-01T09:01:00Z"},
    ]  # fmt: skip
    await _ingest(client, profile_url, worker, "s1", messages)
    result = await _recall(
        client, profile_url, "What should I know before planning a half marathon run for the user?"
    )
    summaries = [c["summary"] for c in result["candidates"]]
    # Both of the user's statements; the assistant's general advice is not kept as a memory at all.
    assert len(summaries) == 2 and "asthma" in summaries[0] and "half marathon" in summaries[1], summaries
    assert "long run" not in " ".join(summaries), summaries


async def test_a_reply_is_found_through_the_question_it_answers(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    messages = [
        {"role": "user", "content": "Ben: What did you bake for the party on Saturday?"},
        {"role": "assistant", "content": "Lucia: Mostly a lemon tart, it took me all afternoon."},
        {"role": "user", "content": "Ben: I brought crisps, as usual."},
    ]
    await _ingest(client, profile_url, worker, "s1", messages)
    # Shares no word with the reply itself: found through the partner's question and the tart's category.
    result = await _recall(client, profile_url, "What dessert did Lucia bring to the party?")
    assert "lemon tart" in result["candidates"][0]["summary"], result


async def test_a_plans_outcome_told_later_without_naming_it_is_found_through_the_plan(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    """ "Done, last Sunday!" at the opening of a later session reports on the plan that fell due before it:
    it carries the plan as context, whichever session's job the worker runs first."""
    plan = [
        {
            "role": "user",
            "content": "Tess: The lambs are all tagged, finally.",
            "timestamp": "2024-09-02T20:00:00Z",
        },
        {
            "role": "assistant",
            "content": "Arjun: Also I signed up for a half marathon on 20 October.",
            "timestamp": "2024-09-02T20:01:00Z",
        },
    ]
    report = [
        {"role": "user", "content": "Tess: Well?? How did it go", "timestamp": "2024-10-27T20:00:00Z"},
        {
            "role": "assistant",
            "content": "Arjun: Done, last Sunday! 1:52:40.",
            "timestamp": "2024-10-27T20:01:00Z",
        },
        {"role": "user", "content": "Tess: Under two hours, amazing!", "timestamp": "2024-10-27T20:02:00Z"},
    ]
    for session_id, messages in (("s1", plan), ("s2", report)):
        response = await client.post(
            f"{profile_url}/ingest", json={"sessionId": session_id, "messages": messages}
        )
        assert response.status_code == 202
    await worker.drain()
    result = await _recall(
        client, profile_url, "When did Arjun run his half marathon?", referenceDate="2024-10-28"
    )
    summaries = [c["summary"] for c in result["candidates"]]
    # The report holds the answer (the date), and the plan's words now: first, above the plan itself.
    assert summaries[0].startswith("Arjun: Done"), summaries


async def test_the_turn_beside_a_matching_one_is_a_candidate(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    """An answer that shares no word with the question is still found when it sits next to a turn that
    matches it: the near channel takes the neighbours of the best full-text hits."""
    messages = [
        {
            "role": "user",
            "content": "The kitchen renovation is finally happening, the builders start Monday.",
        },
        {"role": "user", "content": "We picked dark green cabinets and a marble island."},
        {"role": "user", "content": "I also ordered a new bookshelf for the study."},
    ]
    await _ingest(client, profile_url, worker, "home", messages)
    result = await _recall(client, profile_url, "What is planned for the kitchen renovation?", minScore=0)
    summaries = [c["summary"].lower() for c in result["candidates"]]
    assert any("kitchen" in s for s in summaries)
    assert any("cabinets" in s for s in summaries), summaries


ASKED_FOR = [
    ("user", "The pottery exhibition opens at the town hall on 14 March.", "2024-02-01T10:00:00Z"),
    ("user", "The pottery exhibition has been so stressful to prepare for.", "2024-02-01T10:01:00Z"),
]


async def test_a_question_asking_when_prefers_the_memory_that_holds_a_time(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    await _load(client, profile_url, worker, ASKED_FOR)
    first_stage, reranked = await _both_stages(client, profile_url, "When is the pottery exhibition?")
    # Both match the question's words alike; the first stage puts the newer lasting statement first.
    assert "stressful" in first_stage["candidates"][0]["summary"]
    # The second stage sees that the question asks for a time and only one of them holds one.
    assert "14 March" in reranked["candidates"][0]["summary"]
    assert "14 March" in reranked["answer"]


RELATED = [
    ("user", "My sister gets anxious at her school.", "2024-03-01T10:00:00Z"),
    ("user", "My sister gets bored at her school with friends.", "2024-03-01T10:01:00Z"),
    ("user", "My friends came round for dinner.", "2024-03-01T10:02:00Z"),
]


async def test_a_question_word_is_matched_by_a_related_word(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    await _load(client, profile_url, worker, RELATED)
    first_stage, reranked = await _both_stages(
        client, profile_url, "Does my sister get nervous with friends?"
    )
    # Neither holds "nervous"; the bored one also holds "friends" (a common word here): the first stage
    # puts it first.
    assert "bored" in first_stage["candidates"][0]["summary"], first_stage
    # The second stage finds "nervous" in other words: anxious is close to it, bored is not.
    assert "anxious" in reranked["candidates"][0]["summary"], reranked


NEAREST = [
    ("user", "I fractured my wrist skiing in Austria.", "2024-03-01T10:00:00Z"),
    ("user", "My neighbour lent me a ladder for the gutters.", "2024-03-01T10:01:00Z"),
]


async def test_a_memory_sharing_no_word_with_the_question_is_found_through_the_question_words_nearest(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    await _load(client, profile_url, worker, NEAREST)
    # "injured" is in neither memory; "fractured" is among its nearest words, searched lightly.
    for level in ("low", "medium"):
        result = await _recall(client, profile_url, "How was I injured?", thinkingLevel=level)
        assert "fractured their wrist" in result["candidates"][0]["summary"], result


# Questions about a conversation whose first message splits into two memories.
FADO_QUESTIONS = ("fado Lisbon", "Where did I move?", "Who sings fado?", "fado")


async def ingest_fado_chat(client: httpx.AsyncClient, profile_url: str, worker: Worker) -> None:
    """A conversation whose first message splits into two memories: the second is moved below distinct
    information (its source is covered by the first)."""
    chat = [
        {"role": "user", "content": "I moved to Lisbon and I like fado."},
        {"role": "user", "content": "Fado nights in Lisbon are my favourite thing."},
        {"role": "user", "content": "I saw a fado show in Porto once."},
        {"role": "user", "content": "My cousin sings fado."},
    ]
    await client.post(f"{profile_url}/ingest", json={"sessionId": "s", "messages": chat})
    await worker.drain()


async def test_candidates_come_in_score_order(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    # A memory moved down must not then score above what now ranks before it.
    await ingest_fado_chat(client, profile_url, worker)
    for query in FADO_QUESTIONS:
        found = (await client.post(f"{profile_url}/recall", json={"query": query})).json()
        scores = [c["score"] for c in found["candidates"]]
        assert scores == sorted(scores, reverse=True), (query, found["candidates"])
