"""A session's system prompt: frozen on its first read, re-rendered after a clear or a compaction, and
counted by the token estimate.

The blocks it is rendered from belong to `app.context`, which sits above sessions in the layering
(context calls sessions, never the reverse). So the prompt's life cycle lives here and its text comes
from a renderer that the context domain installs as it is imported (`app.context.prompt`). Both
composition roots import that module: the app through its routers, the worker through its job modules
(`app.worker.registry.JOB_MODULES`). A render with no renderer installed is an error, never an empty
prompt.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Profile, Session
from app.sessions import repository

# (db, profile, session id or None for the blocks' definitions) → the prompt's text.
Renderer = Callable[[AsyncSession, Profile, str | None], Awaitable[str]]

_renderer: Renderer | None = None


def use_renderer(renderer: Renderer) -> None:
    """Install the renderer (the context domain's); installing the same one again is a no-op."""
    global _renderer
    _renderer = renderer


async def render(db: AsyncSession, profile: Profile, session_id: str | None) -> str:
    """The prompt as the blocks render it now, storing nothing."""
    if _renderer is None:
        raise RuntimeError("no system-prompt renderer installed: import app.context.prompt first")
    return await _renderer(db, profile, session_id)


async def freeze(db: AsyncSession, profile: Profile, session: Session) -> str:
    """freezeSystemPrompt: the stored prompt, rendering and storing it on the first call."""
    if session.system_prompt is not None:
        return session.system_prompt
    return await repository.freeze_prompt(db, profile.id, session.id, await render(db, profile, session.id))


async def refresh(db: AsyncSession, profile: Profile, session_id: str) -> str:
    """refreshSystemPrompt: re-render from the blocks as they are now and store it."""
    prompt = await render(db, profile, session_id)
    await repository.store_prompt(db, profile.id, session_id, prompt)
    return prompt


async def for_estimate(db: AsyncSession, profile: Profile, session: Session) -> str:
    """The prompt a token estimate should count: the frozen one, else a render that freezes nothing."""
    if session.system_prompt is not None:
        return session.system_prompt
    return await render(db, profile, session.id)
