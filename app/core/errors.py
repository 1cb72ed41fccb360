"""One error hierarchy (`AppError`) and the handlers that render every failure as RFC 9457 problem+json."""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any, get_args

import asyncpg
from asyncpg.exceptions._base import InternalClientError
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.core.unavailable import RETRY_AFTER_SECONDS, database_unavailable

logger = logging.getLogger("agent_memory.errors")

PROBLEM_JSON = "application/problem+json"
TOO_DEEP = "JSON nested too deeply"


class AppError(Exception):
    """An expected failure with its HTTP status and a stable snake_case `code`."""

    status: int = 500
    code: str = "internal_error"
    title: str = "Internal error"

    def __init_subclass__(cls, *, code: str | None = None, **kwargs: Any) -> None:
        """`class BlockNotFound(NotFound, code="block_not_found"): ...` declares a domain's error in a line."""
        super().__init_subclass__(**kwargs)
        if code is not None:
            cls.code = code

    def __init__(self, detail: str | None = None, *, code: str | None = None) -> None:
        super().__init__(detail or self.title)
        self.detail = detail or self.title
        if code is not None:
            self.code = code

    def extra(self) -> dict[str, Any]:
        return {}

    def headers(self) -> dict[str, str] | None:
        """Headers the answer carries (`Retry-After` of a 429)."""
        return None


class Unauthorized(AppError):
    status, code, title = 401, "unauthorized", "Unauthorized"


class Forbidden(AppError):
    status, code, title = 403, "forbidden", "Forbidden"


class NotFound(AppError):
    status, code, title = 404, "not_found", "Not found"


class Conflict(AppError):
    status, code, title = 409, "conflict", "Conflict"


class ValidationFailed(AppError):
    status, code, title = 422, "validation_failed", "Validation failed"

    def __init__(self, detail: str, errors: list[dict[str, Any]] | None = None, *, code: str | None = None):
        super().__init__(detail, code=code)
        self.errors = errors if errors is not None else [{"loc": [], "msg": detail}]

    def extra(self) -> dict[str, Any]:
        return {"errors": self.errors}


class Unavailable(AppError):
    status, code, title = 503, "unavailable", "Service unavailable"


class RateLimited(AppError):
    """429 `rate_limited`, saying in `Retry-After` when to come back."""

    status, code, title = 429, "rate_limited", "Too many requests"

    def __init__(self, detail: str, retry_after: int) -> None:
        super().__init__(detail)
        self.retry_after = max(1, retry_after)

    def headers(self) -> dict[str, str] | None:
        return {"Retry-After": str(self.retry_after)}


class Problem(BaseModel):
    """RFC 9457 problem details, as every error response carries them."""

    type: str
    title: str
    status: int
    detail: str
    code: str


class QuotaProblem(Problem):
    """A 429: `rate_limited` (requests per minute, or failed authentications) or `quota_exceeded` (a storage
    quota); `Retry-After` says when to come back."""

    quota: str | None = Field(
        default=None, description="The quota reached: memories, messages, bytes or requestsPerMinute."
    )
    limit: int | None = Field(default=None, description="Its limit.")
    usage: int | None = Field(default=None, description="A storage quota's usage before the refused write.")


class ValidationErrorItem(BaseModel):
    loc: list[str | int]
    msg: str


class ValidationProblem(Problem):
    errors: list[ValidationErrorItem]


