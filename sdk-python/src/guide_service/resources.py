# What the v1 API answers, as typed dictionaries: the JSON is handed over as parsed, and these types say
# what it holds (spec §2, §6). Written from the OpenAPI document the service serves (/v1/openapi.json);
# tests/test_types_current.py compares every field and every literal list here with that document, so
# they cannot drift from what the service answers.
from __future__ import annotations

from typing import Literal, TypeAlias, TypedDict

Scope: TypeAlias = Literal["guides:read", "teams:read", "members:read", "webhooks:manage"]
HomeType: TypeAlias = Literal["team", "organization"]
Role: TypeAlias = Literal["EDITOR", "VIEWER", "ADMIN"]
PublishStatus: TypeAlias = Literal["DRAFT", "PUBLISHED"]
TextDirection: TypeAlias = Literal["rtl", "ltr"]
# The types of the events feed (GET /v1/events); a webhook delivery may also be a `ping`.
EventType: TypeAlias = Literal[
    "guide.created",
    "guide.updated",
    "guide.ready",
    "guide.failed",
    "guide.deleted",
    "member.joined",
    "member.left",
    "member.role_changed",
]
GuideEventType: TypeAlias = Literal["guide.created", "guide.updated", "guide.ready", "guide.failed"]
MemberEventType: TypeAlias = Literal["member.joined", "member.left", "member.role_changed"]
# What `changed` of a guide.updated names.
GuideColumn: TypeAlias = Literal[
    "title", "description", "body", "permalink", "language", "folder_id", "publish_status", "team_role", "is_public"
]


class KeyHome(TypedDict):
    type: HomeType
    id: str


class Key(TypedDict):
    """What GET /v1/auth/verify answers: the key's name, scopes and the team or organization it belongs to."""

    id: str
    name: str
    home: KeyHome
    scopes: list[Scope]
    expires_at: str | None


class GuideListItem(TypedDict):
    """A guide as GET /v1/guides lists it."""

    id: str
    team_id: str | None
    created_at: str | None
    updated_at: str | None
    title: str | None
    description: str | None
    owner_name: str | None
    icon_url: str | None
    permalink: str | None
    publish_status: PublishStatus | None
    locked: bool


class Guide(GuideListItem):
    """One guide with its markdown (GET /v1/guides/{guideId}); on plans without full guides a preview."""

    language: str
    text_direction: TextDirection
    app_version: str | None
    thumbnail_url: str | None
    tags: list[str] | None
    folder_id: str | None
    is_public: bool
    markdown_body: str
    brand_color: str | None
    notice: str | None


class Team(TypedDict):
    id: str
    name: str | None
    role: Role | None


class Member(TypedDict):
    id: str
    name: str | None
    email: str
    avatar_url: str | None
    role: Role
    joined_at: str | None


class EventGuide(TypedDict):
    id: str
    title: str | None
    description: str | None
    permalink: str | None
    updated_at: str | None
    team_id: str
    folder_id: str | None
    language: str
    url: str


class Placement(TypedDict):
    team_guides: bool
    public_link: bool


class GuideEventData(TypedDict):
    guide: EventGuide
    placement: Placement
    changed: list[GuideColumn]


class DeletedGuide(TypedDict):
    id: str
    team_id: str


class GuideDeletedData(TypedDict):
    guide: DeletedGuide


class EventMember(TypedDict):
    user_id: str
    email: str
    name: str | None
    role: Role  # for member.left, the role the member had
    team_id: str


class MemberEventData(TypedDict):
    member: EventMember


class PingData(TypedDict):
    message: str


class GuideEvent(TypedDict):
    """guide.created, guide.updated, guide.ready or guide.failed."""

    id: str
    created_at: str
    team_id: str
    organization_id: str | None
    type: GuideEventType
    data: GuideEventData


class GuideDeletedEvent(TypedDict):
    id: str
    created_at: str
    team_id: str
    organization_id: str | None
    type: Literal["guide.deleted"]
    data: GuideDeletedData


class MemberEvent(TypedDict):
    """member.joined, member.left or member.role_changed."""

    id: str
    created_at: str
    team_id: str
    organization_id: str | None
    type: MemberEventType
    data: MemberEventData


class PingEvent(TypedDict):
    """A webhook delivery that tests an endpoint; never in the events feed."""

    id: str
    created_at: str
    team_id: str
    organization_id: str | None
    type: Literal["ping"]
    data: PingData


# An event of the feed: the very envelope its webhook deliveries carry. `if event["type"] == "guide.deleted":`
# narrows it, for mypy and the like.
Event: TypeAlias = GuideEvent | GuideDeletedEvent | MemberEvent
# What a webhook delivery carries: any event of the feed, or a ping.
WebhookEvent: TypeAlias = GuideEvent | GuideDeletedEvent | MemberEvent | PingEvent
