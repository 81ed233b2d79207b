"""The installable package (issue 25, item 1): the wheel built from this checkout and
installed into a fresh virtualenv outside it runs ``scorekeeper serve`` on a fresh data
folder (SCOREKEEPER_DATA): pages, static files and /healthz answer 200."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from babel.support import Translations

from scorekeeper.languages import LANGUAGES, TRANSLATIONS
from tests.hosting.servers import fetch, free_port, serving

CHECKOUT = Path(__file__).resolve().parents[2]


def _run(*command: str | Path, cwd: Path) -> str:
    done = subprocess.run(
        [str(part) for part in command], cwd=cwd, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh virtualenv outside the checkout with the wheel installed; its bin folder."""
    uv = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")
    if uv is None:
        pytest.skip("uv is not installed (the test extra brings it)")
    place = tmp_path_factory.mktemp("installed")
    _run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", CHECKOUT, "-w", place, cwd=place)
    (wheel,) = place.glob("scorekeeper-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "scorekeeper/migrations/alembic.ini" in names
    assert "scorekeeper/templates/base.html" in names and "scorekeeper/static/sw.js" in names
    for code in LANGUAGES:
        if code != "en":  # the compiled catalogues ship in the wheel
            assert f"scorekeeper/translations/{code}/LC_MESSAGES/messages.mo" in names, code
    _run(uv, "venv", "-q", "--python", sys.executable, place / "venv", cwd=place)
    _run(
        uv, "pip", "install", "-q", "--python", place / "venv" / "bin" / "python", wheel, cwd=place
    )
    return place / "venv" / "bin"


def test_the_installed_wheel_serves_from_a_fresh_data_folder(installed, tmp_path):
    data, port = tmp_path / "data", free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    env |= {"SCOREKEEPER_DATA": str(data), "PYTHONPATH": ""}
    command = [installed / "scorekeeper", "serve", "--host", "127.0.0.1", "--port", str(port)]
    base = f"http://127.0.0.1:{port}"
    with serving([str(c) for c in command], base, env, tmp_path, tmp_path / "serve.log"):
        for path in ("/", "/rules", "/play", "/groups/", "/static/style.css", "/sw.js"):
            assert fetch(base + path)[0] == 200, path
        status, page = fetch(base + "/rules?lang=fr")
        french = Translations.load(str(TRANSLATIONS), ["fr"]).gettext("Rules")
        assert status == 200 and b'lang="fr"' in page and french.encode() in page
        status, body = fetch(base + "/healthz")
        assert status == 200 and b'"ok"' in body
    assert (data / "scorekeeper.sqlite3").exists() and (data / "secret_key").exists()
    assert "500 Rum is running" in (tmp_path / "serve.log").read_text()
    site = next((installed.parent / "lib").glob("python3*/site-packages"))
    assert not (site / "instance").exists() and not (site / "scorekeeper" / "instance").exists()


def test_an_installed_wheel_keeps_its_data_in_the_users_data_folder(installed, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SCOREKEEPER_", "XDG_"))}
    env |= {"HOME": str(tmp_path), "PYTHONPATH": ""}
    code = "from scorekeeper.hosting.settings import data_folder; print(data_folder())"
    done = subprocess.run(
        [installed / "python", "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True
    )
    assert done.stdout.strip() == str(tmp_path / ".local" / "share" / "scorekeeper"), done.stderr
