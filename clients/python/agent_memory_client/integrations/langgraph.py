"""LangGraph's long-term memory store (`langgraph.store.base.BaseStore`) backed by an Agent Memory server.

    pip install "agent-memory-client[langgraph]"

    store = AgentMemoryStore(namespace="demo")            # the server from AGENT_MEMORY_URL, as MemoryClient
    graph = builder.compile(checkpointer=..., store=store)

How LangGraph's items map onto the API (docs/integrations/langgraph.md says the same for users):

- The store works in one Agent Memory namespace (the client's). An item's namespace tuple names the profile
  by one of its labels, the first by default (`(user_id, "memories")`; `profile_label=1` for
  `("memories", user_id)`); the whole tuple and the item's key are kept in the memory's metadata, so any
  depth of tuple works and items of different tuples of one profile stay apart.
- `put` is `remember`: the memory's content is the value's text (its `content` / `text` / `memory` /
  `data` fields, else its string fields, or the fields `index` names; the value as JSON when it has none), so recall finds the item by what it says, and the value is
  kept whole as the memory's metadata (at most 8 KiB, the API's limit), next to the adapter's own keys
  (`langgraph.namespace`, `langgraph.key`, `langgraph.prefix.N`). A put to an existing key edits that
  memory; `value=None` deletes it.
- `get` and `search` without a query list the profile's memories through the metadata filter; `search` with
  a query is `recall` (its `score` is recall's); `filter` is the API's metadata filter on the value's
  top-level fields (exact values: `{"kind": "note"}` or `{"kind": {"$eq": "note"}}`; other operators are
  refused, the API has none).
- The server's memory rules apply as to any memory: the text is typed and summarised, a later statement
  on the same topic supersedes an earlier one in recall (get and search without a query still return it),
  and a profile keeps one copy of a statement: a put of text the profile holds already takes that memory
  over (an earlier item with the same text then reads None; a memory drawn from a conversation becomes
  the item).
- TTL is not supported (`supports_ttl = False`): a put with a ttl raises, as LangGraph's contract says.

`batch` calls the API with the sync client, one call or a few per operation; `abatch` runs it in a worker
thread so the event loop keeps going.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from agent_memory_client import MemoryClient
from agent_memory_client.errors import NotFoundError
from agent_memory_client.models import MemoryDetail, MemoryOut, MemorySummary

NAMESPACE_KEY = "langgraph.namespace"
ITEM_KEY = "langgraph.key"
PREFIX_KEY = "langgraph.prefix.{}"
RESERVED = "langgraph."
# The value fields that hold its text, as LangGraph's examples name them ({"text": …}, {"content": …},
# {"memory": …}, {"data": …}): what the memory says, and recall searches.
TEXT_FIELDS = ("content", "text", "memory", "data")
# Every memory the store lists is its own; list pages of this size.
PAGE_SIZE = 100


class AgentMemoryStore(BaseStore):
    """A LangGraph `BaseStore` over the Agent Memory API (see the module's docstring for the mapping).

    `client`: a `MemoryClient` (else one is made from `base_url`, `api_key` and `namespace`, or the
    AGENT_MEMORY_* environment); `profile_label`: which label of an item's namespace tuple is the profile;
    `min_score`: recall's threshold for `search(query=...)` (None: the server's default, which leaves out
    what does not answer the question; 0: every candidate, ranked); `text_fields`: the value fields whose
    text the memory holds (a put's `index=[...]` names its own).
    """

    supports_ttl = False

    def __init__(
        self,
        client: MemoryClient | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        namespace: str | None = None,
        profile_label: int = 0,
        min_score: float | None = None,
        text_fields: Sequence[str] = TEXT_FIELDS,
    ) -> None:
        if profile_label < 0:
            raise ValueError("profile_label is the index of a label of the namespace tuple: 0 or more")
        self.client = client or MemoryClient(base_url, api_key=api_key, namespace=namespace)
        self.profile_label = profile_label
        self.min_score = min_score
        self.text_fields = tuple(text_fields)

    # -- BaseStore -----------------------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        return [self._run(op) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        # The sync client in a worker thread: one code path for both, and the event loop is not blocked.
        return await asyncio.to_thread(self.batch, list(ops))

    def _run(self, op: Op) -> Result:
        if isinstance(op, GetOp):
            return self._get(op)
        if isinstance(op, PutOp):
            self._put(op)
            return None
        if isinstance(op, SearchOp):
            return self._search(op)
        if isinstance(op, ListNamespacesOp):
            return self._list_namespaces(op)
        raise TypeError(f"unknown store operation: {op!r}")

    # -- operations --------------------------------------------------------------------------------------

    def _get(self, op: GetOp) -> Item | None:
        found = self._find(op.namespace, op.key)
        return None if found is None else _item(found).as_item()

    def _put(self, op: PutOp) -> None:
        if op.ttl is not None:
            raise NotImplementedError("AgentMemoryStore does not support TTL: put without ttl")
        profile = self._profile(op.namespace)
        existing = self._find(op.namespace, op.key)
        if op.value is None:
            if existing is not None:
                self.client.delete(profile, existing.id)
            return
        value = dict(op.value)
        clashes = sorted(name for name in value if name.startswith(RESERVED))
        if clashes:
            raise ValueError(f"value keys starting with {RESERVED!r} are the store's own: {clashes}")
        metadata = {**value, **_marks(op.namespace, op.key)}
        content = _text(value, op.index, self.text_fields)
        if existing is not None:
            same = content.strip() == self.client.get(profile, existing.id).content
            self.client.edit(profile, existing.id, content=None if same else content, metadata=metadata)
            return
        # restore: a put is an explicit write, so text deleted before (a tombstone) may come back.
        memory = self.client.remember(profile, content, metadata=metadata, restore=True)
        if memory.metadata != metadata:
            self._adopt(profile, memory, metadata)

    def _adopt(self, profile: str, memory: MemoryOut, metadata: dict[str, Any]) -> None:
        """remember answered a memory the profile held already (the same text): it becomes this item, taken
        over from the item or the conversation that held it (a profile keeps one copy of a statement)."""
        self.client.edit(profile, memory.id, metadata=metadata)

    def _search(self, op: SearchOp) -> list[SearchItem]:
        values = _value_filter(op.filter)
        wanted = op.offset + op.limit
        if op.query:
            scored: list[SearchItem] = []
            for profile in self._profiles(op.namespace_prefix):
                filters = {**values, **self._scope(profile, op.namespace_prefix)}
                scored.extend(self._recall(profile, op.query, filters, wanted))
            scored.sort(key=lambda item: item.score or 0.0, reverse=True)
            return scored[op.offset : wanted]
        found: list[SearchItem] = []
        for profile in self._profiles(op.namespace_prefix):
            for memory in self._listed(profile, {**values, **self._scope(profile, op.namespace_prefix)}):
                found.append(_item(memory, score=None))
                if len(found) >= wanted:
                    return found[op.offset : wanted]
        return found[op.offset : wanted]

    def _recall(self, profile: str, query: str, filters: dict[str, Any], limit: int) -> list[SearchItem]:
        try:
            recalled = self.client.recall(
                profile, query, limit=min(limit, 100), metadata=filters, min_score=self.min_score
            )
        except NotFoundError:  # a profile that was never written to holds nothing
            return []
        items: list[SearchItem] = []
        for candidate in recalled.candidates:
            detail = self.client.get(profile, candidate.id)
            if _is_item(detail):
                items.append(_item(detail, score=candidate.score))
        return items

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        prefix: tuple[str, ...] = ()
        for condition in op.match_conditions or ():
            if condition.match_type == "prefix" and "*" not in condition.path:
                prefix = tuple(condition.path)
        seen: set[tuple[str, ...]] = set()
        for profile in self._profiles(prefix):
            for memory in self._listed(profile, self._scope(profile, prefix)):
                namespace = tuple((memory.metadata or {})[NAMESPACE_KEY])
                if all(_matches(namespace, c) for c in op.match_conditions or ()):
                    seen.add(namespace[: op.max_depth] if op.max_depth is not None else namespace)
        return sorted(seen)[op.offset : op.offset + op.limit]

    # -- the mapping -------------------------------------------------------------------------------------

    def _profile(self, namespace: tuple[str, ...]) -> str:
        if len(namespace) <= self.profile_label:
            raise InvalidNamespaceError(
                f"namespace {namespace!r} has no label {self.profile_label} to name the profile "
                f"(profile_label={self.profile_label})"
            )
        return namespace[self.profile_label]

    def _profiles(self, prefix: tuple[str, ...]) -> Iterator[str]:
        """The profiles a namespace prefix can reach: the one it names, else every profile."""
        if len(prefix) > self.profile_label:
            yield prefix[self.profile_label]
        else:
            for profile in self.client.list_profiles(page_size=PAGE_SIZE):
                yield profile.name

    def _scope(self, profile: str, prefix: tuple[str, ...]) -> dict[str, Any]:
        """The metadata filter for a namespace prefix within one profile: the prefix of its length, or, for
        an empty one, the profile's own label when it is the first (so only the store's items come)."""
        if not prefix and self.profile_label == 0:
            prefix = (profile,)
        return _prefix_filter(prefix)

    def _find(self, namespace: tuple[str, ...], key: str) -> MemorySummary | None:
        """The item's memory (superseded ones included: an item stays an item)."""
        marks = {NAMESPACE_KEY: list(namespace), ITEM_KEY: key}
        return next(iter(self._listed(self._profile(namespace), marks)), None)

    def _listed(self, profile: str, filters: dict[str, Any]) -> Iterator[MemorySummary]:
        try:
            listed = self.client.list(profile, metadata=filters, include="superseded", page_size=PAGE_SIZE)
            yield from (memory for memory in listed if _is_item(memory))
        except NotFoundError:  # a profile that was never written to holds nothing
            return


