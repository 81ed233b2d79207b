"""Configuration from the environment and /healthz (issue 25, item 3): the plain names
hosts use (SECRET_KEY, DATABASE_URL, PUBLIC_URL, TRUSTED_PROXIES, PORT), any other Flask
key as SCOREKEEPER_<KEY>, the data folder from SCOREKEEPER_DATA; /healthz 200 when the
database answers at the current schema, 503 otherwise."""

from __future__ import annotations

import gc

import pytest
from flask_migrate import downgrade

from scorekeeper import create_app
from scorekeeper.__main__ import parser, with_settings
from scorekeeper.hosting import addresses as hosting
from scorekeeper.hosting.settings import NAMES, PREFIX
from tests.conftest import make_app


@pytest.fixture
def environment(tmp_path, monkeypatch):
    """A clean environment: no setting of the machine's, the data folder in tmp_path."""
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(f"{PREFIX}_{name}", raising=False)
    monkeypatch.setenv("SCOREKEEPER_DATA", str(tmp_path / "data"))
    return monkeypatch


def test_settings_come_from_the_environment(environment, tmp_path):
    environment.setenv("SECRET_KEY", "from-the-environment-32-characters")
    environment.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'elsewhere.db'}")
    environment.setenv("PUBLIC_URL", "https://rum.example.org")
    environment.setenv("SCOREKEEPER_PLAY_GRACE_SECONDS", "30")
    environment.setenv("SCOREKEEPER_RATELIMIT_API", "7 per minute")
    app = create_app()
    assert app.config["SECRET_KEY"] == "from-the-environment-32-characters"
    assert app.config["PUBLIC_URL"] == "https://rum.example.org"
    assert app.config["PLAY_GRACE_SECONDS"] == 30
    assert app.config["RATELIMIT_API"] == "7 per minute"
    assert app.instance_path == str(tmp_path / "data")
    assert (tmp_path / "elsewhere.db").exists()  # migrated there
    assert not (tmp_path / "data" / "secret_key").exists()
    assert app.test_client().get("/healthz").status_code == 200


def test_without_a_secret_key_one_is_generated_once_into_the_data_folder(environment, tmp_path):
    first = create_app()
    kept = (tmp_path / "data" / "secret_key").read_text().strip()
    assert first.config["SECRET_KEY"] == kept and len(kept) == 64
    assert create_app().config["SECRET_KEY"] == kept
    assert (tmp_path / "data" / "scorekeeper.sqlite3").exists()


def test_the_prefixed_name_wins_over_the_plain_one(environment):
    environment.setenv("PUBLIC_URL", "https://plain.example.org")
    environment.setenv("SCOREKEEPER_PUBLIC_URL", "https://prefixed.example.org")
    assert create_app().config["PUBLIC_URL"] == "https://prefixed.example.org"


def _serve_args(*options: str):
    return with_settings(parser().parse_args(["serve", *options]))


def test_serve_takes_host_port_and_workers_from_the_environment(environment):
    assert _serve_args().port == 5000
    environment.setenv("PORT", "8080")
    assert _serve_args().port == 8080
    environment.setenv("SCOREKEEPER_PORT", "8123")
    environment.setenv("SCOREKEEPER_HOST", "127.0.0.1")
    environment.setenv("SCOREKEEPER_WORKERS", "5")
    args = _serve_args()
    assert (args.host, args.port, args.workers) == ("127.0.0.1", 8123, 5)
    assert _serve_args("--port", "9000").port == 9000


def _share_links(app) -> str:
    client = app.test_client()
    started = client.post("/games/new", data={"player_0": "Ann", "player_1": "Bob"})
    slug = started.location.rsplit("/", 1)[-1]
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "rum.example.org"}
    return client.get(f"/games/{slug}/share", headers=forwarded).get_data(as_text=True)


def test_forwarded_headers_are_believed_only_with_trusted_proxies(environment, tmp_path):
    environment.setattr(hosting, "choose_lan_address", lambda _candidates: None)
    direct = make_app(str(tmp_path / "direct.db"))
    assert "https://rum.example.org/games/" not in _share_links(direct)
    environment.setenv("TRUSTED_PROXIES", "1")
    proxied = make_app(str(tmp_path / "proxied.db"))
    assert "https://rum.example.org/games/" in _share_links(proxied)


def test_healthz_answers_200_at_the_current_schema_and_is_never_rate_limited(tmp_path):
    app = make_app(str(tmp_path / "h.db"), RATELIMIT_ENABLED=True, RATELIMIT_API="1 per minute")
    client = app.test_client()
    for _ in range(4):
        answer = client.get("/healthz")
        assert answer.status_code == 200
    body = answer.get_json()
    assert body["status"] == "ok" and body["schema"]["database"] == body["schema"]["head"]
    assert answer.headers["Cache-Control"] == "no-store"
    assert "Set-Cookie" not in answer.headers


def test_healthz_answers_503_when_the_schema_is_behind(tmp_path):
    app = make_app(str(tmp_path / "h.db"))
    with app.app_context():
        downgrade(revision="-1")
    answer = app.test_client().get("/healthz")
    assert answer.status_code == 503
    body = answer.get_json()
    assert body["problem"] == "schema out of date"
    assert body["schema"]["database"] != body["schema"]["head"]


def test_healthz_answers_503_when_the_database_does_not_answer(tmp_path):
    missing = tmp_path / "no such folder" / "h.db"
    app = create_app(
        {
            "SECRET_KEY": "t",
            "MIGRATE_ON_START": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{missing}",
        }
    )
    answer = app.test_client().get("/healthz")
    assert answer.status_code == 503
    assert answer.get_json()["database"] == "not answering"


@pytest.mark.parametrize(
    ("variables", "reviewing"),
    [
        ({}, True),
        ({"PLAY_REVIEW": "off"}, False),
        ({"SCOREKEEPER_PLAY_REVIEW": "On"}, True),
        ({"PLAY_REVIEW_SAMPLES": "0"}, False),  # the older name, still read
        ({"SCOREKEEPER_PLAY_REVIEW_SAMPLES": "8"}, True),
        ({"PLAY_REVIEW": "on", "PLAY_REVIEW_SAMPLES": "0"}, True),  # the new name wins
    ],
)
def test_the_review_in_play_is_an_on_off_setting(environment, variables, reviewing):
    for name, value in variables.items():
        environment.setenv(name, value)
    assert create_app().config["PLAY_REVIEW"] is reviewing


def _compiled(app) -> set[str]:
    """The names of the templates Jinja holds compiled for ``app``."""
    return {name for _loader, name in app.jinja_env.cache.keys()}


def test_an_app_that_serves_compiles_every_template_as_it_starts(environment, tmp_path):
    """No phone's first page, move or board waits for a template to compile: each worker
    ``serve`` starts compiles them all in ``create_app``; an app of the tests (TESTING)
    leaves them to their first render."""
    pages = set(create_app().jinja_env.list_templates(extensions=["html"]))
    assert "play/_board.html" in pages and "table/show.html" in pages
    assert pages <= _compiled(create_app())
    assert not pages & _compiled(make_app(str(tmp_path / "t.sqlite3")))


def test_an_app_that_serves_freezes_what_it_made_out_of_the_collectors_reach(environment, tmp_path):
    """The push's slowest updates waited for Python's full collections of everything a
    worker holds: an app that serves freezes the objects made as it starts
    (``gc.freeze``); an app of the tests leaves the collector as it is."""
    gc.unfreeze()
    try:
        make_app(str(tmp_path / "t.sqlite3"))
        assert gc.get_freeze_count() == 0
        create_app()
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
