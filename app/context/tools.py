"""The LLM tools a session's blocks call for, as OpenAI-style JSON Schema definitions, and their execution.

Result strings are the reference implementation's, so an agent written against it reads the same answers.
Failures a model can recover from (a wrong label, a full block) are results starting with `Error:`; an
unknown tool or arguments of the wrong shape are refused with 422 and a message saying what to send.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.context import repository, service
from app.context.schemas import ToolDefinition, ToolFunction, ToolResult
from app.context.service import KEYED_KINDS, BlockView
from app.core.errors import AppError, ValidationFailed
from app.core.memory_types import types_in_prose
from app.core.text import RECALL_QUERY_BYTES, storable_text
from app.core.tokens import js_round
from app.models import Profile, Session
from app.recall.schemas import DEFAULT_MIN_SCORE, RecallRequest
from app.recall.service import RecallApp, recall_and_answer
from app.sessions import repository as sessions_repository
from app.sessions import service as sessions

NO_RESULTS = "No results found."
SEARCHABLE_KINDS = ("search", "history")


class ToolRefused(ValidationFailed):
    def __init__(self, detail: str, code: str = "invalid_tool_arguments") -> None:
        super().__init__(detail, [{"loc": ["body", "arguments"], "msg": detail}], code=code)


class ToolAnswer(Exception):
    """A failure the model can recover from, raised from deep in a call: its text is the call's result."""


# ---------------------------------------------------------------- entry keys (set_context on keyed blocks)


def slugify(text: str) -> str:
    return re.sub(r"^-|-$", "", re.sub(r"[^a-z0-9]+", "-", text[:60].lower()))


def stable_hash(text: str) -> str:
    """FNV-1a over UTF-16 code units, in base 36: the reference's key suffix for untitled entries."""
    value = 0x811C9DC5
    data = text.encode("utf-16-le")
    for i in range(0, len(data), 2):
        value ^= data[i] | (data[i + 1] << 8)
        value = (value * 0x01000193) & 0xFFFFFFFF
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        value, rem = divmod(value, 36)
        out = digits[rem] + out
        if value == 0:
            return out


def entry_key(title: str | None, content: str) -> str:
    if title and title.strip():
        return slugify(title) or f"entry-{stable_hash(title)}"
    return f"{slugify(content) or 'entry'}-{stable_hash(content)}"


# ---------------------------------------------------------------- definitions


def _fn(name: str, description: str, properties: dict[str, Any], required: list[str]) -> ToolDefinition:
    parameters = {"type": "object", "properties": properties, "required": required}
    return ToolDefinition(function=ToolFunction(name=name, description=description, parameters=parameters))


def _quoted(labels: list[str]) -> str:
    return ", ".join(f'"{label}"' for label in labels)


# Where a write to a block is seen, by the block's scope: the model must not count on a session block's
# content in the next conversation (another session starts from the block's defined content).
SCOPES = {"session": "this session only", "profile": "shared by every session"}


def _set_context(writable: list[BlockView]) -> ToolDefinition:
    kinds = {"skill": "skill collection, keyed entries", "search": "searchable, keyed entries"}
    lines = [
        f'- "{b.label}" ({kinds.get(b.kind, "writable")}; {SCOPES.get(b.scope, b.scope)}): '
        f"{b.description or 'no description'}"
        for b in writable
    ]
    keyed = [b.label for b in writable if b.kind in KEYED_KINDS]
    properties: dict[str, Any] = {
        "label": {
            "type": "string",
            "enum": [b.label for b in writable],
            "description": "Block label to write to",
        },
        "content": {"type": "string", "description": "The main content to write to the block."},
        "action": {
            "type": "string",
            "enum": ["replace", "append"],
            "description": "replace (default) or append",
        },
    }
    hint = ""
    if keyed:
        properties["metadata"] = {
            "type": "object",
            "description": "Optional metadata for keyed entries (skill collections, searchable blocks: "
            + _quoted(keyed)
            + "). Short content doesn't need metadata; longer loadable entries (skills) benefit from a title "
            "and description so the model can pick the right one without loading it.",
            "properties": {
                "title": {
                    "type": "string",
                    "description": "Short title. Used as a stable identifier — entries with the same title are "
                    "updated in place, different titles create new entries.",
                },
                "description": {
                    "type": "string",
                    "description": "One-line summary shown alongside the title in the system prompt so the model "
                    "can decide when to load the entry.",
                },
            },
        }
        hint = (
            "\n\nFor keyed blocks (skill collections / searchable), pass `metadata: { title, description }` — "
            "title stabilises updates, description helps the model pick entries. Metadata is optional; short "
            "content rarely needs it, long loadable entries benefit most."
        )
    description = (
        "Write to a context block. Available blocks:\n"
        + "\n".join(lines)
        + '\n\nWrites are stored at once. A block marked "this session only" keeps them for this session: '
        "another session starts from the block's defined content and does not see them. A block marked "
        '"shared by every session" shows them in every session of this profile, now and later.' + hint
    )
    return _fn("set_context", description, properties, ["label", "content"])


