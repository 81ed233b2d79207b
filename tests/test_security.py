"""App-wide hardening (issue 10): security headers, cookies, edit tokens that stay
secret and can be renewed, the access log, a failing database, the schema on start."""

from __future__ import annotations

import logging
import re
import sqlite3

import pytest
from flask import request
from gunicorn.config import Config
from gunicorn.glogging import Logger
from sqlalchemy.exc import OperationalError

from scorekeeper import create_app
from scorekeeper.__main__ import ACCESS_LOG_FORMAT, gunicorn_command
from scorekeeper.extensions import db
from tests.table.test_pages import GameActions


@pytest.fixture
def games(client, app) -> GameActions:
    return GameActions(client, app)


def test_a_page_carries_the_security_headers(client):
    headers = client.get("/rules").headers
    csp = headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Referrer-Policy"] == "same-origin"


def test_pages_whose_url_holds_a_token_send_no_referrer(games, client):
    games.start()
    assert client.get(f"/games/{games.slug}").headers["Referrer-Policy"] == "no-referrer"
    assert client.get(f"/games/{games.slug}/share").headers["Referrer-Policy"] == "no-referrer"


def test_the_session_cookie_is_lax_httponly_and_secure_only_over_https(games, client):
    games.start()
    cookie = client.get_cookie("session")
    assert cookie.same_site == "Lax" and cookie.http_only and not cookie.secure
    secure = games.app.test_client()
    data = {"player_0": "Ann", "player_1": "Bob", "preset": "standard", "first_dealer": "0"}
    secure.post("/games/new", data=data, base_url="https://localhost")
    assert secure.get_cookie("session", domain="localhost").secure


def test_templates_hold_no_inline_script_or_handler():
    import re
    from pathlib import Path

    import scorekeeper

    for path in Path(scorekeeper.__file__).parent.joinpath("templates").rglob("*.html"):
        text = path.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), path
        assert not re.search(r"\son[a-z]+\s*=", text), path


# ---- edit tokens -------------------------------------------------------------------------


@pytest.mark.parametrize("token", ["%C3%A9", "é" * 30, "%00", "x"])
def test_an_odd_edit_token_is_refused_not_a_500(games, client, token):
    games.start()
    assert client.get(f"/games/{games.slug}/edit/{token}").status_code == 403


def test_a_new_edit_link_makes_the_old_one_stop_working(games, client, app):
    games.start()
    share = client.get(f"/games/{games.slug}/share").get_data(as_text=True)
    assert "New edit link" in share
    with app.app_context():
        old = db.session.execute(db.select(db.text("edit_token FROM games"))).scalar_one()
    other = app.test_client()
    assert other.get(f"/games/{games.slug}/edit/{old}").status_code == 302
    version = str(games.game().version)
    renewed = client.post(f"/games/{games.slug}/share/new-edit-link", data={"version": version})
    assert renewed.status_code == 303
    assert client.get(f"/games/{games.slug}/edit/{old}").status_code == 403
    assert games.totals(0, [40, 10, 10], [0, 5, 5]).status_code == 303  # still mine
    watcher = GameActions(other, app)
    watcher.slug = games.slug
    assert watcher.totals(0, [40, 10, 10], [0, 5, 5]).status_code == 403
    assert other.post(f"/games/{games.slug}/share/new-edit-link").status_code == 403


def test_the_new_edit_link_form_needs_its_csrf_token(csrf_app):
    client = csrf_app.test_client()
    assert client.post("/games/x/share/new-edit-link").status_code == 400


def test_the_access_log_holds_the_route_not_the_token(games, client, caplog):
    games.start()
    with games.app.app_context():
        token = db.session.execute(db.text("SELECT edit_token FROM games")).scalar_one()
    with client:
        client.get(f"/games/{games.slug}/edit/{token}")
        environ = dict(request.environ)
    route = environ["scorekeeper.route"]
    assert route == "/games/<slug>/edit/<token>"
    config = Config()
    config.set("accesslog", "-")
    config.set("access_log_format", ACCESS_LOG_FORMAT)
    log = Logger(config)

    class Request:
        method, path, query, uri, version = "GET", f"/edit/{token}", "", f"/edit/{token}", (1, 1)
        headers = []

    class Resp:
        status, sent, headers = "302 FOUND", 0, []

    atoms = log.atoms(Resp(), Request(), environ, _elapsed())
    line = ACCESS_LOG_FORMAT % atoms
    assert route in line and token not in line
    assert "%(r)s" not in ACCESS_LOG_FORMAT and "%(U)s" not in ACCESS_LOG_FORMAT
    assert logging.getLogger("gunicorn.access") is not None


def _elapsed():
    from datetime import timedelta

    return timedelta(milliseconds=3)