def _marks(namespace: tuple[str, ...], key: str) -> dict[str, Any]:
    """The adapter's own metadata: the whole tuple, the key, and each prefix of the tuple (the API filters
    by exact values, so a prefix search is an exact match on the prefix of its length)."""
    marks: dict[str, Any] = {NAMESPACE_KEY: list(namespace), ITEM_KEY: key}
    for depth in range(1, len(namespace) + 1):
        marks[PREFIX_KEY.format(depth)] = list(namespace[:depth])
    return marks


def _prefix_filter(prefix: tuple[str, ...]) -> dict[str, Any]:
    return {PREFIX_KEY.format(len(prefix)): list(prefix)} if prefix else {}


def _is_item(memory: MemorySummary | MemoryDetail) -> bool:
    """A memory the store wrote (the profile's other memories, from conversations, are not items)."""
    metadata = memory.metadata or {}
    return isinstance(metadata.get(NAMESPACE_KEY), list) and isinstance(metadata.get(ITEM_KEY), str)


def _value_filter(filter: Mapping[str, Any] | None) -> dict[str, Any]:
    """LangGraph's filter as the API's metadata filter: exact values (`$eq` unwrapped); the API has no
    comparison operators, so `$ne`, `$gt`… are refused rather than ignored."""
    exact: dict[str, Any] = {}
    for name, condition in (filter or {}).items():
        if name.startswith(RESERVED):
            raise ValueError(f"filter keys starting with {RESERVED!r} are the store's own: {name!r}")
        if isinstance(condition, Mapping) and any(str(k).startswith("$") for k in condition):
            if set(condition) != {"$eq"}:
                raise NotImplementedError(
                    f"filter on {name!r}: only exact values ({{'$eq': …}}) are supported, got {dict(condition)!r}"
                )
            condition = condition["$eq"]
        exact[name] = condition
    return exact


