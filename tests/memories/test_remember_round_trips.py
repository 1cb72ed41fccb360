"""remember's round trips to PostgreSQL, counted on the wire (the loopback proxy of the recall test): new
content is one autocommit statement, the profile resolved (and created) inside it."""

from __future__ import annotations

import secrets

from tests.recall.test_round_trips import proxied_client


async def test_remember_of_new_content_is_one_round_trip(database_url: str) -> None:
    async with proxied_client(database_url) as (client, proxy):
        ns = "rr-" + secrets.token_hex(4)
        assert (await client.post("/v1/namespaces", json={"name": ns})).status_code == 201
        url = f"/v1/namespaces/{ns}/profiles/alice/remember"
        # The first statements on the connection are prepared (one more round trip each).
        for content in ("I adopted a grey cat called Miso.", "My sister Ana lives in Porto."):
            assert (await client.post(url, json={"content": content})).status_code == 201
        proxy.reset()
        created = await client.post(url, json={"content": "I live in Lisbon now.", "metadata": {"src": "t"}})
        assert created.status_code == 201, created.text
        assert proxy.round_trips == 1, proxy.round_trips
        assert created.json()["metadata"] == {"src": "t"}
        # A new profile is created inside the same statement.
        proxy.reset()
        other = f"/v1/namespaces/{ns}/profiles/bob/remember"
        assert (await client.post(other, json={"content": "I play chess on Sundays."})).status_code == 201
        assert proxy.round_trips == 1, proxy.round_trips
        # Content already stored takes the general path and answers the existing memory.
        again = await client.post(url, json={"content": "I live in Lisbon now."})
        assert again.status_code == 200 and again.json()["id"] == created.json()["id"]
