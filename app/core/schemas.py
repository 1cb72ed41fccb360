"""The base of every request and response model: camelCase on the wire, snake_case in Python."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema
from pydantic.alias_generators import to_camel


class ApiModel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, from_attributes=True)


class RequestModel(ApiModel):
    """Request bodies refuse unknown fields, so a typo is a clear 422 rather than silently ignored."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")


def _is_none(value: object) -> bool:
    return value is None


class Page(ApiModel):
    """A keyset-paginated answer: `cursor` is present while more pages follow and left out (not null) on the
    last page, so a client looping while `cursor !== undefined` stops."""

    cursor: Annotated[
        str | None,
        WithJsonSchema(
            {"type": "string", "description": "Cursor of the next page; absent on the last page."}
        ),
    ] = Field(default=None, exclude_if=_is_none)
