"""Response body of an import."""

from __future__ import annotations

from pydantic import Field

from app.core.schemas import ApiModel


class ImportResult(ApiModel):
    records: int = Field(description="Records read (header and end line not counted).")
    inserted: dict[str, int] = Field(description="New rows per record type.")
    skipped: dict[str, int] = Field(
        description="Rows already present per record type (a re-import skips all)."
    )
    forgotten: dict[str, int] = Field(
        default_factory=dict,
        description="Rows not imported per record type because the profile deleted them: a memory whose "
        "content a tombstone holds, a message a deleted memory took with it.",
    )
