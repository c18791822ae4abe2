# The events feed through the client (README "Catching up without webhooks"): every event the key reaches,
# oldest first, paged by itself, with the place to go on from kept; tail(), which goes on with each new
# event as it happens, a page at a time with the cursor to resume from; a consumer killed mid-way that
# resumes from its saved cursor without missing an event; and a cursor the feed no longer keeps
# (cursor_expired), from which the tail starts over, saying so.
from __future__ import annotations

import logging
import os
import queue
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import SDK_ROOT, Tenant

from guide_service import GuideServiceError

PAGE_SIZE = 5


def titles(events: list[object]) -> list[str | None]:
    return [event["data"]["guide"]["title"] for event in events if isinstance(event, dict) and event["type"] == "guide.created"]


def test_list_walks_the_feed_oldest_first_and_its_last_page_keeps_the_place_to_go_on_from(tenant: Tenant) -> None:
    tenant.guides("First", "Second", "Third", "Fourth", "Fifth")
    pages = list(tenant.client.events.list(types=["guide.created"], limit=2).pages())
    assert [len(page.items) for page in pages] == [2, 2, 1, 0]
    assert titles([event for page in pages for event in page.items]) == ["First", "Second", "Third", "Fourth", "Fifth"]
    # Not None: where a later walk goes on from, past everything seen.
    last = pages[-1].next_cursor
    assert last is not None and last == pages[-2].next_cursor
    tenant.guides("Later")
    assert titles(tenant.client.events.list(after=last).to_list()) == ["Later"]


def test_list_keeps_the_types_asked_for(tenant: Tenant) -> None:
    tenant.guides("A guide")
    person = tenant.service.admin("POST", "/users", {"email": f"lee-{uuid.uuid4().hex[:6]}@example.com", "name": "Lee"})["data"]
    tenant.service.admin("PUT", f"/teams/{tenant.team_id}/members/{person['id']}", {"role": "VIEWER"})
    assert [event["type"] for event in tenant.client.events.list()] == ["guide.created", "member.joined"]
    (joined,) = tenant.client.events.list(types=["member.joined", "member.left"])
    assert joined["type"] == "member.joined" and joined["data"]["member"]["user_id"] == person["id"]


def test_tail_gives_what_is_there_then_an_event_made_while_it_waits_a_page_at_a_time_with_its_cursor(tenant: Tenant) -> None:
    tenant.guides("First", "Second")
    seen: list[str | None] = []
    cursors: list[str | None] = []
    for page in tenant.client.events.tail(types=["guide.created"], wait=10):
        assert not page.restarted
        seen += titles(list(page.events))
        cursors.append(page.cursor)
        if seen == ["First", "Second"]:
            # Made once the tail has asked for more and is held waiting.
            threading.Timer(0.3, lambda: tenant.guides("Third")).start()
        if len(seen) == 3:
            break
    assert seen == ["First", "Second", "Third"]
    assert all(cursor is not None for cursor in cursors)
    assert tenant.client.events.list(after=cursors[-1]).to_list() == []