def test_serve_runs_gevent_workers_with_a_short_keep_alive():
    """Issue 27: an open event stream holds no thread (a greenlet of a gevent worker)."""
    command = gunicorn_command("127.0.0.1", 5000, 2)
    assert command[command.index("--worker-class") + 1] == "gevent"
    assert int(command[command.index("--keep-alive") + 1]) <= 5
    assert ACCESS_LOG_FORMAT in command


# ---- a failing database -----------------------------------------------------------------


def _failing_commit(*_args, **_kwargs):
    raise OperationalError("COMMIT", {}, sqlite3.OperationalError("disk I/O error"))


def test_a_failed_save_keeps_the_typed_round_and_says_try_again(games, monkeypatch):
    games.start()
    monkeypatch.setattr(db.session, "commit", _failing_commit)
    response = games.totals(0, [47, 10, 10], [0, 5, 5])
    page = response.get_data(as_text=True)
    assert response.status_code == 503
    assert "Try again" in page and 'value="47"' in page
    monkeypatch.undo()
    assert games.rounds() == []


def test_a_failed_new_game_shows_what_was_typed(client, monkeypatch):
    monkeypatch.setattr(db.session, "commit", _failing_commit)
    data = {"player_0": "Ann", "player_1": "Bobby", "preset": "standard", "first_dealer": "0"}
    response = client.post("/games/new", data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == 503
    assert "Try again" in page and 'value="Bobby"' in page


def test_a_read_only_database_gives_a_clear_page(tmp_path):
    from tests.conftest import make_app

    path = tmp_path / "ro.sqlite3"
    make_app(str(path))
    path.chmod(0o444)
    tmp_path.chmod(0o555)
    try:
        app = make_app(str(path), MIGRATE_ON_START=False)
        client = app.test_client()
        data = {"player_0": "Ann", "player_1": "Bob", "preset": "standard", "first_dealer": "0"}
        response = client.post("/games/new", data=data)
    finally:
        tmp_path.chmod(0o755)
    if response.status_code == 302:
        pytest.skip("running as root: the file stays writable")
    assert response.status_code == 503 and "Try again" in response.get_data(as_text=True)


def test_a_failed_json_move_answers_json(app, client, monkeypatch):
    from scorekeeper.engine import legal_actions
    from tests.play.test_pages import PlayActions

    play = PlayActions(app, client)
    slug = play.start()
    action = legal_actions(play.state(slug))[0].to_json()
    monkeypatch.setattr(db.session, "commit", _failing_commit)
    response = play.act(slug, action)
    assert response.status_code == 503 and "Try again" in response.get_json()["error"]


# ---- the schema on start -----------------------------------------------------------------


def test_create_app_brings_a_fresh_sqlite_database_to_the_schema(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "x",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'fresh.sqlite3'}",
        }
    )
    assert app.test_client().get("/").status_code == 200
    assert app.test_client().get("/play").status_code == 200


def test_two_workers_starting_at_once_both_find_the_schema(tmp_path):
    """Three worker processes (as gunicorn starts them) create the app on one fresh
    SQLite file at once: each finds the schema up to date, none fails."""
    import subprocess
    import sys

    uri = f"sqlite:///{tmp_path / 'race.sqlite3'}"
    code = (
        "import sys; from scorekeeper import create_app; from scorekeeper.extensions import db;"
        "app = create_app({'TESTING': True, 'SECRET_KEY': 'x',"
        " 'SQLALCHEMY_DATABASE_URI': sys.argv[1]});"
        "ctx = app.app_context(); ctx.push();"
        "print(db.session.execute(db.text('select count(*) from games')).scalar())"
    )
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", code, uri],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    results = [worker.communicate(timeout=120) for worker in workers]
    assert [w.returncode for w in workers] == [0, 0, 0], [err for _, err in results]
    assert [out.strip() for out, _ in results] == ["0", "0", "0"]


def test_an_idle_connection_does_not_hold_the_only_worker(tmp_path):
    """gunicorn as ``serve`` runs it, one worker: a socket opened without a request must
    not keep another client waiting."""
    import os
    import socket
    import subprocess
    import time
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = os.environ | {"DATABASE_URL": f"sqlite:///{tmp_path / 'served.sqlite3'}"}
    server = subprocess.Popen(
        gunicorn_command("127.0.0.1", port, 1), env=env, stderr=subprocess.DEVNULL
    )
    try:
        url = f"http://127.0.0.1:{port}/rules"
        for _ in range(600):  # until the server answers (a busy machine starts it slowly)
            try:
                urllib.request.urlopen(url, timeout=30).read()
                break
            except OSError:
                time.sleep(0.1)
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(8)]
        # answered while the idle sockets stay open: a worker held by one of them would
        # answer only once gunicorn's --timeout (30 s) killed it
        assert urllib.request.urlopen(url, timeout=25).status == 200
        for connection in idle:
            connection.close()
    finally:
        server.terminate()
        server.wait(timeout=60)


