"""A table game served by two server processes at once (issue 14): each process its own
memory, one database (the same SQLite file, or PostgreSQL when a server can be started);
a move made through one process reaches a phone's event stream served by the other."""

from __future__ import annotations

import http.client
import json
import os
import queue
import subprocess
import sys
import threading
import urllib.parse
import urllib.request
from collections.abc import Iterator
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

from scorekeeper.engine import middle_level
from tests.conftest import make_app

STANDIN_BOT = f"A {middle_level().title} bot"
"""How a page tells the table a stand-in (the ladder's middle level) plays for a person."""

SERVE = """
import json, sys
from werkzeug.serving import make_server
from scorekeeper import create_app

app = create_app(json.loads(sys.argv[1]))
server = make_server("127.0.0.1", 0, app, threaded=True)
print(server.server_port, flush=True)
server.serve_forever()
"""


def _config(database: str) -> dict[str, Any]:
    return {
        "SECRET_KEY": "two-processes",
        "SQLALCHEMY_DATABASE_URI": database,
        "WTF_CSRF_ENABLED": False,
        "RATELIMIT_ENABLED": False,
        "PLAY_STREAM_SECONDS": 3,
        "PLAY_GRACE_SECONDS": 600,
        "JOBS": "inline",
    }


def _two_servers(database: str, data: Path | None = None, **extra: Any) -> Iterator[list[str]]:
    """Two processes serving the app on ``database`` (its config with ``extra``; their
    data folder ``data`` when given); yields their base URLs."""
    root = Path(__file__).resolve().parents[2]
    env = os.environ | {"PYTHONPATH": str(root)}
    if data is not None:
        env["SCOREKEEPER_DATA"] = str(data)
    env.pop("DATABASE_URL", None)
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", SERVE, json.dumps(_config(database) | extra)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        for _ in range(2)
    ]
    try:
        ports = [p.stdout.readline().strip() for p in processes if p.stdout]
        assert all(ports), "a server process did not start"
        yield [f"http://127.0.0.1:{port}" for port in ports]
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=60)
            if process.stdout:
                process.stdout.close()


