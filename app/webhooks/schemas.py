"""Request and response bodies of the webhook endpoints and their delivery log."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, StringConstraints

from app.core.names import check_profile_name
from app.core.schemas import ApiModel, PageModel, RequestModel

# Every event type the outbox writes (behaviour.md § Events and webhooks).
EventType = Literal[
    "memory.created",
    "memory.updated",
    "memory.superseded",
    "memory.deleted",
    "session.deleted",
    "profile.deleted",
    "ingest.completed",
]
# The type of what POST …/test sends: never an event of the outbox.
TEST_EVENT_TYPE = "webhook.test"
DeliveryState = Literal["pending", "delivered", "failed"]

WebhookUrl = Annotated[
    str,
    StringConstraints(min_length=8, max_length=2000),
    Field(description="Where deliveries are POSTed: an http(s) URL on a public address."),
]
ProfileFilter = Annotated[
    str,
    StringConstraints(min_length=1, max_length=100),
    AfterValidator(check_profile_name),
    Field(description="Only events of this profile (by name)."),
]
Types = Annotated[
    list[EventType],
    Field(min_length=1, max_length=20, description="Only events of these types (absent: every type)."),
]


class WebhookCreate(RequestModel):
    url: WebhookUrl
    types: Types | None = None
    profile: ProfileFilter | None = None


class WebhookUpdate(RequestModel):
    types: Types | None = Field(default=None, description="New type filter; null: every type.")
    profile: ProfileFilter | None = Field(
        default=None, description="New profile filter; null: every profile."
    )
    enabled: bool | None = Field(
        default=None,
        description="false stops deliveries (events wait past the cursor); true resumes them where they "
        "stopped and forgets why the endpoint was disabled.",
    )


class SecretRotation(RequestModel):
    grace_seconds: float | None = Field(
        default=None,
        ge=0,
        le=30 * 86_400,
        description="How long the old secret keeps signing beside the new one (default: "
        "AGENT_MEMORY_WEBHOOK_SECRET_GRACE_SECONDS, a day).",
    )


class WebhookOut(ApiModel):
    id: str
    url: str
    types: list[str] | None = Field(description="The types delivered; null: every type.")
    profile: str | None = Field(description="The profile whose events are delivered; null: every profile.")
    enabled: bool
    disabled_reason: str | None = Field(
        description="Why the endpoint was disabled (a 410, days of failures)."
    )
    cursor: int = Field(description="The last event id handed to the endpoint (delivered or given up).")
    failing_since: datetime | None = Field(
        description="Since when every delivery failed; null: the last succeeded."
    )
    previous_secret_until: datetime | None = Field(
        description="After a rotation: until when the previous secret signs too."
    )
    created_at: datetime
    updated_at: datetime


class WebhookCreated(WebhookOut):
    secret: str = Field(description="The signing secret (whsec_…): shown here once, never again.")


class WebhookList(ApiModel):
    webhooks: list[WebhookOut]


class SecretRotated(ApiModel):
    secret: str = Field(description="The new signing secret (whsec_…): shown here once.")
    previous_secret_until: datetime | None


class DeliveryOut(ApiModel):
    id: str
    message_id: str = Field(description="The webhook-id header: the same on every attempt and redelivery.")
    event_id: int | None = Field(description="The event delivered; null for a test event.")
    event_type: str
    ordered: bool = Field(description="Part of the endpoint's event stream (false: a test or a redelivery).")
    status: DeliveryState
    attempts: int
    response_status: int | None = Field(description="The last attempt's HTTP status (null: no answer).")
    response_ms: int | None = Field(description="The last attempt's time, milliseconds.")
    last_error: str | None
    next_attempt_at: datetime | None = Field(description="When a pending delivery is tried next.")
    created_at: datetime
    finished_at: datetime | None


class DeliveryList(PageModel):
    deliveries: list[DeliveryOut]
