"""/docs renders the OpenAPI 3.1 document in a real browser: the operations, not "Unable to render this
definition" (what Swagger UI 4 showed), with every request to the server itself."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.ui.conftest import LiveServer, RequestLog, screenshot


def test_docs_renders_the_operations(live_server: LiveServer, browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    requests = RequestLog(page)
    page.goto(f"{live_server.base}/docs")
    recall = page.locator(".opblock-summary-operation-id", has_text="recall").first
    expect(recall).to_be_visible(timeout=20_000)
    body = page.inner_text("body")
    assert "Unable to render" not in body
    assert "3.1" in page.inner_text(".info")  # the OAS version badge of the document it rendered
    operations = page.locator(".opblock-summary-operation-id").all_inner_texts()
    assert {"recall", "remember", "ingest", "list_memories"} <= set(operations)
    screenshot(page, "api-docs")
    assert requests.urls and requests.foreign(live_server.base) == []
    assert requests.console_errors == []
    page.close()
