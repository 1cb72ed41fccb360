"""HTTP routes of context blocks and entries, a session's frozen system prompt, and its tools."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Request, Response, status

# Imported for its effect: it installs the renderer the session store freezes prompts with
# (app.sessions.system_prompt), so the app renders prompts as soon as its routes are mounted.
import app.context.prompt  # noqa: F401
from app.context import service, tools
from app.context.schemas import (
    BlockDefine,
    BlockList,
    BlockOut,
    ContentWrite,
    EntryList,
    EntryOut,
    EntryWrite,
    KeyPath,
    LabelPath,
    SystemPrompt,
    ToolCall,
    ToolList,
    ToolResult,
)
from app.core.db import DbSession
from app.core.errors import CREATED, error_responses
from app.core.names import SessionPath
from app.profiles.access import ExistingProfile, ProfileForWrite, profile_router
from app.recall.service import RecallApp
from app.sessions import service as sessions
from app.sessions import system_prompt

router = profile_router("context")

ToolName = Annotated[str, Path(min_length=1, max_length=64, description="Tool name, e.g. set_context.")]


@router.get("/context")
async def list_context_blocks(profile: ExistingProfile, db: DbSession) -> BlockList:
    """The profile's context blocks in render order, as defined (a session-scoped block's content here is the
    one every session starts from; `GET …/sessions/{sid}/context` shows a session's own)."""
    return BlockList(blocks=await service.list_blocks(db, profile))


@router.put("/context/{label}", responses={**CREATED, **error_responses(413)})
async def put_context_block(
    label: LabelPath, body: BlockDefine, profile: ProfileForWrite, db: DbSession, response: Response
) -> BlockOut:
    """Define or redefine a block (201 new, 200 redefined); content over `maxTokens` → 422 `block_too_large`."""
    block, created = await service.define_block(db, profile, label, body)
    response.status_code = 201 if created else 200
    return block


@router.get("/context/{label}")
async def get_context_block(label: LabelPath, profile: ExistingProfile, db: DbSession) -> BlockOut:
    """One block as it renders now."""
    return await service.get_block(db, profile, label)


@router.delete("/context/{label}", status_code=204)
async def delete_context_block(label: LabelPath, profile: ExistingProfile, db: DbSession) -> Response:
    """Remove a block and its entries; frozen prompts keep it until refreshed. Idempotent: 204 when it is
    already gone."""
    await service.delete_block(db, profile, label)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.put("/context/{label}/content", responses=error_responses(409, 413))
async def write_context_block(
    label: LabelPath, body: ContentWrite, profile: ExistingProfile, db: DbSession
) -> BlockOut:
    """Replace or append the text of a readonly or writable block; `maxTokens` enforced. For a session-scoped
    block this is the starting content of sessions that have not written their own."""
    written = await service.write_content(db, profile, label, body.content, body.action)
    return written.out()


@router.get("/context/{label}/entries", responses=error_responses(409))
async def list_context_entries(label: LabelPath, profile: ExistingProfile, db: DbSession) -> EntryList:
    """Entries of a skill or search block, by key."""
    return EntryList(entries=await service.list_entries(db, profile, label))


@router.put("/context/{label}/entries/{key}", responses={**CREATED, **error_responses(409, 413)})
async def put_context_entry(
    label: LabelPath,
    key: KeyPath,
    body: EntryWrite,
    profile: ExistingProfile,
    db: DbSession,
    response: Response,
) -> EntryOut:
    """Write an entry of a skill or search block (201 new, 200 replaced)."""
    entry, created = await service.put_entry(db, profile, label, key, body.content, body.description)
    response.status_code = 201 if created else 200
    return entry


@router.get("/context/{label}/entries/{key}", responses=error_responses(409))
async def get_context_entry(
    label: LabelPath, key: KeyPath, profile: ExistingProfile, db: DbSession
) -> EntryOut:
    """One entry."""
    return await service.get_entry(db, profile, label, key)


@router.delete("/context/{label}/entries/{key}", status_code=204, responses=error_responses(409))
async def delete_context_entry(
    label: LabelPath, key: KeyPath, profile: ExistingProfile, db: DbSession
) -> Response:
    """Remove one entry. Idempotent: 204 when it is already gone (the block must exist)."""
    await service.delete_entry(db, profile, label, key)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/sessions/{session_id}/system-prompt")
async def get_system_prompt(session_id: SessionPath, profile: ExistingProfile, db: DbSession) -> SystemPrompt:
    """freezeSystemPrompt: the session's frozen prompt, rendered from the blocks and stored on the first call."""
    session = await sessions.require_session(db, profile, session_id)
    return SystemPrompt(system_prompt=await system_prompt.freeze(db, profile, session))


