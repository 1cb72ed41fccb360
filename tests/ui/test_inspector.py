"""The inspector at /ui in Chromium against a live server: sign in with a key, find a memory ingested through
the API, open its history, read a profile as it was, run a recall (and read its trace when the server
returns one), delete a memory and see it gone, its tombstone listed and lifted; a namespace key sees only
its namespace; the page asks no host but its own. Each main page's screenshot lands in docs/img/ (shown by docs/inspector.md)."""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import asyncpg
import httpx
import pytest
from playwright.sync_api import Browser, Route, ViewportSize, expect
from ulid import ULID

from tests.ui.conftest import LiveServer, RequestLog, screenshot, sign_in

DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}


@dataclass(frozen=True)
class Seeded:
    namespace: str
    other: str
    scoped_key: str
    before_lisbon: datetime
    failed_job: str


def _wait_for_job(api: httpx.Client, profile_url: str, job_id: str) -> None:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        job = api.get(f"{profile_url}/jobs/{job_id}").json()
        if job["status"] in ("done", "failed"):
            assert job["status"] == "done", job
            return
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} did not finish")


@pytest.fixture(scope="module")
def seeded(live_server: LiveServer) -> Iterator[Seeded]:
    """Two namespaces; in the first, a profile with an ingested conversation (extracted by the server's own
    worker), remembered statements, a branching session with a compaction, and a context block."""
    ns, other = "ui-demo-" + secrets.token_hex(2), "ui-other-" + secrets.token_hex(2)
    with live_server.api() as api:
        for name in (ns, other):
            assert api.post("/v1/namespaces", json={"name": name}).status_code == 201
        scoped_key = api.post(f"/v1/namespaces/{ns}/keys", json={"name": "inspector"}).json()["key"]
        alice = f"/v1/namespaces/{ns}/profiles/alice"
        ingested = api.post(
            f"{alice}/ingest",
            json={
                "sessionId": "trip",
                "messages": [
                    {
                        "role": "user",
                        "content": "My sister Nadia ran the Berlin marathon last May.",
                        "timestamp": "2026-06-02T09:00:00Z",
                    },
                    {"role": "assistant", "content": "That is a great achievement for Nadia!"},
                    {
                        "role": "user",
                        "content": "I am allergic to peanuts.",
                        "timestamp": "2026-06-02T09:01:00Z",
                    },
                ],
            },
        ).json()
        _wait_for_job(api, alice, ingested["jobId"])
        for content in ("I prefer green tea in the morning.", "Remind me to renew my passport in July."):
            assert api.post(f"{alice}/remember", json={"content": content}).status_code == 201
        # The point-in-time control takes whole seconds: an instant a second clear of both sides.
        time.sleep(1.1)
        before_lisbon = datetime.now(UTC)
        time.sleep(1.1)
        api.post(f"{alice}/remember", json={"content": "I moved to Lisbon last year."})

        # A session with two branches under one message, and a compaction of its start.
        api.post(f"{alice}/sessions", json={"id": "planning", "name": "Trip planning"})
        first = api.post(
            f"{alice}/sessions/planning/messages/batch",
            json={
                "messages": [
                    {
                        "id": "m1",
                        "role": "user",
                        "name": "Alice",
                        "parts": [{"type": "text", "text": "Plan a weekend in Porto."}],
                    },
                    {"id": "m2", "role": "assistant", "parts": [{"type": "text", "text": "Train or car?"}]},
                    {"id": "m3", "role": "user", "parts": [{"type": "text", "text": "Train, please."}]},
                ]
            },
        )
        assert first.status_code == 201, first.text
        branch = api.post(
            f"{alice}/sessions/planning/messages",
            json={
                "message": {"id": "m3b", "role": "user", "parts": [{"type": "text", "text": "Car."}]},
                "parentId": "m2",
            },
        )
        assert branch.status_code == 201, branch.text
        api.post(
            f"{alice}/sessions/planning/messages",
            json={
                "message": {
                    "id": "m4",
                    "role": "assistant",
                    "parts": [{"type": "text", "text": "The 8:05 train."}],
                },
                "parentId": "m3",
            },
        )
        compaction = api.post(
            f"{alice}/sessions/planning/compactions",
            json={
                "summary": "The user plans a weekend in Porto.",
                "fromMessageId": "m1",
                "toMessageId": "m2",
            },
        )
        assert compaction.status_code == 201, compaction.text
        block = api.put(
            f"{alice}/context/persona",
            json={"kind": "readonly", "scope": "profile", "content": "You are Alice's travel assistant."},
        )
        assert block.status_code in (200, 201), block.text

        api.post(
            f"/v1/namespaces/{other}/profiles/bob/remember", json={"content": "Bob's boat is called Marlin."}
        )
        # Playwright's sync API runs an event loop in this thread: the database is reached from another.
        with ThreadPoolExecutor(1) as thread:
            failed_job = thread.submit(
                asyncio.run, _job_the_worker_cannot_run(live_server.database_url, ns, "alice")
            ).result()
        deadline = time.monotonic() + 180
        while api.get(f"{alice}/jobs/{failed_job}").json()["status"] != "failed":
            assert time.monotonic() < deadline, "the worker did not fail the job"
            time.sleep(0.1)
        yield Seeded(ns, other, scoped_key, before_lisbon, failed_job)


