"""The Google ADK adapter's checks, run by tests/clients/test_google_adk.py in a venv of their own (where
`./clients/python[google-adk]` is installed) against the live server in AGENT_MEMORY_URL: ADK's own
`Runner`, `LlmAgent`, `InMemorySessionService`, `Session`, `Event` and `PreloadMemoryTool`, with a `BaseLlm`
that answers from a script. Then docs/integrations/google-adk.md's example (its path the first argument),
twice. Exits non-zero at the first check that fails; prints `ok: …` for each that passes."""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
import runpy
import sys
import tempfile
import uuid
from collections.abc import AsyncGenerator, Callable
from pathlib import Path
from typing import Any

from agent_memory_client import AsyncMemoryClient
from agent_memory_client.integrations.google_adk import AgentMemoryService, app_namespace
from google.adk.agents import LlmAgent
from google.adk.events.event import Event
from google.adk.memory.memory_entry import MemoryEntry
from google.adk.models import BaseLlm, LlmRequest, LlmResponse
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.adk.tools.preload_memory_tool import PreloadMemoryTool
from google.genai import types

Reply = Callable[[str], str]


class ScriptedLlm(BaseLlm):
    """A model that answers each request with the next reply of a script, given the request's text (the
    system instruction, where PreloadMemoryTool puts the memories, and the contents); keeps what it saw."""

    replies: list[Reply] = []
    seen: list[str] = []

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        prompt = f"{llm_request.config.system_instruction}\n" + "\n".join(
            part.text or "" for content in llm_request.contents for part in content.parts or []
        )
        self.seen.append(prompt)
        assert self.replies, "the model was called more often than scripted"
        text = self.replies.pop(0)(prompt)
        yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text=text)]))


def check(condition: bool, what: str, detail: Any = "") -> None:
    if not condition:
        print(f"FAILED: {what}: {detail}", file=sys.stderr)
        raise SystemExit(1)
    print(f"ok: {what}")


def user_says(text: str) -> types.Content:
    return types.Content(role="user", parts=[types.Part(text=text)])


async def run_turn(runner: Runner, session_id: str, text: str, user: str = "sam") -> str:
    answer = ""
    async for event in runner.run_async(user_id=user, session_id=session_id, new_message=user_says(text)):
        if event.is_final_response() and event.content and event.content.parts:
            answer = event.content.parts[0].text or ""
    return answer


