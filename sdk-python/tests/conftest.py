# The tests drive a real service: one process of the built service (`npm run build` at the repository's
# root makes dist/main.js; GUIDE_SERVICE_MAIN names another build) on a fresh SQLite store, with fixtures
# made through its management API as an operator would, and webhook deliveries sent to receivers here.
from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from guide_service import GuideService

if TYPE_CHECKING:
    from _pytest.terminal import TerminalReporter

SDK_ROOT = Path(__file__).resolve().parent.parent
REPO_ROOT = SDK_ROOT.parent

ADMIN_TOKEN = "adm_python_sdk_tests_" + uuid.uuid4().hex
START_TIMEOUT_SECONDS = 60
# Lines a test reports (the tail test's missing and duplicate events), printed after the run's summary.
REPORTED: list[str] = []


@pytest.fixture
def report() -> Callable[[str], None]:
    return REPORTED.append


def pytest_terminal_summary(terminalreporter: TerminalReporter) -> None:
    if REPORTED:
        terminalreporter.section("reported by the tests")
        for line in REPORTED:
            terminalreporter.write_line(line)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Service:
    base_url: str
    database: Path
    process: subprocess.Popen[bytes]
    log: Path

    def admin(self, method: str, path: str, body: Any = None) -> Any:
        """A management API call with the admin token; the answer's JSON (None for a bodiless one)."""
        request = urllib.request.Request(
            f"{self.base_url}/admin/v1{path}",
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {ADMIN_TOKEN}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=15) as response:
            text = response.read()
        return json.loads(text) if text else None

    def guide(self, team_id: str, title: str) -> dict[str, Any]:
        """A guide with one step: its guide.created event is in the feed."""
        steps = [{"text": "Open settings", "image_url": "https://example.com/1.png"}]
        return dict(self.admin("POST", "/guides", {"team_id": team_id, "title": title, "steps": steps})["data"])


@dataclass
class Tenant:
    """An organization on the Growth plan with one team, and an organization key that reads everything."""

    service: Service
    organization_id: str
    team_id: str
    key: str
    client: GuideService = field(repr=False)

    def guides(self, *titles: str) -> list[dict[str, Any]]:
        return [self.service.guide(self.team_id, title) for title in titles]


def start_service(directory: Path, **environment: str) -> Service:
    main = Path(os.environ.get("GUIDE_SERVICE_MAIN", REPO_ROOT / "dist" / "main.js"))
    if not main.exists():
        pytest.exit(f"{main} is missing: build the service first (`npm run build` at {REPO_ROOT})", returncode=2)
    port = free_port()
    env = {
        **{name: value for name, value in os.environ.items() if name not in ("REDIS_URL", "METRICS_TOKEN", "PUBLIC_URL", "APP_URL")},
        "PORT": str(port),
        "HOST": "127.0.0.1",
        "DATABASE_URL": f"file:{directory / 'service.db'}",
        "DATA_DIR": str(directory),
        "DEMO": "false",
        "ADMIN_TOKEN": ADMIN_TOKEN,
        "LOG_LEVEL": "warn",
        "WEBHOOK_ALLOW_PRIVATE_NETWORKS": "true",
        "WEBHOOK_COALESCE_MS": "0",
        **environment,
    }
    log = directory / "service.log"
    with log.open("wb") as output:
        process = subprocess.Popen([shutil.which("node") or "node", str(main)], env=env, stdout=output, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while "is listening on" not in log.read_text(errors="replace"):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"the service did not start:\n{log.read_text(errors='replace')}")
        time.sleep(0.1)
    return Service(base_url=f"http://127.0.0.1:{port}", database=directory / "service.db", process=process, log=log)


def stop_service(service: Service) -> None:
    service.process.send_signal(signal.SIGTERM)
    try:
        service.process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        service.process.kill()
        service.process.wait()


@pytest.fixture(scope="session")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    started = start_service(tmp_path_factory.mktemp("service"))
    yield started
    stop_service(started)


def make_tenant(service: Service, *, scopes: list[str] | None = None, **client_options: Any) -> Tenant:
    name = f"Acme {uuid.uuid4().hex[:8]}"
    organization = service.admin("POST", "/organizations", {"name": name, "plan": "growth"})["data"]
    team = service.admin("POST", "/teams", {"name": "Support", "organization_id": organization["id"]})["data"]
    key = service.admin(
        "POST",
        "/api-keys",
        {
            "home": {"type": "organization", "id": organization["id"]},
            "name": "Python SDK tests",
            "scopes": scopes or ["guides:read", "teams:read", "members:read"],
            "expires_in_days": 1,
        },
    )["secret"]
    return Tenant(
        service=service,
        organization_id=organization["id"],
        team_id=team["id"],
        key=key,
        client=GuideService(api_key=key, base_url=service.base_url, **client_options),
    )


@pytest.fixture
def tenant(service: Service) -> Tenant:
    return make_tenant(service)


@dataclass
class Delivery:
    headers: Message
    body: bytes


class Receiver:
    """A webhook receiver on loopback that keeps every delivery as it arrived (raw body and headers) and answers 204."""

    def __init__(self) -> None:
        deliveries: queue.Queue[Delivery] = queue.Queue()
        self.deliveries = deliveries

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                deliveries.put(Delivery(self.headers, body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def next(self, event_type: str, timeout: float = 20) -> Delivery:
        """The next delivery of that event type (others are passed over)."""
        deadline = time.monotonic() + timeout
        while True:
            delivery = self.deliveries.get(timeout=max(0.01, deadline - time.monotonic()))
            if delivery.headers.get("x-service-event") == event_type:
                return delivery

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    started = Receiver()
    yield started
    started.close()
