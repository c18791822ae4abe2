# One exception for everything a call can end in short of its answer: a problem the service answered
# (RFC 9457, its `code` from the service's catalogue), or no answer at all (`network_error`, `timeout`).
# PROBLEM_CODES is the Problem.code enum of /v1/openapi.json, written out; tests/test_types_current.py
# compares the two, so a code the service gains cannot go unnoticed here.
from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, TypeAlias, TypedDict, get_args

ProblemCode: TypeAlias = Literal[
    "invalid_key",
    "key_expired",
    "scope_missing",
    "api_disabled",
    "team_keys_disabled",
    "rate_limited",
    "too_many_waits",
    "invalid_request",
    "cursor_expired",
    "not_found",
    "method_not_allowed",
    "forbidden",
    "conflict",
    "idempotency_key_in_use",
    "idempotency_key_reused",
    "limit_reached",
    "payload_too_large",
    "unsupported_media_type",
    "expectation_failed",
    "request_timeout",
    "headers_too_large",
    "internal_error",
    "service_unavailable",
    "bad_gateway",
    "gateway_timeout",
]
"""The codes the service answers with (its error catalogue)."""

NoAnswerCode: TypeAlias = Literal["network_error", "timeout"]
"""Codes of calls that got no answer: the connection failed, or the time-out passed."""

ErrorCode: TypeAlias = ProblemCode | NoAnswerCode

PROBLEM_CODES: Final[tuple[ProblemCode, ...]] = get_args(ProblemCode)


class Problem(TypedDict):
    """An RFC 9457 problem document as the service answers it."""

    type: str
    title: str
    status: int
    detail: str
    code: ProblemCode
    request_id: str


@dataclass(frozen=True)
class RateLimit:
    """The rate limit as an answer stated it (RateLimit-* headers, spec §8)."""

    limit: int
    """Requests allowed in the window."""
    remaining: int
    """Requests left in the window."""
    reset_seconds: int
    """Seconds until the window resets."""


class GuideServiceError(Exception):
    """A call that ended without its answer: `code` says why, as the service's problem code or no answer's."""

    code: ErrorCode
    """The problem's code, or why there was no answer (`network_error`, `timeout`)."""
    status: int
    """The HTTP status; 0 when there was no answer."""
    detail: str
    """What is wrong, in the service's words (for invalid_request it names the parameter)."""
    request_id: str | None
    """The request id to quote to support; None when there was no answer."""
    rate_limit: RateLimit | None
    """The rate limit as the answer stated it; None when there was no answer or it said nothing."""
    problem: Problem | None
    """The whole problem document, when the service answered one."""
    retry_after: float | None
    """Seconds the answer's Retry-After asked to wait (beyond max_retry_delay, or after the last retry)."""

    def __init__(
        self,
        code: ErrorCode,
        status: int,
        detail: str,
        *,
        request_id: str | None = None,
        rate_limit: RateLimit | None = None,
        problem: Problem | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(f"{code}{f' ({status})' if status else ''}: {detail}")
        self.code = code
        self.status = status
        self.detail = detail
        self.request_id = request_id
        self.rate_limit = rate_limit
        self.problem = problem
        self.retry_after = retry_after