async def adapter_checks() -> None:
    namespace = "adk-" + uuid.uuid4().hex[:8]
    async with AsyncMemoryClient(namespace=namespace) as client:
        await client.create_namespace(namespace)
        memory = AgentMemoryService(client, wait_for_extraction=True)
        model = ScriptedLlm(model="scripted")
        model.replies = [
            lambda _prompt: "Noted.",
            lambda _prompt: "Enjoy Porto.",
            lambda prompt: "From memory: " + ("Tokyo, 3 March" if "Tokyo" in prompt else "nothing"),
        ]
        sessions = InMemorySessionService()
        agent = LlmAgent(
            name="assistant", model=model, instruction="Answer briefly.", tools=[PreloadMemoryTool()]
        )
        runner = Runner(app_name="travel", agent=agent, session_service=sessions, memory_service=memory)

        await sessions.create_session(app_name="travel", user_id="sam", session_id="trip")
        await run_turn(runner, "trip", "I am flying to Tokyo on 3 March for a conference.")
        await run_turn(runner, "trip", "My sister lives in Porto.")
        session = await sessions.get_session(app_name="travel", user_id="sam", session_id="trip")
        assert session is not None
        check(len(session.events) == 4, "ADK's session holds the two turns", session.events)
        await memory.add_session_to_memory(session)

        history = await client.get_history("sam", "trip")
        texts = [p.text for m in history.messages for p in m.parts if p.type == "text"]  # type: ignore[union-attr]
        check(
            texts
            == [
                "I am flying to Tokyo on 3 March for a conference.",
                "Noted.",
                "My sister lives in Porto.",
                "Enjoy Porto.",
            ],
            "add_session_to_memory ingested the session's events in order, under its id",
            texts,
        )
        check(
            [m.role for m in history.messages] == ["user", "assistant"] * 2, "user and agent roles", history
        )
        before = [m.id async for m in client.list("sam")]
        await memory.add_session_to_memory(session)  # added again: nothing new
        after = [m.id async for m in client.list("sam")]
        check(
            after == before and len((await client.get_history("sam", "trip")).messages) == 4,
            "added again: nothing new",
        )

        found = await memory.search_memory(app_name="travel", user_id="sam", query="Where am I flying to?")
        summaries = [entry.content.parts[0].text for entry in found.memories if entry.content.parts]
        check(
            any("Tokyo" in (s or "") for s in summaries),
            "search_memory returns the recalled memory",
            summaries,
        )
        first = found.memories[0]
        check(
            first.id is not None and 0 <= first.custom_metadata["score"] <= 1,
            "entries carry id and score",
            first,
        )
        check(first.custom_metadata["session_id"] == "trip", "and the session they came from", first)

        # ADK's own path: PreloadMemoryTool searches the memory service with the new question.
        await sessions.create_session(app_name="travel", user_id="sam", session_id="packing")
        answer = await run_turn(runner, "packing", "When is my flight to Tokyo?")
        check(
            answer == "From memory: Tokyo, 3 March",
            "the next conversation's prompt held the memory",
            model.seen[-1],
        )

        nobody = await memory.search_memory(
            app_name="travel", user_id="nobody", query="Where am I flying to?"
        )
        check(nobody.memories == [], "a user with no memories has none")

        # Events of one turn, and explicit memories.
        turn = [
            Event(author="user", content=user_says("I play the cello on Sundays."), invocation_id="i1"),
            Event(
                author="assistant",
                content=types.Content(role="model", parts=[types.Part(text="Lovely.")]),
                invocation_id="i1",
            ),
        ]
        await memory.add_events_to_memory(app_name="travel", user_id="sam", events=turn, session_id="music")
        cello = await memory.search_memory(
            app_name="travel", user_id="sam", query="What instrument do I play?"
        )
        check(
            any("cello" in (e.content.parts[0].text or "") for e in cello.memories if e.content.parts),
            "add_events_to_memory",
            cello,
        )
        await memory.add_memory(
            app_name="travel",
            user_id="sam",
            memories=[
                MemoryEntry(
                    content=user_says("The user is allergic to peanuts."), custom_metadata={"source": "form"}
                )
            ],
        )
        peanuts = await memory.search_memory(app_name="travel", user_id="sam", query="What am I allergic to?")
        check(
            bool(peanuts.memories) and "peanuts" in (peanuts.memories[0].content.parts[0].text or ""),
            "add_memory",
            peanuts,
        )

        doomed = peanuts.memories[0].id
        assert doomed is not None
        await memory.delete_memory(app_name="travel", user_id="sam", memory_id=doomed)
        gone = await memory.search_memory(app_name="travel", user_id="sam", query="What am I allergic to?")
        check(all(e.id != doomed for e in gone.memories), "delete_memory", gone)

        check(app_namespace("Travel_Agent v2") == "travel-agent-v2", "an app name as a namespace")
        by_app = AgentMemoryService(AsyncMemoryClient(client.base_url))
        check(by_app.namespace_for("Travel_Agent") == "travel-agent", "no namespace given: the app's")


def example_checks(page: Path) -> None:
    (example,) = re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.S)
    path = Path(tempfile.mkdtemp()) / "google_adk_example.py"
    path.write_text(example)
    main = runpy.run_path(str(path), run_name="example")["main"]
    for run in (1, 2):  # again over the first run's state
        model = ScriptedLlm(model="scripted")
        model.replies = [
            lambda _prompt: "Noted.",
            lambda prompt: "Your flight is on 3 March." if "Tokyo on 3 March" in prompt else "I do not know.",
        ]
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            asyncio.run(main(model))
        out = printed.getvalue()
        check(
            "Tokyo" in out.split("Noted.", 1)[-1], f"example run {run}: search_memory printed the memory", out
        )
        check(
            out.rstrip().endswith("Your flight is on 3 March."),
            f"example run {run}: answered from memory",
            out,
        )


if __name__ == "__main__":
    asyncio.run(adapter_checks())
    example_checks(Path(sys.argv[1]))
    print("google-adk checks: all passed")
