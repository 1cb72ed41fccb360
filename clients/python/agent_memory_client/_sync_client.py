"""`MemoryClient`: the synchronous client, one method per operation of the Agent Memory API, over httpx.

Written by clients/python/scripts/unasync.py from _async_client.py (do not edit: edit that file, then run
the script); the same methods, without async/await. See `AsyncMemoryClient` there for what they share.
"""

from __future__ import annotations

import builtins
import time
from collections.abc import Iterator, Mapping, Sequence
from datetime import date, datetime
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel

from agent_memory_client import _config as config
from agent_memory_client._config import UNSET, RetryPolicy, body, parse, segment
from agent_memory_client.errors import ConflictError, ConnectionFailed, error_from_response
from agent_memory_client.models import (
    AppendMessage,
    AppendMessages,
    BlockDefine,
    BlockDefineScope,
    BlockKind,
    BlockList,
    BlockOut,
    CompactionIn,
    CompactionList,
    CompactionOut,
    CompactRequest,
    ContentWrite,
    CurrentKey,
    DeletedMessages,
    DeleteMessages,
    DeliveryList,
    DeliveryOut,
    EditRequest,
    EntryList,
    EntryOut,
    EntryWrite,
    EventOut,
    EventPage,
    EventType,
    ForkRequest,
    Health,
    History,
    ImportResult,
    IngestMessage,
    IngestRequest,
    IngestResult,
    JobList,
    JobOut,
    JobStatus,
    KeyCreate,
    KeyCreated,
    KeyList,
    KeyOut,
    MemoryDetail,
    MemoryHistory,
    MemoryList,
    MemoryOut,
    MemorySummary,
    MemoryType,
    MessageIn,
    MessageList,
    NamespaceCreate,
    NamespaceList,
    NamespaceOut,
    NamespaceQuotas,
    ProfileDetail,
    ProfileList,
    ProfileOut,
    QuotaSettings,
    Readiness,
    RecallRequest,
    RecallResult,
    RememberRequest,
    ResponseLength,
    SearchResults,
    SecretRotated,
    SecretRotation,
    SessionCreate,
    SessionInfo,
    SessionList,
    SessionMessage,
    SessionUpdate,
    SplitRequest,
    SummaryOut,
    SummaryRequest,
    SystemPrompt,
    ThinkingLevel,
    Tombstone,
    TombstoneList,
    ToolCall,
    ToolDefinition,
    ToolList,
    ToolResult,
    UsageIn,
    WebhookCreate,
    WebhookCreated,
    WebhookCreateTypes,
    WebhookList,
    WebhookOut,
    WebhookUpdate,
    WriteAction,
)

T = TypeVar("T", bound=BaseModel)

# POSTs that are safe to send twice: recall and the summary only read; the server keeps one copy of a
# conversation sent again (ingest) and of a statement remembered again (remember answers 200). Every GET,
# PUT and DELETE is idempotent by HTTP's rules. Any other POST is sent once.
_IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "PUT", "DELETE"})