def _skill_tools(skills: list[str], loaded: list[str]) -> list[ToolDefinition]:
    label = {"type": "string", "enum": skills, "description": "Skill block label"}
    load = _fn(
        "load_context",
        f"Load a document from a skill block by key. Available skill blocks: {_quoted(skills)}. "
        "Check the system prompt for available keys.",
        {"label": label, "key": {"type": "string", "description": "Skill key to load"}},
        ["label", "key"],
    )
    state = f" Currently loaded: {', '.join(loaded)}." if loaded else " No skills currently loaded."
    unload = _fn(
        "unload_context",
        "Unload a previously loaded skill to free context space. The skill remains available for re-loading."
        + state,
        {"label": label, "key": {"type": "string", "description": "Skill key to unload"}},
        ["label", "key"],
    )
    return [load, unload]


def _search_context(searchable: list[str]) -> ToolDefinition:
    return _fn(
        "search_context",
        f"Search for information in a searchable context block. ONLY these blocks are searchable: "
        f"{_quoted(searchable)}. Other blocks cannot be searched.",
        {
            "label": {"type": "string", "enum": searchable, "description": "Searchable block label"},
            "query": {"type": "string", "description": "Search query"},
        },
        ["label", "query"],
    )


SESSION_SEARCH = _fn(
    "session_search",
    "Search past conversations for relevant context. Searches across all sessions.",
    {"query": {"type": "string", "description": "Search query"}},
    ["query"],
)

RECALL_MEMORY = _fn(
    "recall_memory",
    f"Recall what long-term memory knows about the user: {types_in_prose()} learned in past conversations. "
    "Ask in natural language.",
    {
        "query": {"type": "string", "description": "What to recall, as a question or keywords"},
        "minScore": {
            "type": "number",
            "minimum": 0,
            "maximum": 1,
            "description": "Leave out memories less likely than this (0–1) to answer the question "
            f"(default {DEFAULT_MIN_SCORE}).",
        },
    },
    ["query"],
)


async def _blocks(db: AsyncSession, profile: Profile, session: Session) -> list[BlockView]:
    # Summary blocks are not rendered here: only their presence matters for the tools, and rendering costs.
    out: list[BlockView] = []
    for block in await repository.list_blocks(db, profile.id):
        if block.kind == "summary":
            out.append(
                BlockView(block.label, block.kind, block.scope, block.description, "", 0, block.max_tokens)
            )
        else:
            out.append(await service.view(db, profile, block, session.id))
    return out


async def definitions(db: AsyncSession, profile: Profile, session: Session) -> list[ToolDefinition]:
    blocks = await _blocks(db, profile, session)
    tools: list[ToolDefinition] = []
    writable = [b for b in blocks if b.kind in ("writable", "skill", "search")]
    if writable:
        tools.append(_set_context(writable))
    skills = [b.label for b in blocks if b.kind == "skill"]
    if skills:
        tools += _skill_tools(skills, list(session.loaded_skills))
    searchable = [b.label for b in blocks if b.kind in SEARCHABLE_KINDS]
    if searchable:
        tools.append(_search_context(searchable))
    # As the reference's withSearchableHistory: searching past conversations comes with a history block.
    if any(b.kind == "history" for b in blocks):
        tools.append(SESSION_SEARCH)
    if any(b.kind == "summary" for b in blocks):
        tools.append(RECALL_MEMORY)
    return tools


# ---------------------------------------------------------------- execution


def _string_arg(name: str, arguments: dict[str, Any], key: str, *, required: bool = True) -> str | None:
    value = arguments.get(key)
    if value is None:
        if required:
            raise ToolRefused(f'{name}: argument "{key}" is required (a string)')
        return None
    if not isinstance(value, str):
        raise ToolRefused(f'{name}: argument "{key}" must be a string, got {type(value).__name__}')
    if not storable_text(value):
        # Arguments sent as a JSON string are parsed here, past the request guard that refuses such text.
        raise ToolRefused(f'{name}: argument "{key}" must not contain NUL characters or unpaired surrogates')
    return value