class Consumer:
    """tests/tail_consumer.py in a process of its own, its lines read as they come."""

    def __init__(self, tenant: Tenant, cursor_file: Path, seconds_per_event: float) -> None:
        environment = {**os.environ, "PYTHONPATH": str(SDK_ROOT / "src")}
        arguments = [tenant.service.base_url, tenant.key, str(cursor_file), str(PAGE_SIZE), str(seconds_per_event)]
        self.process = subprocess.Popen(
            [sys.executable, str(SDK_ROOT / "tests" / "tail_consumer.py"), *arguments],
            env=environment,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.handled: list[str] = []
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def handle_until(self, done: Callable[[list[str]], bool], timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while not done(self.handled):
            line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            if line is None:
                raise AssertionError(f"the consumer ended (exit {self.process.wait()}) after {len(self.handled)} events")
            if line.startswith("handled "):
                self.handled.append(line.removeprefix("handled "))

    def kill(self) -> None:
        """SIGKILL: nothing of the consumer runs after it; whatever it printed before is still read."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        while (line := self.lines.get(timeout=5)) is not None:
            if line.startswith("handled "):
                self.handled.append(line.removeprefix("handled "))


def test_a_consumer_killed_mid_way_resumes_from_its_saved_cursor_with_no_event_missing(
    tenant: Tenant, tmp_path: Path, report: Callable[[str], None]
) -> None:
    made = [guide["id"] for guide in tenant.guides(*(f"Busy {n}" for n in range(12)))]
    cursor_file = tmp_path / "cursor"

    first = Consumer(tenant, cursor_file, seconds_per_event=0.2)
    # Killed in the middle of its second page: its first page is saved, the second is not.
    first.handle_until(lambda handled: len(handled) >= PAGE_SIZE + 2)
    first.kill()
    assert len(first.handled) < len(made), "the consumer was to be killed mid-way"
    assert cursor_file.exists()

    made += [guide["id"] for guide in tenant.guides(*(f"Later {n}" for n in range(5)))]
    event_ids = [event["id"] for event in tenant.client.events.list()]
    assert len(event_ids) == len(made) == 17

    second = Consumer(tenant, cursor_file, seconds_per_event=0)
    try:
        second.handle_until(lambda handled: set(event_ids) <= set(first.handled) | set(handled))
    finally:
        second.kill()

    handled = first.handled + second.handled
    missing = set(event_ids) - set(handled)
    duplicates = len(handled) - len(set(handled))
    report(
        f"events tail killed mid-way and resumed from its saved cursor: {len(event_ids)} events, {len(missing)} missing, "
        f"{duplicates} duplicates ({len(first.handled)} handled before the kill, {len(second.handled)} after, pages of {PAGE_SIZE})"
    )
    assert missing == set()
    # Only the page the kill interrupted comes again: what was handled of it before the kill (all of it
    # when the kill came between its last event and the save).
    assert duplicates in {len(first.handled) % PAGE_SIZE, PAGE_SIZE}
    assert second.handled[duplicates:] == [event_id for event_id in event_ids if event_id not in first.handled]


def test_a_cursor_the_feed_no_longer_keeps_restarts_the_tail_from_the_oldest_event_kept(
    tenant: Tenant, caplog: pytest.LogCaptureFixture
) -> None:
    tenant.guides(*(f"Old {n}" for n in range(6)))
    first_page = next(tenant.client.events.list(limit=2).pages())
    everything = tenant.client.events.list().to_list()
    # Retention as it runs after EVENTS_RETENTION_DAYS: the first four events leave the organization's feed,
    # which the feed knows by its horizon (src/domain/event-feed.ts). The cursor after the second is too old.
    horizon = everything[3]["created_at"]
    with sqlite3.connect(tenant.service.database, timeout=10) as store:
        store.execute(
            "INSERT INTO event_feed_horizons (home_type, home_id, dropped_through) VALUES ('organization', ?, ?)",
            (tenant.organization_id, horizon),
        )
    kept = [event["id"] for event in everything if event["created_at"] > horizon]
    assert kept

    with pytest.raises(GuideServiceError) as raised:
        tenant.client.events.list(after=first_page.next_cursor).to_list()
    assert (raised.value.code, raised.value.status) == ("cursor_expired", 400)

    caplog.set_level(logging.WARNING, logger="guide_service")
    page = next(tenant.client.events.tail(after=first_page.next_cursor, wait=1))
    assert page.restarted
    assert [event["id"] for event in page.events] == kept
    assert any("expired" in record.getMessage() for record in caplog.records)
    # The restarted page's cursor goes on from there.
    tenant.guides("New")
    assert titles(tenant.client.events.list(after=page.cursor).to_list()) == ["New"]
