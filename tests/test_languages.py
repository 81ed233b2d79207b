"""The reader's language: how a request's language is chosen (a page's own, ``?lang=``,
the footer's switch kept in a cookie, ``Accept-Language``, English), the switch itself,
a game's and a group's language for its TV and shared result, the JSON API staying
English unless asked, numbers, days and relative times per locale, pages' ETags by
language, and the migration that gave games and groups their language.

Translations come after the catalogues are merged: these tests read the language from
``<html lang>`` / ``Content-Language`` and, for the words themselves, the pseudo-language
``en_XA`` (accented, in brackets) of the sentences already in the compiled catalogues."""

from __future__ import annotations

import re
from datetime import datetime

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import downgrade, upgrade

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import Game, Group
from tests.conftest import make_app
from tests.players.conftest import Night, totals

GAME = {"player_0": "Ann", "player_1": "Bob", "preset": "standard", "first_dealer": "0"}
LANG = re.compile(r'<html lang="([^"]+)" dir="([^"]+)"')


def _html(client: FlaskClient, path: str, **headers: str) -> tuple[str, str, str]:
    """The page at ``path``: its ``<html lang>``, ``dir`` and text."""
    response = client.get(path, headers=headers)
    assert response.status_code == 200, path
    page = response.get_data(as_text=True)
    found = LANG.search(page)
    assert found, path
    return found[1], found[2], page


def _game(client: FlaskClient) -> str:
    """A new table game started on ``client``: its view token."""
    answer = client.post("/games/new", data=GAME)
    assert answer.status_code == 302
    return str(answer.headers["Location"]).rsplit("/", 1)[-1]


@pytest.fixture
def pseudo_app(tmp_path) -> Flask:
    return make_app(str(tmp_path / "p.sqlite3"), LANGUAGES_PSEUDO=True)


# ---- the choice ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("accepted", "lang"),
    [
        ("de-DE,de;q=0.9", "de"),
        ("pt-PT", "pt-BR"),
        ("pt-br", "pt-BR"),
        ("xx", "en"),
        ("xx, fr-CA;q=0.5", "fr"),
        ("fr;q=0.3, es;q=0.8, xx;q=0.9", "es"),
        ("en-XA", "en"),  # a pseudo-language is never matched from the browser
        ("", "en"),
    ],
)
def test_accept_language_chooses_the_best_offered(client, accepted, lang):
    assert _html(client, "/rules", **{"Accept-Language": accepted})[:2] == (lang, "ltr")


def test_the_cookie_beats_accept_language_and_lang_beats_the_cookie(client):
    client.set_cookie("lang", "fr")
    assert _html(client, "/", **{"Accept-Language": "de"})[0] == "fr"
    assert _html(client, "/?lang=es", **{"Accept-Language": "de"})[0] == "es"
    assert _html(client, "/?lang=nonsense", **{"Accept-Language": "de"})[0] == "fr"
    client.set_cookie("lang", "klingon")
    assert _html(client, "/", **{"Accept-Language": "de"})[0] == "de"


def test_html_lang_and_dir_follow_the_pseudo_languages(pseudo_app):
    client = pseudo_app.test_client()
    lang, direction, page = _html(client, "/rules?lang=ar_XB")
    assert (lang, direction) == ("ar-XB", "rtl")
    lang, direction, page = _html(client, "/rules?lang=en_XA")
    assert (lang, direction) == ("en-XA", "ltr")
    assert "[Ţĥéɱé" in page and ">Theme<" not in page  # the footer's words, accented


def test_pseudo_languages_are_offered_only_when_asked_for(client):
    assert _html(client, "/rules?lang=en_XA")[0] == "en"
    assert "en_XA" not in _html(client, "/rules")[2]


def test_every_reader_s_page_has_the_switch_in_its_footer(client):
    view = _game(client)
    night = Night(client.application, client)
    night.make_group("Friday", ("Ann", "Bob"))
    pages = ["/", "/rules", "/check", "/play", "/groups/", f"/games/{view}"]
    pages += [f"/games/{view}/share", night.url()]
    for path in pages:
        page = _html(client, path)[2]
        footer = page.split('<footer class="site-foot">', 1)[1]
        assert 'class="language-switch"' in footer and 'action="/language"' in footer, path
        for code in ("en", "es", "fr", "de", "pt_BR"):
            assert f'value="{code}"' in footer, (path, code)
    # a page in its own language (its game's or group's) offers no switch: it would not
    # change that page
    for path in (f"/games/{view}/tv", night.url("/season")):
        footer = _html(client, path)[2].split('<footer class="site-foot">', 1)[1]
        assert 'action="/language"' not in footer, path


