"""Every memory operation and a session round trip through the Python client that openapi-python-client
generates from openapi/openapi.json (type-checked with mypy --strict and run against a live server by
.ci/sdk_check.sh; shown in docs/clients.md)."""

import io
import os
import time
import uuid
from typing import TypeVar

from agent_memory_client import AuthenticatedClient
from agent_memory_client.api.export import export_namespace, import_namespace
from agent_memory_client.api.memory import (
    delete_memory,
    delete_session,
    get_job,
    get_memory,
    get_summary,
    ingest,
    list_memories,
    recall,
    remember,
)
from agent_memory_client.api.namespaces import create_namespace
from agent_memory_client.api.profiles import put_profile
from agent_memory_client.api.sessions import append_message, create_session, get_history, search_messages
from agent_memory_client.models import (
    AppendMessage,
    History,
    ImportResult,
    IngestMessage,
    IngestRequest,
    IngestResult,
    JobOut,
    JobStatus,
    MemoryDetail,
    MemoryList,
    MemoryOut,
    MemoryType,
    MessageIn,
    MessageRole,
    NamespaceCreate,
    NamespaceOut,
    ProfileOut,
    RecallRequest,
    RecallResult,
    RememberRequest,
    SearchResults,
    SessionCreate,
    SessionInfo,
    SessionMessage,
    SummaryOut,
    TextPart,
)
from agent_memory_client.types import File

T = TypeVar("T")


def expect(answer: object, kind: type[T]) -> T:
    """The answer if it is what the call promises; a Problem (or nothing) stops the example."""
    if not isinstance(answer, kind):
        raise SystemExit(f"expected {kind.__name__}, got {answer!r}")
    return answer


# In open mode (loopback, no key configured) any token is accepted; otherwise pass a real key.
client = AuthenticatedClient(
    base_url=os.environ.get("AGENT_MEMORY_URL", "http://127.0.0.1:8080"),
    token=os.environ.get("AGENT_MEMORY_KEY", "open-mode"),
)
ns = "sdk-" + uuid.uuid4().hex[:8]
who = "alice"

expect(create_namespace.sync(client=client, body=NamespaceCreate(name=ns)), NamespaceOut)
expect(put_profile.sync(ns, who, client=client), ProfileOut)

# ingest → a background job extracts memories
conversation = IngestRequest(
    session_id="chat-1",
    messages=[
        IngestMessage(role=MessageRole.USER, content="I moved to Lisbon last year and I work as a nurse."),
        IngestMessage(role=MessageRole.USER, content="From now on, always answer in French."),
    ],
)
job_id = expect(ingest.sync(ns, who, client=client, body=conversation), IngestResult).job_id
assert isinstance(job_id, str)
for _ in range(120):
    job = expect(get_job.sync(ns, who, job_id, client=client), JobOut)
    if job.status in (JobStatus.DONE, JobStatus.FAILED):
        break
    time.sleep(0.5)
assert job.status == JobStatus.DONE, job

# recall: thinkingLevel, responseLength and limit keep their server-side defaults
found = expect(
    recall.sync(ns, who, client=client, body=RecallRequest(query="Where do I live?")), RecallResult
)
assert found.count > 0 and "Lisbon" in found.answer, found

# remember, list, get, summary (no body), delete
memory = expect(
    remember.sync(ns, who, client=client, body=RememberRequest(content="Never use emojis.")), MemoryOut
)
facts = expect(list_memories.sync(ns, who, client=client, limit=20, type_=MemoryType.FACT), MemoryList)
assert facts.memories, facts
detail = expect(get_memory.sync(ns, who, memory.id, client=client), MemoryDetail)
assert detail.content == "Never use emojis."
summary = expect(get_summary.sync(ns, who, client=client), SummaryOut)
assert "Lisbon" in summary.summary
assert expect(delete_memory.sync(ns, who, memory.id, client=client), MemoryOut).id == memory.id
assert delete_session.sync_detailed(ns, who, "chat-1", client=client).status_code == 204

# a Session API round trip with typed message parts
expect(
    create_session.sync(ns, who, client=client, body=SessionCreate(id="s1", name="Support chat")), SessionInfo
)
question = MessageIn(
    id="m1", role=MessageRole.USER, parts=[TextPart(type_="text", text="Deploying tonight?")]
)
expect(
    append_message.sync(ns, who, "s1", client=client, body=AppendMessage(message=question)), SessionMessage
)
history = expect(get_history.sync(ns, who, "s1", client=client), History)
part = history.messages[0].parts[0]
assert isinstance(part, TextPart) and part.text == "Deploying tonight?", part
hits = expect(search_messages.sync(ns, who, client=client, q="deployment"), SearchResults)
assert [hit.session_id for hit in hits.results] == ["s1"]

# export the profile (NDJSON: the client hands back the raw bytes) and import it into another namespace
exported = export_namespace.sync_detailed(ns, client=client, profile=who)
assert exported.status_code == 200 and exported.content.startswith(b"{"), exported
copy = expect(create_namespace.sync(client=client, body=NamespaceCreate(name=ns + "-copy")), NamespaceOut)
upload = File(payload=io.BytesIO(exported.content))
imported = expect(import_namespace.sync(copy.name, client=client, body=upload), ImportResult)
assert imported.inserted["profile"] == 1 and imported.records > 1, imported
print(f"python client: every memory operation, a session round trip and export / import passed in {ns}")
