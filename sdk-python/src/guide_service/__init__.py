"""The guide service's Python SDK: a typed client of the v1 API and its events feed, and a webhook verifier (README.md)."""

__version__ = "1.0.0"

from .client import GuideService, TailPage
from .errors import PROBLEM_CODES, ErrorCode, GuideServiceError, NoAnswerCode, Problem, ProblemCode, RateLimit
from .paging import Page, Paginated
from .resources import (
    Event,
    EventType,
    Guide,
    GuideDeletedEvent,
    GuideEvent,
    GuideListItem,
    Key,
    Member,
    MemberEvent,
    PingEvent,
    Role,
    Scope,
    Team,
    WebhookEvent,
)
from .webhooks import WebhookVerificationError, WebhookVerificationReason, verify_webhook

__all__ = [
    "PROBLEM_CODES",
    "ErrorCode",
    "Event",
    "EventType",
    "Guide",
    "GuideDeletedEvent",
    "GuideEvent",
    "GuideListItem",
    "GuideService",
    "GuideServiceError",
    "Key",
    "Member",
    "MemberEvent",
    "NoAnswerCode",
    "Page",
    "Paginated",
    "PingEvent",
    "Problem",
    "ProblemCode",
    "RateLimit",
    "Role",
    "Scope",
    "TailPage",
    "Team",
    "WebhookEvent",
    "WebhookVerificationError",
    "WebhookVerificationReason",
    "__version__",
    "verify_webhook",
]
