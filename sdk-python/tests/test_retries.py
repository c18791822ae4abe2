# Retries as the TypeScript SDK makes them: 429 and 503 (and a balancer's 502 and 504) after Retry-After,
# seconds or an HTTP date, never sooner; network failures and time-outs after a short back-off; a
# Retry-After beyond max_retry_delay ends the call at once; max_retries bounds them all. The answers a
# service or a balancer in front of it can give are scripted on a local server here, where the time
# between attempts can be measured; the last test meets a real 429 of the running service.
from __future__ import annotations

import email.utils
import json
import logging
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from conftest import Tenant, free_port

from guide_service import GuideService, GuideServiceError

KEY = {"id": "7f8e0b39-7a8c-4b9a-9b43-0d3c5b3f4a11", "name": "CI", "home": {"type": "team", "id": "x"}, "scopes": [], "expires_at": None}


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes = b""
    delay: float = 0.0


def ok() -> Answer:
    return Answer(200, {"content-type": "application/json"}, json.dumps({"data": KEY}).encode())


def problem(status: int, code: str, **headers: str) -> Answer:
    body = {"type": "about:blank", "title": code, "status": status, "detail": f"a {code}", "code": code, "request_id": "req-1"}
    return Answer(status, {"content-type": "application/problem+json", **headers}, json.dumps(body).encode())


