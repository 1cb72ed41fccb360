"""The LangGraph adapter (agent_memory_client.integrations.langgraph) with LangGraph's own classes against a
live `agent-memory serve`: the BaseStore operations through the API (get, put, put None, search with and
without a query, filter, list_namespaces, the async path), a compiled StateGraph with `store=` that
remembers across threads, and docs/integrations/langgraph.md's example run as written."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypedDict

import pytest
from agent_memory_client import MemoryClient
from agent_memory_client.integrations.langgraph import AgentMemoryStore
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph
from langgraph.runtime import Runtime
from langgraph.store.base import BaseStore

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "integrations" / "langgraph.md"


@pytest.fixture
def memory(live_server: str) -> Iterator[MemoryClient]:
    """A client of the live server in a namespace of its own."""
    namespace = "lg-" + uuid.uuid4().hex[:8]
    with MemoryClient(live_server, namespace=namespace) as client:
        client.create_namespace(namespace)
        yield client


def test_put_get_update_delete(memory: MemoryClient) -> None:
    store = AgentMemoryStore(memory)
    assert store.get(("alice", "memories"), "k1") is None
    store.put(("alice", "memories"), "k1", {"text": "I keep bees on the roof.", "kind": "hobby", "n": 1})
    item = store.get(("alice", "memories"), "k1")
    assert item is not None and item.value == {"text": "I keep bees on the roof.", "kind": "hobby", "n": 1}
    assert item.namespace == ("alice", "memories") and item.key == "k1"
    # It is a memory of the profile named by the tuple's first label, its value kept whole in its metadata.
    (listed,) = memory.list("alice")
    assert memory.get("alice", listed.id).content == "I keep bees on the roof."
    assert listed.metadata is not None and listed.metadata["kind"] == "hobby"

    store.put(("alice", "memories"), "k1", {"text": "I keep bees in the garden.", "kind": "hobby", "n": 2})
    updated = store.get(("alice", "memories"), "k1")
    assert updated is not None and updated.value["n"] == 2 and updated.updated_at >= item.updated_at
    assert memory.get("alice", listed.id).content == "I keep bees in the garden."  # the same memory, edited
    assert store.get(("alice", "other"), "k1") is None  # another tuple of the same profile

    store.delete(("alice", "memories"), "k1")
    assert store.get(("alice", "memories"), "k1") is None
    assert list(memory.list("alice")) == []
    # Put again after the delete: an explicit write brings the text back (the tombstone is lifted).
    store.put(("alice", "memories"), "k1", {"text": "I keep bees in the garden."})
    assert store.get(("alice", "memories"), "k1") is not None


def test_search_filter_and_namespaces(memory: MemoryClient) -> None:
    store = AgentMemoryStore(memory, min_score=0)
    store.put(("bob", "memories"), "a", {"text": "Bob's sister Ana lives in Porto.", "kind": "family"})
    store.put(("bob", "memories"), "b", {"text": "Bob plays the cello every Sunday.", "kind": "hobby"})
    store.put(
        ("bob", "notes", "work"), "c", {"text": "The quarterly report is due in March.", "kind": "work"}
    )
    store.put(("carol", "memories"), "d", {"text": "Carol speaks Japanese.", "kind": "skill"})

    everything = store.search(("bob",))
    assert {i.key for i in everything} == {"a", "b", "c"} and all(i.score is None for i in everything)
    assert {i.key for i in store.search(("bob", "memories"))} == {"a", "b"}
    assert [i.key for i in store.search(("bob",), filter={"kind": "hobby"})] == ["b"]
    assert [i.key for i in store.search(("bob",), filter={"kind": {"$eq": "work"}})] == ["c"]
    assert len(store.search(("bob",), limit=2)) == 2 and len(store.search(("bob",), offset=2)) == 1
    with pytest.raises(NotImplementedError, match=r"\$gt"):
        store.search(("bob",), filter={"n": {"$gt": 1}})

    found = store.search(("bob", "memories"), query="Where does Bob's sister live?")
    assert found and found[0].key == "a" and found[0].score is not None and 0 < found[0].score <= 1
    assert "c" not in {i.key for i in found}  # outside the prefix
    # Across every profile when the prefix names none.
    assert {i.key for i in store.search((), query="Japanese")} >= {"d"}

    assert store.list_namespaces() == [("bob", "memories"), ("bob", "notes", "work"), ("carol", "memories")]
    assert store.list_namespaces(prefix=("bob",), max_depth=2) == [("bob", "memories"), ("bob", "notes")]
    assert store.list_namespaces(suffix=("work",)) == [("bob", "notes", "work")]


def test_profile_label_and_the_contract_edges(memory: MemoryClient) -> None:
    store = AgentMemoryStore(memory, profile_label=1)
    store.put(("memories", "dana"), "x", {"text": "Dana is allergic to peanuts."})
    assert [p.name for p in memory.list_profiles()] == ["dana"]
    assert store.search(("memories",), filter={"text": "Dana is allergic to peanuts."})[0].key == "x"
    with pytest.raises(NotImplementedError, match="TTL"):
        store.put(("memories", "dana"), "y", {"text": "t"}, ttl=5)
    with pytest.raises(ValueError, match="langgraph"):
        store.put(("memories", "dana"), "y", {"langgraph.key": "forged"})
    # The same text under a second key: the profile keeps one copy, the later put takes it over.
    store.put(("memories", "dana"), "z", {"text": "Dana is allergic to peanuts."})
    assert store.get(("memories", "dana"), "z") is not None and store.get(("memories", "dana"), "x") is None
    # A value without text is stored as its JSON.
    store.put(("memories", "dana"), "n", {"count": 3})
    assert store.get(("memories", "dana"), "n") is not None


def test_async_operations(memory: MemoryClient) -> None:
    store = AgentMemoryStore(memory)

    async def run() -> None:
        await store.aput(("erin", "memories"), "k", {"text": "Erin works night shifts at the hospital."})
        item = await store.aget(("erin", "memories"), "k")
        assert item is not None and item.value["text"].startswith("Erin")
        assert [i.key for i in await store.asearch(("erin",))] == ["k"]
        assert await store.alist_namespaces() == [("erin", "memories")]
        await store.adelete(("erin", "memories"), "k")
        assert await store.aget(("erin", "memories"), "k") is None

    asyncio.run(run())


class State(TypedDict, total=False):
    user_id: str
    message: str
    reply: str


def test_a_graph_remembers_across_threads(memory: MemoryClient) -> None:
    """A StateGraph compiled with `store=`: one thread stores, another thread of the same user finds it;
    another user's thread does not."""

    def learn(state: State, runtime: Runtime[Any]) -> State:
        assert isinstance(runtime.store, BaseStore)
        if state["message"].startswith("Remember:"):
            fact = state["message"].removeprefix("Remember:").strip()
            runtime.store.put((state["user_id"], "memories"), str(uuid.uuid4()), {"text": fact})
        return {}

    def answer(state: State, runtime: Runtime[Any]) -> State:
        assert runtime.store is not None
        found = runtime.store.search((state["user_id"], "memories"), query=state["message"], limit=3)
        return {"reply": found[0].value["text"] if found else "I don't know yet."}

    builder = StateGraph(State)
    builder.add_node("learn", learn)
    builder.add_node("answer", answer)
    builder.add_edge(START, "learn")
    builder.add_edge("learn", "answer")
    graph = builder.compile(checkpointer=InMemorySaver(), store=AgentMemoryStore(memory))

    def say(user: str, thread: str, message: str) -> str:
        state = graph.invoke({"user_id": user, "message": message}, {"configurable": {"thread_id": thread}})
        return str(state["reply"])

    say("frank", "t1", "Remember: My daughter Maya was born in 2019.")
    assert "Maya" in say("frank", "t2", "When was my daughter born?")
    assert say("grace", "t3", "When was my daughter born?") == "I don't know yet."
    # The async path of the same graph.
    later = asyncio.run(
        graph.ainvoke(
            {"user_id": "frank", "message": "What is my daughter's name?"},
            {"configurable": {"thread_id": "t4"}},
        )
    )
    assert "Maya" in later["reply"]


def test_docs_example_runs(live_server: str, tmp_path: Path) -> None:
    """docs/integrations/langgraph.md's example as written, twice (the second over the first's state)."""
    (example,) = re.findall(r"```python\n(.*?)```", PAGE.read_text(), flags=re.S)
    expected = re.search(r"#   → (.*)", example)
    assert expected is not None
    script = tmp_path / "langgraph_example.py"
    script.write_text(example)
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENT_MEMORY_")}
    env["AGENT_MEMORY_URL"] = live_server
    env["PYTHONPATH"] = str(
        ROOT / "clients" / "python"
    )  # the package as `pip install ./clients/python` has it
    for _ in range(2):
        ran = subprocess.run(
            [sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=120
        )
        assert ran.returncode == 0, ran.stderr
        assert ran.stdout.strip() == expected.group(1).strip(), ran.stdout
