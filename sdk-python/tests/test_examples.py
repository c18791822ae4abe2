# The README's examples (examples/*.py, shown there unchanged) run against the service as a reader would run
# them: reading guides, tailing the feed with a saved cursor across a restart, and a receiver verifying
# real deliveries.
from __future__ import annotations

import os
import queue
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from conftest import SDK_ROOT, Tenant, free_port

EXAMPLES = ["read_guides.py", "tail_events.py", "receiver.py"]


class Example:
    """An example in a process of its own, with the tenant's key; its output read line by line as it comes."""

    def __init__(self, name: str, tenant: Tenant, **environment: str) -> None:
        env = {
            **os.environ,
            "PYTHONPATH": str(SDK_ROOT / "src"),
            "GUIDE_URL": tenant.service.base_url,
            "GUIDE_API_KEY": tenant.key,
            **environment,
        }
        self.process = subprocess.Popen(
            [sys.executable, str(SDK_ROOT / "examples" / name)], env=env, stdout=subprocess.PIPE, text=True
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def next_line(self, timeout: float = 20) -> str:
        line = self.lines.get(timeout=timeout)
        assert line is not None, f"the example ended with {self.process.wait()}"
        return line

    def output(self) -> list[str]:
        """Everything it printed, once it has ended."""
        assert self.process.wait(timeout=30) == 0
        return [line for line in iter(self.lines.get, None)]

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait()


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_readme_shows_the_example_as_it_is(name: str) -> None:
    readme = (SDK_ROOT / "README.md").read_text()
    assert "```python\n" + (SDK_ROOT / "examples" / name).read_text() + "```" in readme


def test_read_guides(tenant: Tenant) -> None:
    _, reset, _ = tenant.guides("Password policy", "Reset a password", "Rotate the keys")
    markdown = tenant.client.guides.get(reset["id"])["markdown_body"]
    assert Example("read_guides.py", tenant).output() == [
        "key: Python SDK tests",
        "2 guides about passwords: ['Reset a password', 'Password policy']",
        f"Reset a password {len(markdown)} characters of markdown",
        "no such guide: no-such-guide",
    ]


def test_tail_events_goes_on_from_its_saved_cursor_after_a_restart(tenant: Tenant, tmp_path: Path) -> None:
    cursor_file = tmp_path / "events.cursor"
    first, _ = tenant.guides("First", "Second")
    tail = Example("tail_events.py", tenant, GUIDE_CURSOR_FILE=str(cursor_file))
    try:
        assert [tail.next_line(), tail.next_line()] == ["new guide: First", "new guide: Second"]
        tenant.service.admin("DELETE", f"/guides/{first['id']}")
        assert tail.next_line() == f"guide deleted: {first['id']}"
        # Saved once that page is handled: nothing comes after the saved cursor.
        deadline = time.monotonic() + 10
        while not (cursor_file.exists() and tenant.client.events.list(after=cursor_file.read_text()).to_list() == []):
            assert time.monotonic() < deadline, "the example did not save its cursor"
            time.sleep(0.05)
    finally:
        tail.stop()

    tenant.guides("Third")
    tail = Example("tail_events.py", tenant, GUIDE_CURSOR_FILE=str(cursor_file))
    try:
        assert tail.next_line() == "new guide: Third"
        assert tail.lines.empty()
    finally:
        tail.stop()


def wait_for_port(port: int, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            assert time.monotonic() < deadline, f"nothing listens on {port}"
            time.sleep(0.05)


def test_receiver_verifies_real_deliveries_and_refuses_a_tampered_one(tenant: Tenant) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/hooks"
    home = {"type": "team", "id": tenant.team_id}
    endpoint = tenant.service.admin("POST", "/webhook-endpoints", {"home": home, "url": url, "events": ["guide.created"]})["data"]
    receiver = Example("receiver.py", tenant, PORT=str(port), GUIDE_STANDARD_WEBHOOKS_SECRET=endpoint["standard_webhooks_secret"])
    try:
        wait_for_port(port)
        tenant.service.admin("POST", f"/webhook-endpoints/{endpoint['id']}/ping")
        assert receiver.next_line().startswith("received ping ")
        tenant.guides("Reset a password")
        (event,) = tenant.client.events.list().to_list()
        assert receiver.next_line() == f"received guide.created {event['id']}"

        forged = urllib.request.Request(
            url,
            data=b'{"type":"guide.created"}',
            headers={"webhook-id": event["id"], "webhook-timestamp": str(int(time.time())), "webhook-signature": "v1," + "A" * 43 + "="},
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(forged, timeout=5)
        assert (refused.value.code, refused.value.read()) == (400, b"bad_signature")
    finally:
        receiver.stop()
