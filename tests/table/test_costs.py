"""Costs that stay flat as a game grows: the game page shows the latest rounds (older on
demand) and answers 304 to a phone whose copy is current; saving a round reads only the
last round; the migration that added the rounds' summaries fills them for old games."""

from __future__ import annotations

import re
import uuid
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask_migrate import downgrade, upgrade

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.table import services as sheet
from scorekeeper.table.standings import standings

NAMES = ["Ann", "Bob", "Cat", "Dee"]


def _round(n: int) -> dict:
    return {
        "went_out": NAMES[n % 4],
        "shown": dict.fromkeys(NAMES, 10),
        "in_hand": {p: (0 if p == NAMES[n % 4] else 5 + n % 3) for p in NAMES},
        "adjust": {},
    }


def _long_game(app: Flask, rounds: int, preset: str = "standard") -> tuple[str, str]:
    """A game of ``rounds`` totals rounds (none ends it); its view and edit tokens."""
    with app.app_context():
        parts = {
            "names": NAMES,
            "preset": preset,
            "options": {"target": 10_000},
            "first_dealer": 1,
            "stake": None,
            "sides": None,
            "title": "",
            "rounds": [("totals", _round(n)) for n in range(rounds)],
        }
        game = sheet.import_game(parts)
        return game.view_token, game.edit_token


def _numbers(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'aria-label="Edit round (\d+)"', html)]


def test_the_page_of_a_long_game_shows_the_latest_rounds_and_links_to_all(app, client):
    slug, edit = _long_game(app, 45)
    client.get(f"/games/{slug}/edit/{edit}")
    page = client.get(f"/games/{slug}").get_data(as_text=True)
    assert _numbers(page) == list(range(26, 46))
    assert "Rounds 26 to 45 of 45" in page and "round 46" in page
    link = re.search(r'href="([^"]+)">Show all 45 rounds', page).group(1)
    everything = client.get(link.replace("&amp;", "&")).get_data(as_text=True)
    assert _numbers(everything) == list(range(1, 46))
    assert "Show the latest 20" in everything


def _page_statements(app: Flask, client: Any, slug: str) -> tuple[str, list[str]]:
    """The game page's HTML and the SQL statements it ran."""
    seen: list[str] = []

    def count(conn, cursor, statement, *args):  # noqa: ANN001
        seen.append(statement)

    with app.app_context():
        sa.event.listen(db.engine, "before_cursor_execute", count)
    try:
        html = client.get(f"/games/{slug}").get_data(as_text=True)
    finally:
        with app.app_context():
            sa.event.remove(db.engine, "before_cursor_execute", count)
    return html, seen


def test_the_page_counts_the_rounds_from_the_last_one_without_counting_them_all(app, client):
    """The page of a long game reads its number of rounds from the last round's summary
    (no COUNT over the game): right after a round in the middle is deleted, and, by one
    COUNT, for a last round stored before summaries held their number."""
    slug, edit = _long_game(app, 45)
    client.get(f"/games/{slug}/edit/{edit}")
    html, statements = _page_statements(app, client, slug)
    assert "Rounds 26 to 45 of 45" in html
    assert not [s for s in statements if "count(" in s.lower()], statements
    with app.app_context():
        game = sheet.get_game(slug)
        sheet.delete_round(game, sheet.live_rounds(game)[9], game.version)
    html, statements = _page_statements(app, client, slug)
    assert "Rounds 25 to 44 of 44" in html and _numbers(html) == list(range(25, 45))
    assert not [s for s in statements if "count(" in s.lower()]
    with app.app_context():
        last = sheet.live_rounds(sheet.get_game(slug))[-1]
        last.summary = {k: v for k, v in last.summary.items() if k != "number"}
        db.session.commit()
    html, statements = _page_statements(app, client, slug)
    assert "Rounds 25 to 44 of 44" in html
    assert len([s for s in statements if "count(" in s.lower()]) == 1


def test_the_latest_rounds_show_the_same_figures_as_all_of_them(app):
    slug, _ = _long_game(app, 30)
    with app.app_context():
        game = sheet.get_game(slug)
        whole = standings(game)
        latest = standings(game, sheet.latest_rounds(game, 20))
        rounds = sheet.live_rounds(game)
        assert [u.total for u in latest.units] == [u.total for u in whole.units]
        assert latest.dealer == whole.dealer
        for unit, series in whole.series.items():
            assert latest.series[unit] == series[-21:]
            assert series[1:] == [r.figures["players"][unit]["total"] for r in rounds]