# ---- the switch ------------------------------------------------------------------------


def _token(client: FlaskClient, path: str = "/rules") -> str:
    page = client.get(path).get_data(as_text=True)
    form = page.split('class="language-switch"', 1)[1]
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', form)
    assert found
    return found[1]


def _lang_cookie(client: FlaskClient) -> str | None:
    cookie = client.get_cookie("lang")
    return None if cookie is None else cookie.value


def test_the_switch_keeps_the_choice_and_goes_back(csrf_app):
    client = csrf_app.test_client()
    token = _token(client)
    answer = client.post(
        "/language", data={"csrf_token": token, "language": "de", "next": "/rules"}
    )
    assert answer.status_code == 303 and answer.headers["Location"] == "/rules"
    assert _lang_cookie(client) == "de"
    assert _html(client, "/rules", **{"Accept-Language": "fr"})[0] == "de"
    assert _html(client, "/check")[0] == "de"  # the choice holds across pages


@pytest.mark.parametrize(
    "back", ["//evil.example", "https://evil.example/", "/\\evil.example", "evil", "", "x" * 5000]
)
def test_the_switch_goes_back_to_a_path_of_this_site_only(csrf_app, back):
    client = csrf_app.test_client()
    data = {"csrf_token": _token(client), "language": "es", "next": back}
    answer = client.post("/language", data=data)
    assert answer.status_code == 303 and answer.headers["Location"] == "/"
    assert _lang_cookie(client) == "es"


@pytest.mark.parametrize(
    "data",
    [
        {"language": "de", "next": "/rules"},  # no CSRF token
        {"language": "xx", "next": "/rules"},
        {"language": "en_XA", "next": "/rules"},  # pseudo, not offered here
        {"language": "", "next": "/rules"},
        {"next": "/rules"},
    ],
)
def test_the_switch_refuses_what_it_cannot_keep_and_says_so(csrf_app, data):
    client = csrf_app.test_client()
    if data.get("language") != "de":
        data = data | {"csrf_token": _token(client)}
    answer = client.post("/language", data=data)
    assert answer.status_code == 303 and answer.headers["Location"] == "/rules"
    assert _lang_cookie(client) is None
    page = client.get("/rules").get_data(as_text=True)
    if "csrf_token" in data:
        assert "That language is not offered; nothing was changed." in page
    else:
        assert "This form is out of date: reload the page; nothing was changed." in page


def test_the_switch_never_fails_on_junk(client):
    for data in ({"language": ["de", "fr"]}, {"language": "d" * 10_000}, {"next": ["/a", "/b"]}):
        assert client.post("/language", data=data).status_code == 303
    assert client.get("/language").status_code == 405


def test_a_page_of_another_language_is_never_answered_not_modified(client):
    view = _game(client)
    first = client.get(f"/games/{view}")
    tag = first.headers["ETag"]
    assert "@en." in tag and "Accept-Language" in first.headers["Vary"]
    assert client.get(f"/games/{view}", headers={"If-None-Match": tag}).status_code == 304
    client.set_cookie("lang", "de")
    again = client.get(f"/games/{view}", headers={"If-None-Match": tag})
    assert again.status_code == 200 and '<html lang="de"' in again.get_data(as_text=True)
    assert "@de." in again.headers["ETag"]


# ---- the JSON API ------------------------------------------------------------------------


def test_the_api_answers_in_english_unless_asked(client):
    bad = {"players": ["Ann"], "melds": "nope"}
    plain = client.post("/api/v1/score", json=bad)
    french = client.post("/api/v1/score", json=bad, headers={"Accept-Language": "fr"})
    client.set_cookie("lang", "de")
    cookie = client.post("/api/v1/score", json=bad)
    assert plain.status_code == french.status_code == cookie.status_code == 422
    assert plain.get_json() == french.get_json() == cookie.get_json()
    assert plain.get_json()["errors"][0]["message"]
    assert french.headers["Content-Language"] == cookie.headers["Content-Language"] == "en"
    asked = client.post("/api/v1/score?lang=fr", json=bad, headers={"Accept-Language": "de"})
    assert asked.status_code == 422 and asked.headers["Content-Language"] == "fr"
    assert client.get("/api/v1/presets?lang=pt-BR").headers["Content-Language"] == "pt-BR"


