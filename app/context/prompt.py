"""The system prompt: rendered from the profile's blocks in the reference format, frozen per session.

Format per block: a line of 46 `═`, the header, the same line, the content; blocks joined by a blank line.
Header: LABEL, ` (description)`, ` [P% — T/M tokens]` when maxTokens is set, then one tag. Empty readonly
blocks are skipped; writable, skill and search blocks always render so the LLM knows the tools reach them.
The frozen prompt lives in `sessions.system_prompt`, so it survives restarts byte for byte.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.context import service
from app.context.service import BlockView
from app.core.tokens import js_round
from app.models import Profile, Session
from app.sessions import repository as sessions

SEPARATOR = "═" * 46
TAGS = {"search": "[searchable]", "history": "[searchable]", "skill": "[loadable]", "writable": "[writable]"}


def header(block: BlockView) -> str:
    text = block.label.upper()
    if block.description:
        text += f" ({block.description})"
    if block.max_tokens:
        percent = js_round(block.tokens / block.max_tokens * 100)
        text += f" [{percent}% — {block.tokens}/{block.max_tokens} tokens]"
    return f"{text} {TAGS.get(block.kind, '[readonly]')}"


def render_views(blocks: list[BlockView]) -> str:
    parts = [
        f"{SEPARATOR}\n{header(b)}\n{SEPARATOR}\n{b.content}" for b in blocks if b.content or b.kind in TAGS
    ]
    return "\n\n".join(parts)


async def render(db: AsyncSession, profile: Profile, session_id: str | None) -> str:
    return render_views(await service.views(db, profile, session_id))


async def freeze(db: AsyncSession, profile: Profile, session: Session) -> str:
    """freezeSystemPrompt: the stored prompt, rendering and storing it on the first call."""
    if session.system_prompt is not None:
        return session.system_prompt
    return await sessions.freeze_prompt(db, profile.id, session.id, await render(db, profile, session.id))


async def refresh(db: AsyncSession, profile: Profile, session_id: str) -> str:
    """refreshSystemPrompt: re-render from the blocks as they are now and store it."""
    prompt = await render(db, profile, session_id)
    await sessions.store_prompt(db, profile.id, session_id, prompt)
    return prompt


async def for_estimate(db: AsyncSession, profile: Profile, session: Session) -> str:
    """The prompt a token estimate should count: the frozen one, else a render that freezes nothing."""
    if session.system_prompt is not None:
        return session.system_prompt
    return await render(db, profile, session.id)