def test_a_matching_etag_gets_304_and_a_save_changes_it(app, client):
    slug, edit = _long_game(app, 3)
    for path in (f"/games/{slug}", f"/games/{slug}/live", f"/games/{slug}/version"):
        first = client.get(path)
        assert first.status_code == 200 and first.headers["ETag"]
        again = client.get(path, headers={"If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304 and again.get_data() == b""
    watching = client.get(f"/games/{slug}").headers["ETag"]
    client.get(f"/games/{slug}/edit/{edit}")
    client.get(f"/games/{slug}")  # shows the flash once
    editing = client.get(f"/games/{slug}")
    assert editing.headers["ETag"] != watching
    with app.app_context():
        game = sheet.get_game(slug)
        sheet.record_round(game, "totals", _round(3), "n-4", game.version)
    after = client.get(f"/games/{slug}", headers={"If-None-Match": editing.headers["ETag"]})
    assert after.status_code == 200 and "round 5" in after.get_data(as_text=True)


def _statements_to_save(app: Flask, slug: str, nonce: str) -> list[str]:
    seen: list[str] = []

    def count(conn, cursor, statement, *args):  # noqa: ANN001
        seen.append(statement)

    with app.app_context():
        game = sheet.get_game(slug, rounds=False)
        sa.event.listen(db.engine, "before_cursor_execute", count)
        try:
            sheet.record_round(game, "totals", _round(7), nonce, game.version)
        finally:
            sa.event.remove(db.engine, "before_cursor_execute", count)
    return seen


def test_saving_a_round_costs_the_same_at_10_and_at_300_rounds(app):
    short, _ = _long_game(app, 10)
    long, _ = _long_game(app, 300)
    few, many = _statements_to_save(app, short, "a"), _statements_to_save(app, long, "b")
    assert len(few) == len(many) and len(few) <= 12
    reads = [s for s in many if s.startswith("SELECT") and "FROM rounds" in s]
    assert all(re.search(r"LIMIT|nonce = \?|count\(|max\(", s) for s in reads), reads
    with app.app_context():
        game = sheet.get_game(long)
        rounds = sheet.live_rounds(game)
        assert len(rounds) == 301 and rounds[-1].figures["players"]["Ann"]["total"] == (
            rounds[-2].figures["players"]["Ann"]["total"]
            + rounds[-1].figures["players"]["Ann"]["round"]
        )


def test_the_migration_fills_the_summaries_of_existing_rounds(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "t",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/m.db",
        }
    )
    with app.app_context():
        upgrade()
        downgrade(revision="b3c1d9e7a512")
    with app.app_context():
        _old_game(db.engine)
        upgrade()
        game = db.session.execute(db.select(Game)).scalar_one()
        rounds = sheet.live_rounds(game)
        assert [r.summary for r in rounds] == [
            {"round": {"Ann": 30, "Bob": -5}, "total": {"Ann": 30, "Bob": -5}, "dealer": 0},
            {"round": {"Ann": -10, "Bob": 40}, "total": {"Ann": 20, "Bob": 35}, "dealer": 1},
        ]
        assert standings(game).dealer == "Bob"


def _old_game(engine: sa.Engine) -> None:
    """A two-player game stored before the summaries: two live rounds, one deleted."""
    figures = [
        {"players": {"Ann": {"round": 30, "total": 30}, "Bob": {"round": -5, "total": -5}}},
        {"players": {"Ann": {"round": 99, "total": 99}, "Bob": {"round": 0, "total": 0}}},
        {"players": {"Ann": {"round": -10, "total": 20}, "Bob": {"round": 40, "total": 35}}},
    ]
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO games (id, title, preset, options, first_dealer, entry_mode, "
                "view_token, edit_token, version, created_at, updated_at) VALUES (1, '', "
                "'standard', '{}', 1, 'net', 'v', 'e', 4, '2026-01-01', '2026-01-01')"
            )
        )
        for seat, name in enumerate(["Ann", "Bob"]):
            conn.execute(
                sa.text("INSERT INTO players (game_id, seat, name) VALUES (1, :s, :n)"),
                {"s": seat, "n": name},
            )
        for n, f in enumerate(figures):
            conn.execute(
                sa.text(
                    "INSERT INTO rounds (game_id, position, mode, input, figures, nonce, "
                    "deleted, version, created_at) VALUES (1, :p, 'net', :i, :f, :n, :d, 1, "
                    "'2026-01-01')"
                ),
                {
                    "p": n + 1,
                    "i": '{"went_out": "Ann"}',
                    "f": sa.types.JSON().bind_processor(engine.dialect)(f),
                    "n": f"n{n}",
                    "d": n == 1,
                },
            )


def _save_net(client, slug: str, hidden: dict[str, str], version: int, seen: list[str]) -> Any:
    seen.clear()
    data = hidden | {"mode": "net", "action": "save", "went_out": "1", "net-1": "40"}
    data |= {"nonce": uuid.uuid4().hex, "version": str(version)}
    json_ = {"Accept": "application/json"}
    return client.post(f"/games/{slug}/rounds/new", data=data, headers=json_).get_json()


def test_a_save_from_the_game_page_reads_the_game_and_its_tail_and_writes_three_rows(app, client):
    slug, edit = _long_game(app, 30)
    client.get(f"/games/{slug}/edit/{edit}")
    page = client.get(f"/games/{slug}").get_data(as_text=True)
    hidden = dict(re.findall(r'<input id="(\w+)" name="\w+" type="hidden" value="([^"]*)"', page))
    seen: list[str] = []
    with app.app_context():
        sa.event.listen(db.engine, "before_cursor_execute", lambda *a: seen.append(a[2]))
    with app.app_context():  # a last round stored before summaries held its number
        last = sheet.live_rounds(sheet.get_game(slug))[-1]
        last.summary = {k: v for k, v in last.summary.items() if k != "number"}
        db.session.commit()
    seen.clear()
    first = _save_net(client, slug, hidden, int(hidden["version"]), seen)
    assert first["number"] == 31 and [s.split()[0] for s in seen][:3] == ["SELECT"] * 3
    assert "count(rounds.id)" in seen[2]
    answer = _save_net(client, slug, hidden, first["version"], seen)
    assert answer["number"] == 32
    verbs = [s.split()[0] for s in seen]
    # the answer's parts come from the latest rounds read to save: nothing read after the write
    assert verbs == ["SELECT", "SELECT", "INSERT", "INSERT", "UPDATE"], seen
    assert "FROM games" in seen[0] and "JOIN players" in seen[0]
    assert "FROM rounds" in seen[1] and "count(" not in seen[1] and "max(" not in seen[1]
    assert "LIMIT" in seen[1]  # the page's latest rounds
