"""Rules of context blocks: what each kind renders, who may write it, `maxTokens` on every write path, and
whose content a read or write reaches (a session's own copy of a session-scoped block, or the shared one)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from app.context import repository
from app.context.schemas import BlockDefine, BlockOut, EntryOut
from app.core.errors import Conflict, NotFound, ValidationFailed
from app.core.tokens import estimate_tokens
from app.models import ContextBlock, Profile

INLINE_KINDS = ("readonly", "writable")
KEYED_KINDS = ("skill", "search")


class BlockNotFound(NotFound, code="block_not_found"): ...


class EntryNotFound(NotFound, code="entry_not_found"): ...


class WrongBlockKind(Conflict, code="wrong_block_kind"): ...


class BlockTooLarge(ValidationFailed):
    def __init__(self, label: str, tokens: int, max_tokens: int) -> None:
        detail = f'Block "{label}" exceeds maxTokens: {tokens} > {max_tokens}'
        super().__init__(detail, [{"loc": ["body", "content"], "msg": detail}], code="block_too_large")


@dataclass(frozen=True)
class BlockView:
    """A block as the prompt sees it (in one session, or its definition): rendered content and token count."""

    label: str
    kind: str
    scope: str
    description: str | None
    content: str
    tokens: int
    max_tokens: int | None

    def out(self) -> BlockOut:
        return BlockOut.model_validate(self, from_attributes=True)  # the same fields, by name


def skill_listing(entries: Sequence[repository.EntryRow]) -> str:
    return "\n".join(f"- {e.key}: {e.description}" if e.description else f"- {e.key}" for e in entries)


def history_listing(sessions: int) -> str:
    """The history block's text, as the reference's searchable history renders it."""
    if sessions == 0:
        return ""
    return f"{sessions} session{'' if sessions == 1 else 's'} available for search."


async def owner(
    db: AsyncSession, profile: Profile, block: ContextBlock, session_id: str | None
) -> str | None:
    """Whose content a read in `session_id` sees: the session's own copy of a session-scoped block once it
    has one, else the definition's (None)."""
    if session_id is None or block.scope != "session":
        return None
    copy = await repository.get_session_block(db, profile.id, session_id, block.label)
    return session_id if copy is not None else None


async def writer(
    db: AsyncSession, profile: Profile, block: ContextBlock, session_id: str | None
) -> str | None:
    """Whose content a write from `session_id` changes: a session-scoped block is copied into the session
    on its first write; a profile-scoped one (or a write at the profile's paths) changes the definition."""
    if session_id is None or block.scope != "session":
        return None
    await repository.ensure_session_copy(db, profile.id, session_id, block.label)
    return session_id


async def _inline_content(
    db: AsyncSession, profile: Profile, block: ContextBlock, session_id: str | None
) -> str:
    if session_id is None:
        return block.content
    copy = await repository.get_session_block(db, profile.id, session_id, block.label)
    return copy.content if copy is not None else block.content


async def rendered_content(
    db: AsyncSession,
    profile: Profile,
    block: ContextBlock,
    session_id: str | None,
    *,
    summary_of: str | None = None,
) -> str:
    """What the block renders for `session_id` (a session's own copy, or the definition's when None)."""
    if block.kind == "skill":
        return skill_listing(await repository.list_entries(db, profile.id, block.label, session_id))
    if block.kind == "search":
        count = await repository.count_entries(db, profile.id, block.label, session_id)
        return f"{count} entries indexed." if count else ""
    if block.kind == "history":
        from app.sessions import repository as sessions

        return history_listing(await sessions.count_sessions(db, profile.id))
    if block.kind == "summary":
        # The bridge to Agent Memory: the profile's summary as it is at render time.
        from app.summary.service import build_summary

        summary: str = await build_summary(db, profile, summary_of)
        return summary
    return await _inline_content(db, profile, block, session_id)


async def view(
    db: AsyncSession, profile: Profile, block: ContextBlock, session_id: str | None = None
) -> BlockView:
    """The block as session `session_id` sees it (None: its definition)."""
    content = await rendered_content(
        db, profile, block, await owner(db, profile, block, session_id), summary_of=session_id
    )
    return BlockView(
        label=block.label,
        kind=block.kind,
        scope=block.scope,
        description=block.description,
        content=content,
        tokens=estimate_tokens(content),
        max_tokens=block.max_tokens,
    )


async def views(db: AsyncSession, profile: Profile, session_id: str | None = None) -> list[BlockView]:
    return [await view(db, profile, b, session_id) for b in await repository.list_blocks(db, profile.id)]


async def require_block(db: AsyncSession, profile: Profile, label: str) -> ContextBlock:
    block = await repository.get_block(db, profile.id, label)
    if block is None:
        raise BlockNotFound(f'context block "{label}" not found')
    return block


def check_size(label: str, content: str, max_tokens: int | None) -> int:
    tokens = estimate_tokens(content)
    if max_tokens is not None and tokens > max_tokens:
        raise BlockTooLarge(label, tokens, max_tokens)
    return tokens


async def _check_keyed_size(
    db: AsyncSession, profile: Profile, block: ContextBlock, session_id: str | None = None
) -> None:
    if block.max_tokens is not None:
        check_size(block.label, await rendered_content(db, profile, block, session_id), block.max_tokens)