class Scripted:
    """Answers each request with the next scripted answer, and notes when each came (time.time())."""

    def __init__(self, answers: list[Answer]) -> None:
        self.arrivals: list[float] = []
        script, arrivals = list(answers), self.arrivals

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                arrivals.append(time.time())
                answer = script.pop(0)
                time.sleep(answer.delay)
                self.send_response(answer.status)
                for name, value in {**answer.headers, "content-length": str(len(answer.body))}.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(answer.body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def client(self, **options: Any) -> GuideService:
        return GuideService(api_key="gsk_test", base_url=self.base_url, **options)

    def gaps(self) -> list[float]:
        return [later - earlier for earlier, later in zip(self.arrivals, self.arrivals[1:])]


@pytest.fixture
def scripted() -> Iterator[list[Scripted]]:
    made: list[Scripted] = []
    yield made
    for server in made:
        server.server.shutdown()
        server.server.server_close()


def serve(made: list[Scripted], *answers: Answer) -> Scripted:
    server = Scripted(list(answers))
    made.append(server)
    return server


def test_429_is_retried_after_retry_after_seconds_never_sooner(scripted: list[Scripted]) -> None:
    server = serve(scripted, problem(429, "rate_limited", **{"retry-after": "1"}), ok())
    assert server.client().verify_key() == KEY
    (gap,) = server.gaps()
    # Retry-After, plus at most a fifth of it of jitter (and the time a request takes).
    assert 1.0 <= gap < 2.0


def test_503_is_retried_after_a_retry_after_http_date_never_sooner(scripted: list[Scripted]) -> None:
    at = time.time() + 2
    server = serve(scripted, problem(503, "service_unavailable", **{"retry-after": email.utils.formatdate(at, usegmt=True)}), ok())
    assert server.client().verify_key() == KEY
    # The date has whole seconds: the retry comes no sooner than the second it names.
    assert server.arrivals[1] >= int(at)


def test_a_balancers_502_and_504_are_retried_with_back_off(scripted: list[Scripted]) -> None:
    gateway_page = Answer(502, {"content-type": "text/html"}, b"<html>502 Bad Gateway</html>")
    server = serve(scripted, gateway_page, Answer(504, {}, b""), ok())
    assert server.client().verify_key() == KEY
    assert len(server.arrivals) == 3
    first, second = server.gaps()
    # 0.25 s then 0.5 s, each from half to one and a half times that (plus the time a request takes).
    assert 0.125 <= first < 0.375 + 0.5 and 0.25 <= second < 0.75 + 0.5


def test_a_retry_after_beyond_max_retry_delay_ends_the_call_at_once(scripted: list[Scripted]) -> None:
    server = serve(scripted, problem(429, "rate_limited", **{"retry-after": "120"}))
    started = time.monotonic()
    with pytest.raises(GuideServiceError) as raised:
        server.client(max_retry_delay=60).verify_key()
    assert time.monotonic() - started < 1
    assert (raised.value.code, raised.value.status, raised.value.retry_after) == ("rate_limited", 429, 120)
    assert raised.value.request_id == "req-1"
    assert len(server.arrivals) == 1


def test_max_retries_bounds_the_retries_then_the_call_ends_with_the_last_error(scripted: list[Scripted]) -> None:
    server = serve(scripted, *[problem(503, "service_unavailable", **{"retry-after": "0"})] * 3)
    with pytest.raises(GuideServiceError) as raised:
        server.client(max_retries=2).verify_key()
    assert (raised.value.code, raised.value.status) == ("service_unavailable", 503)
    assert len(server.arrivals) == 3


def test_other_refusals_are_not_retried(scripted: list[Scripted]) -> None:
    server = serve(scripted, problem(400, "invalid_request"))
    with pytest.raises(GuideServiceError) as raised:
        server.client().verify_key()
    assert raised.value.code == "invalid_request"
    assert len(server.arrivals) == 1


def test_an_answer_that_is_not_a_problem_gets_the_closest_code_by_status(scripted: list[Scripted]) -> None:
    server = serve(scripted, Answer(502, {"content-type": "text/html", "x-request-id": "lb-7"}, b"<html>Bad Gateway</html>"))
    with pytest.raises(GuideServiceError) as raised:
        server.client(max_retries=0).verify_key()
    assert (raised.value.code, raised.value.status, raised.value.request_id) == ("bad_gateway", 502, "lb-7")
    assert raised.value.problem is None and "Bad Gateway" in raised.value.detail


def test_no_answer_is_network_error_after_the_retries() -> None:
    client = GuideService(api_key="gsk_test", base_url=f"http://127.0.0.1:{free_port()}", max_retries=2)
    started = time.monotonic()
    with pytest.raises(GuideServiceError) as raised:
        client.verify_key()
    assert (raised.value.code, raised.value.status, raised.value.request_id) == ("network_error", 0, None)
    # Two back-offs, of 0.25 s and 0.5 s, each halved to one and a half times at random.
    assert 0.375 - 0.05 <= time.monotonic() - started < 3


def test_an_answer_slower_than_the_timeout_is_timeout_and_is_retried(scripted: list[Scripted]) -> None:
    server = serve(scripted, Answer(200, {}, b"{}", delay=1.5), ok())
    assert server.client(timeout=0.5).verify_key() == KEY
    assert len(server.arrivals) == 2
    server = serve(scripted, Answer(200, {}, b"{}", delay=1.5))
    with pytest.raises(GuideServiceError) as raised:
        server.client(timeout=0.5, max_retries=0).verify_key()
    assert (raised.value.code, raised.value.status) == ("timeout", 0)


def test_the_services_429_too_many_waits_is_retried_after_its_retry_after(tenant: Tenant, caplog: pytest.LogCaptureFixture) -> None:
    # The key holds as many waiting requests as it may (10): the next one that would wait is 429 with
    # Retry-After: 1. An event 0.5 s later answers them all; the client's retry comes after the second.
    tenant.guides("First")
    cursor = next(tenant.client.events.list().pages()).next_cursor
    held = urllib.request.Request(
        f"{tenant.service.base_url}/v1/events?after={cursor}&wait=10", headers={"Authorization": f"Bearer {tenant.key}"}
    )
    holders = [threading.Thread(target=lambda: urllib.request.urlopen(held, timeout=20).read()) for _ in range(10)]
    for holder in holders:
        holder.start()
    time.sleep(0.5)
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(held, timeout=20)
    assert refused.value.code == 429 and refused.value.headers["retry-after"] == "1"

    threading.Timer(0.5, lambda: tenant.guides("Second")).start()
    caplog.set_level(logging.DEBUG, logger="guide_service")
    started = time.monotonic()
    page = next(tenant.client.events.tail(after=cursor, wait=10))
    assert time.monotonic() - started >= 1.0
    assert [event["data"]["guide"]["title"] for event in page.events if event["type"] == "guide.created"] == ["Second"]
    assert any("too_many_waits" in record.getMessage() for record in caplog.records)
    for holder in holders:
        holder.join()
