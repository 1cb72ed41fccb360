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
