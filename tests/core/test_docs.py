"""/docs is Swagger UI from the package's own assets: nothing is loaded from another host."""

from __future__ import annotations

import re

import httpx


async def test_docs_page_and_assets_are_local(anon: httpx.AsyncClient) -> None:
    page = await anon.get("/docs")
    assert page.status_code == 200 and "SwaggerUIBundle" in page.text
    urls = re.findall(r"""(?:src|href)=["']([^"']+)["']""", page.text)
    assert urls and all(u.startswith("/") for u in urls), urls
    assert "cdn" not in page.text.lower()
    for url in urls:
        asset = await anon.get(url)
        assert asset.status_code == 200, url
        assert len(asset.content) > 100
    assert (await anon.get("/redoc")).status_code == 404


async def test_docs_cannot_be_framed(anon: httpx.AsyncClient) -> None:
    """/docs, like /ui, refuses to be framed by another page: on an open server its "Try it out" would run
    same-origin for whoever framed it."""
    page = await anon.get("/docs")
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert page.headers["x-frame-options"] == "DENY"
    assert page.headers["x-content-type-options"] == "nosniff"


async def test_api_answers_are_not_sniffed_nor_stored(
    client: httpx.AsyncClient, anon: httpx.AsyncClient
) -> None:
    for response in (
        await client.get("/v1/namespaces"),
        await anon.get("/v1/namespaces"),  # an error answer too
        await anon.get("/healthz"),
    ):
        assert response.headers["x-content-type-options"] == "nosniff", response.url
        assert response.headers["cache-control"] == "no-store", response.url
    ui = await anon.get("/ui")  # the inspector's page keeps its own policy
    assert ui.headers["cache-control"] == "no-cache"
    assert "frame-ancestors 'none'" in ui.headers["content-security-policy"]
