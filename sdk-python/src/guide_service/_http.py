# One GET to the v1 API, retried as a well-behaved client does (the TypeScript SDK's requester, in Python's
# standard library): 429 and 503 (and a balancer's 502 and 504) after their Retry-After (seconds or an
# HTTP date), never sooner, with a little jitter and a cap; network failures and time-outs after a short
# exponential back-off. Every v1 operation is a GET, so every retry is safe.
from __future__ import annotations

import email.utils
import http.client
import json
import logging
import random
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from email.message import Message
from typing import Any, Final, cast

from .errors import ErrorCode, GuideServiceError, Problem, RateLimit

logger: Final = logging.getLogger("guide_service")

Query = Mapping[str, str | int | None]

RETRIED_STATUSES: Final = frozenset({429, 502, 503, 504})
FIRST_BACKOFF_SECONDS: Final = 0.25
# The closest code for an answer that is not the service's problem document (a proxy's page, say).
CODE_BY_STATUS: Final[Mapping[int, ErrorCode]] = {
    404: "not_found",
    429: "rate_limited",
    502: "bad_gateway",
    503: "service_unavailable",
    504: "gateway_timeout",
}


class Requester:
    def __init__(
        self,
        *,
        base_url: str,
        api_key: str,
        user_agent: str,
        timeout: float,
        max_retries: int,
        max_retry_delay: float,
        random_fraction: Callable[[], float] = random.random,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._base = base_url.rstrip("/") + "/v1"
        self._headers = {"Authorization": f"Bearer {api_key}", "Accept": "application/json", "User-Agent": user_agent}
        self.timeout = timeout
        self._max_retries = max_retries
        self._max_retry_delay = max_retry_delay
        self._random = random_fraction
        self._sleep = sleep
        self.rate_limit: RateLimit | None = None
        """The rate limit as the last answer stated it."""

    def get(self, path: str, query: Query | None = None, *, timeout: float | None = None) -> Any:
        """The JSON of a 2xx answer; raises GuideServiceError for anything else, once retries are spent."""
        url = self._url(path, query or {})
        attempt = 0
        while True:
            retries_left = attempt < self._max_retries
            try:
                status, headers, body = self._send(url, self.timeout if timeout is None else timeout)
            except GuideServiceError as no_answer:
                if not retries_left:
                    raise
                self._wait_before_retry(no_answer, self._backoff(attempt))
                attempt += 1
                continue
            rate_limit = _rate_limit_of(headers)
            if rate_limit is not None:
                self.rate_limit = rate_limit
            if 200 <= status < 300:
                try:
                    return json.loads(body)
                except ValueError:
                    raise GuideServiceError(
                        "internal_error", status, "The answer is not JSON", request_id=headers.get("x-request-id")
                    ) from None
            error = _problem_error(status, headers, body, rate_limit)
            retried = status in RETRIED_STATUSES
            retry_after = retry_after_seconds(headers.get("retry-after"), time.time()) if retried else None
            error.retry_after = retry_after
            wait = retry_after if retry_after is not None else (self._backoff(attempt) if retried else None)
            if wait is None or not retries_left or wait > self._max_retry_delay:
                raise error
            # Never before the time the service named; the jitter spreads clients that were refused together.
            self._wait_before_retry(error, min(self._max_retry_delay, wait + self._random() * min(1.0, wait * 0.2)))
            attempt += 1

    def _url(self, path: str, query: Query) -> str:
        given = {name: str(value) for name, value in query.items() if value is not None}
        return f"{self._base}{path}" + (f"?{urllib.parse.urlencode(given)}" if given else "")

    def _send(self, url: str, timeout: float) -> tuple[int, Message, bytes]:
        """One attempt: the status, headers and body of whatever answered; no answer is a GuideServiceError."""
        request = urllib.request.Request(url, headers=self._headers, method="GET")
        try:
            try:
                with urllib.request.urlopen(request, timeout=timeout) as response:
                    return response.status, response.headers, response.read()
            except urllib.error.HTTPError as answer:
                with answer:
                    return answer.code, answer.headers, answer.read()
        except TimeoutError as error:
            raise GuideServiceError("timeout", 0, f"No answer within {timeout:g} s") from error
        except urllib.error.URLError as error:
            if isinstance(error.reason, TimeoutError):
                raise GuideServiceError("timeout", 0, f"No answer within {timeout:g} s") from error
            raise GuideServiceError("network_error", 0, str(error.reason)) from error
        except (OSError, http.client.HTTPException) as error:
            raise GuideServiceError("network_error", 0, str(error) or type(error).__name__) from error

    def _backoff(self, attempt: int) -> float:
        return float(FIRST_BACKOFF_SECONDS * 2**attempt * (0.5 + self._random()))

    def _wait_before_retry(self, error: GuideServiceError, seconds: float) -> None:
        logger.debug("retrying in %.2f s after %s", seconds, error)
        self._sleep(seconds)


def retry_after_seconds(value: str | None, now: float) -> float | None:
    """Retry-After in seconds from `now`: delay-seconds or an HTTP date (RFC 9110 §10.2.3); None if absent or unreadable."""
    if value is None:
        return None
    text = value.strip()
    if text.isascii() and text.isdigit():
        return float(int(text))
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - now)


def _rate_limit_of(headers: Message) -> RateLimit | None:
    values = [headers.get(name) for name in ("ratelimit-limit", "ratelimit-remaining", "ratelimit-reset")]
    if not all(value is not None and value.strip().isdigit() for value in values):
        return None
    limit, remaining, reset = (int(str(value)) for value in values)
    return RateLimit(limit=limit, remaining=remaining, reset_seconds=reset)


def _problem_error(status: int, headers: Message, body: bytes, rate_limit: RateLimit | None) -> GuideServiceError:
    problem = _problem_of(body)
    if problem is not None:
        return GuideServiceError(
            problem["code"],
            status,
            problem["detail"],
            request_id=problem.get("request_id") or headers.get("x-request-id"),
            rate_limit=rate_limit,
            problem=problem,
        )
    # Not the service's problem document: the closest code by status, so that a match on codes still holds.
    text = body[:200].decode("utf-8", "replace").strip()
    return GuideServiceError(
        CODE_BY_STATUS.get(status, "internal_error"),
        status,
        text or http.client.responses.get(status, "Error"),
        request_id=headers.get("x-request-id"),
        rate_limit=rate_limit,
    )


def _problem_of(body: bytes) -> Problem | None:
    try:
        parsed = json.loads(body)
    except ValueError:
        return None
    if not isinstance(parsed, dict):
        return None
    fields = {"code": str, "detail": str, "status": int}
    if not all(isinstance(parsed.get(name), kind) for name, kind in fields.items()):
        return None
    return cast(Problem, parsed)
