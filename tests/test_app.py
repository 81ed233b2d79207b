"""The app factory: configuration, instance folder, secret key."""

import time

from scorekeeper import create_app
from scorekeeper.web import REFRESH_AFTER


def test_factory_uses_test_config(app):
    assert app.testing
    assert app.config["SECRET_KEY"] == "test-secret"


def test_secret_key_is_generated_into_instance(tmp_path, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'x.sqlite3'}")
    app = create_app()
    assert len(app.config["SECRET_KEY"]) == 64
    assert create_app().config["SECRET_KEY"] == app.config["SECRET_KEY"]


def test_engine_imports_no_web_framework():
    import subprocess
    import sys

    code = (
        "import sys, scorekeeper.engine.scoring.contract, scorekeeper.engine.scoring.score_round;"
        "bad = [m for m in ('flask', 'sqlalchemy', 'wtforms') if m in sys.modules];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_sqlite_runs_in_write_ahead_mode_for_several_workers(app):
    from scorekeeper.extensions import db

    with app.app_context():
        with db.engine.connect() as connection:
            mode = connection.exec_driver_sql("PRAGMA journal_mode").scalar()
            timeout = connection.exec_driver_sql("PRAGMA busy_timeout").scalar()
    assert mode == "wal" and timeout == 5000


def _start(client) -> str:
    """A game started from this client (its session now holds the edit right)."""
    form = {"player_0": "Ann", "player_1": "Bob", "preset": "standard", "first_dealer": "0"}
    return client.post("/games/new", data=form).headers["Location"]


def test_an_unchanged_session_is_not_signed_again_until_a_day_old(app, monkeypatch):
    client = app.test_client()
    page = _start(client)
    assert client.get(page).headers.get("Set-Cookie")  # the flash shown and dropped
    again = client.get(page)
    assert again.status_code == 200 and again.headers.get("Set-Cookie") is None
    kept = client.get_cookie("session").value
    later = time.time() + REFRESH_AFTER + 60
    monkeypatch.setattr(time, "time", lambda: later)
    refreshed = client.get(page)
    assert "Expires=" in refreshed.headers["Set-Cookie"]
    assert client.get_cookie("session").value != kept
    assert 'id="entry"' in client.get(page).get_data(as_text=True)  # the edit right kept


def test_sqlite_connections_are_not_pinged_but_a_servers_are(tmp_path):
    sqlite = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "t",
            "MIGRATE_ON_START": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/a.db",
        }
    )
    server = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "t",
            "MIGRATE_ON_START": False,
            "SQLALCHEMY_DATABASE_URI": "postgresql://u@localhost/none",
        }
    )
    assert sqlite.config["SQLALCHEMY_ENGINE_OPTIONS"]["pool_pre_ping"] is False
    assert server.config["SQLALCHEMY_ENGINE_OPTIONS"]["pool_pre_ping"] is True


def test_a_session_cookie_is_refused_once_altered_or_expired(app, monkeypatch):
    client = app.test_client()
    page = _start(client)
    client.get(page)  # the flash shown and dropped
    assert 'id="entry"' in client.get(page).get_data(as_text=True)  # its signature checked
    kept = client.get_cookie("session").value
    client.set_cookie("session", kept[:-2] + ("AA" if not kept.endswith("AA") else "BB"))
    assert 'id="entry"' not in client.get(page).get_data(as_text=True)
    client.set_cookie("session", kept)
    assert 'id="entry"' in client.get(page).get_data(as_text=True)
    later = time.time() + app.permanent_session_lifetime.total_seconds() + 60
    monkeypatch.setattr(time, "time", lambda: later)
    assert 'id="entry"' not in client.get(page).get_data(as_text=True)


def test_links_are_built_for_the_root_each_request_is_served_under(app):
    client = app.test_client()
    page = _start(client)
    share, style = f'href="{page}/share"', 'href="/static/style.css?v='
    plain = client.get(page).get_data(as_text=True)
    rooted = client.get(page, base_url="http://localhost/rum").get_data(as_text=True)
    assert share in plain and style in plain and share not in rooted and style not in rooted
    assert f'href="/rum{page}/share"' in rooted and 'href="/rum/static/style.css?v=' in rooted
    assert share in client.get(page).get_data(as_text=True)
