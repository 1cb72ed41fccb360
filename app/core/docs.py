"""`/docs`: Swagger UI 5 served from the static files of the `swagger-ui-bundle-v2` package, so it works
offline (FastAPI's default page loads its script and styles from a public CDN) and renders the OpenAPI 3.1
document (Swagger UI 4 answered "Unable to render this definition")."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.staticfiles import StaticFiles
from starlette.responses import HTMLResponse

ASSETS = "/docs/assets"


def install_docs(app: FastAPI) -> None:
    from swagger_ui_bundle import swagger_ui_path

    app.mount(ASSETS, StaticFiles(directory=str(swagger_ui_path)), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{app.title} — API",
            swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS}/favicon-32x32.png",
            # No badge fetched from the public validator (the page asks nothing of any other host); operation ids
            # shown, as generated clients name their functions after them.
            swagger_ui_parameters={"validatorUrl": None, "displayOperationId": True},
        )