async def _job_the_worker_cannot_run(database_url: str, namespace: str, profile: str) -> str:
    """A job of a kind no handler knows, queued for the profile: the server's worker fails it at once, so
    the job queue has a failed job with its error to show and retry."""
    job_id = str(ULID())
    connection = await asyncpg.connect(database_url)
    try:
        await connection.execute(
            "INSERT INTO jobs (id, kind, profile_id, payload) SELECT $1, 'ui_test_unknown', p.id, '{}' "
            "FROM profiles p JOIN namespaces n ON n.id = p.namespace_id "
            "WHERE n.name = $2 AND p.name = $3 AND p.deleted_at IS NULL AND n.deleted_at IS NULL",
            job_id,
            namespace,
            profile,
        )
        await connection.execute("SELECT pg_notify('agent_memory_jobs', 'ui_test_unknown')")
    finally:
        await connection.close()
    return job_id


def test_inspect_recall_and_delete(live_server: LiveServer, browser: Browser, seeded: Seeded) -> None:
    page = browser.new_page(viewport=DESKTOP)
    requests = RequestLog(page)
    sign_in(page, live_server.base, live_server.admin_key or "")

    # Namespaces → profiles with counts.
    expect(page.get_by_role("heading", name="Namespaces")).to_be_visible()
    expect(page.get_by_role("link", name=seeded.other)).to_be_visible()
    screenshot(page, "inspector-namespaces")
    page.get_by_role("link", name=seeded.namespace).click()
    alice_row = page.get_by_role("row").filter(has=page.get_by_role("link", name="alice"))
    expect(alice_row).to_be_visible()
    expect(alice_row.locator("td[data-label='messages']")).to_have_text(
        "8"
    )  # 3 ingested, 5 in the planning session
    screenshot(page, "inspector-profiles")
    page.get_by_role("link", name="alice").click()

    # Find the ingested memory with the text filter, open it, read its sources and history.
    page.get_by_label("Text contains").fill("marathon")
    page.get_by_role("button", name="Filter").click()
    memory_link = page.locator("table.memories a", has_text="marathon")
    expect(memory_link).to_have_count(1)
    expect(page.locator("table.memories tbody tr")).to_have_count(1)
    screenshot(page, "inspector-memories")
    memory_link.click()
    expect(page.locator("#history")).to_contain_text("created")
    expect(page.get_by_role("table", name=re.compile("Sources"))).to_contain_text("Berlin marathon")
    expect(page.locator("dl.props")).to_contain_text("Said byuser")  # no name given: the role alone
    screenshot(page, "inspector-memory")

    # Point in time: before "Lisbon" was remembered, the profile did not hold it.
    page.get_by_role("link", name="Memories").click()
    expect(page.locator("table.memories a", has_text="Lisbon")).to_have_count(1)
    local = seeded.before_lisbon.astimezone().replace(tzinfo=None).isoformat(timespec="seconds")
    page.get_by_label("Read the profile as of (your local time)").fill(local)
    page.get_by_role("button", name="Apply").click()
    expect(page.get_by_text("Showing the profile as it was at")).to_be_visible()
    expect(page.locator("table.memories a", has_text="green tea")).to_have_count(1)
    expect(page.locator("table.memories a", has_text="Lisbon")).to_have_count(0)
    page.get_by_role("button", name="Back to now").click()
    expect(page.locator("table.memories a", has_text="Lisbon")).to_have_count(1)

    # Recall: the answer, the candidates, and the trace when the server returns one.
    question = "Where did Nadia run a marathon?"
    with live_server.api() as api:
        answer = api.post(
            f"/v1/namespaces/{seeded.namespace}/profiles/alice/recall",
            json={"query": question, "trace": True},
        )
    traced = answer.status_code == 200 and "trace" in answer.json()
    page.get_by_role("link", name="Recall").click()
    page.get_by_label("Question").fill(question)
    page.get_by_label("Reference date").fill("2026-06-10")
    page.get_by_label("Level").select_option("high")
    page.get_by_role("button", name="Recall", exact=True).click()
    expect(page.locator("#candidates a").first).to_contain_text("marathon")
    if traced:
        expect(page.locator("#trace table.trace-channels").first).to_be_visible()
        expect(page.locator("#trace table.trace-features").first.locator("tbody tr").first).to_be_visible()
        expect(page.locator("#trace")).to_contain_text("marathon")  # the question's terms
    else:
        expect(page.locator("#no-trace")).to_be_visible()
    screenshot(page, "inspector-recall")
    if traced:
        page.evaluate("() => document.getElementById('trace').scrollIntoView()")
        screenshot(page, "inspector-recall-trace", scrolled=True)

    # A question nothing answers: "Nothing relevant", and one click shows what minScore held back.
    page.get_by_label("Question").fill("What is the capital of Mongolia?")
    page.get_by_role("button", name="Recall", exact=True).click()
    expect(page.locator("#nothing-relevant")).to_contain_text("Nothing relevant")
    expect(page.locator("#candidates")).to_have_count(0)
    screenshot(page, "inspector-recall-nothing")
    page.locator("#show-held-back").click()
    expect(page.get_by_label("Min score")).to_have_value("0")
    expect(page.locator("#candidates tbody tr").first).to_be_visible()

    # Sessions: the tree with its two branches, the compaction, the context block.
    page.get_by_role("link", name="Sessions").click()
    page.get_by_role("link", name="Trip planning").click()
    tree = page.get_by_role("list", name="Message tree")
    expect(tree).to_contain_text("Car.")
    expect(tree).to_contain_text("2 branches")
    expect(tree.locator(".msg.on-path")).to_have_count(4)
    # A named message shows its speaker beside its role, in the tree and on the path.
    expect(tree.locator(".role").first).to_have_text("Alice (user)")
    expect(page.get_by_role("table", name="Compactions")).to_contain_text("weekend in Porto")
    expect(page.get_by_role("table", name="Context blocks")).to_contain_text("travel assistant")
    page.get_by_role("heading", name=re.compile("Messages as a tree")).scroll_into_view_if_needed()
    screenshot(page, "inspector-session", scrolled=True)
    page.get_by_role("button", name="Show the system prompt").click()
    expect(page.get_by_label("System prompt")).to_contain_text("travel assistant")

    # The summary as rendered Markdown, and the job queue.
    page.get_by_role("link", name="Summary").click()
    expect(page.locator(".markdown h3").first).to_be_visible()
    expect(page.locator(".markdown li").first).to_be_visible()
    screenshot(page, "inspector-summary")
    page.get_by_role("link", name="Jobs").click()
    jobs = page.locator("table.jobs")
    expect(jobs).to_contain_text("done")
    failed_row = jobs.get_by_role("row").filter(has_text=seeded.failed_job)
    expect(failed_row).to_contain_text("unknown job kind")
    screenshot(page, "inspector-jobs")
    failed_row.get_by_role("button", name=f"Retry job {seeded.failed_job}").click()
    expect(page.get_by_text(f"Job {seeded.failed_job} queued again.")).to_be_visible()
    expect(failed_row.locator("td[data-label='Status']")).to_have_text("queued")

    # Delete a memory, with confirmation; it is gone from the list and from the API.
    page.get_by_role("link", name="Memories").click()
    page.locator("table.memories a", has_text="green tea").click()
    memory_id = page.url.rsplit("/", 1)[-1]
    page.get_by_role("button", name="Delete memory").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Delete").click()
    expect(page.get_by_text("Memory deleted.")).to_be_visible()
    expect(page.locator("table.memories a", has_text="Lisbon")).to_have_count(1)
    expect(page.locator("table.memories a", has_text="green tea")).to_have_count(0)
    with live_server.api() as api:
        gone = api.get(f"/v1/namespaces/{seeded.namespace}/profiles/alice/memories/{memory_id}")
    assert gone.status_code == 404
    # It left a tombstone, listed under the memories and lifted on request.
    tombstones = page.get_by_role("table", name=re.compile("Tombstones"))
    expect(tombstones).to_contain_text(memory_id)
    tombstones.get_by_role("button", name=f"Lift tombstone {memory_id}").click()
    page.get_by_role("dialog").get_by_role("button", name="Delete").click()
    expect(page.get_by_text(f"Tombstone {memory_id} lifted.")).to_be_visible()
    expect(page.get_by_role("table", name=re.compile("Tombstones"))).to_contain_text("No deleted memory.")

    assert requests.urls and requests.foreign(live_server.base) == []
    # No script error, nothing the page's policy refused; a server without the trace refuses the flag once
    # (422, which the browser logs) before the page asks again without it.
    assert [e for e in requests.console_errors if traced or "status of 422" not in e] == []
    page.close()


