"""One exception tree for everything a call can fail with.

`AgentMemoryError` is the root. An answer with an error status is an `APIError` carrying the problem+json
body the server sends (RFC 9457): `status`, `code` (stable, snake_case: `memory_not_found`), `detail` (for
people) and the whole body in `problem`; a subclass per status family lets callers catch what they handle
(`except NotFoundError`). A request that never got an answer (refused connection, timeout) is a
`ConnectionFailed`, raised after the retries an idempotent call is allowed.
"""

from __future__ import annotations

from typing import Any

import httpx


class AgentMemoryError(Exception):
    """Anything this client raises on purpose."""


class ConnectionFailed(AgentMemoryError):
    """No answer: the server could not be reached, or did not answer within the timeout."""

    def __init__(self, message: str, *, cause: httpx.TransportError) -> None:
        super().__init__(message)
        self.cause = cause


class APIError(AgentMemoryError):
    """The server answered with an error status; its problem+json body is in `problem`."""

    def __init__(self, status: int, code: str, detail: str, problem: dict[str, Any]) -> None:
        super().__init__(f"{status} {code}: {detail}")
        self.status = status
        self.code = code
        self.detail = detail
        self.problem = problem

    @property
    def errors(self) -> list[dict[str, Any]]:
        """The field errors of a 422 (`[{loc, msg}]`); empty for other problems."""
        errors = self.problem.get("errors")
        return errors if isinstance(errors, list) else []


class BadRequestError(APIError):
    """400 and the other 4xx without a class of their own (413, 415, 431…)."""


class AuthenticationError(APIError):
    """401: no key, or a key the server does not know."""


class PermissionDeniedError(APIError):
    """403: the key may not reach this namespace, or the call needs an admin key."""


class NotFoundError(APIError):
    """404: no such namespace, profile, memory, session, job…"""


class ConflictError(APIError):
    """409: already exists, or the content was deleted and its tombstone stands (`tombstone_id`)."""

    @property
    def tombstone_id(self) -> str | None:
        value = self.problem.get("tombstoneId")
        return value if isinstance(value, str) else None


class ValidationError(APIError):
    """422: the request's values were refused; `errors` says which."""


class RateLimitedError(APIError):
    """429: a namespace's quota was reached (`quota_exceeded`: memories, messages or bytes; deleting data or a
    higher limit makes room) or its requests per minute spent (`rate_limited`); `retry_after` is the
    server's `Retry-After` in seconds, `quota` the quota reached. Not retried by the client."""

    retry_after: int | None = None

    @property
    def quota(self) -> str | None:
        value = self.problem.get("quota")
        return value if isinstance(value, str) else None


class ServerError(APIError):
    """5xx."""


class UnavailableError(ServerError):
    """503: the service is up but cannot serve now (its database is away); retried for idempotent calls."""


_BY_STATUS: dict[int, type[APIError]] = {
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    422: ValidationError,
    429: RateLimitedError,
    503: UnavailableError,
}


def error_from_response(response: httpx.Response) -> APIError:
    """The exception for an error answer: problem+json when the server sent it, else the status and text
    (a proxy's HTML page, an empty body)."""
    problem: dict[str, Any]
    try:
        body = response.json()
        problem = body if isinstance(body, dict) else {"detail": str(body)}
    except ValueError:
        problem = {"detail": response.text[:500] or response.reason_phrase}
    status = response.status_code
    code = problem.get("code")
    detail = problem.get("detail")
    kind = _BY_STATUS.get(status) or (ServerError if status >= 500 else BadRequestError)
    error = kind(
        status,
        code if isinstance(code, str) else f"http_{status}",
        detail if isinstance(detail, str) else response.reason_phrase,
        problem,
    )
    if isinstance(error, RateLimitedError):
        retry_after = response.headers.get("Retry-After", "")
        error.retry_after = int(retry_after) if retry_after.isdigit() else None
    return error