def problem_response(
    status: int,
    code: str,
    detail: str,
    title: str | None = None,
    *,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> JSONResponse:
    body: dict[str, Any] = {
        "type": f"https://agent-memory.dev/problems/{code}",
        "title": title or HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        "code": code,
        **extra,
    }
    if status == 503:  # every 503 says when to come back
        headers = {"Retry-After": str(RETRY_AFTER_SECONDS), **(headers or {})}
    return JSONResponse(body, status_code=status, media_type=PROBLEM_JSON, headers=headers)


def unavailable_response(request: Request, exc: BaseException) -> JSONResponse:
    """503 for a database that is away (restarting, unreachable, pool exhausted): logged without a trace."""
    logger.warning(
        "database unavailable on %s %s: %s: %s",
        request.method,
        request.url.path,
        type(exc).__name__,
        getattr(exc, "orig", None) or exc,
    )
    return problem_response(503, "unavailable", "The database is unavailable; retry shortly.")


def _clean_loc(loc: tuple[Any, ...]) -> list[str | int]:
    return [part if isinstance(part, int) else str(part) for part in loc]


def _plain(msg: str) -> str:
    return msg.removeprefix("Value error, ")


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The pydantic models an annotation holds (`X | None`, `list[X]`, `Annotated[X, …]` unwrapped)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [model for arg in get_args(annotation) for model in _models_in(arg)]


def _allowed_fields(request: Request, loc: tuple[Any, ...]) -> list[str] | None:
    """The fields the body accepts where an unknown one was sent (`loc` = body, …, the unknown field), by
    the names a client writes (camelCase aliases); None when the route's body model cannot be followed."""
    body = getattr(request.scope.get("route"), "body_field", None)
    if body is None or not loc or loc[0] != "body":
        return None
    models = _models_in(body.field_info.annotation)
    for part in loc[1:-1]:
        if isinstance(part, int):
            continue
        fields = [f for model in models for name, f in model.model_fields.items() if part in (name, f.alias)]
        models = [model for f in fields for model in _models_in(f.annotation)]
    if len(models) != 1:
        return None
    return [f.alias or name for name, f in models[0].model_fields.items()]


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(AppError)
    async def _app_error(_: Request, exc: AppError) -> JSONResponse:
        return problem_response(
            exc.status, exc.code, exc.detail, exc.title, headers=exc.headers(), **exc.extra()
        )

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = []
        for e in exc.errors():
            loc = tuple(e.get("loc", ()))
            msg = _plain(str(e.get("msg", "")))
            if e.get("type") == "extra_forbidden" and (allowed := _allowed_fields(request, loc)) is not None:
                # "Extra inputs are not permitted" leaves the client guessing: say what is accepted.
                msg = f"unknown field; the fields accepted here are {', '.join(allowed)}"
            errors.append({"loc": _clean_loc(loc), "msg": msg})
        first = errors[0] if errors else {"loc": [], "msg": "invalid request"}
        where = ".".join(str(p) for p in first["loc"])
        detail = f"{where}: {first['msg']}" if where else str(first["msg"])
        return problem_response(422, "validation_failed", detail, "Validation failed", errors=errors)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400 and isinstance(exc.__cause__, RecursionError):
            # FastAPI's JSON parse of a body nested past Python's recursion limit: the body is invalid
            # JSON for this API (a validation failure), not a malformed request.
            return problem_response(
                422,
                "validation_failed",
                TOO_DEEP,
                "Validation failed",
                errors=[{"loc": ["body"], "msg": TOO_DEEP}],
            )
        codes = {404: "not_found", 405: "method_not_allowed", 401: "unauthorized", 403: "forbidden"}
        return problem_response(exc.status_code, codes.get(exc.status_code, "http_error"), str(exc.detail))

    async def _database(request: Request, exc: Exception) -> JSONResponse:
        # The ones that mean "the database is away" are a 503, never a 500.
        if database_unavailable(exc):
            return unavailable_response(request, exc)
        logger.exception("database error on %s %s", request.method, request.url.path)
        return problem_response(500, "internal_error", "An internal error occurred.")

    # Registered by class (not left to the catch-all) so they are answered without the catch-all's
    # re-raise: SQLAlchemy's errors, the pool's timeout, asyncpg's raw connect errors and its protocol's
    # own (statements sent to the driver directly), OSError.
    database_errors = (
        SQLAlchemyError,
        OSError,
        asyncpg.PostgresError,
        asyncpg.InterfaceError,
        InternalClientError,
    )
    for database_error in database_errors:
        app.add_exception_handler(database_error, _database)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        if database_unavailable(exc):  # wrapped in something else
            return unavailable_response(request, exc)
        # The traceback goes to the log, never to the client.
        logger.exception("unhandled error on %s %s", request.method, request.url.path)
        return problem_response(500, "internal_error", "An internal error occurred.")


# The 201 of a PUT or POST that answers 200 when the thing was already there, shared by the routers.
CREATED: dict[int | str, dict[str, Any]] = {201: {"description": "Created"}}


# OpenAPI declarations for error responses, shared by every router.
def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    out: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        model = {422: ValidationProblem, 429: QuotaProblem}.get(status, Problem)
        out[status] = {
            "model": model,
            "description": HTTPStatus(status).phrase,
            "content": {PROBLEM_JSON: {"schema": {"$ref": f"#/components/schemas/{model.__name__}"}}},
        }
    return out
