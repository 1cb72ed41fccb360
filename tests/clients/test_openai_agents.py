"""The OpenAI Agents SDK adapter (agent_memory_client.integrations.openai_agents) with the SDK's own `Agent`
and `Runner` against a live `agent-memory serve`, the model a `Model` that answers from a script (the SDK
takes any; nothing leaves the machine): a run's conversation in the Session API and as memories, tool calls
round-tripped whole, the recall tool, branches left as they are, the Session protocol's edges, and
docs/integrations/openai-agents.md's example run as written."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import re
import runpy
import uuid
from collections.abc import AsyncIterator, Callable
from collections.abc import AsyncIterator as _AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from agent_memory_client import AsyncMemoryClient
from agent_memory_client.integrations.openai_agents import ITEM_PART, AgentMemorySession, recall_tool
from agents import Agent, Model, ModelResponse, Runner, SessionSettings, set_tracing_disabled
from agents.items import TResponseInputItem, TResponseStreamEvent
from agents.memory import Session
from agents.usage import Usage
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "integrations" / "openai-agents.md"

set_tracing_disabled(True)  # the SDK's traces would go to OpenAI's servers

Output = ResponseOutputMessage | ResponseFunctionToolCall
Step = Callable[[list[dict[str, Any]]], list[Output]]


class ScriptedModel(Model):
    """A model that answers each call with the next step of a script, given the input it was sent (history
    and tool outputs included), which it keeps in `inputs`."""

    def __init__(self, *steps: Step) -> None:
        self.steps = list(steps)
        self.inputs: list[list[dict[str, Any]]] = []

    async def get_response(
        self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any
    ) -> ModelResponse:
        items = [{"role": "user", "content": input}] if isinstance(input, str) else [dict(i) for i in input]
        self.inputs.append(items)
        assert self.steps, f"the model was called {len(self.inputs)} times, more than scripted"
        return ModelResponse(output=list(self.steps.pop(0)(items)), usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> _AsyncIterator[TResponseStreamEvent]:
        raise NotImplementedError("the tests run without streaming")


def say(text: str) -> Step:
    return lambda _items: [
        ResponseOutputMessage(
            id=f"msg_{uuid.uuid4().hex[:8]}",
            content=[ResponseOutputText(annotations=[], text=text, type="output_text")],
            role="assistant",
            status="completed",
            type="message",
        )
    ]


def call(name: str, arguments: dict[str, Any], call_id: str = "call_1") -> Step:
    return lambda _items: [
        ResponseFunctionToolCall(
            arguments=json.dumps(arguments),
            call_id=call_id,
            name=name,
            type="function_call",
            id=f"fc_{call_id}",
        )
    ]


def tool_output(items: list[dict[str, Any]]) -> str:
    """The latest function call output the model was sent."""
    outputs = [i for i in items if i.get("type") == "function_call_output"]
    assert outputs, items
    return str(outputs[-1]["output"])


def answer_from_tool(prefix: str) -> Step:
    """Answer with the tool's output, as a model that read it would."""
    return lambda items: say(f"{prefix} {tool_output(items)}")(items)


def texts(items: list[dict[str, Any]]) -> list[str]:
    found = []
    for item in items:
        content = item.get("content")
        if isinstance(content, str):
            found.append(content)
        elif isinstance(content, list):
            found += [part["text"] for part in content if "text" in part]
    return found


@pytest.fixture
async def memory(live_server: str) -> AsyncIterator[AsyncMemoryClient]:
    """A client of the live server in a namespace of its own."""
    namespace = "oa-" + uuid.uuid4().hex[:8]
    async with AsyncMemoryClient(live_server, namespace=namespace) as client:
        await client.create_namespace(namespace)
        yield client


async def extracted(client: AsyncMemoryClient, profile: str) -> None:
    """Wait for the worker to extract what the profile's sessions queued."""
    async for job in client.list_jobs(profile):
        await client.wait_for_job(profile, job.id)


