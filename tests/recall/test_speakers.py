"""People named as people: a question about one person finds that person's own statements first, whether
it spells the name as the chat does, differently, or by a nickname the chat established."""

from __future__ import annotations

from datetime import UTC, datetime

import httpx
import pytest

from app.extraction.text import parse_message
from app.recall.repository import Candidate
from app.recall.rerank import Query, features, same_name
from app.worker.runner import Worker

CHAT = [
    ("user", "Ana", "I was in Lisbon for a wedding, it was hot."),
    ("assistant", "Ben", "Lisbon is lovely in May, the jacarandas are out and the wedding season starts."),
    ("assistant", "Ben", "Everyone at work calls me Benji, by the way."),
    ("assistant", "Ben", "I work as a sound engineer at a theatre in Leeds."),
    ("user", "Ana", "I work as a nurse at the children's hospital."),
]


async def _ingest(client: httpx.AsyncClient, url: str, worker: Worker) -> None:
    messages = [
        {"role": role, "name": name, "content": text, "timestamp": f"2026-05-0{i + 1}T10:00:00Z"}
        for i, (role, name, text) in enumerate(CHAT)
    ]
    response = await client.post(f"{url}/ingest", json={"sessionId": "s", "messages": messages})
    assert response.status_code == 202, response.text
    await worker.drain()


async def _top(client: httpx.AsyncClient, url: str, query: str) -> str:
    """The best-ranked candidate (minScore 0: which one ranks first, however sure recall is of it)."""
    found = (await client.post(f"{url}/recall", json={"query": query, "minScore": 0})).json()
    return str(found["candidates"][0]["summary"])


async def test_a_question_about_one_person_prefers_their_own_statements(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    await _ingest(client, profile_url, worker)
    assert (await _top(client, profile_url, "What did Ana do in Lisbon in May?")).startswith(
        "Ana was in Lisbon"
    )


async def test_names_match_spelling_variants_and_nicknames(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    await _ingest(client, profile_url, worker)
    assert "Ana was in Lisbon" in await _top(client, profile_url, "What did Anna do in Lisbon in May?")
    assert "sound engineer" in await _top(client, profile_url, "Where does Benji work?")
    assert "nurse" in await _top(client, profile_url, "Where does Anna work?")


def _candidate(memory_id: str, summary: str, content: str) -> Candidate:
    """A candidate said by the speaker its content names (as ingest stores it, from the `Name:` prefix)."""
    now = datetime(2026, 5, 1, tzinfo=UTC)
    speaker = content.split(":")[0]
    return Candidate(
        memory_id, "fact", summary, content, "s", None, now, [], None, None, ["lisbon"], [], speaker=speaker
    )


ROWS = {
    "own": _candidate("own", "Ana was in Lisbon for a wedding.", "Ana: I was in Lisbon for a wedding."),
    "partner": _candidate("partner", "Ben: Lisbon is lovely in May.", "Ben: Lisbon is lovely in May."),
    "mention": _candidate("mention", "Ben: Ana would love Lisbon.", "Ben: Ana would love Lisbon."),
    "nickname": _candidate("nickname", "Everyone calls Ben Benji.", "Ben: Everyone calls me Benji."),
}


@pytest.mark.parametrize("asked", ["Ana", "Anna"])
def test_the_person_asked_about_is_known_by_other_spellings(asked: str) -> None:
    query = Query({asked.lower(): 1.0, "lisbon": 1.0}, {"lisbon": 3}, 4, f"When was {asked} in Lisbon?", "en")
    found = features({m: 1.0 for m in ROWS}, ROWS, {m: 1 for m in ROWS}, query, 3)
    assert not found["own"].off_speaker and not found["own"].by_partner
    assert found["partner"].off_speaker  # neither said by Ana nor about her
    assert not found["mention"].off_speaker and found["mention"].by_partner  # about her, by her partner


def test_a_nickname_the_chat_established_names_its_speaker() -> None:
    query = Query({"benji": 1.0, "lisbon": 1.0}, {"lisbon": 3}, 4, "Was Benji ever in Lisbon?", "en")
    found = features({m: 1.0 for m in ROWS}, ROWS, {m: 1 for m in ROWS}, query, 3)
    assert found["own"].off_speaker and found["own"].values
    assert not found["partner"].off_speaker and not found["partner"].by_partner


def test_a_lower_case_word_is_never_taken_for_a_name() -> None:
    rows = {"m": _candidate("m", "Mark parks by the river.", "Mark: I park by the river.")}
    query = Query({"park": 1.0}, {"park": 1}, 1, "where do I park?", "en")
    assert not features({"m": 1.0}, rows, {"m": 1}, query, 3)["m"].off_speaker
    assert same_name("marta", "martha") and same_name("katherine", "catherine") and not same_name("jo", "job")


CHAT_ZH = [
    ("user", "周浩: 深圳那家游戏公司的offer下来了！我负责服务器开发。"),
    ("assistant", "陈静: 恭喜！我们公司也在招服务器开发，工资一般。"),
    ("assistant", "陈静: 我下个月去深圳出差，到时候一起吃饭。"),
]


async def test_a_name_in_a_script_without_case_is_a_speaker(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    """A `Name:` prefix in Chinese (no capital letters to find it by) names the speaker, once, and a
    question naming them prefers their own statements, as with "Ana" above."""
    messages = [
        {"role": role, "content": text, "timestamp": f"2026-05-0{i + 1}T10:00:00Z"}
        for i, (role, text) in enumerate(CHAT_ZH)
    ]
    response = await client.post(f"{profile_url}/ingest", json={"sessionId": "zh", "messages": messages})
    assert response.status_code == 202, response.text
    await worker.drain()
    top = await _top(client, profile_url, "周浩在深圳的新公司负责什么工作？")
    assert top.startswith("周浩: ") and not top.startswith("周浩: 周浩")
    assert (await _top(client, profile_url, "陈静的公司在招什么？")).startswith("陈静: ")


@pytest.mark.parametrize(
    ("content", "speaker"),
    [
        ("陈静：卧槽恭喜恭喜！！", "陈静"),
        ("周浩: 深圳那家游戏公司的offer下来了！", "周浩"),
        ("김민수: 내일 부산에 가요", "김민수"),
        ("Élodie Martin: je pars demain", "Élodie Martin"),
        ("Анна: привет", "Анна"),
        ("محمد: أنا أعيش في القاهرة", "محمد"),
        ("राहुल: मैं दिल्ली में रहता हूँ", "राहुल"),  # a name with combining vowel signs
        ("אבי: אני גר בתל אביב", "אבי"),
        ("สมชาย: ผมอยู่กรุงเทพ", "สมชาย"),
        ("我今天去了公园：很好玩", None),  # a sentence before a colon, not a name
        ("note: call the bank", None),
        ("Note: call the bank", None),
        ("10:30: dentist", None),  # a time
        ("Meeting at 10:30 with Ana", None),
        ("Https://example.com is down", None),  # a URL
    ],
)
def test_the_speaker_prefix_is_read_in_any_script(content: str, speaker: str | None) -> None:
    assert parse_message(content).speaker == speaker
    if speaker is not None:  # the text after the name and its colon is what was said
        assert parse_message(content).body == content[len(speaker) + 1 :].strip()