def test_namespace_key_sees_only_its_namespace(
    live_server: LiveServer, browser: Browser, seeded: Seeded
) -> None:
    page = browser.new_page(viewport=DESKTOP)
    requests = RequestLog(page)
    sign_in(page, live_server.base, seeded.scoped_key)
    # Straight to its namespace: no list of namespaces, and the other one's name appears nowhere.
    expect(page.get_by_role("heading", name=f"Namespace {seeded.namespace}")).to_be_visible()
    expect(page.get_by_text(f"namespace key: {seeded.namespace}")).to_be_visible()
    expect(page.get_by_role("navigation", name="Breadcrumbs")).not_to_contain_text("Namespaces")
    assert seeded.other not in page.inner_text("body")
    page.goto(f"{live_server.base}/ui#/")
    expect(page.get_by_role("heading", name=f"Namespace {seeded.namespace}")).to_be_visible()
    page.goto(f"{live_server.base}/ui#/ns/{seeded.other}/p/bob")
    expect(page.get_by_role("heading", name="Not found")).to_be_visible()
    assert "Marlin" not in page.inner_text("body")

    # Keyboard only: from the profile link to the memories, by Tab and Enter.
    page.goto(f"{live_server.base}/ui#/ns/{seeded.namespace}")
    profile_link = page.get_by_role("link", name="alice")
    expect(profile_link).to_be_visible()
    for _ in range(30):
        page.keyboard.press("Tab")
        if profile_link.evaluate("node => node === document.activeElement"):
            break
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Profile alice")).to_be_visible()

    # Signing out forgets the key: it was in session storage only, never in local storage.
    assert page.evaluate("() => Object.keys(localStorage).length") == 0
    assert page.evaluate("() => sessionStorage.getItem('agent-memory.key')") == seeded.scoped_key
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_label("API key")).to_be_visible()
    assert page.evaluate("() => sessionStorage.getItem('agent-memory.key')") is None
    assert requests.foreign(live_server.base) == []
    page.close()