class MemoryClient:
    """A client of one Agent Memory server.

    `base_url` (else AGENT_MEMORY_URL, else http://127.0.0.1:8080), `api_key` (else AGENT_MEMORY_API_KEY;
    none on an open server), `namespace` (else AGENT_MEMORY_NAMESPACE): the default of every call.
    `timeout` in seconds (or an httpx.Timeout); `retries` / `backoff`: how idempotent calls are retried on
    503 and on failed connections. `http_client` replaces the httpx client built here (its base URL and
    headers are then yours to set); `transport` plugs an httpx transport (a test's, a proxy's) into it.
    """

    def __init__(
        self,
        base_url: str | None = None,
        *,
        api_key: str | None = None,
        namespace: str | None = None,
        timeout: float | httpx.Timeout = 30.0,
        retries: int = 3,
        backoff: float = 0.5,
        headers: Mapping[str, str] | None = None,
        transport: httpx.BaseTransport | None = None,
        http_client: httpx.Client | None = None,
        consistency_header: str = config.CONSISTENCY_HEADER,
    ) -> None:
        self.base_url = config.resolve_base_url(base_url)
        self.namespace = config.resolve_namespace(namespace)
        self.retry = RetryPolicy(retries, backoff)
        self.consistency = config.ConsistencyToken(consistency_header)
        self._http = http_client or httpx.Client(
            base_url=self.base_url,
            headers=config.default_headers(config.resolve_api_key(api_key), headers),
            timeout=timeout,
            transport=transport,
        )

    def __enter__(self) -> MemoryClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    # -- plumbing ----------------------------------------------------------------------------------------

    def _request(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: Mapping[str, Any] | None = None,
        content: bytes | None = None,
        headers: Mapping[str, str] | None = None,
        idempotent: bool | None = None,
        timeout: float | None = None,
    ) -> httpx.Response:
        """Send one call; retried on 503 and connection failures when it is idempotent (by its method, or as
        the caller says); an error status raises the matching APIError."""
        retryable = method in _IDEMPOTENT_METHODS if idempotent is None else idempotent
        attempt = 0
        while True:
            sent = self.consistency.apply(dict(headers or {}))
            try:
                response = self._http.request(
                    method,
                    path,
                    json=json,
                    params=params,
                    content=content,
                    headers=sent,
                    timeout=httpx.USE_CLIENT_DEFAULT if timeout is None else timeout,
                )
            except httpx.TransportError as exc:
                if retryable and attempt < self.retry.retries:
                    time.sleep(self.retry.delay(attempt, None))
                    attempt += 1
                    continue
                raise ConnectionFailed(f"{method} {path}: {type(exc).__name__}: {exc}", cause=exc) from exc
            self.consistency.observe(response)
            if response.status_code == 503 and retryable and attempt < self.retry.retries:
                time.sleep(self.retry.delay(attempt, response))
                attempt += 1
                continue
            if response.is_error:
                raise error_from_response(response)
            return response

    def _get(self, model: type[T], path: str, **params: Any) -> T:
        return parse(model, self._request("GET", path, params=config.query(**params)))

    def _pages(
        self, path: str, model: type[T], field: str, page_size: int | None, **params: Any
    ) -> Iterator[Any]:
        """Every page of a cursor-paged list, fetched as the items run out (a generator of items)."""
        cursor: str | None = None
        while True:
            page = self._get(model, path, limit=page_size, cursor=cursor, **params)
            yield from getattr(page, field)
            cursor = getattr(page, "cursor", None)
            if not cursor:
                return

    def _ns(self, namespace: str | None) -> str:
        chosen = namespace or self.namespace
        if not chosen:
            raise ValueError(
                "no namespace: pass namespace= to the call or the client, or set AGENT_MEMORY_NAMESPACE"
            )
        return f"/v1/namespaces/{segment(chosen)}"

    def _profile(self, profile: str, namespace: str | None) -> str:
        return f"{self._ns(namespace)}/profiles/{segment(profile)}"

    def _session(self, profile: str, session_id: str, namespace: str | None) -> str:
        return f"{self._profile(profile, namespace)}/sessions/{segment(session_id)}"

    # -- service -----------------------------------------------------------------------------------------

    def healthz(self) -> Health:
        """Liveness: the process answers."""
        return self._get(Health, "/healthz")

    def readyz(self) -> Readiness:
        """Readiness: the database is reachable and migrated (a 503 raises UnavailableError after retries)."""
        return self._get(Readiness, "/readyz")

    # -- namespaces and keys -----------------------------------------------------------------------------

    def create_namespace(self, name: str, *, exist_ok: bool = False) -> NamespaceOut:
        """Create a namespace (admin key); with `exist_ok`, an existing one is returned instead of a 409."""
        try:
            response = self._request("POST", "/v1/namespaces", json=body(NamespaceCreate, name=name))
        except ConflictError:
            if not exist_ok:
                raise
            return self.get_namespace(name)
        return parse(NamespaceOut, response)

    def get_namespace(self, name: str | None = None) -> NamespaceOut:
        return self._get(NamespaceOut, self._ns(name))

    def list_namespaces(self, *, page_size: int | None = None) -> Iterator[NamespaceOut]:
        yield from self._pages("/v1/namespaces", NamespaceList, "namespaces", page_size)

    def delete_namespace(self, name: str | None = None) -> None:
        self._request("DELETE", self._ns(name))

    def get_current_key(self) -> CurrentKey:
        """What the client's key may reach: everything (admin) or one namespace."""
        return self._get(CurrentKey, "/v1/key")

    def list_keys(self, *, namespace: str | None = None) -> builtins.list[KeyOut]:
        return self._get(KeyList, f"{self._ns(namespace)}/keys").keys

    def create_key(self, name: str, *, namespace: str | None = None) -> KeyCreated:
        """A key limited to the namespace; its secret (`key`) is in this answer only."""
        response = self._request("POST", f"{self._ns(namespace)}/keys", json=body(KeyCreate, name=name))
        return parse(KeyCreated, response)

    def revoke_key(self, key_id: str, *, namespace: str | None = None) -> None:
        self._request("DELETE", f"{self._ns(namespace)}/keys/{segment(key_id)}")

    def get_quotas(self, name: str | None = None) -> NamespaceQuotas:
        """The namespace's quotas: each limit in force (None: none), where it comes from, the usage now."""
        return self._get(NamespaceQuotas, f"{self._ns(name)}/quotas")

    def set_quotas(
        self,
        name: str | None = None,
        *,
        memories: int | None = None,
        messages: int | None = None,
        bytes: int | None = None,
        requests_per_minute: int | None = None,
    ) -> NamespaceQuotas:
        """Set the namespace's own limits (the server's admin key only). All four are replaced: one left
        None takes the server's default; 0 is no limit."""
        limits = body(
            QuotaSettings,
            memories=memories,
            messages=messages,
            bytes=bytes,
            requests_per_minute=requests_per_minute,
        )
        return parse(NamespaceQuotas, self._request("PUT", f"{self._ns(name)}/quotas", json=limits))

    # -- profiles ----------------------------------------------------------------------------------------

    def put_profile(self, profile: str, *, namespace: str | None = None) -> ProfileOut:
        """Create the profile if it is not there (writes create it too)."""
        return parse(ProfileOut, self._request("PUT", self._profile(profile, namespace)))

    def get_profile(self, profile: str, *, namespace: str | None = None) -> ProfileDetail:
        return self._get(ProfileDetail, self._profile(profile, namespace))

    def list_profiles(
        self, *, namespace: str | None = None, page_size: int | None = None
    ) -> Iterator[ProfileOut]:
        yield from self._pages(f"{self._ns(namespace)}/profiles", ProfileList, "profiles", page_size)

    def delete_profile(self, profile: str, *, namespace: str | None = None) -> None:
        """Gone at once (the name is free again); its data is purged by the worker."""
        self._request("DELETE", self._profile(profile, namespace))

    # -- memory ------------------------------------------------------------------------------------------

    def ingest(
        self,
        profile: str,
        messages: Sequence[IngestMessage | Mapping[str, Any]],
        *,
        session_id: str | None = None,
        namespace: str | None = None,
    ) -> IngestResult:
        """Store a conversation (1–500 `{role, content, timestamp?, name?}`); the worker extracts memories
        from it in the background (`wait_for_job(result.job_id)`). Sending it again adds nothing."""
        payload = body(IngestRequest, messages=messages, session_id=session_id)
        response = self._request(
            "POST", f"{self._profile(profile, namespace)}/ingest", json=payload, idempotent=True
        )
        return parse(IngestResult, response)

    def get_job(self, profile: str, job_id: str, *, namespace: str | None = None) -> JobOut:
        return self._get(JobOut, f"{self._profile(profile, namespace)}/jobs/{segment(job_id)}")

    def list_jobs(
        self,
        profile: str,
        *,
        status: JobStatus | None = None,
        namespace: str | None = None,
        page_size: int | None = None,
    ) -> Iterator[JobOut]:
        path = f"{self._profile(profile, namespace)}/jobs"
        yield from self._pages(path, JobList, "jobs", page_size, status=status)

    def retry_job(self, profile: str, job_id: str, *, namespace: str | None = None) -> JobOut:
        path = f"{self._profile(profile, namespace)}/jobs/{segment(job_id)}/retry"
        return parse(JobOut, self._request("POST", path))

    def wait_for_job(
        self,
        profile: str,
        job_id: str | None,
        *,
        timeout: float = 60.0,
        interval: float = 0.2,
        namespace: str | None = None,
    ) -> JobOut | None:
        """Poll a job until it is `done` or `failed` (TimeoutError past `timeout` seconds). `None` (an ingest
        that had nothing new) answers `None` at once: there is nothing to wait for."""
        if job_id is None:
            return None
        deadline = time.monotonic() + timeout
        while True:
            job = self.get_job(profile, job_id, namespace=namespace)
            if job.status in ("done", "failed"):
                return job
            if time.monotonic() >= deadline:
                raise TimeoutError(f"job {job_id} still {job.status} after {timeout} s")
            time.sleep(interval)

    def remember(
        self,
        profile: str,
        content: str,
        *,
        session_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        restore: bool | None = None,
        namespace: str | None = None,
    ) -> MemoryOut:
        """Store one statement as a memory now (no worker involved); one already known is returned as it is.
        A statement the profile deleted raises ConflictError (`memory_forgotten`) unless `restore=True`."""
        payload = body(
            RememberRequest, content=content, session_id=session_id, metadata=metadata, restore=restore
        )
        response = self._request(
            "POST", f"{self._profile(profile, namespace)}/remember", json=payload, idempotent=True
        )
        return parse(MemoryOut, response)

    def recall(
        self,
        profile: str,
        query: str,
        *,
        limit: int | None = None,
        min_score: float | None = None,
        thinking_level: ThinkingLevel | None = None,
        response_length: ResponseLength | None = None,
        reference_date: date | datetime | None = None,
        as_of: datetime | None = None,
        metadata: Mapping[str, Any] | None = None,
        trace: bool | None = None,
        namespace: str | None = None,
    ) -> RecallResult:
        """Answer a question from the profile's memories: `answer` and the `candidates` it drew on, each
        with a `score` (0–1). Left out, a setting keeps the server's default (docs/recall.md)."""
        payload = body(
            RecallRequest,
            query=query,
            limit=limit,
            min_score=min_score,
            thinking_level=thinking_level,
            response_length=response_length,
            reference_date=reference_date,
            as_of=as_of,
            metadata=metadata,
            trace=trace,
        )
        response = self._request(
            "POST", f"{self._profile(profile, namespace)}/recall", json=payload, idempotent=True
        )
        return parse(RecallResult, response)

    def list(
        self,
        profile: str,
        *,
        type: MemoryType | None = None,
        session_id: str | None = None,
        q: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        include: str | None = None,
        as_of: datetime | None = None,
        namespace: str | None = None,
        page_size: int | None = None,
    ) -> Iterator[MemorySummary]:
        """The profile's memories, newest first, every page (`page_size` per request). `include="superseded"`
        lists replaced ones too; `metadata` keeps those whose metadata has each key with that value."""
        path = f"{self._profile(profile, namespace)}/memories"
        filters = {"type": type, "session_id": session_id, "q": q, "metadata": metadata, "include": include}
        yield from self._pages(path, MemoryList, "memories", page_size, as_of=as_of, **filters)

    def get(
        self, profile: str, memory_id: str, *, as_of: datetime | None = None, namespace: str | None = None
    ) -> MemoryDetail:
        """One memory with the messages it came from."""
        path = f"{self._profile(profile, namespace)}/memories/{segment(memory_id)}"
        return self._get(MemoryDetail, path, as_of=as_of)

    def edit(
        self,
        profile: str,
        memory_id: str,
        *,
        content: str | None = None,
        summary: str | None = None,
        type: MemoryType | None = None,
        metadata: Mapping[str, Any] | None = None,
        namespace: str | None = None,
    ) -> MemoryOut:
        """Correct a memory: what is given replaces the current value (a new version)."""
        payload = body(EditRequest, content=content, summary=summary, type=type, metadata=metadata)
        path = f"{self._profile(profile, namespace)}/memories/{segment(memory_id)}"
        return parse(MemoryOut, self._request("PATCH", path, json=payload))

    def history(self, profile: str, memory_id: str, *, namespace: str | None = None) -> MemoryHistory:
        path = f"{self._profile(profile, namespace)}/memories/{segment(memory_id)}/history"
        return self._get(MemoryHistory, path)

    def delete(self, profile: str, memory_id: str, *, namespace: str | None = None) -> MemoryOut:
        """Delete a memory (and the source messages no other memory cites); it stays deleted when the
        conversation is sent again (a tombstone)."""
        path = f"{self._profile(profile, namespace)}/memories/{segment(memory_id)}"
        return parse(MemoryOut, self._request("DELETE", path))

    def delete_session(self, profile: str, session_id: str, *, namespace: str | None = None) -> None:
        """Delete a session: its messages and the memories drawn from it (idempotent)."""
        self._request("DELETE", self._session(profile, session_id, namespace))

    def get_summary(
        self,
        profile: str,
        *,
        session_id: str | None = None,
        response_length: ResponseLength | None = None,
        namespace: str | None = None,
    ) -> SummaryOut:
        """A Markdown digest of the profile's memories, for the top of a system prompt."""
        payload = body(SummaryRequest, session_id=session_id, response_length=response_length)
        response = self._request(
            "POST", f"{self._profile(profile, namespace)}/summary", json=payload, idempotent=True
        )
        return parse(SummaryOut, response)

    def list_tombstones(
        self, profile: str, *, namespace: str | None = None, page_size: int | None = None
    ) -> Iterator[Tombstone]:
        path = f"{self._profile(profile, namespace)}/tombstones"
        yield from self._pages(path, TombstoneList, "tombstones", page_size)

    def lift_tombstone(self, profile: str, tombstone_id: str, *, namespace: str | None = None) -> None:
        """Let a deleted memory come back (from a re-sent conversation, a remember or an import)."""
        self._request("DELETE", f"{self._profile(profile, namespace)}/tombstones/{segment(tombstone_id)}")

    def search_messages(
        self, profile: str, q: str, *, limit: int | None = None, namespace: str | None = None
    ) -> SearchResults:
        """Full text over every stored message of the profile, best match first."""
        return self._get(SearchResults, f"{self._profile(profile, namespace)}/search", q=q, limit=limit)

    # -- export / import ---------------------------------------------------------------------------------

    def export_namespace(self, *, profile: str | None = None, namespace: str | None = None) -> bytes:
        """The namespace (or one profile of it) as NDJSON, for `import_namespace`."""
        response = self._request("GET", f"{self._ns(namespace)}/export", params=config.query(profile=profile))
        return response.content

    def import_namespace(self, data: bytes, *, namespace: str | None = None) -> ImportResult:
        """Load an export into the namespace; rows already there are skipped (a re-import adds nothing)."""
        response = self._request(
            "POST",
            f"{self._ns(namespace)}/import",
            content=data,
            headers={"Content-Type": "application/x-ndjson"},
            idempotent=True,
        )
        return parse(ImportResult, response)

    # -- events ------------------------------------------------------------------------------------------

    def list_events(
        self,
        *,
        after: int = 0,
        types: Sequence[EventType] | None = None,
        profile: str | None = None,
        limit: int | None = None,
        wait: float | None = None,
        namespace: str | None = None,
    ) -> EventPage:
        """One page of the namespace's events after the cursor `after` (a page's `cursor`), in commit order;
        with `wait`, an empty feed is long-polled that many seconds (the request's timeout grows by it)."""
        read = self._http.timeout.read
        timeout = None if not wait else (read or 0.0) + wait
        response = self._request(
            "GET",
            f"{self._ns(namespace)}/events",
            params=config.query(
                after=after, types=list(types) if types else None, profile=profile, limit=limit, wait=wait
            ),
            timeout=timeout,
        )
        return parse(EventPage, response)

    def iter_events(
        self,
        *,
        after: int = 0,
        types: Sequence[EventType] | None = None,
        profile: str | None = None,
        page_size: int | None = None,
        follow: bool = False,
        wait: float = 30.0,
        namespace: str | None = None,
    ) -> Iterator[EventOut]:
        """Every event after `after`, page by page, until the feed is read to the end; with `follow`, then
        waits for new ones (long-polling `wait` seconds a request) and never ends: stop when you are done."""
        cursor = after
        while True:
            page = self.list_events(
                after=cursor,
                types=types,
                profile=profile,
                limit=page_size,
                wait=wait if follow else None,
                namespace=namespace,
            )
            yield from page.events
            cursor = page.cursor
            if not page.has_more and not follow:
                return

    # -- webhooks ----------------------------------------------------------------------------------------

    def create_webhook(
        self,
        url: str,
        *,
        types: Sequence[WebhookCreateTypes] | None = None,
        profile: str | None = None,
        namespace: str | None = None,
    ) -> WebhookCreated:
        """An endpoint the namespace's events are POSTed to, signed; its `secret` is in this answer only."""
        payload = body(WebhookCreate, url=url, types=types, profile=profile)
        return parse(WebhookCreated, self._request("POST", f"{self._ns(namespace)}/webhooks", json=payload))

    def list_webhooks(self, *, namespace: str | None = None) -> builtins.list[WebhookOut]:
        return self._get(WebhookList, f"{self._ns(namespace)}/webhooks").webhooks

    def get_webhook(self, webhook_id: str, *, namespace: str | None = None) -> WebhookOut:
        return self._get(WebhookOut, f"{self._ns(namespace)}/webhooks/{segment(webhook_id)}")

    def update_webhook(
        self,
        webhook_id: str,
        *,
        enabled: bool | None = UNSET,
        types: Sequence[WebhookCreateTypes] | None = UNSET,
        profile: str | None = UNSET,
        namespace: str | None = None,
    ) -> WebhookOut:
        """Change what is given (`None` clears `types` / `profile`: every type, every profile)."""
        given = {
            k: v
            for k, v in {"enabled": enabled, "types": types, "profile": profile}.items()
            if v is not UNSET
        }
        payload = WebhookUpdate(**given).model_dump(mode="json", by_alias=True, exclude_unset=True)
        path = f"{self._ns(namespace)}/webhooks/{segment(webhook_id)}"
        return parse(WebhookOut, self._request("PATCH", path, json=payload))

    def delete_webhook(self, webhook_id: str, *, namespace: str | None = None) -> None:
        self._request("DELETE", f"{self._ns(namespace)}/webhooks/{segment(webhook_id)}")

    def list_deliveries(
        self, webhook_id: str, *, namespace: str | None = None, page_size: int | None = None
    ) -> Iterator[DeliveryOut]:
        """The endpoint's deliveries, newest first, every page."""
        path = f"{self._ns(namespace)}/webhooks/{segment(webhook_id)}/deliveries"
        yield from self._pages(path, DeliveryList, "deliveries", page_size)

    def redeliver(self, webhook_id: str, delivery_id: str, *, namespace: str | None = None) -> DeliveryOut:
        """Send a delivery's event again (a new delivery, outside the ordered stream)."""
        path = f"{self._ns(namespace)}/webhooks/{segment(webhook_id)}/deliveries/{segment(delivery_id)}/redeliver"
        return parse(DeliveryOut, self._request("POST", path))

    def rotate_webhook_secret(
        self, webhook_id: str, *, grace_seconds: float | None = None, namespace: str | None = None
    ) -> SecretRotated:
        """A new signing secret (shown once); the old one keeps signing for `grace_seconds`."""
        path = f"{self._ns(namespace)}/webhooks/{segment(webhook_id)}/rotate-secret"
        payload = body(SecretRotation, grace_seconds=grace_seconds)
        return parse(SecretRotated, self._request("POST", path, json=payload))

    def send_test_event(self, webhook_id: str, *, namespace: str | None = None) -> DeliveryOut:
        """A test event delivered to the endpoint now."""
        path = f"{self._ns(namespace)}/webhooks/{segment(webhook_id)}/test"
        return parse(DeliveryOut, self._request("POST", path))

    # -- sessions ----------------------------------------------------------------------------------------

    def create_session(
        self,
        profile: str,
        *,
        id: str | None = None,
        name: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        extract_memories: bool | None = None,
        compact_after: int | None = None,
        model: str | None = None,
        source: str | None = None,
        parent_session_id: str | None = None,
        namespace: str | None = None,
    ) -> SessionInfo:
        """A session made beforehand (its first message makes one too). `extract_memories=False`: its
        messages never become memories."""
        payload = body(
            SessionCreate,
            id=id,
            name=name,
            metadata=metadata,
            extract_memories=extract_memories,
            compact_after=compact_after,
            model=model,
            source=source,
            parent_session_id=parent_session_id,
        )
        response = self._request("POST", f"{self._profile(profile, namespace)}/sessions", json=payload)
        return parse(SessionInfo, response)

    def list_sessions(
        self, profile: str, *, namespace: str | None = None, page_size: int | None = None
    ) -> Iterator[SessionInfo]:
        path = f"{self._profile(profile, namespace)}/sessions"
        yield from self._pages(path, SessionList, "sessions", page_size)

    def get_session(self, profile: str, session_id: str, *, namespace: str | None = None) -> SessionInfo:
        return self._get(SessionInfo, self._session(profile, session_id, namespace))

    def update_session(
        self,
        profile: str,
        session_id: str,
        *,
        name: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        extract_memories: bool | None = None,
        compact_after: int | None = None,
        namespace: str | None = None,
    ) -> SessionInfo:
        payload = body(
            SessionUpdate,
            name=name,
            metadata=metadata,
            extract_memories=extract_memories,
            compact_after=compact_after,
        )
        response = self._request("PATCH", self._session(profile, session_id, namespace), json=payload)
        return parse(SessionInfo, response)

    def append_message(
        self,
        profile: str,
        session_id: str,
        message: MessageIn | Mapping[str, Any],
        *,
        parent_id: str | None = UNSET,
        namespace: str | None = None,
    ) -> SessionMessage:
        """Add a message (an AI SDK UIMessage: `{id, role, parts}`) after `parent_id`: left out, the latest
        leaf; `None`, a new root. Sending the same message again answers it unchanged."""
        payload = _with_parent(body(AppendMessage, message=message), parent_id)
        path = f"{self._session(profile, session_id, namespace)}/messages"
        return parse(SessionMessage, self._request("POST", path, json=payload))

    def append_messages(
        self,
        profile: str,
        session_id: str,
        messages: Sequence[MessageIn | Mapping[str, Any]],
        *,
        parent_id: str | None = UNSET,
        namespace: str | None = None,
    ) -> builtins.list[SessionMessage]:
        """Add messages in order, each the child of the one before (the first after `parent_id`)."""
        payload = _with_parent(body(AppendMessages, messages=messages), parent_id)
        path = f"{self._session(profile, session_id, namespace)}/messages/batch"
        return parse(MessageList, self._request("POST", path, json=payload)).messages

    def upsert_message(
        self,
        profile: str,
        session_id: str,
        message: MessageIn | Mapping[str, Any],
        *,
        parent_id: str | None = UNSET,
        namespace: str | None = None,
    ) -> SessionMessage:
        """Create or replace the message with this id (a streamed answer written as it grows)."""
        checked = MessageIn.model_validate(message) if isinstance(message, Mapping) else message
        payload = _with_parent(body(AppendMessage, message=checked), parent_id)
        path = f"{self._session(profile, session_id, namespace)}/messages/{segment(checked.id)}"
        response = self._request("PUT", path, json=payload)
        if response.content:
            return parse(SessionMessage, response)
        return self.get_session_message(profile, session_id, checked.id, namespace=namespace)

    def get_session_message(
        self, profile: str, session_id: str, message_id: str, *, namespace: str | None = None
    ) -> SessionMessage:
        path = f"{self._session(profile, session_id, namespace)}/messages/{segment(message_id)}"
        return self._get(SessionMessage, path)

    def delete_session_message(
        self, profile: str, session_id: str, message_id: str, *, namespace: str | None = None
    ) -> None:
        path = f"{self._session(profile, session_id, namespace)}/messages/{segment(message_id)}"
        self._request("DELETE", path)

    def delete_session_messages(
        self, profile: str, session_id: str, ids: Sequence[str], *, namespace: str | None = None
    ) -> builtins.list[str]:
        """Delete these messages (their descendants stay, re-attached); the ids deleted."""
        path = f"{self._session(profile, session_id, namespace)}/messages/delete"
        response = self._request("POST", path, json=body(DeleteMessages, ids=ids), idempotent=True)
        return parse(DeletedMessages, response).deleted

    def clear_session_messages(self, profile: str, session_id: str, *, namespace: str | None = None) -> None:
        """Delete every message of the session; the session itself stays."""
        self._request("DELETE", f"{self._session(profile, session_id, namespace)}/messages")

    def get_message_branches(
        self, profile: str, session_id: str, message_id: str, *, namespace: str | None = None
    ) -> builtins.list[SessionMessage]:
        path = f"{self._session(profile, session_id, namespace)}/messages/{segment(message_id)}/branches"
        return self._get(MessageList, path).messages

    def get_history(
        self,
        profile: str,
        session_id: str,
        *,
        leaf_id: str | None = None,
        raw: bool | None = None,
        truncate: bool | None = None,
        keep_recent: int | None = None,
        max_tool_output_chars: int | None = None,
        max_text_chars: int | None = None,
        namespace: str | None = None,
    ) -> History:
        """The conversation from its root to `leaf_id` (default the latest leaf), compactions applied unless
        `raw`; `truncate` shortens old tool outputs and texts (docs/sessions.md)."""
        return self._get(
            History,
            f"{self._session(profile, session_id, namespace)}/history",
            leaf_id=leaf_id,
            raw=raw,
            truncate=truncate,
            keep_recent=keep_recent,
            max_tool_output_chars=max_tool_output_chars,
            max_text_chars=max_text_chars,
        )

    def get_latest_leaf(
        self, profile: str, session_id: str, *, namespace: str | None = None
    ) -> SessionMessage | None:
        """The newest message without children; `None` for an empty session."""
        response = self._request("GET", f"{self._session(profile, session_id, namespace)}/leaf")
        data = response.json()
        return None if data is None else SessionMessage.model_validate(data)

    def search_session_messages(
        self, profile: str, session_id: str, q: str, *, limit: int | None = None, namespace: str | None = None
    ) -> SearchResults:
        path = f"{self._session(profile, session_id, namespace)}/search"
        return self._get(SearchResults, path, q=q, limit=limit)

    def fork_session(
        self,
        profile: str,
        session_id: str,
        at_message_id: str,
        *,
        name: str | None = None,
        namespace: str | None = None,
    ) -> SessionInfo:
        """A new session holding a copy of the path up to `at_message_id`."""
        payload = body(ForkRequest, at_message_id=at_message_id, name=name)
        path = f"{self._session(profile, session_id, namespace)}/fork"
        return parse(SessionInfo, self._request("POST", path, json=payload))

    def split_session(
        self,
        profile: str,
        session_id: str,
        summary: str,
        *,
        name: str | None = None,
        namespace: str | None = None,
    ) -> SessionInfo:
        """A new session that starts from `summary`, continuing this one."""
        path = f"{self._session(profile, session_id, namespace)}/split"
        return parse(
            SessionInfo,
            self._request("POST", path, json=body(SplitRequest, summary=summary, name=name)),
        )

    def compact_session(
        self,
        profile: str,
        session_id: str,
        *,
        leaf_id: str | None = None,
        protect_head: int | None = None,
        tail_token_budget: int | None = None,
        min_tail_messages: int | None = None,
        namespace: str | None = None,
    ) -> CompactionOut | None:
        """Summarise the middle of the history into an overlay; `None` when there is nothing to compact."""
        payload = body(
            CompactRequest,
            leaf_id=leaf_id,
            protect_head=protect_head,
            tail_token_budget=tail_token_budget,
            min_tail_messages=min_tail_messages,
        )
        response = self._request(
            "POST", f"{self._session(profile, session_id, namespace)}/compact", json=payload
        )
        data = response.json()
        return None if data is None else CompactionOut.model_validate(data)

    def list_compactions(
        self, profile: str, session_id: str, *, namespace: str | None = None
    ) -> builtins.list[CompactionOut]:
        path = f"{self._session(profile, session_id, namespace)}/compactions"
        return self._get(CompactionList, path).compactions

    def add_compaction(
        self,
        profile: str,
        session_id: str,
        summary: str,
        from_message_id: str,
        to_message_id: str,
        *,
        namespace: str | None = None,
    ) -> CompactionOut:
        """An overlay replacing [from_message_id, to_message_id] with `summary` on read."""
        payload = body(
            CompactionIn, summary=summary, from_message_id=from_message_id, to_message_id=to_message_id
        )
        path = f"{self._session(profile, session_id, namespace)}/compactions"
        return parse(CompactionOut, self._request("POST", path, json=payload))

    def add_session_usage(
        self,
        profile: str,
        session_id: str,
        *,
        input_tokens: int | None = None,
        output_tokens: int | None = None,
        cost: float | None = None,
        namespace: str | None = None,
    ) -> SessionInfo:
        """Add a model call's token counts and cost to the session's totals."""
        payload = body(UsageIn, input_tokens=input_tokens, output_tokens=output_tokens, cost=cost)
        path = f"{self._session(profile, session_id, namespace)}/usage"
        return parse(SessionInfo, self._request("POST", path, json=payload))

    # -- context blocks, system prompt, tools ------------------------------------------------------------

    def list_context_blocks(self, profile: str, *, namespace: str | None = None) -> builtins.list[BlockOut]:
        return self._get(BlockList, f"{self._profile(profile, namespace)}/context").blocks

    def put_context_block(
        self,
        profile: str,
        label: str,
        *,
        kind: BlockKind,
        scope: BlockDefineScope | None = None,
        description: str | None = None,
        content: str | None = None,
        max_tokens: int | None = None,
        namespace: str | None = None,
    ) -> BlockOut:
        """Define (or redefine) the block `label`: its kind, scope, description, limit and first content."""
        payload = body(
            BlockDefine,
            kind=kind,
            scope=scope,
            description=description,
            content=content,
            max_tokens=max_tokens,
        )
        path = f"{self._profile(profile, namespace)}/context/{segment(label)}"
        return parse(BlockOut, self._request("PUT", path, json=payload))

    def get_context_block(self, profile: str, label: str, *, namespace: str | None = None) -> BlockOut:
        return self._get(BlockOut, f"{self._profile(profile, namespace)}/context/{segment(label)}")

    def write_context_block(
        self,
        profile: str,
        label: str,
        content: str,
        *,
        action: WriteAction | None = None,
        namespace: str | None = None,
    ) -> BlockOut:
        """Replace (or `action="append"`: add to) a writable block's content."""
        path = f"{self._profile(profile, namespace)}/context/{segment(label)}/content"
        response = self._request("PUT", path, json=body(ContentWrite, content=content, action=action))
        return parse(BlockOut, response)

    def delete_context_block(self, profile: str, label: str, *, namespace: str | None = None) -> None:
        self._request("DELETE", f"{self._profile(profile, namespace)}/context/{segment(label)}")

    def list_context_entries(
        self, profile: str, label: str, *, namespace: str | None = None
    ) -> builtins.list[EntryOut]:
        path = f"{self._profile(profile, namespace)}/context/{segment(label)}/entries"
        return self._get(EntryList, path).entries

    def get_context_entry(
        self, profile: str, label: str, key: str, *, namespace: str | None = None
    ) -> EntryOut:
        path = f"{self._profile(profile, namespace)}/context/{segment(label)}/entries/{segment(key)}"
        return self._get(EntryOut, path)

    def put_context_entry(
        self,
        profile: str,
        label: str,
        key: str,
        content: str,
        *,
        description: str | None = None,
        namespace: str | None = None,
    ) -> EntryOut:
        path = f"{self._profile(profile, namespace)}/context/{segment(label)}/entries/{segment(key)}"
        response = self._request("PUT", path, json=body(EntryWrite, content=content, description=description))
        return parse(EntryOut, response)

    def delete_context_entry(
        self, profile: str, label: str, key: str, *, namespace: str | None = None
    ) -> None:
        path = f"{self._profile(profile, namespace)}/context/{segment(label)}/entries/{segment(key)}"
        self._request("DELETE", path)

    def list_session_context_blocks(
        self, profile: str, session_id: str, *, namespace: str | None = None
    ) -> builtins.list[BlockOut]:
        """The blocks as this session sees them (session-scoped content included)."""
        return self._get(BlockList, f"{self._session(profile, session_id, namespace)}/context").blocks

    def get_session_context_block(
        self, profile: str, session_id: str, label: str, *, namespace: str | None = None
    ) -> BlockOut:
        path = f"{self._session(profile, session_id, namespace)}/context/{segment(label)}"
        return self._get(BlockOut, path)

    def write_session_context_block(
        self,
        profile: str,
        session_id: str,
        label: str,
        content: str,
        *,
        action: WriteAction | None = None,
        namespace: str | None = None,
    ) -> BlockOut:
        path = f"{self._session(profile, session_id, namespace)}/context/{segment(label)}/content"
        response = self._request("PUT", path, json=body(ContentWrite, content=content, action=action))
        return parse(BlockOut, response)

    def list_session_context_entries(
        self, profile: str, session_id: str, label: str, *, namespace: str | None = None
    ) -> builtins.list[EntryOut]:
        path = f"{self._session(profile, session_id, namespace)}/context/{segment(label)}/entries"
        return self._get(EntryList, path).entries

    def get_session_context_entry(
        self, profile: str, session_id: str, label: str, key: str, *, namespace: str | None = None
    ) -> EntryOut:
        path = (
            f"{self._session(profile, session_id, namespace)}/context/{segment(label)}/entries/{segment(key)}"
        )
        return self._get(EntryOut, path)

    def put_session_context_entry(
        self,
        profile: str,
        session_id: str,
        label: str,
        key: str,
        content: str,
        *,
        description: str | None = None,
        namespace: str | None = None,
    ) -> EntryOut:
        path = (
            f"{self._session(profile, session_id, namespace)}/context/{segment(label)}/entries/{segment(key)}"
        )
        response = self._request("PUT", path, json=body(EntryWrite, content=content, description=description))
        return parse(EntryOut, response)

    def delete_session_context_entry(
        self, profile: str, session_id: str, label: str, key: str, *, namespace: str | None = None
    ) -> None:
        path = (
            f"{self._session(profile, session_id, namespace)}/context/{segment(label)}/entries/{segment(key)}"
        )
        self._request("DELETE", path)

    def get_system_prompt(self, profile: str, session_id: str, *, namespace: str | None = None) -> str:
        """The session's system prompt, rendered from its blocks (frozen on first read until refreshed)."""
        path = f"{self._session(profile, session_id, namespace)}/system-prompt"
        return self._get(SystemPrompt, path).system_prompt

    def refresh_system_prompt(self, profile: str, session_id: str, *, namespace: str | None = None) -> str:
        path = f"{self._session(profile, session_id, namespace)}/system-prompt/refresh"
        return parse(SystemPrompt, self._request("POST", path, idempotent=True)).system_prompt

    def list_session_tools(
        self, profile: str, session_id: str, *, namespace: str | None = None
    ) -> builtins.list[ToolDefinition]:
        """OpenAI-style tool definitions for the session's blocks (`set_context`, `recall_memory`…)."""
        return self._get(ToolList, f"{self._session(profile, session_id, namespace)}/tools").tools

    def call_session_tool(
        self,
        profile: str,
        session_id: str,
        name: str,
        arguments: Mapping[str, Any] | str | None = None,
        *,
        namespace: str | None = None,
    ) -> ToolResult:
        """Run one of the session's tools with the arguments an LLM gave (an object or its JSON string)."""
        path = f"{self._session(profile, session_id, namespace)}/tools/{segment(name)}"
        payload = body(ToolCall, arguments=dict(arguments) if isinstance(arguments, Mapping) else arguments)
        return parse(ToolResult, self._request("POST", path, json=payload))


def _with_parent(payload: dict[str, Any], parent_id: str | None) -> dict[str, Any]:
    """`parentId` only when given: absent means the latest leaf, `null` a new root."""
    if parent_id is not UNSET:
        payload["parentId"] = parent_id
    return payload