# ---- numbers, days, relative times ---------------------------------------------------------


def test_numbers_per_locale_on_the_season_page(app, client):
    night = Night(app, client)
    night.make_group("Friday", ("Ann", "Bob"))
    view = night.start(("Ann", "Bob"), target="2000")
    night.play(view, totals("Ann", {"Ann": 1356, "Bob": 0}, {"Ann": 0, "Bob": 0}))
    night.play(view, totals("Ann", {"Ann": 700, "Bob": 0}, {"Ann": 0, "Bob": 0}))
    english = _html(client, night.url("/season"))[2]
    client.post(night.url("/share/language"), data={"language": ""})  # each reader's own
    german = _html(client, night.url("/season?lang=de"))[2]
    assert "<td>2,056</td>" in english and "<td>2.056</td>" in german


def test_days_and_relative_times_per_locale(app):
    with app.test_request_context("/?lang=de"):
        shown = app.jinja_env.from_string(
            "{{ n|number }} · {{ when|day }} · {{ 5|ago }} · {{ 3700|ago }} · {{ none|ago }}."
        ).render(n=1356, when=datetime(2026, 11, 29, 15, 4))
    assert shown == "1.356 · 29.11.2026 · vor 5 Sekunden · vor 1 Stunde · ."
    with app.test_request_context("/?lang=fr"):
        assert app.jinja_env.from_string("{{ 5|ago }}").render() == "il y a 5 secondes"


# ---- a game's and a group's language ---------------------------------------------------------


def _stored(app: Flask, model: type[Game] | type[Group], slug: str) -> Game | Group:
    with app.app_context():
        found = db.session.execute(db.select(model).where(model.view_token == slug)).scalar_one()
        db.session.expunge(found)
        return found


def test_a_game_keeps_its_creators_language_for_its_tv(app, client):
    client.set_cookie("lang", "de")
    view = _game(client)
    assert _stored(app, Game, view).language == "de"
    reader = app.test_client()
    reader.set_cookie("lang", "es")
    tv = f"/games/{view}/tv"
    assert _html(reader, tv, **{"Accept-Language": "pt"})[0] == "de"  # beats the reader's
    assert _html(reader, f"{tv}?lang=fr")[0] == "fr"  # the address's own ?lang= beats it
    assert _html(reader, f"/games/{view}")[0] == "es"  # the game page is the reader's
    assert reader.get(f"/games/{view}/tv/live").headers["Content-Language"] == "de"
    # the TV reads in its game's language: no switch there; the reader's pages keep theirs
    assert 'action="/language"' not in reader.get(tv).get_data(as_text=True)
    assert 'action="/language"' in reader.get(f"/games/{view}").get_data(as_text=True)


def test_a_game_started_without_a_request_follows_each_reader(app, client):
    view = _game(client)
    with app.app_context():
        game = db.session.execute(db.select(Game).where(Game.view_token == view)).scalar_one()
        game.language = None
        db.session.commit()
    client.set_cookie("lang", "fr")
    assert _html(client, f"/games/{view}/tv")[0] == "fr"


def test_the_edit_link_holder_changes_the_games_language(app, client):
    view = _game(client)
    share = _html(client, f"/games/{view}/share")[2]
    assert "Language of the TV and the shared result" in share
    assert f'action="/games/{view}/share/language"' in share
    version = _stored(app, Game, view).version
    answer = client.post(f"/games/{view}/share/language", data={"language": "pt_BR"})
    assert answer.status_code == 303 and answer.headers["Location"] == f"/games/{view}/share"
    stored = _stored(app, Game, view)
    assert stored.language == "pt_BR" and stored.version == version + 1
    assert _html(app.test_client(), f"/games/{view}/tv")[0] == "pt-BR"
    for bad in ("xx", "en_XA", "d" * 500):
        client.post(f"/games/{view}/share/language", data={"language": bad})
        assert _stored(app, Game, view).language == "pt_BR"
    page = client.get(f"/games/{view}/share").get_data(as_text=True)
    assert "That language is not offered; nothing was changed." in page
    assert client.post(f"/games/{view}/share/language", data={"language": ""}).status_code == 303
    assert _stored(app, Game, view).language is None