def agent_with(model: Model, client: AsyncMemoryClient, profile: str = "sam") -> Agent[Any]:
    return Agent(
        name="Assistant", instructions="Be brief.", model=model, tools=[recall_tool(profile, client=client)]
    )


async def test_a_runner_conversation_is_in_the_session_api_and_becomes_memories(
    memory: AsyncMemoryClient,
) -> None:
    model = ScriptedModel(say("Noted."), say("Good to know."))
    agent = agent_with(model, memory)
    session = AgentMemorySession("trip", "sam", client=memory)
    assert isinstance(session, Session)  # the SDK's runtime-checkable protocol
    await Runner.run(agent, "I am flying to Tokyo on 3 March for a conference.", session=session)
    result = await Runner.run(agent, "I am vegetarian, keep that in mind for dinners.", session=session)
    assert result.final_output == "Good to know."
    # The second run sent the model the first run's conversation, read back from the server.
    assert texts(model.inputs[1]) == [
        "I am flying to Tokyo on 3 March for a conference.",
        "Noted.",
        "I am vegetarian, keep that in mind for dinners.",
    ]

    history = await memory.get_history("sam", "trip")
    assert [m.role for m in history.messages] == ["user", "assistant", "user", "assistant"]
    assert [p.text for m in history.messages for p in m.parts if p.type == "text"] == [  # type: ignore[union-attr]
        "I am flying to Tokyo on 3 March for a conference.",
        "Noted.",
        "I am vegetarian, keep that in mind for dinners.",
        "Good to know.",
    ]
    items = await session.get_items()
    assert items[0] == {"content": "I am flying to Tokyo on 3 March for a conference.", "role": "user"}
    assert items[1]["type"] == "message" and items[1]["id"].startswith("msg_")  # type: ignore[typeddict-item]
    assert await session.get_items(limit=2) == items[-2:]
    assert (
        await AgentMemorySession(
            "trip", "sam", client=memory, session_settings=SessionSettings(limit=1)
        ).get_items()
        == items[-1:]
    )
    assert await session.get_items(limit=0) == []

    await extracted(memory, "sam")
    flight = await memory.recall("sam", "Where am I flying to?")
    assert any("Tokyo" in c.summary for c in flight.candidates), flight
    diet = await memory.recall("sam", "Is the user vegetarian?")
    assert any("vegetarian" in c.summary for c in diet.candidates), diet


async def test_tool_calls_round_trip_and_the_recall_tool_answers_from_memory(
    memory: AsyncMemoryClient,
) -> None:
    await memory.remember("sam", "Sam is allergic to peanuts.")
    model = ScriptedModel(
        call("recall_memory", {"query": "What is Sam allergic to?"}),
        answer_from_tool("From memory:"),
        call("recall_memory", {"query": "What is Sam's favourite opera?"}, call_id="call_2"),
        answer_from_tool("From memory:"),
    )
    agent = agent_with(model, memory)
    session = AgentMemorySession("allergies", "sam", client=memory)
    result = await Runner.run(agent, "Can I have the satay?", session=session)
    assert "peanuts" in str(result.final_output)
    result = await Runner.run(agent, "Which opera should we see?", session=session)
    assert result.final_output == "From memory: Nothing relevant is remembered."

    items = await session.get_items()
    kinds = [item.get("type", "message") for item in items]
    assert kinds == ["message", "function_call", "function_call_output", "message"] * 2
    assert items[1]["name"] == "recall_memory" and items[1]["call_id"] == "call_1"  # type: ignore[typeddict-item]
    assert "peanuts" in str(items[2]["output"])  # type: ignore[typeddict-item]
    # Whole in the data part; text parts only where there is text to remember.
    history = await memory.get_history("sam", "allergies")
    assert [[p.type for p in m.parts] for m in history.messages[:4]] == [
        ["text", ITEM_PART],
        [ITEM_PART],
        [ITEM_PART],
        ["text", ITEM_PART],
    ]


