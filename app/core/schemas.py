"""The base of every request and response model: camelCase on the wire, snake_case in Python."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, model_serializer
from pydantic.alias_generators import to_camel

# The largest value of PostgreSQL's bigint: an integer a request gives for such a column (a limit, an
# event id) is bounded by it, so a larger one is a 422, not a database error.
BIGINT_MAX = 2**63 - 1


class ApiModel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, from_attributes=True)


class RequestModel(ApiModel):
    """Request bodies refuse unknown fields, so a typo is a clear 422 rather than silently ignored."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")


class PageModel(ApiModel):
    """A keyset page: its items (declared by the subclass) and the cursor of the next page.

    On the last page the `cursor` key is left out, not sent as null, as the REST contract says.
    """

    cursor: str | None = None  # the next page's

    @model_serializer(mode="wrap")
    def _omit_cursor_on_the_last_page(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if isinstance(data, dict) and data.get("cursor") is None:
            data.pop("cursor", None)
        return data
