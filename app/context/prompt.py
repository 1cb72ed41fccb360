"""The system prompt: rendered from the profile's blocks in the reference format, frozen per session.

Format per block: a line of 46 `═`, the header, the same line, the content; blocks joined by a blank line.
Header: LABEL, ` (description)`, ` [P% — T/M tokens]` when maxTokens is set, then one tag. Empty readonly
blocks are skipped; writable, skill and search blocks always render so the LLM knows the tools reach them.
The frozen prompt lives in `sessions.system_prompt`, so it survives restarts byte for byte; its life cycle
(freeze, refresh, the estimate's copy) is `app.sessions.system_prompt`, which renders with `render` below,
installed as this module is imported.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.context import service
from app.context.service import BlockView
from app.core.tokens import js_round
from app.models import Profile
from app.sessions import system_prompt

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


system_prompt.use_renderer(render)
