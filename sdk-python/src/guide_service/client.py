# The client: every read of the v1 API, typed by resources.py, with the TypeScript SDK's behaviour.
#   client = GuideService(api_key=os.environ["GUIDE_API_KEY"], base_url="https://guides.example.com")
#   for guide in client.guides.list(q="password"): print(guide["title"])
from __future__ import annotations

import urllib.parse
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final, cast

from . import __version__
from ._http import Requester, logger
from .errors import GuideServiceError, RateLimit
from .paging import Page, Paginated
from .resources import Event, EventType, Guide, GuideListItem, Key, Member, Team

TAIL_WAIT_SECONDS: Final = 30
"""How long `events.tail()` asks the service to hold an empty page open (the most it allows)."""


@dataclass(frozen=True)
class TailPage:
    """One page of `events.tail()`."""

    events: list[Event]
    """Oldest first; dedupe on each event's `id` (an event can come again after a resume or a restart)."""
    cursor: str | None
    """
    Where the tail goes on from: save it once these events are handled, and pass it as `after` to resume.
    None only while the key has no event at all (resuming from None starts from the oldest kept, as then).
    """
    restarted: bool
    """The cursor given was from before what the service keeps (cursor_expired): the tail started over from
    the oldest event kept, so events seen before may come again and some may have been dropped unseen."""


class GuideService:
    """A client of the guide service's v1 API for one API key (gsk_…)."""

    def __init__(
        self,
        *,
        api_key: str,
        base_url: str,
        timeout: float = 30.0,
        max_retries: int = 3,
        max_retry_delay: float = 60.0,
    ) -> None:
        """
        base_url is the service's public URL (its PUBLIC_URL), without /v1. timeout is per attempt, in seconds;
        max_retries counts retries after the first attempt of a call (429, 502, 503, 504, network failures,
        time-outs); a Retry-After beyond max_retry_delay seconds ends the call at once with the error.
        """
        if not api_key:
            raise ValueError("GuideService needs an API key (gsk_…)")
        self._requester = Requester(
            base_url=base_url,
            api_key=api_key,
            user_agent=f"guide-service-python/{__version__}",
            timeout=timeout,
            max_retries=max_retries,
            max_retry_delay=max_retry_delay,
        )
        self.guides: Final = Guides(self._requester)
        self.teams: Final = Teams(self._requester)
        self.members: Final = Members(self._requester)
        self.events: Final = Events(self._requester)

    @property
    def rate_limit(self) -> RateLimit | None:
        """The rate limit as the last answer stated it; None before the first."""
        return self._requester.rate_limit

    def verify_key(self) -> Key:
        """What the key is: its name, scopes and the team or organization it belongs to (GET /v1/auth/verify)."""
        return cast(Key, self._requester.get("/auth/verify")["data"])


class Guides:
    def __init__(self, requester: Requester) -> None:
        self._requester = requester

    def list(
        self, *, q: str | None = None, team_id: str | None = None, limit: int | None = None, cursor: str | None = None
    ) -> Paginated[GuideListItem]:
        """Guides newest first, every page in turn (GET /v1/guides); `q` searches titles, `team_id` narrows."""

        def fetch(page_cursor: str | None) -> Page[GuideListItem]:
            page = self._requester.get("/guides", {"q": q, "team_id": team_id, "limit": limit, "cursor": page_cursor})
            return Page(items=cast(list[GuideListItem], page["data"]), next_cursor=page["next_cursor"])

        return Paginated(cursor or None, fetch)

    def get(self, id_or_permalink: str) -> Guide:
        """One guide with its markdown, by id or permalink (GET /v1/guides/{guideId})."""
        path = "/guides/" + urllib.parse.quote(id_or_permalink, safe="")
        return cast(Guide, self._requester.get(path)["data"])


class Teams:
    def __init__(self, requester: Requester) -> None:
        self._requester = requester

    def list(self) -> list[Team]:
        """The teams the key reaches (GET /v1/teams)."""
        return cast(list[Team], self._requester.get("/teams")["data"])


class Members:
    def __init__(self, requester: Requester) -> None:
        self._requester = requester

    def list(self, *, team_id: str) -> list[Member]:
        """The members of one team the key reaches (GET /v1/members)."""
        return cast(list[Member], self._requester.get("/members", {"team_id": team_id})["data"])


class Events:
    def __init__(self, requester: Requester) -> None:
        self._requester = requester

    def list(
        self, *, after: str | None = None, types: Sequence[EventType] | None = None, limit: int | None = None
    ) -> Paginated[Event]:
        """
        The events the key reaches, oldest first, up to the newest (GET /v1/events). An empty page ends the
        walk; `.pages()` gives it too, with its next_cursor: where to go on from later.
        """

        def fetch(page_after: str | None) -> Page[Event]:
            page = self._page(page_after, types, limit, wait=0)
            events = cast(list[Event], page["data"])
            return Page(items=events, next_cursor=page["next_cursor"], last=not events)

        return Paginated(after or None, fetch)

    def tail(
        self,
        *,
        after: str | None = None,
        types: Sequence[EventType] | None = None,
        limit: int | None = None,
        wait: int = TAIL_WAIT_SECONDS,
    ) -> Iterator[TailPage]:
        """
        Every event from `after` (or the oldest kept) on, and then each new one as it happens, a page at a
        time, for as long as the loop runs: the service holds each empty page open up to `wait` seconds
        until an event arrives, and a page with nothing new is not yielded. Save each page's `cursor` once
        its events are handled; pass it as `after` to resume after a restart. A cursor from before what the
        service keeps (400 cursor_expired) starts the tail over from the oldest event kept, on a page marked
        `restarted` (and a warning on the `guide_service` logger). Any other error ends the loop with a
        GuideServiceError, once retries are spent. Stop it with `break`.
        """
        # A held page answers within the wait; the time-out covers the wait and then the usual time.
        timeout = wait + self._requester.timeout
        cursor = after or None
        restarted = False
        while True:
            try:
                page = self._page(cursor, types, limit, wait=wait, timeout=timeout)
            except GuideServiceError as error:
                if error.code != "cursor_expired" or cursor is None:
                    raise
                logger.warning("the events cursor had expired (%s): starting over from the oldest event kept", error.detail)
                cursor = None
                restarted = True
                continue
            cursor = page["next_cursor"] or cursor
            events = cast(list[Event], page["data"])
            # An empty page (the wait ended with nothing new) moves nothing on: the loop asks again.
            if not events and not restarted:
                continue
            yield TailPage(events=events, cursor=cursor, restarted=restarted)
            restarted = False

    def _page(
        self,
        after: str | None,
        types: Sequence[EventType] | None,
        limit: int | None,
        *,
        wait: int,
        timeout: float | None = None,
    ) -> Any:
        # One type given as a string is taken as one type, not as its letters.
        listed: list[str] = [types] if isinstance(types, str) else list(types or [])
        query = {"after": after, "types": ",".join(listed) or None, "limit": limit, "wait": wait or None}
        return self._requester.get("/events", query, timeout=timeout)
