"""Upgrades without stale files (issue "Operate it for real"): every static URL a page
gives carries its file's content hash, a file asked for with that hash is cached for a
year (immutable) and any other static request is revalidated, and the service worker
(/sw.js) is named by the build, its precache list hashed. Expected hashes are computed
here from the files themselves."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest
from flask import Flask

from tests.conftest import make_app

STATIC = Path(__file__).resolve().parents[2] / "scorekeeper" / "static"
URL = re.compile(r'(?:href|src|data-[\w-]+)="(/static/[^"?]+)(?:\?v=([^"&]*))?"')
IMMUTABLE = {"public", "max-age=31536000", "immutable"}


def _hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def _cache_control(client, url: str) -> set[str]:
    response = client.get(url)
    assert response.status_code == 200, url
    response.close()
    assert "Expires" not in response.headers
    return {part.strip() for part in response.headers["Cache-Control"].split(",")}


def _game(client) -> str:
    form = {"player_0": "Ann", "player_1": "Bob", "preset": "standard", "first_dealer": "0"}
    return str(client.post("/games/new", data=form).headers["Location"])


def _static_urls(client, *pages: str) -> dict[str, str | None]:
    """Each static file the pages name (its path under /static/) and the ``v`` it carries."""
    found: dict[str, str | None] = {}
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200, page
        for path, digest in URL.findall(response.get_data(as_text=True)):
            found[path.removeprefix("/static/")] = digest or None
    return found


def _copy_app(tmp_path: Path, name: str) -> tuple[Flask, Path]:
    """An app on its own database whose static folder is a copy of the package's."""
    folder = tmp_path / f"static-{name}"
    shutil.copytree(STATIC, folder)
    app = make_app(str(tmp_path / f"{name}.sqlite3"))
    app.static_folder = str(folder)
    return app, folder


def _service_worker(client) -> tuple[str, list[str], str]:
    """/sw.js's build id, precache list and whole text."""
    response = client.get("/sw.js")
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-cache"
    text = response.get_data(as_text=True)
    build = re.search(r'var BUILD = "([0-9a-f]{12})";', text)
    files = re.search(r"var FILES = (\[.*?\]);", text)
    assert build is not None and files is not None, text[:800]
    return build.group(1), json.loads(files.group(1)), text


def test_every_static_url_of_the_pages_carries_its_files_content_hash(client):
    game = _game(client)
    pages = ("/", "/games/new", game, f"{game}/rounds/new", f"{game}/tv", "/play", "/rules")
    urls = _static_urls(client, *pages)
    assert {"style.css", "theme.js", "table.js", "manifest.webmanifest"} <= set(urls)
    assert "vendor/nosleep.js/NoSleep.min.js" in urls  # awake.js's data-nosleep
    assert urls == {path: _hash(STATIC / path) for path in urls}


def test_a_static_file_with_its_current_hash_is_kept_a_year_any_other_is_revalidated(client):
    digest = _hash(STATIC / "table.js")
    assert _cache_control(client, f"/static/table.js?v={digest}") == IMMUTABLE
    assert _cache_control(client, "/static/table.js") == {"no-cache"}
    assert _cache_control(client, "/static/table.js?v=0123456789ab") == {"no-cache"}
    first = client.get(f"/static/table.js?v={digest}")
    first.close()
    again = client.get(
        f"/static/table.js?v={digest}", headers={"If-None-Match": first.headers["ETag"]}
    )
    again.close()
    assert again.status_code == 304 and "immutable" in again.headers["Cache-Control"]


def test_files_named_by_other_static_files_are_revalidated(client):
    """The manifest's icons are named without a hash: never kept stale."""
    manifest = json.loads(STATIC.joinpath("manifest.webmanifest").read_text())
    for icon in manifest["icons"]:
        assert "?" not in icon["src"]
        assert _cache_control(client, icon["src"]) == {"no-cache"}


def test_a_changed_file_gets_a_new_url_and_a_new_service_worker_build(tmp_path):
    old_app, _ = _copy_app(tmp_path, "old")
    new_app, folder = _copy_app(tmp_path, "new")
    with (folder / "table.js").open("a") as script:
        script.write("\n/* the next release */\n")
    old, new = old_app.test_client(), new_app.test_client()
    before, after = _static_urls(old, "/games/new"), _static_urls(new, "/games/new")
    assert after["table.js"] == _hash(folder / "table.js") != before["table.js"]
    assert {k: v for k, v in after.items() if k != "table.js"} == {
        k: v for k, v in before.items() if k != "table.js"
    }
    assert _cache_control(new, f"/static/table.js?v={after['table.js']}") == IMMUTABLE
    assert _cache_control(new, f"/static/table.js?v={before['table.js']}") == {"no-cache"}
    assert _service_worker(old)[0] != _service_worker(new)[0]


def test_a_files_hash_is_read_once_per_process(tmp_path):
    """An upgrade restarts the processes: a file changed under a running app keeps the URL
    it had (the hash is not read again for each page)."""
    app, folder = _copy_app(tmp_path, "running")
    client = app.test_client()
    first = _static_urls(client, "/games/new")["table.js"]
    (folder / "table.js").write_text("/* changed under the running app */\n")
    assert _static_urls(client, "/games/new")["table.js"] == first


def test_the_service_worker_names_its_caches_by_the_build_and_precaches_hashed_urls(client):
    build, files, text = _service_worker(client)
    assert "__BUILD__" not in text and "__FILES__" not in text
    assert 'SHELL = "sk-shell-" + BUILD, PAGES = "sk-pages-" + BUILD' in text
    assert "/static/table.js?v=" + _hash(STATIC / "table.js") in files
    for url in files:
        path, _, digest = url.partition("?v=")
        assert digest == _hash(STATIC / path.removeprefix("/static/")), url
        assert _cache_control(client, url) == IMMUTABLE
    assert _service_worker(client)[0] == build  # one build per process


@pytest.mark.parametrize("path", ["/static/../app.py", "/static/nothing.js?v=0123456789ab"])
def test_a_static_file_that_is_not_there_is_a_plain_404(client, path):
    assert client.get(path).status_code == 404


def test_a_pages_etag_carries_the_build_so_an_older_builds_copy_is_sent_again(client):
    game = _game(client)
    build = _service_worker(client)[0]
    tag = client.get(game).headers["ETag"]
    assert tag.endswith(f'.{build}"')
    assert client.get(game, headers={"If-None-Match": tag}).status_code == 304
    older = tag.replace(build, "0123456789ab")
    assert client.get(game, headers={"If-None-Match": older}).status_code == 200
    polled = client.get(f"{game}/version").headers["ETag"]  # JSON: no build in its tag
    assert polled == '"v1"'
    assert client.get(f"{game}/version", headers={"If-None-Match": polled}).status_code == 304
    both = f"{older}, {tag}"
    assert client.get(game, headers={"If-None-Match": both}).status_code == 304


def test_a_page_kept_in_one_language_is_sent_again_in_another(client):
    """The language switch changes the ``lang`` cookie, not the page's address: a copy of
    the page in English is never answered 304 to a phone that now reads Spanish."""
    game = _game(client)
    english = client.get(game).headers["ETag"]
    client.set_cookie("lang", "es")
    spanish = client.get(game, headers={"If-None-Match": english})
    assert spanish.status_code == 200 and spanish.headers["ETag"] != english
    again = client.get(game, headers={"If-None-Match": spanish.headers["ETag"]})
    assert again.status_code == 304
    asked = client.get(f"{game}?lang=en", headers={"If-None-Match": english})
    assert asked.status_code == 304  # ?lang= before the cookie: English again
