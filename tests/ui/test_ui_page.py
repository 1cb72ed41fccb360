"""GET /ui over HTTP: the page and its files come from the package, under a policy that lets the page reach
no other host; serving it needs no key (the data behind it does)."""

from __future__ import annotations

import re

import httpx

from app.ui.router import STATIC


async def test_page_assets_and_policy(anon: httpx.AsyncClient) -> None:
    page = await anon.get("/ui")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    policy = page.headers["content-security-policy"]
    assert "default-src 'none'" in policy and "connect-src 'self'" in policy and "script-src 'self'" in policy
    urls = re.findall(r"""(?:src|href)=["']([^"'#]+)["']""", page.text)
    assert {"/ui/static/app.js", "/ui/static/app.css"} <= set(urls)
    for name in sorted(p.name for p in STATIC.iterdir()):
        asset = await anon.get(f"/ui/static/{name}")
        assert asset.status_code == 200, name
        # No address of another host anywhere in what the page loads.
        assert not re.search(r"https?://", asset.text), name
    assert (await anon.get("/ui/", follow_redirects=False)).headers["location"] == "/ui"
    assert (await anon.get("/ui/static/../router.py")).status_code == 404
    # The data is the API's: without a key it answers 401 as ever.
    assert (await anon.get("/v1/key")).status_code == 401
