"""A small async client for OpenAI-compatible chat completions (OpenAI, Ollama, vLLM, llama.cpp, LiteLLM…).

`POST {base}/chat/completions` with a bearer key when one is set. JSON mode asks for
`response_format: {"type": "json_object"}`; a server that rejects that field is asked again without it (and
not asked with it again), the prompt itself still asking for JSON. 429, 5xx and connection errors are retried
a bounded number of times with exponential backoff and jitter (`Retry-After` honoured, capped); every other
failure, and running out of retries, raises `LlmError`. Requests in flight are bounded per client.

One client per process: the API creates it in its lifespan (`app.state.llm`), a worker lazily in its job
context; both close it on shutdown.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Mapping, Sequence
from typing import Annotated, Any

import httpx
from fastapi import Depends, Request

from app.core.outbound_http import Exhausted, Rejected, excerpt, json_client, post_json
from app.core.settings import Settings

logger = logging.getLogger("agent_memory.llm")

# A server that does not know `response_format` answers one of these (400 from OpenAI-likes, 422 from
# pydantic-validated servers, 501 from some proxies).
_UNSUPPORTED_JSON_MODE = frozenset({400, 415, 422, 501})
_FENCE = re.compile(r"^\s*```(?:json|JSON)?\s*\n?(.*?)\n?```\s*$", re.DOTALL)


class LlmError(Exception):
    """The LLM could not give a usable answer: HTTP or connection failure after retries, or a bad reply."""


class LlmClient:
    """Chat completions against one OpenAI-compatible endpoint and model."""

    def __init__(
        self,
        base_url: str,
        *,
        model: str,
        api_key: str | None = None,
        timeout_seconds: float = 60.0,
        max_retries: int = 2,
        max_concurrency: int = 4,
        backoff_seconds: float = 0.5,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.max_retries = max_retries
        self.backoff_seconds = backoff_seconds
        self._http = json_client(self.base_url, api_key, timeout_seconds, transport)
        self._slots = asyncio.Semaphore(max_concurrency)
        # None: not known yet; False once the server has rejected `response_format`.
        self._json_mode: bool | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> LlmClient | None:
        """The configured client, or None when no LLM endpoint is set."""
        if not settings.llm_base_url:
            return None
        return cls(
            settings.llm_base_url,
            model=settings.llm_model,
            api_key=settings.llm_api_key,
            timeout_seconds=settings.llm_timeout_seconds,
            max_retries=settings.llm_max_retries,
            max_concurrency=settings.llm_max_concurrency,
        )

    async def aclose(self) -> None:
        await self._http.aclose()

    async def chat(
        self,
        messages: Sequence[Mapping[str, str]],
        *,
        json_mode: bool = False,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        max_retries: int | None = None,
    ) -> str:
        """The assistant's reply text. `max_retries` overrides the client's for this call."""
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [dict(m) for m in messages],
            "temperature": temperature,
        }
        if max_tokens is not None:
            body["max_tokens"] = max_tokens
        if json_mode and self._json_mode is not False:
            with_format = {**body, "response_format": {"type": "json_object"}}
            try:
                reply = await self._complete(with_format, max_retries)
            except _Rejected as exc:
                if exc.status not in _UNSUPPORTED_JSON_MODE:
                    raise LlmError(str(exc)) from None
                logger.warning(
                    "LLM endpoint rejected response_format (HTTP %s); asking for JSON in the prompt only",
                    exc.status,
                )
                self._json_mode = False
            else:
                self._json_mode = True
                return reply
        try:
            return await self._complete(body, max_retries)
        except _Rejected as exc:
            raise LlmError(str(exc)) from None

    async def chat_json(
        self,
        messages: Sequence[Mapping[str, str]],
        *,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        max_retries: int | None = None,
    ) -> dict[str, Any]:
        """The reply parsed as one JSON object (a ```json fence around it is tolerated); else `LlmError`."""
        reply = await self.chat(
            messages, json_mode=True, temperature=temperature, max_tokens=max_tokens, max_retries=max_retries
        )
        return parse_json_object(reply)

    async def _complete(self, body: dict[str, Any], max_retries: int | None) -> str:
        retries = self.max_retries if max_retries is None else max_retries
        try:
            response = await post_json(
                self._http,
                "/chat/completions",
                body,
                retries=retries,
                backoff_seconds=self.backoff_seconds,
                label="LLM request",
                slots=self._slots,
            )
        except Rejected as exc:
            raise _Rejected(exc.status, f"LLM request failed, {exc.problem}") from None
        except Exhausted as exc:
            raise LlmError(
                f"LLM request failed after {exc.attempts} attempt(s), last: {exc.problem}"
            ) from None
        return _reply_text(response)


class _Rejected(Exception):
    """A non-retryable HTTP status: kept apart from LlmError so JSON mode can fall back on it."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _reply_text(response: httpx.Response) -> str:
    try:
        data = response.json()
        content = data["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise LlmError(f"LLM answer is not a chat completion: {excerpt(response.text)}") from None
    if not isinstance(content, str):
        raise LlmError("LLM answer has no text content")
    return content


def parse_json_object(reply: str) -> dict[str, Any]:
    """One JSON object from a model's reply, tolerating a Markdown fence; `LlmError` otherwise."""
    text = reply.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1).strip()
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        # Some models wrap the object in a sentence when JSON mode is unavailable.
        start, end = text.find("{"), text.rfind("}")
        try:
            value = json.loads(text[start : end + 1]) if 0 <= start < end else None
        except json.JSONDecodeError:
            value = None
        if value is None:
            raise LlmError(f"LLM answer is not valid JSON: {excerpt(reply, 200)}") from None
    if not isinstance(value, dict):
        raise LlmError(f"LLM answer is JSON but not an object: {excerpt(reply, 200)}")
    return value


def llm_of(state: Any) -> LlmClient | None:
    """The API process's client (created in the lifespan; `state` is the app's), or None when no LLM is
    configured."""
    client: LlmClient | None = getattr(state, "llm", None)
    return client


async def get_llm(request: Request) -> LlmClient | None:
    """`llm_of` as a dependency. `async` so FastAPI calls it on the event loop: a plain `def` dependency
    runs in the threadpool, a hop per request."""
    return llm_of(request.app.state)


# A route parameter: `llm: ConfiguredLlm`. Invisible in the OpenAPI document.
ConfiguredLlm = Annotated[LlmClient | None, Depends(get_llm)]