async def define_block(
    db: AsyncSession, profile: Profile, label: str, body: BlockDefine
) -> tuple[BlockOut, bool]:
    """PUT /context/{label}: define or redefine; content kept unless given, maxTokens checked against it."""
    existing = await repository.get_block(db, profile.id, label)
    if body.content is not None and body.kind not in INLINE_KINDS:
        raise ValidationFailed(
            f"content is only for readonly and writable blocks; a {body.kind} block "
            + (
                "is rendered from the profile's memory"
                if body.kind == "summary"
                else "searches the sessions' messages"
                if body.kind == "history"
                else "takes entries"
            ),
            [{"loc": ["body", "content"], "msg": f"not allowed for kind {body.kind}"}],
        )
    content = ""
    if body.kind in INLINE_KINDS:
        if body.content is not None:
            content = body.content
        elif existing is not None and existing.kind in INLINE_KINDS:
            content = existing.content
        check_size(label, content, body.max_tokens)
    if existing is not None and existing.kind in KEYED_KINDS and body.kind not in KEYED_KINDS:
        await repository.delete_entries(db, profile.id, label)
    if existing is not None and (existing.kind != body.kind or existing.scope != body.scope):
        # Sessions' copies were of another kind or scope: they start again from the new definition.
        await repository.delete_session_copies(db, profile.id, label)
    row, created = await repository.upsert_block(
        db, profile.id, label, body.kind, body.description, body.max_tokens, content, body.scope
    )
    if row.kind in KEYED_KINDS:
        await _check_keyed_size(db, profile, row)
    return (await view(db, profile, row)).out(), created


async def get_block(
    db: AsyncSession, profile: Profile, label: str, session_id: str | None = None
) -> BlockOut:
    return (await view(db, profile, await require_block(db, profile, label), session_id)).out()


async def list_blocks(db: AsyncSession, profile: Profile, session_id: str | None = None) -> list[BlockOut]:
    return [v.out() for v in await views(db, profile, session_id)]


async def delete_block(db: AsyncSession, profile: Profile, label: str) -> None:
    # Idempotent: deleting a block that is gone answers as deleting it did.
    await repository.delete_block(db, profile.id, label)


def appended(existing: str, content: str) -> str:
    """Append as the reference does: a newline between old and new unless the new text starts with one."""
    separator = "\n" if existing and not content.startswith("\n") else ""
    return existing + separator + content


async def write_content(
    db: AsyncSession,
    profile: Profile,
    label: str,
    content: str,
    action: str,
    *,
    via_tool: bool = False,
    session_id: str | None = None,
) -> BlockView:
    """Replace or append the text of an inline block (in session `session_id`'s copy when the block is
    session-scoped); readonly blocks only through the API."""
    block = await require_block(db, profile, label)
    if block.kind not in INLINE_KINDS or (via_tool and block.kind != "writable"):
        raise WrongBlockKind(
            f'Block "{label}" is readonly'
            if via_tool
            else f'Block "{label}" is a {block.kind} block; only readonly and writable blocks take content'
        )
    target = await writer(db, profile, block, session_id)
    current = await _inline_content(db, profile, block, target)
    new_content = appended(current, content) if action == "append" else content
    tokens = check_size(label, new_content, block.max_tokens)
    if target is None:
        await repository.set_content(db, profile.id, label, new_content)
    else:
        await repository.set_session_content(db, profile.id, target, label, new_content)
    return BlockView(
        block.label, block.kind, block.scope, block.description, new_content, tokens, block.max_tokens
    )


def to_entry(row: repository.EntryRow) -> EntryOut:
    return EntryOut.model_validate(row)


async def require_keyed(db: AsyncSession, profile: Profile, label: str) -> ContextBlock:
    block = await require_block(db, profile, label)
    if block.kind not in KEYED_KINDS:
        raise WrongBlockKind(
            f'Block "{label}" is a {block.kind} block; only skill and search blocks have entries'
        )
    return block


async def put_entry(
    db: AsyncSession,
    profile: Profile,
    label: str,
    key: str,
    content: str,
    description: str | None,
    session_id: str | None = None,
) -> tuple[EntryOut, bool]:
    block = await require_keyed(db, profile, label)
    target = await writer(db, profile, block, session_id)
    row, created = await repository.upsert_entry(db, profile.id, label, key, content, description, target)
    await _check_keyed_size(db, profile, block, target)
    return to_entry(row), created


async def list_entries(
    db: AsyncSession, profile: Profile, label: str, session_id: str | None = None
) -> list[EntryOut]:
    block = await require_keyed(db, profile, label)
    source = await owner(db, profile, block, session_id)
    return [to_entry(e) for e in await repository.list_entries(db, profile.id, label, source)]


async def find_entry(
    db: AsyncSession, profile: Profile, block: ContextBlock, key: str, session_id: str | None = None
) -> repository.EntryRow | None:
    return await repository.get_entry(
        db, profile.id, block.label, key, await owner(db, profile, block, session_id)
    )


async def get_entry(
    db: AsyncSession, profile: Profile, label: str, key: str, session_id: str | None = None
) -> EntryOut:
    block = await require_keyed(db, profile, label)
    row = await find_entry(db, profile, block, key, session_id)
    if row is None:
        raise EntryNotFound(f'entry "{key}" not found in block "{label}"')
    return to_entry(row)


async def delete_entry(
    db: AsyncSession, profile: Profile, label: str, key: str, session_id: str | None = None
) -> None:
    block = await require_keyed(db, profile, label)
    target = await writer(db, profile, block, session_id)
    # Idempotent: deleting an entry that is gone answers as deleting it did (the block must exist).
    await repository.delete_entry(db, profile.id, label, key, target)


async def search_entries(
    db: AsyncSession, profile: Profile, block: ContextBlock, query: str, limit: int, session_id: str | None
) -> list[repository.FoundEntry]:
    source = await owner(db, profile, block, session_id)
    return await repository.search_entries(db, profile.id, block.label, query, limit, source)