class Phone:
    """A phone: its own cookies (its seat), talking to one server process."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(CookieJar()), _NoRedirect()
        )

    def get(self, path: str) -> Any:
        return self.opener.open(self.base + path, timeout=60)

    def post(self, path: str, form: dict[str, str] | None = None, body: Any = None) -> Any:
        if body is not None:
            data, kind = json.dumps(body).encode(), "application/json"
        else:
            data, kind = (
                urllib.parse.urlencode(form or {}).encode(),
                "application/x-www-form-urlencoded",
            )
        request = urllib.request.Request(self.base + path, data, {"Content-Type": kind})
        return self.opener.open(request, timeout=60)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any) -> None:
        return None


def _opened(phone: Phone, path: str, form: dict[str, str] | None = None) -> str:
    try:
        response = phone.post(path, form) if form is not None else phone.get(path)
    except urllib.error.HTTPError as redirect:
        assert redirect.code in (302, 303), redirect.code
        return redirect.headers["Location"]
    raise AssertionError(f"{path} did not redirect ({response.status})")


def _state_of(phone: Phone, slug: str) -> dict[str, Any]:
    with phone.get(f"/play/{slug}/state.json") as response:
        return json.loads(response.read())


def _a_move_pushed_across_processes(bases: list[str]) -> None:
    """The stream is open and has told the version before the move (so only a wake-up,
    or the stream's own reading again, can tell it of the move)."""
    host, ivo = Phone(bases[0]), Phone(bases[1])
    fields = {"name": "Hana", "preset": "standard", "seat_0": "person"}
    seats_page = _opened(host, "/play/table", fields | {"who_0": "Ivo", "seat_1": "casual"})
    slug = seats_page.split("/")[2]
    with host.get(f"/play/{slug}/seats") as response:
        html = response.read().decode()
    start = html.index(f"/play/{slug}/sit/1/")
    _opened(ivo, html[start : html.index('"', start)])  # Ivo sits down through process B
    state = _state_of(host, slug)
    mover, listener = (host, ivo) if state["legal"] else (ivo, host)
    legal, version = _state_of(mover, slug)["legal"], state["version"]
    heard: queue.Queue[tuple[str, Any] | None] = queue.Queue()
    path = f"/play/{slug}/events"
    threading.Thread(target=_events, args=(listener, path, heard), daemon=True).start()
    assert _told(heard.get(timeout=120)) == version
    body = {"version": version, "action": legal[0]}
    with mover.post(f"/play/{slug}/move.json", body=body) as response:
        answer = json.loads(response.read())
    pushed = heard.get(timeout=120)
    assert mover.base != listener.base  # the move through one process, the stream the other
    assert _told(pushed) == answer["version"] > version


def test_a_move_through_one_process_reaches_a_stream_of_the_other_on_sqlite(tmp_path) -> None:
    path = tmp_path / "two.sqlite3"
    make_app(str(path))  # migrated once, before both processes start
    for bases in _two_servers(f"sqlite:///{path}"):
        _a_move_pushed_across_processes(bases)


def test_a_move_through_one_process_reaches_a_stream_of_the_other_on_postgresql(
    postgres_url,
) -> None:
    for bases in _two_servers(postgres_url):
        _a_move_pushed_across_processes(bases)


WOKEN_ONLY = {"PLAY_STREAM_SECONDS": 600, "PLAY_CHECK_SECONDS": 600}
"""Streams that neither end nor read their game again by themselves within a test (the
grace period of :func:`_config` puts their keep-alive 300 s away): a move reaches them
only through their process's listener (issue 27, item 2)."""


def test_a_move_wakes_a_stream_of_the_other_process_on_sqlite(tmp_path) -> None:
    """One shared check per process (SQLite has no server to tell)."""
    path = tmp_path / "woken.sqlite3"
    make_app(str(path))
    for bases in _two_servers(f"sqlite:///{path}", **WOKEN_ONLY):
        _a_move_pushed_across_processes(bases)


def test_a_move_nudges_the_other_processs_sqlite_check_at_once(tmp_path) -> None:
    """The SQLite bus's nudge (``wakeups.Nudges``): the mover's process tells the
    other's check through its socket in the shared data folder, so the stream hears the
    move although that check's own beat is 600 s away."""
    path = tmp_path / "nudged.sqlite3"
    make_app(str(path))
    nudged = WOKEN_ONLY | {"PLAY_POLL_SECONDS": 600}
    for bases in _two_servers(f"sqlite:///{path}", data=tmp_path / "data", **nudged):
        _a_move_pushed_across_processes(bases)


def test_a_move_wakes_a_stream_of_the_other_process_on_postgresql(postgres_url) -> None:
    """PostgreSQL's NOTIFY in the move's transaction, heard by the other's LISTEN."""
    for bases in _two_servers(postgres_url, **WOKEN_ONLY):
        _a_move_pushed_across_processes(bases)


def test_a_move_wakes_a_stream_of_the_other_process_on_redis(tmp_path, redis_url) -> None:
    """Redis pub/sub when ``REDIS_URL`` is set (here on SQLite, so only Redis tells)."""
    path = tmp_path / "redis.sqlite3"
    make_app(str(path))
    woken = WOKEN_ONLY | {"REDIS_URL": redis_url, "PLAY_POLL_SECONDS": 600}
    for bases in _two_servers(f"sqlite:///{path}", **woken):
        _a_move_pushed_across_processes(bases)
        _a_newer_stream_through_one_process_ends_the_older_in_the_other(bases)


def _events(phone: Phone, path: str, heard: queue.Queue[tuple[str, Any] | None]) -> None:
    """Each event of the stream at ``path`` as ``(name, data)``, then None at its end
    (the server ending it, or stopping at the end of the test while it is open)."""
    name = "message"
    try:
        with phone.get(path) as stream:
            for raw in stream:
                line = raw.decode().strip()
                if line.startswith("event:"):
                    name = line[6:].strip()
                elif line.startswith("data:"):
                    heard.put((name, json.loads(line[5:])))
    except (OSError, http.client.HTTPException):
        pass  # the server stopped: the stream ends here
    heard.put(None)


def _told(heard: tuple[str, Any] | None) -> int:
    """The version a seat's version event tells (its data also holds the seat's board)."""
    assert heard is not None and heard[0] == "version", heard
    return int(heard[1]["version"])


def _a_newer_stream_through_one_process_ends_the_older_in_the_other(bases: list[str]) -> None:
    host, ivo, ivo_again = Phone(bases[0]), Phone(bases[1]), Phone(bases[0])
    fields = {"name": "Hana", "preset": "standard", "seat_0": "person"}
    seats_page = _opened(host, "/play/table", fields | {"who_0": "Ivo", "seat_1": "casual"})
    slug = seats_page.split("/")[2]
    with host.get(f"/play/{slug}/seats") as response:
        html = response.read().decode()
    start = html.index(f"/play/{slug}/sit/1/")
    link = html[start : html.index('"', start)]
    _opened(ivo, link)  # Ivo's phone through process B, then his link on another phone (A)
    _opened(ivo_again, link)
    version = _state_of(host, slug)["version"]  # the bots that play first have moved
    older: queue.Queue[tuple[str, Any] | None] = queue.Queue()
    newer: queue.Queue[tuple[str, Any] | None] = queue.Queue()
    path = f"/play/{slug}/events"
    threading.Thread(target=_events, args=(ivo, path, older), daemon=True).start()
    assert _told(older.get(timeout=60)) == version
    threading.Thread(target=_events, args=(ivo_again, path, newer), daemon=True).start()
    assert _told(newer.get(timeout=60)) == version
    assert older.get(timeout=60) == ("end", {"reason": "replaced"})
    assert older.get(timeout=60) is None
    _opened(host, f"/play/{slug}/seats/1", {"make": "casual"})
    assert newer.get(timeout=60) == ("end", {"reason": "removed"})
    assert newer.get(timeout=60) is None  # read to its end before the servers stop


def test_a_newer_stream_of_a_seat_ends_the_older_across_processes_on_sqlite(tmp_path) -> None:
    """Issue 23: one stream per seat, whichever process serves each (the seat's stream
    number is in the database)."""
    path = tmp_path / "two.sqlite3"
    make_app(str(path))
    for bases in _two_servers(f"sqlite:///{path}", PLAY_STREAM_SECONDS=600):
        _a_newer_stream_through_one_process_ends_the_older_in_the_other(bases)


def test_a_newer_stream_of_a_seat_ends_the_older_across_processes_on_postgresql(
    postgres_url,
) -> None:
    for bases in _two_servers(postgres_url, PLAY_STREAM_SECONDS=600):
        _a_newer_stream_through_one_process_ends_the_older_in_the_other(bases)


def test_a_table_game_on_postgresql_plays_stands_in_and_streams(postgres_url, monkeypatch) -> None:
    from scorekeeper import create_app
    from scorekeeper.extensions import db
    from tests.play.test_table import Table, _play_to_a_person, grace_passes

    monkeypatch.setenv("DATABASE_URL", postgres_url)
    app = create_app(_config(postgres_url) | {"TESTING": True, "PLAY_STREAM_SECONDS": 0.5})
    try:
        table = Table(app)
        table.join(1)
        table.join(2)
        _play_to_a_person(table)
        version = table.version()
        body = table.phones[1].get(f"/play/{table.slug}/events?since=0").get_data(as_text=True)
        assert f'"version": {version}' in body
        grace_passes(monkeypatch, app)  # nobody's phone in touch: the stand-ins play
        assert table.phones[0].get(f"/play/{table.slug}/version").get_json()["version"] > version
        assert (
            f"{STANDIN_BOT} is playing for"
            in table.phones[0].get(f"/play/{table.slug}/board.json").get_json()["text"]
        )
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