def _query_arg(name: str, arguments: dict[str, Any]) -> str:
    """A search query, held to the limit of the search and recall endpoints' queries."""
    query = _string_arg(name, arguments, "query")
    assert query is not None
    if len(query.encode("utf-8")) > RECALL_QUERY_BYTES:
        raise ToolRefused(f'{name}: argument "query" must be at most {RECALL_QUERY_BYTES} bytes of UTF-8')
    return query


def _usage(block: BlockView) -> str:
    if block.max_tokens:
        percent = js_round(block.tokens / block.max_tokens * 100)
        return f"{percent}% ({block.tokens}/{block.max_tokens} tokens)"
    return f"{block.tokens} tokens"


async def _set_context_call(
    db: AsyncSession, profile: Profile, session: Session, args: dict[str, Any]
) -> str:
    label = _string_arg("set_context", args, "label")
    content = _string_arg("set_context", args, "content")
    action = _string_arg("set_context", args, "action", required=False) or "replace"
    if action not in ("replace", "append"):
        raise ToolRefused('set_context: argument "action" must be "replace" or "append"')
    metadata = args.get("metadata")
    if metadata is not None and not isinstance(metadata, dict):
        raise ToolRefused('set_context: argument "metadata" must be an object {title?, description?}')
    assert label is not None and content is not None
    title = _string_arg("set_context", metadata or {}, "title", required=False)
    description = _string_arg("set_context", metadata or {}, "description", required=False)

    block = await repository.get_block(db, profile.id, label)
    if block is None:
        return f'Error: block "{label}" not found'
    try:
        # A refused write must leave nothing behind, while the rest of the request stays valid.
        async with db.begin_nested():
            if block.kind in KEYED_KINDS:
                key = entry_key(title, content)
                entry_description = (description or title) if block.kind == "skill" else None
                await service.put_entry(db, profile, label, key, content, entry_description, session.id)
                return f'Indexed "{key}" in {label}.'
            written = await service.write_content(
                db, profile, label, content, action, via_tool=True, session_id=session.id
            )
    except AppError as exc:
        return f"Error: {exc.detail}"
    return f"Written to {label}. Usage: {_usage(written)}"


async def _skill_labels(db: AsyncSession, profile: Profile) -> list[str]:
    return [b.label for b in await repository.list_blocks(db, profile.id) if b.kind == "skill"]


async def _skill_call_args(
    tool: str, db: AsyncSession, profile: Profile, args: dict[str, Any]
) -> tuple[str, str]:
    """(label, key): `load_context` and `unload_context` name a skill block (else ToolAnswer)."""
    label = _string_arg(tool, args, "label")
    key = _string_arg(tool, args, "key")
    assert label is not None and key is not None
    skills = await _skill_labels(db, profile)
    if label not in skills:
        raise ToolAnswer(f'Error: "{label}" is not a skill block. Skill blocks: {", ".join(skills)}')
    return label, key


async def _load_context_call(
    db: AsyncSession, profile: Profile, session: Session, args: dict[str, Any]
) -> str:
    label, key = await _skill_call_args("load_context", db, profile, args)
    block = await service.require_block(db, profile, label)
    entry = await service.find_entry(db, profile, block, key, session.id)
    if entry is None:
        return f"Not found: {key}"
    loaded = f"{label}:{key}"
    if loaded not in session.loaded_skills:
        await sessions_repository.set_loaded_skills(
            db, profile.id, session.id, [*session.loaded_skills, loaded]
        )
    return entry.content


def _is_load_of(part: dict[str, Any], label: str, key: str) -> bool:
    name = part.get("toolName") or str(part.get("type", "")).removeprefix("tool-")
    source = part.get("input")
    return (
        name == "load_context"
        and part.get("state") == "output-available"
        and isinstance(source, dict)
        and source.get("label") == label
        and source.get("key") == key
    )


async def _reclaim(db: AsyncSession, profile: Profile, session: Session, label: str, key: str) -> None:
    """Replace the skill's body in the stored load_context result by a marker, as the reference does."""
    path = await sessions.raw_path(db, profile, session.id, None)
    for message in reversed(path):
        if message.role != "assistant" or not any(_is_load_of(p, label, key) for p in message.parts):
            continue
        parts = [
            {**p, "output": f"[skill unloaded: {key}]"} if _is_load_of(p, label, key) else p
            for p in message.parts
        ]
        await sessions_repository.update_message(
            db, profile.id, session.id, message.id, message.role, message.name, parts, message.text_content
        )
        return