def test_deeply_nested_json_on_the_api_is_a_json_400(client):
    response = client.post("/api/v1/score", data="[" * 50_000, content_type="application/json")
    assert response.status_code == 400
    assert "nested" in response.get_json()["errors"][0]["message"]
    big = client.post(
        "/api/v1/score", data="[" + "1," * 200_000 + "1]", content_type="application/json"
    )
    assert big.status_code == 413 and "errors" in big.get_json()


@pytest.mark.parametrize("value", ["²", str(10**30), "9" * 5000])
def test_the_checker_reads_odd_numbers_without_a_500(client, value):
    response = client.get(f"/check/score?players=3&t1={value}&out={value}")
    assert response.status_code < 500


@pytest.mark.parametrize("key", ["²", "٣", str(10**30), "-4", "x"])
def test_an_odd_group_key_in_the_session_is_skipped_not_a_500(client, key):
    """Issue 23: every whole number is read through one parser, even a signed session's."""
    with client.session_transaction() as kept:
        kept["groups"] = {key: "token"}
    assert client.get("/groups/").status_code == 200


def test_event_streams_never_take_every_connection_of_a_worker():
    """Issue 23: ``serve``'s connections are the cap of open streams plus room for pages."""
    from scorekeeper.__main__ import PAGE_CONNECTIONS

    command = gunicorn_command("127.0.0.1", 5000, 2, streams=40)
    assert int(command[command.index("--worker-connections") + 1]) == 40 + PAGE_CONNECTIONS
    assert PAGE_CONNECTIONS >= 4


def test_a_server_database_with_pending_migrations_names_the_command(tmp_path, monkeypatch):
    from scorekeeper.hosting import schema

    monkeypatch.setattr(schema, "_dialect", lambda app: "mysql")
    uri = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    with pytest.raises(SystemExit) as refused:
        create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": uri})
    assert "flask --app scorekeeper db upgrade" in str(refused.value)
    assert "\n" not in str(refused.value)


def test_an_error_is_logged_by_its_route_not_its_token(app, monkeypatch, caplog):
    from scorekeeper.table import services as sheet

    app.config["PROPAGATE_EXCEPTIONS"] = False

    def broken(*_args, **_kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(sheet, "get_game", broken)
    with caplog.at_level(logging.ERROR):
        response = app.test_client().get("/games/abc/edit/secret-token-123")
    assert response.status_code == 500
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "/games/<slug>/edit/<token>" in logged and "secret-token-123" not in logged


def test_every_answer_carries_the_same_policies_and_hsts_only_over_https(client):
    plain = client.get("/rules").headers
    assert plain["Content-Security-Policy"] == (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; media-src 'self' data:; object-src 'none'; base-uri 'self'; "
        "form-action 'self'; frame-ancestors 'none'"
    )
    assert plain["Permissions-Policy"] == "camera=(), microphone=(), geolocation=()"
    assert "Strict-Transport-Security" not in plain
    assert client.get("/nowhere").headers["X-Frame-Options"] == "DENY"
    hsts = "max-age=31556926; includeSubDomains"
    secure = client.get("/rules", base_url="https://localhost").headers
    assert secure["Strict-Transport-Security"] == hsts
    proxied = client.get("/rules", headers={"X-Forwarded-Proto": "https"}).headers
    assert proxied["Strict-Transport-Security"] == hsts


def test_a_csrf_token_is_taken_only_with_its_own_session_and_signature(csrf_app):
    ann, bob = csrf_app.test_client(), csrf_app.test_client()
    form = {"player_0": "Ann", "player_1": "Bob", "preset": "standard", "first_dealer": "0"}

    def token(client):
        page = client.get("/games/new").get_data(as_text=True)
        return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)

    ann_token, bob_token = token(ann), token(bob)
    for _ in range(2):  # the second time, the token's signature was checked before
        assert ann.post("/games/new", data=form | {"csrf_token": ann_token}).status_code == 302
    assert ann.post("/games/new", data=form | {"csrf_token": bob_token}).status_code == 400
    forged = ann_token[:-2] + ("AA" if not ann_token.endswith("AA") else "BB")
    assert ann.post("/games/new", data=form | {"csrf_token": forged}).status_code == 400
    assert ann.post("/games/new", data=form).status_code == 400
    fresh = csrf_app.test_client()
    assert fresh.post("/games/new", data=form | {"csrf_token": ann_token}).status_code == 400
