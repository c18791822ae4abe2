# The package as an integrator gets it (issue 43): a wheel built offline from a copy of this folder with the
# build tools Debian packages (setuptools and wheel, no build isolation, no index), installed into a new
# virtual environment with nothing else, and used there, away from these sources, against the running
# service: reading, the events tail, a real webhook delivery verified, and the typing marker installed.
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from conftest import SDK_ROOT, Receiver, Tenant

from guide_service import __version__

SCRIPT = """\
import json, os, sys
from importlib import metadata, resources

import guide_service
from guide_service import GuideService, verify_webhook

client = GuideService(api_key=os.environ["GUIDE_API_KEY"], base_url=os.environ["GUIDE_URL"])
page = next(client.events.tail(types=["guide.created"], wait=1))
with open(os.environ["DELIVERY"], "rb") as saved:
    delivery = json.loads(saved.read())
event = verify_webhook(delivery["body"].encode(), delivery["headers"], os.environ["SECRET"])
print(json.dumps({
    "module": guide_service.__file__,
    "version": metadata.version("guide-service"),
    "typed": resources.files("guide_service").joinpath("py.typed").is_file(),
    "key": client.verify_key()["name"],
    "guides": [guide["title"] for guide in client.guides.list(limit=1)],
    "tailed": [event["id"] for event in page.events],
    "cursor": page.cursor is not None,
    "verified": event["type"],
    "path": sys.path,
}))
"""


def run(*command: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    done = subprocess.run([str(part) for part in command], cwd=cwd, env=env, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, f"{' '.join(map(str, command))} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_the_wheel_installs_into_a_new_virtual_environment_and_works_against_the_service(
    tenant: Tenant, receiver: Receiver, tmp_path: Path
) -> None:
    # Built from a copy, so that the build leaves nothing in the sources and sees only what it ships.
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(SDK_ROOT / name, source / name)
    shutil.copytree(SDK_ROOT / "src", source / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    wheels = tmp_path / "wheels"
    quiet = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_ROOT_USER_ACTION": "ignore", "PIP_NO_INPUT": "1"}
    run(sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "--no-index", "-w", wheels, source, env=quiet)
    (wheel,) = wheels.iterdir()
    assert wheel.name == f"guide_service-{__version__}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = archive.read(f"guide_service-{__version__}.dist-info/METADATA").decode()
    assert {"guide_service/py.typed", "guide_service/client.py", "guide_service/webhooks.py"} <= names
    assert f"guide_service-{__version__}.dist-info/LICENSE" in names
    assert not any(name.startswith(("tests/", "examples/")) for name in names)
    assert "Requires-Python: >=3.11" in metadata and "License: MIT" in metadata
    assert "Requires-Dist" not in metadata

    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv)
    python = venv / "bin" / "python"
    run(python, "-m", "pip", "install", "--no-index", "--no-deps", wheel, env=quiet)

    # Something to read, to tail, and a real delivery to verify.
    home = {"type": "team", "id": tenant.team_id}
    endpoint = tenant.service.admin("POST", "/webhook-endpoints", {"home": home, "url": receiver.url, "events": ["guide.created"]})["data"]
    (guide,) = tenant.guides("Installed from a wheel")
    delivery = receiver.next("guide.created")
    saved_delivery = tmp_path / "delivery.json"
    saved_delivery.write_text(json.dumps({"body": delivery.body.decode(), "headers": dict(delivery.headers.items())}))

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "check.py").write_text(SCRIPT)
    env = {
        "PATH": os.environ.get("PATH", ""),
        "GUIDE_URL": tenant.service.base_url,
        "GUIDE_API_KEY": tenant.key,
        "DELIVERY": str(saved_delivery),
        "SECRET": endpoint["standard_webhooks_secret"],
    }
    answer = json.loads(run(python, "-I", "check.py", cwd=elsewhere, env=env))

    assert Path(answer["module"]).is_relative_to(venv), answer["module"]
    assert not any(str(SDK_ROOT) in entry for entry in answer["path"])
    event_id = tenant.client.events.list().to_list()[0]["id"]
    assert {key: value for key, value in answer.items() if key not in ("module", "path")} == {
        "version": __version__,
        "typed": True,
        "key": "Python SDK tests",
        "guides": [guide["title"]],
        "tailed": [event_id],
        "cursor": True,
        "verified": "guide.created",
    }


def test_the_licence_is_the_projects() -> None:
    # One licence for the service and its SDKs: this folder ships a copy of the repository's LICENSE.
    licence = (SDK_ROOT / "LICENSE").read_text()
    assert licence.startswith("MIT License")
    if (SDK_ROOT.parent / "LICENSE").exists():
        assert licence == (SDK_ROOT.parent / "LICENSE").read_text()