def test_phone_width_and_refused_key(live_server: LiveServer, browser: Browser, seeded: Seeded) -> None:
    page = browser.new_page(viewport=PHONE)
    sign_in(page, live_server.base, "amk_nosuch_key", refused=True)
    sign_in(page, live_server.base, seeded.scoped_key)
    page.goto(f"{live_server.base}/ui#/ns/{seeded.namespace}/p/alice/memories")
    expect(page.locator("table.memories a").first).to_be_visible()
    # Nothing wider than the screen: tables become one card per row.
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator("table.memories").scroll_into_view_if_needed()
    screenshot(page, "inspector-phone", scrolled=True)
    page.close()


def test_markdown_renderer_shows_html_as_text(live_server: LiveServer, browser: Browser) -> None:
    page = browser.new_page()
    page.goto(f"{live_server.base}/ui")
    rendered = page.evaluate(
        """async () => {
            const { renderMarkdown } = await import('/ui/static/markdown.js');
            const node = renderMarkdown(
                '## Key Facts\\n- <img src=x onerror="window.pwned=1"> **bold** `a<b>`\\n' +
                '- [ok](https://example.org) [bad](javascript:alert(1))\\n\\nplain <script>x</script>');
            return {
                html: node.innerHTML,
                images: node.querySelectorAll('img, script').length,
                links: [...node.querySelectorAll('a')].map(a => a.getAttribute('href')),
                heading: node.querySelector('h3')?.textContent,
                strong: node.querySelector('strong')?.textContent,
            };
        }"""
    )
    assert rendered["images"] == 0
    # Links are shown as text, the full target visible: memory text is anyone's to write.
    assert rendered["links"] == []
    assert "ok <code>&lt;https://example.org&gt;</code>" in rendered["html"]
    assert '"link-as-text">bad <code>&lt;javascript:alert(1' in rendered["html"]
    assert rendered["heading"] == "Key Facts" and rendered["strong"] == "bold"
    assert "&lt;img src=x" in rendered["html"] and "&lt;script&gt;" in rendered["html"]
    page.close()