@router.post("/sessions/{session_id}/system-prompt/refresh")
async def refresh_system_prompt(
    session_id: SessionPath, profile: ExistingProfile, db: DbSession
) -> SystemPrompt:
    """refreshSystemPrompt: re-render from the blocks as they are now, and freeze that."""
    await sessions.require_session(db, profile, session_id)
    return SystemPrompt(system_prompt=await system_prompt.refresh(db, profile, session_id))


@router.get("/sessions/{session_id}/tools")
async def list_session_tools(session_id: SessionPath, profile: ExistingProfile, db: DbSession) -> ToolList:
    """The tools the profile's blocks call for, in the OpenAI `tools` shape (JSON Schema parameters)."""
    session = await sessions.require_session(db, profile, session_id)
    return ToolList(tools=await tools.definitions(db, profile, session))


@router.post("/sessions/{session_id}/tools/{name}", responses=error_responses(413, 503))
async def call_session_tool(
    session_id: SessionPath,
    name: ToolName,
    body: ToolCall,
    profile: ExistingProfile,
    db: DbSession,
    request: Request,
) -> ToolResult:
    """Execute a tool call; the result is the text to hand back to the model."""
    session = await sessions.require_session(db, profile, session_id)
    recall = RecallApp.of(request.app.state)
    return await tools.execute(db, profile, session, name, body.arguments, recall)


# ---------------------------------------------------------------- a session's view of its blocks


@router.get("/sessions/{session_id}/context")
async def list_session_context_blocks(
    session_id: SessionPath, profile: ExistingProfile, db: DbSession
) -> BlockList:
    """The blocks as this session sees them: its own content of session-scoped blocks, the shared content of
    profile-scoped ones."""
    await sessions.require_session(db, profile, session_id)
    return BlockList(blocks=await service.list_blocks(db, profile, session_id))


@router.get("/sessions/{session_id}/context/{label}")
async def get_session_context_block(
    session_id: SessionPath, label: LabelPath, profile: ExistingProfile, db: DbSession
) -> BlockOut:
    """One block as this session sees it."""
    await sessions.require_session(db, profile, session_id)
    return await service.get_block(db, profile, label, session_id)


@router.put("/sessions/{session_id}/context/{label}/content", responses=error_responses(409, 413))
async def write_session_context_block(
    session_id: SessionPath, label: LabelPath, body: ContentWrite, profile: ExistingProfile, db: DbSession
) -> BlockOut:
    """Replace or append this session's text of a readonly or writable block (the shared text of a
    profile-scoped one); `maxTokens` enforced."""
    await sessions.require_session(db, profile, session_id, lock=True)
    written = await service.write_content(
        db, profile, label, body.content, body.action, session_id=session_id
    )
    return written.out()


@router.get("/sessions/{session_id}/context/{label}/entries", responses=error_responses(409))
async def list_session_context_entries(
    session_id: SessionPath, label: LabelPath, profile: ExistingProfile, db: DbSession
) -> EntryList:
    """This session's entries of a skill or search block, by key."""
    await sessions.require_session(db, profile, session_id)
    return EntryList(entries=await service.list_entries(db, profile, label, session_id))


@router.put(
    "/sessions/{session_id}/context/{label}/entries/{key}", responses={**CREATED, **error_responses(409, 413)}
)
async def put_session_context_entry(
    session_id: SessionPath,
    label: LabelPath,
    key: KeyPath,
    body: EntryWrite,
    profile: ExistingProfile,
    db: DbSession,
    response: Response,
) -> EntryOut:
    """Write an entry in this session's copy of a skill or search block (201 new, 200 replaced)."""
    await sessions.require_session(db, profile, session_id, lock=True)
    entry, created = await service.put_entry(
        db, profile, label, key, body.content, body.description, session_id
    )
    response.status_code = 201 if created else 200
    return entry


@router.get("/sessions/{session_id}/context/{label}/entries/{key}", responses=error_responses(409))
async def get_session_context_entry(
    session_id: SessionPath, label: LabelPath, key: KeyPath, profile: ExistingProfile, db: DbSession
) -> EntryOut:
    """One entry as this session sees it."""
    await sessions.require_session(db, profile, session_id)
    return await service.get_entry(db, profile, label, key, session_id)


@router.delete(
    "/sessions/{session_id}/context/{label}/entries/{key}", status_code=204, responses=error_responses(409)
)
async def delete_session_context_entry(
    session_id: SessionPath, label: LabelPath, key: KeyPath, profile: ExistingProfile, db: DbSession
) -> Response:
    """Remove an entry from this session's copy of the block."""
    await sessions.require_session(db, profile, session_id, lock=True)
    await service.delete_entry(db, profile, label, key, session_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