def _text(value: Mapping[str, Any], index: Any, text_fields: Sequence[str]) -> str:
    """What recall searches: the fields `index` names (top-level or dotted paths), else the value's text
    fields (`text_fields` that it has), else every top-level string field in order; the value as JSON when
    that leaves nothing."""
    if isinstance(index, list) and index:
        parts = [_at_path(value, path) for path in index]
    else:
        parts = [value.get(name) for name in text_fields if isinstance(value.get(name), str)]
        parts = parts or [field for field in value.values() if isinstance(field, str)]
    text = "\n".join(str(part) for part in parts if isinstance(part, str) and part.strip())
    return text or json.dumps(value, ensure_ascii=False, sort_keys=True)


def _at_path(value: Any, path: str) -> Any:
    for name in path.split("."):
        value = value.get(name) if isinstance(value, Mapping) else None
    return value


def _matches(namespace: tuple[str, ...], condition: MatchCondition) -> bool:
    path = tuple(condition.path)
    if len(path) > len(namespace):
        return False
    part = (
        namespace[: len(path)]
        if condition.match_type == "prefix"
        else namespace[len(namespace) - len(path) :]
    )
    return all(want in ("*", have) for want, have in zip(path, part, strict=True))


class _Found(SearchItem):
    """An item read back from its memory."""

    __slots__ = ()

    def as_item(self) -> Item:
        return Item(
            value=self.value,
            key=self.key,
            namespace=self.namespace,
            created_at=self.created_at,
            updated_at=self.updated_at,
        )


def _item(memory: MemorySummary | MemoryDetail, *, score: float | None = None) -> _Found:
    """The item a memory holds: its value is the metadata without the store's own keys."""
    metadata = memory.metadata or {}
    value = {name: field for name, field in metadata.items() if not name.startswith(RESERVED)}
    return _Found(
        namespace=tuple(metadata[NAMESPACE_KEY]),
        key=metadata[ITEM_KEY],
        value=value,
        created_at=memory.created_at,
        updated_at=memory.updated_at,
        score=score,
    )