def _trace_of(result: dict[str, Any]) -> dict[str, Any]:
    """A trace in the agreed shape for this result's candidates: two channels, two features each, the
    contributions adding up to the fusion score and to the score."""
    candidates = []
    for rank, candidate in enumerate(result["candidates"], start=1):
        channels: list[dict[str, Any]] = [
            {"channel": "memory_text", "rank": rank, "weight": 1.0, "contribution": 1 / (60 + rank)},
            {"channel": "topic", "rank": rank + 1, "weight": 0.5, "contribution": 0.5 / (61 + rank)},
        ]
        score = candidate["score"]
        features = [
            {"name": "lexical", "value": 0.9, "weight": 0.6 * score / 0.9, "contribution": 0.6 * score},
            {"name": "recency", "value": 0.5, "weight": 0.4 * score / 0.5, "contribution": 0.4 * score},
        ]
        fusion = sum(float(c["contribution"]) for c in channels)
        candidates.append(
            {
                "id": candidate["id"],
                "score": score,
                "fusionScore": fusion,
                "channels": channels,
                "features": features,
            }
        )
    return {
        "analysis": {
            "language": "en",
            "terms": ["nadia", "marathon"],
            "phrases": [],
            "timeWindow": None,
            "names": ["Nadia"],
            "relations": [],
            "nearestWords": ["race"],
            "level": "medium",
        },
        "timings": {
            "analysis": 0.4,
            "channels": 3.1,
            "fusion": 0.2,
            "rerank": 1.0,
            "answer": 0.1,
            "total": 4.8,
        },
        "candidates": candidates,
    }


def test_trace_view_reads_the_agreed_shape(live_server: LiveServer, browser: Browser, seeded: Seeded) -> None:
    """The trace view against the shape agreed for `trace: true`, whether this server computes a trace or
    not: a server without one is asked again without the flag, and its answer given the agreed shape."""
    page = browser.new_page(viewport=DESKTOP)
    shown: list[dict[str, Any]] = []

    def recall_with_a_trace(route: Route) -> None:
        response = route.fetch()
        result = response.json()
        if response.status == 422:  # this server has no trace: the same recall without the flag
            body = json.loads(route.request.post_data or "{}")
            body.pop("trace", None)
            response = route.fetch(post_data=json.dumps(body))
            result = response.json()
            result["trace"] = _trace_of(result)
        shown.append(result["trace"]["candidates"][0])
        route.fulfill(response=response, json=result)

    page.route("**/recall", recall_with_a_trace)
    sign_in(page, live_server.base, seeded.scoped_key)
    page.goto(f"{live_server.base}/ui#/ns/{seeded.namespace}/p/alice/recall")
    page.get_by_label("Question").fill("Where did Nadia run a marathon?")
    page.get_by_label("Question").press("Tab")
    page.get_by_role("button", name="Recall", exact=True).press("Enter")
    trace = page.locator("#trace")
    expect(trace).to_contain_text("marathon")
    expect(trace.get_by_text("Time per stage")).to_be_visible()
    first = trace.locator("details.candidate").first
    expect(first).to_have_attribute("open", "")
    channels, features = shown[0]["channels"], shown[0]["features"]
    expect(first.locator("table.trace-channels tbody tr")).to_have_count(len(channels))
    expect(first.locator("table.trace-features tbody tr")).to_have_count(len(features))
    expect(first.locator("table.trace-channels")).to_contain_text(channels[0]["channel"])
    # Bars, not raw JSON: each contribution drawn as a share of its candidate's score.
    widths: list[str] = first.locator("table.trace-features .bar > span").evaluate_all(
        "spans => spans.map(s => s.style.width)"
    )
    assert len(widths) == len(features) and all(w.endswith("%") for w in widths)
    assert "{" not in trace.inner_text()
    page.close()