async def test_branches_stay_as_they_are(memory: AsyncMemoryClient) -> None:
    agent = agent_with(ScriptedModel(say("Lisbon is lovely."), say("Pack light.")), memory)
    session = AgentMemorySession("travel", "sam", client=memory)
    await Runner.run(agent, "I am moving to Lisbon.", session=session)
    first, answer = (await memory.get_history("sam", "travel")).messages
    # Another client (an inspector, the AI SDK) regenerates the answer: a branch beside the agent's.
    await memory.append_message(
        "sam",
        "travel",
        {"id": "regenerated", "role": "assistant", "parts": [{"type": "text", "text": "Lisbon, great!"}]},
        parent_id=first.id,
    )
    items = await session.get_items()  # the path to the latest leaf, the other client's message as text
    assert items[-1] == {"role": "assistant", "content": "Lisbon, great!"}
    await Runner.run(agent, "What should I pack?", session=session)
    popped = await session.pop_item()
    assert texts([dict(popped or {})]) == ["Pack light."]

    # The agent's first answer is still there, on its own branch; the tree was never rewritten.
    branches = await memory.get_message_branches("sam", "travel", first.id)
    assert {m.id for m in branches} == {answer.id, "regenerated"}
    kept = await memory.get_history("sam", "travel", leaf_id=answer.id)
    assert [m.id for m in kept.messages] == [first.id, answer.id]
    latest = await memory.get_history("sam", "travel")
    assert [m.id for m in latest.messages][:2] == [first.id, "regenerated"]
    assert texts([dict(i) for i in await session.get_items()])[-1] == "What should I pack?"


async def test_pop_clear_and_an_unknown_session(memory: AsyncMemoryClient) -> None:
    nothing = AgentMemorySession("never", "nobody", client=memory)
    assert await nothing.get_items() == []
    assert await nothing.pop_item() is None
    await nothing.clear_session()

    session = AgentMemorySession("short", "sam", client=memory)
    items: list[TResponseInputItem] = [
        {"role": "system", "content": "You are terse."},
        {"role": "user", "content": "Hello"},
        {"role": "assistant", "content": "Hi."},
    ]
    await session.add_items(items)
    assert [m.role for m in (await memory.get_history("sam", "short")).messages] == [
        "system",
        "user",
        "assistant",
    ]
    assert await session.get_items() == items
    assert await session.pop_item() == items[-1]
    assert await session.get_items() == items[:-1]
    await session.clear_session()
    assert await session.get_items() == []
    assert (await memory.get_session("sam", "short")).id == "short"  # the session itself stays


def test_the_page_example_runs_as_written(live_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    (example,) = re.findall(r"```python\n(.*?)```", PAGE.read_text(), flags=re.S)
    monkeypatch.setenv("AGENT_MEMORY_URL", live_server)
    monkeypatch.delenv("AGENT_MEMORY_API_KEY", raising=False)
    monkeypatch.delenv("AGENT_MEMORY_NAMESPACE", raising=False)
    namespace = runpy.run_path(_write(example), run_name="example")
    for run in range(2):  # run again over the first run's state: it answers the same
        model = ScriptedModel(
            say("Noted."),
            say("Noted, vegetarian dinners."),
            call("recall_memory", {"query": "Is the user vegetarian?"}),
            answer_from_tool("Somewhere vegetarian:"),
        )
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            asyncio.run(namespace["main"](model))
        out = printed.getvalue()
        assert "Noted, vegetarian dinners." in out
        assert re.search(r"Somewhere vegetarian: .*vegetarian", out, flags=re.S), out
        assert "['tool_call_item', 'tool_call_output_item', 'message_output_item']" in out
        if run == 0:  # the dinner conversation did not hold the fact: the model recalled it
            assert "vegetarian" not in json.dumps(model.inputs[2])


def _write(code: str) -> str:
    path = Path(__import__("tempfile").mkdtemp()) / "openai_agents_example.py"
    path.write_text(code)
    return str(path)
