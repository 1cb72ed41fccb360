"""Full-text search over messages: stemming, ranking, scope, limits, and hostile query strings."""

from __future__ import annotations

import httpx
import pytest

from tests.sessions.helpers import append, new_session, text_message

HOSTILE = [
    "",
    "   ",
    "'",
    '"',
    "\\",
    "'\\'",
    "a & b | !c",
    "(((",
    ")",
    "foo:*",
    "<->",
    "deploy <2> friday",
    "!!!",
    "&|!():*'\"\\",
    "the and of",
    "💥 émoji ünïcode 中文",
    "x" * 1024,
    "'; DROP TABLE messages; --",
    "%_%",
    "deployment' | '!",
    '"deployment notes',
]


async def test_stemming_ranking_and_scope(client: httpx.AsyncClient, profile_url: str) -> None:
    one = await new_session(client, profile_url)
    two = await new_session(client, profile_url)
    url_one, url_two = f"{profile_url}/sessions/{one}", f"{profile_url}/sessions/{two}"
    await append(client, url_one, text_message("d1", "user", "The deployment failed on Friday."))
    await append(
        client,
        url_one,
        text_message("d2", "assistant", "Let us retry the deployment of the deployment tool."),
    )
    await append(client, url_one, text_message("d3", "user", "I like cheese."))
    await append(client, url_two, text_message("d4", "user", "Deployments happen weekly."))

    hits = (await client.get(f"{url_one}/search", params={"q": "deploying"})).json()["results"]
    assert {h["id"] for h in hits} == {"d1", "d2"}
    assert hits[0]["id"] == "d2"  # mentions it twice
    assert hits[0]["sessionId"] == one and hits[0]["role"] == "assistant"
    assert "deployment tool" in hits[0]["content"]

    everywhere = (await client.get(f"{profile_url}/search", params={"q": "deploying friday"})).json()[
        "results"
    ]
    assert [h["id"] for h in everywhere] == ["d1"]  # every term must match, as the reference's FTS5
    across = (await client.get(f"{profile_url}/search", params={"q": "deploying"})).json()["results"]
    assert {h["id"] for h in across} == {"d1", "d2", "d4"}

    limited = (await client.get(f"{profile_url}/search", params={"q": "deploy", "limit": 1})).json()[
        "results"
    ]
    assert len(limited) == 1
    assert (await client.get(f"{profile_url}/search", params={"q": "cheese", "limit": 0})).status_code == 422


@pytest.mark.parametrize("query", HOSTILE)
async def test_hostile_queries_never_error(client: httpx.AsyncClient, profile_url: str, query: str) -> None:
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    await append(client, url, text_message("h1", "user", "deployment notes with quotes ' and \\ backslashes"))
    for target in (f"{url}/search", f"{profile_url}/search"):
        response = await client.get(target, params={"q": query})
        assert response.status_code == 200, (query, response.text)
        assert isinstance(response.json()["results"], list)
    if "deployment" in query:
        hits = (await client.get(f"{url}/search", params={"q": query})).json()["results"]
        assert [h["id"] for h in hits] == ["h1"]


async def test_search_is_an_and_of_terms_with_phrases(client: httpx.AsyncClient, profile_url: str) -> None:
    """Issue 10 item 5: `deploy production` finds only the message holding both words; quotes make a phrase."""
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    await append(client, url, text_message("p1", "user", "We deploy to production on Fridays."))
    await append(client, url, text_message("p2", "user", "The deploy script is broken."))
    await append(client, url, text_message("p3", "user", "Production is down again."))
    await append(client, url, text_message("p4", "user", "Production deploys need a deploy ticket."))

    both = (await client.get(f"{url}/search", params={"q": "deploy production"})).json()["results"]
    assert {h["id"] for h in both} == {"p1", "p4"}
    phrase = (await client.get(f"{url}/search", params={"q": '"deploy to production"'})).json()["results"]
    assert [h["id"] for h in phrase] == ["p1"]
    mixed = (await client.get(f"{url}/search", params={"q": 'ticket "production deploys"'})).json()["results"]
    assert [h["id"] for h in mixed] == ["p4"]
    assert (await client.get(f"{url}/search", params={"q": "deploy cheese"})).json()["results"] == []
    # Stopwords alone give no terms: nothing matches, nothing fails.
    assert (await client.get(f"{url}/search", params={"q": "the of and"})).json()["results"] == []


async def test_search_reads_each_language(client: httpx.AsyncClient, profile_url: str) -> None:
    """Messages are indexed in their language and the query is read in its own: Spanish stems, Chinese
    bigrams, emoji as words."""
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    await append(client, url, text_message("l1", "user", "Mis hermanos viven en Valencia desde hace años."))
    await append(client, url, text_message("l2", "user", "我下个月要去东京出差，住在新宿的酒店。"))
    await append(client, url, text_message("l3", "user", "My favourite emoji is 🦄"))
    await append(client, url, text_message("l4", "user", "我的酒店在大阪。"))

    async def found(query: str) -> list[str]:
        return [h["id"] for h in (await client.get(f"{url}/search", params={"q": query})).json()["results"]]

    assert await found("hermano vive en Valencia") == [
        "l1"
    ]  # hermano ~ hermanos, vive ~ viven: the Spanish stems
    assert await found("东京出差") == ["l2"]
    assert set(await found("酒店")) == {"l2", "l4"}
    assert await found("🦄") == ["l3"]