async def _unload_context_call(
    db: AsyncSession, profile: Profile, session: Session, args: dict[str, Any]
) -> str:
    label, key = await _skill_call_args("unload_context", db, profile, args)
    loaded = f"{label}:{key}"
    if loaded not in session.loaded_skills:
        return f'Skill "{key}" is not currently loaded in "{label}".'
    remaining = [s for s in session.loaded_skills if s != loaded]
    await sessions_repository.set_loaded_skills(db, profile.id, session.id, remaining)
    await _reclaim(db, profile, session, label, key)
    return f'Unloaded "{key}" from {label}. Context reclaimed.'


async def _search_context_call(
    db: AsyncSession, profile: Profile, session: Session, args: dict[str, Any]
) -> str:
    label = _string_arg("search_context", args, "label")
    query = _query_arg("search_context", args)
    assert label is not None
    blocks = {b.label: b for b in await repository.list_blocks(db, profile.id) if b.kind in SEARCHABLE_KINDS}
    if label not in blocks:
        return f'Error: "{label}" is not searchable. Searchable blocks: {", ".join(blocks)}'
    if blocks[label].kind == "history":
        return await _search_history(db, profile, query)
    rows = await service.search_entries(db, profile, blocks[label], query, 10, session.id)
    if not rows:
        return NO_RESULTS
    return "\n\n".join(f"[{r.key}]\n{r.content}" for r in rows)


async def _search_history(db: AsyncSession, profile: Profile, query: str) -> str:
    """The profile's conversations, every session, top 10, as the reference's session_search answers."""
    hits = (await sessions.search(db, profile, None, query, 10)).results
    if not hits:
        return NO_RESULTS
    return "\n---\n".join(f"[{h.role}] {h.content}" for h in hits)


async def _session_search_call(
    db: AsyncSession, profile: Profile, session: Session, args: dict[str, Any]
) -> str:
    return await _search_history(db, profile, _query_arg("session_search", args))


async def _recall_memory_call(
    db: AsyncSession, profile: Profile, recall: RecallApp, args: dict[str, Any]
) -> ToolResult:
    query = _query_arg("recall_memory", args)
    trace = args.get("trace", False)
    if not isinstance(trace, bool):
        raise ToolRefused('recall_memory: argument "trace" must be true or false')
    min_score = args.get("minScore", DEFAULT_MIN_SCORE)
    if isinstance(min_score, bool) or not isinstance(min_score, int | float) or not 0 <= min_score <= 1:
        raise ToolRefused('recall_memory: argument "minScore" must be a number from 0 to 1')
    if not query.strip():
        return ToolResult(result=NO_RESULTS)  # nothing asked; recall itself refuses an empty query
    # Recall reads on a connection of its own and waits on the embedder and the LLM: the request's
    # session (nothing written yet) gives its connection back first.
    await db.commit()
    recalled = await recall_and_answer(
        recall, profile, RecallRequest(query=query, min_score=min_score, trace=trace)
    )
    return ToolResult(result=recalled.answer if recalled.answer.strip() else NO_RESULTS, trace=recalled.trace)


Handler = Callable[[AsyncSession, Profile, Session, dict[str, Any]], Awaitable[str]]
HANDLERS: dict[str, Handler] = {
    "set_context": _set_context_call,
    "load_context": _load_context_call,
    "unload_context": _unload_context_call,
    "search_context": _search_context_call,
    "session_search": _session_search_call,
}


def parse_arguments(name: str, raw: dict[str, Any] | str) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    try:
        parsed = json.loads(raw) if raw.strip() else {}
    except ValueError as exc:
        raise ToolRefused(f"{name}: arguments are not valid JSON ({exc.args[0]})") from exc
    except RecursionError as exc:
        raise ToolRefused(f"{name}: arguments nest too deeply") from exc
    if not isinstance(parsed, dict):
        raise ToolRefused(f"{name}: arguments must be a JSON object")
    return parsed


async def execute(
    db: AsyncSession,
    profile: Profile,
    session: Session,
    name: str,
    raw_arguments: dict[str, Any] | str,
    recall: RecallApp,
) -> ToolResult:
    """The tool's result. `recall`: the app's recall (`recall_memory` answers as the recall route)."""
    available = [d.function.name for d in await definitions(db, profile, session)]
    if name not in available:
        raise ToolRefused(
            f'Unknown tool "{name}". Tools available in this session: {", ".join(available)}',
            code="unknown_tool",
        )
    arguments = parse_arguments(name, raw_arguments)
    if name == RECALL_MEMORY.function.name:
        return await _recall_memory_call(db, profile, recall, arguments)
    try:
        return ToolResult(result=await HANDLERS[name](db, profile, session, arguments))
    except ToolAnswer as answer:
        return ToolResult(result=str(answer))