def test_only_the_edit_link_changes_the_games_language(app, client):
    view = _game(client)
    watcher = app.test_client()
    assert "Language of the TV" not in _html(watcher, f"/games/{view}/share")[2]
    refused = watcher.post(f"/games/{view}/share/language", data={"language": "fr"})
    assert refused.status_code == 403 and _stored(app, Game, view).language == "en"
    assert client.post("/games/nothere/share/language", data={"language": "fr"}).status_code == 404


def test_the_games_language_form_needs_its_csrf_token(csrf_app):
    client = csrf_app.test_client()
    token = _token(client)
    started = client.post("/games/new", data=GAME | {"csrf_token": token})
    view = started.headers["Location"].rsplit("/", 1)[-1]
    refused = client.post(f"/games/{view}/share/language", data={"language": "fr"})
    assert refused.status_code == 303 and _stored(csrf_app, Game, view).language == "en"
    share = client.get(f"/games/{view}/share").get_data(as_text=True)
    assert "This form is out of date: reload the page; nothing was changed." in share
    form = share.split('class="panel share place-language"', 1)[1]
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', form)
    assert found
    kept = client.post(
        f"/games/{view}/share/language", data={"csrf_token": found[1], "language": "fr"}
    )
    assert kept.status_code == 303 and _stored(csrf_app, Game, view).language == "fr"


def test_a_group_keeps_its_language_for_its_season(app, client):
    client.set_cookie("lang", "es")
    night = Night(app, client)
    slug = night.make_group("Friday", ("Ann", "Bob"))
    assert _stored(app, Group, slug).language == "es"
    reader = app.test_client()
    assert _html(reader, night.url("/season"), **{"Accept-Language": "de"})[0] == "es"
    assert _html(reader, night.url(), **{"Accept-Language": "de"})[0] == "de"
    share = _html(client, night.url("/share"))[2]
    assert f'action="/groups/{slug}/share/language"' in share
    assert "Language of the TV" not in _html(reader, night.url("/share"))[2]
    assert reader.post(night.url("/share/language"), data={"language": "fr"}).status_code == 403
    answer = client.post(night.url("/share/language"), data={"language": "fr"})
    assert answer.status_code == 303 and _stored(app, Group, slug).language == "fr"
    assert _html(reader, night.url("/season"), **{"Accept-Language": "de"})[0] == "fr"
    client.post(night.url("/share/language"), data={"language": "nope"})
    assert _stored(app, Group, slug).language == "fr"
    assert client.post("/groups/nothere/share/language", data={"language": "fr"}).status_code == 404


# ---- the migration ------------------------------------------------------------------------


def test_the_language_migration_keeps_every_row_with_no_language(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "t",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/m.db",
        }
    )
    with app.app_context():
        downgrade(revision="b7d2e5f1c804")
        db.session.execute(
            db.text(
                "INSERT INTO games (title, preset, options, first_dealer, entry_mode, view_token, "
                "edit_token, version, created_at, updated_at) VALUES ('Old', 'standard', '{}', 0, "
                "'net', 'oldview', 'oldedit', 3, '2026-01-01', '2026-01-01')"
            )
        )
        db.session.execute(
            db.text(
                "INSERT INTO groups (name, preset, options, view_token, edit_token, created_at, "
                "facts_version) VALUES ('Fri', 'standard', '{}', 'gview', 'gedit', '2026-01-01', 0)"
            )
        )
        db.session.commit()
        upgrade()
        game = db.session.execute(db.select(Game).where(Game.view_token == "oldview")).scalar_one()
        group = db.session.execute(db.select(Group).where(Group.view_token == "gview")).scalar_one()
        assert (game.title, game.version, game.language) == ("Old", 3, None)
        assert (group.name, group.language) == ("Fri", None)
        db.session.remove()
        downgrade(revision="b7d2e5f1c804")
        kept = db.session.execute(db.text("SELECT title FROM games")).scalars().all()
        assert kept == ["Old"]
        db.session.remove()
        upgrade()
