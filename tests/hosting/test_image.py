"""The image's pins and the app without Redis (issue 36, the image): constraints.txt pins
every direct dependency (all extras but bench) at a version pyproject.toml allows; the
Dockerfile and compose.yaml name their base images at exact versions; the app imports,
starts and answers with the ``redis`` package missing (it is the ``redis`` extra)."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]


def _pins() -> dict[str, list[Version]]:
    """constraints.txt's pins by canonical name (several when markers split a package)."""
    pins: dict[str, list[Version]] = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        requirement = Requirement(line)
        (specifier,) = requirement.specifier
        assert specifier.operator == "==", line
        pins.setdefault(canonicalize_name(requirement.name), []).append(Version(specifier.version))
    return pins


def _direct() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    listed = project["dependencies"] + [
        r for name, rs in extras.items() if name != "bench" for r in rs
    ]
    return [Requirement(r) for r in listed]


def test_every_direct_dependency_is_pinned_within_its_bound():
    pins = _pins()
    direct = _direct()
    assert {"redis", "psycopg", "flask", "pytest"} <= {canonicalize_name(r.name) for r in direct}
    for requirement in direct:
        versions = pins.get(canonicalize_name(requirement.name))
        assert versions, f"{requirement.name} has no pin in constraints.txt: run scripts/lock"
        for version in versions:
            assert requirement.specifier.contains(version, prereleases=True), (
                f"constraints.txt pins {requirement.name}=={version} outside {requirement}"
            )


def test_the_image_installs_the_pins_and_its_bases_are_exact_versions():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "-c constraints.txt" in dockerfile or "--constraint constraints.txt" in dockerfile
    assert re.search(r"\[postgres,redis\]", dockerfile)
    bases = re.findall(r"^ARG BASE=(\S+)", dockerfile, re.M)
    images = re.findall(r"^\s+image: (\S+)", (ROOT / "compose.yaml").read_text(), re.M)
    pulled = bases + [i for i in images if i != "scorekeeper"]
    assert len(pulled) == 4, pulled  # python, postgres, redis, nginx
    for image in pulled:
        tag = image.rsplit(":", 1)[1]
        assert re.match(r"\d+\.\d+(\.\d+)?(-[a-z0-9-]+)?$", tag), image
        name = image.rsplit(":", 1)[0]
        if name != "postgres":  # PostgreSQL's versions have two parts (16.x)
            assert re.match(r"\d+\.\d+\.\d+", tag), image
    assert "--without-pip" in dockerfile and "--python /opt/venv/bin/python" in dockerfile


BLOCK_REDIS = """
import sys, tempfile
from pathlib import Path

class NoRedis:
    def find_spec(self, name, path=None, target=None):
        if name == "redis" or name.startswith("redis."):
            raise ImportError("No module named 'redis' (blocked by the test)")
        return None

sys.meta_path.insert(0, NoRedis())
from scorekeeper import create_app
from scorekeeper.jobs.queue import make_huey

folder = Path(tempfile.mkdtemp())
app = create_app({"SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                  "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'r.db'}"})
client = app.test_client()
started = client.post("/games/new", data={"player_0": "Ann", "player_1": "Bob"})
assert started.status_code == 302, started.status_code
for page in ("/", "/healthz", "/play", started.location):
    assert client.get(page).status_code == 200, page
make_huey(app)
assert not [m for m in sys.modules if m == "redis" or m.startswith("redis.")]
print("served without redis")
"""


def test_the_app_starts_and_answers_without_the_redis_package(tmp_path):
    env = {"PYTHONPATH": str(ROOT), "SCOREKEEPER_DATA": str(tmp_path), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", BLOCK_REDIS],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "served without redis" in done.stdout
