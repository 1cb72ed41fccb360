"""HTTP routes of the inspector: its page at `/ui` and its static files at `/ui/static/`.

The page holds no data: everything it shows comes from the REST API, with the key kept in the tab's session
storage, so serving it needs no key, and the API's own rules (keys, open mode on loopback) apply unchanged.
A Content-Security-Policy limits the page to its own origin: no script, style, image or request may reach
another host, even one injected through data shown on the page.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles

STATIC = Path(__file__).with_name("static")
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "form-action 'none'; base-uri 'none'; frame-ancestors 'none'"
)

router = APIRouter(include_in_schema=False)


@router.get("/ui")
async def inspector() -> FileResponse:
    return FileResponse(
        STATIC / "index.html",
        headers={
            "Content-Security-Policy": CONTENT_SECURITY_POLICY,
            "Referrer-Policy": "no-referrer",
            "X-Content-Type-Options": "nosniff",
            "Cache-Control": "no-cache",
        },
    )


@router.get("/ui/")
async def inspector_slash() -> RedirectResponse:
    return RedirectResponse("/ui", status_code=308)


@router.get("/ui/access")
async def inspector_access(request: Request) -> JSONResponse:
    """Whether the server runs open, so the page opens on the namespaces without a sign-in step. Asked before
    any API call: probing `/v1/key` without a key would answer a closed server's 401, which the browser logs
    as an error. An open server lets anyone on loopback in anyway; a closed one says only that it is closed."""
    state = request.app.state
    open_now = await state.open_mode.is_open(state.sessionmaker)
    return JSONResponse({"open": open_now}, headers={"Cache-Control": "no-store"})


def install_ui(app: FastAPI) -> None:
    """The page's route and its static files (a mount: a router cannot carry one)."""
    app.include_router(router)
    app.mount("/ui/static", StaticFiles(directory=STATIC), name="ui-static")
