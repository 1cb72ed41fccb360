"""GET …/memories?q=: memories whose summary or content contains the text, in any case and any script,
with `%` and `_` as plain characters; combined with the other filters and `asOf`."""

from __future__ import annotations

from datetime import UTC, datetime

import httpx


async def test_text_filter(client: httpx.AsyncClient, profile_url: str) -> None:
    contents = [
        "My sister Nadia runs marathons.",
        "Я живу в Москве уже десять лет.",
        "The discount code is 100%_OFF for staff.",
        "I prefer green tea in the morning.",
    ]
    ids = {}
    for content in contents:
        created = await client.post(f"{profile_url}/remember", json={"content": content})
        assert created.status_code == 201, created.text
        ids[content] = created.json()["id"]
    before_edit = datetime.now(UTC).isoformat()

    async def found(**params: str) -> list[str]:
        page = await client.get(f"{profile_url}/memories", params=params)
        assert page.status_code == 200, page.text
        return [m["id"] for m in page.json()["memories"]]

    assert await found(q="MARATHON") == [ids[contents[0]]]
    assert await found(q="москве") == [ids[contents[1]]]
    assert await found(q="%_off") == [ids[contents[2]]]
    assert await found(q="_") == [ids[contents[2]]]  # not LIKE's any-character wildcard
    assert await found(q="nothing like this") == []

    edited = await client.patch(
        f"{profile_url}/memories/{ids[contents[3]]}",
        json={"content": "I prefer black coffee in the morning."},
    )
    assert edited.status_code == 200, edited.text
    assert await found(q="coffee") == [edited.json()["id"]]
    assert await found(q="green tea") == []
    # As it was before the edit, the old wording matches.
    assert await found(q="green tea", asOf=before_edit) == [ids[contents[3]]]
    assert (await client.get(f"{profile_url}/memories", params={"q": ""})).status_code == 422
