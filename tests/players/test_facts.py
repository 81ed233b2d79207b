"""The stored facts of a group's games (issue 27, item 4): after every change to a game
(a round recorded, corrected, deleted, undone; the game deleted and restored; a group's
file imported) each seat's stored facts equal the figures recomputed here from the
game's own export (its rounds' inputs and contract figures); the migration that made
the tables fills them for existing games; the long lists come a page at a time; the
figures pages answer 304 until the group changes."""

from __future__ import annotations

import copy
import io
import json
import re
from collections import Counter
from typing import Any

from flask_migrate import downgrade, upgrade
from sqlalchemy import event

from scorekeeper.extensions import db
from scorekeeper.models import Game, GameFact, Group, Member, PartnerTotal, PlayerTotal, SeatFact
from scorekeeper.table import services as sheet
from tests.players.conftest import Night, totals

BEFORE = "f3a6c8e1d205"
"""The migration before the stored facts."""
STORED = ("seat", "name", "member_id", "unit", "own", "score", "won", "settlement_halves")
STORED += ("money_half_cents", "rounds", "went_out", "points", "best", "left", "left_rounds")

R1 = totals("Ann", {"Ann": 60, "Bob": 10, "Cat": 5}, {"Ann": 0, "Bob": 15, "Cat": 20})
R2 = totals("Bob", {"Ann": 5, "Bob": 40, "Cat": 5}, {"Ann": 25, "Bob": 0, "Cat": 5})
NET = {"went_out": "Cat", "net": {"Ann": -10, "Bob": 20, "Cat": 35}}


def _sums(name: str, rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """A seat's round sums, straight from the export's rounds."""
    mine = [(r, r["response"]["players"][name]) for r in rounds]
    points = [f["round"] for _, f in mine]
    kept = [
        f["in_hand"] for r, f in mine if r["input"].get("went_out") != name and r["mode"] != "net"
    ]
    return {
        "rounds": len(mine),
        "went_out": sum(r["input"].get("went_out") == name for r, _ in mine),
        "points": sum(points),
        "best": max(points) if points else None,
        "left": sum(kept),
        "left_rounds": len(kept),
    }


def recomputed(night: Night, view: str) -> list[dict[str, Any]]:
    """Each seat's facts computed from the game's JSON export alone: totals from its
    last round, G3 settled between the units when it ended, round sums over its
    rounds."""
    export = json.loads(night.client.get(f"/games/{view}/export.json").data)
    names, teams, rounds = export["players"], export["teams"], export["rounds"]
    last = rounds[-1]["response"] if rounds else {"players": {}, "game_over": False}
    unit = {n: " & ".join(t) for t in teams for n in t} if teams else {n: n for n in names}
    own = {n: last["players"].get(n, {}).get("total", 0) for n in names}
    score = Counter[str]()
    for name in names:
        score[unit[name]] += own[name]
    winner = last.get("winner") if last["game_over"] else None
    net = {u: 0 for u in score}
    if winner:
        for u, total in score.items():
            net[u] = -(score[winner] - total)
        net[winner] = -sum(v for u, v in net.items() if u != winner)
    size = Counter(unit.values())
    cents = round(float(export["stake"]) * 100) if export["stake"] else None
    seats = []
    for seat, name in enumerate(names):
        halves = 2 * net[unit[name]] // size[unit[name]]
        seats.append(
            {"seat": seat, "name": name, "unit": unit[name], "own": own[name]}
            | {"score": score[unit[name]], "won": bool(winner) and winner == unit[name]}
            | {"settlement_halves": halves}
            | {"money_half_cents": None if cents is None else halves * cents}
            | _sums(name, rounds)
        )
    return seats


SUMS = ("games", "played", "won", "rounds", "went_out", "points", "left", "left_rounds")
SUMS += ("own_points", "settlement_halves", "money_half_cents", "money_games")


def _runs(results: list[bool]) -> dict[str, int]:
    """The longest run of wins, and the run up to the latest game."""
    best = run = 0
    for won in results:
        run = run + 1 if won else 0
        best = max(best, run)
    return {"streak": best, "run": run}


def summed(night: Night) -> tuple[dict[Any, Any], dict[Any, Any]]:
    """Every member's running totals as stored, and as summed here over the stored
    seats that count (by member, and by member and partner); none stays at zero but
    by a game that left."""
    with night.app.app_context():
        seats = db.session.execute(
            db.select(SeatFact).where(SeatFact.counts.is_(True), SeatFact.member_id.is_not(None))
        ).scalars()
        players: dict[Any, Counter[str]] = {}
        partners: Counter[Any] = Counter()
        results: dict[Any, list[tuple[Any, int, bool]]] = {}
        best: dict[Any, Any] = {}
        for seat in seats:
            key = (seat.group_id, seat.member_id, seat.kind)
            total = players.setdefault(key, Counter())
            total.update({"games": 1, "rounds": seat.rounds, "went_out": seat.went_out})
            total.update({"points": seat.points, "left": seat.left})
            total.update({"left_rounds": seat.left_rounds})
            if seat.best is not None:
                best[key] = max(best.get(key, seat.best), seat.best)
            if seat.finished:
                total.update({"played": 1, "won": int(seat.won), "own_points": seat.own})
                total.update({"settlement_halves": seat.settlement_halves})
                total.update({"money_half_cents": seat.money_half_cents or 0})
                total.update({"money_games": int(seat.money_half_cents is not None)})
                results.setdefault(key, []).append((seat.started_at, seat.fact_id, seat.won))
                if seat.partner_id is not None:
                    partners[key, seat.partner_id, "games"] += 1
                    partners[key, seat.partner_id, "won"] += int(seat.won)
        expected = {
            key: {k: total[k] for k in SUMS}
            | {"best": best.get(key)}
            | _runs([w for *_, w in sorted(results.get(key, []))])
            for key, total in players.items()
        }
        kept = {
            (row.group_id, row.member_id, row.kind): {k: getattr(row, k) for k in SUMS}
            | {"best": row.best, "streak": row.streak, "run": row.run}
            for row in db.session.execute(db.select(PlayerTotal)).scalars()
            if row.games
        }
        pairs = {
            (row.group_id, row.member_id, row.kind, row.partner_id): (row.games, row.won)
            for row in db.session.execute(db.select(PartnerTotal)).scalars()
            if row.games
        }
        wanted = {
            (*key, partner): (partners[key, partner, "games"], partners[key, partner, "won"])
            for key, partner, what in partners
            if what == "games" and partners[key, partner, "games"]
        }
    return (kept, pairs), (expected, wanted)


def stored(night: Night, view: str) -> list[dict[str, Any]]:
    """The game's stored seat facts (without member ids, which the export has not);
    every member's running totals are checked against the seats on the way."""
    kept, expected = summed(night)
    assert kept == expected
    with night.app.app_context():
        game_id = db.session.execute(db.select(Game.id).where(Game.view_token == view)).scalar()
        rows = db.session.execute(
            db.select(SeatFact)
            .join(GameFact, GameFact.id == SeatFact.fact_id)
            .where(GameFact.game_id == game_id)
            .order_by(SeatFact.seat)
        ).scalars()
        return [{k: getattr(r, k) for k in STORED if k != "member_id"} for r in rows]


def test_stored_facts_follow_every_change_to_a_game(night: Night):
    night.make_group("Friday", ("Ann", "Bob", "Cat"))
    view = night.start(("Ann", "Bob", "Cat"), stake="0.10")
    night.play(view, R1, R2)
    assert stored(night, view) == recomputed(night, view) and stored(night, view)
    with night.app.app_context():
        game = night.game(view)
        sheet.correct_round(game, game.rounds[0], "net", NET, game.rounds[0].version)
    assert stored(night, view) == recomputed(night, view)
    assert [s["left_rounds"] for s in stored(night, view)] == [1, 0, 1]  # round 1 by net
    with night.app.app_context():
        game = night.game(view)
        sheet.delete_round(game, game.rounds[1], game.version)
    assert stored(night, view) == recomputed(night, view)
    assert {s["rounds"] for s in stored(night, view)} == {1}
    with night.app.app_context():
        game = night.game(view)
        sheet.undo_change(game, game.changes[-1], game.version)
    assert stored(night, view) == recomputed(night, view)
    night.play(view, totals("Bob", {"Ann": 0, "Bob": 120, "Cat": 0}, {"Ann": 5, "Cat": 5}))
    facts = stored(night, view)
    assert facts == recomputed(night, view)
    assert [s["won"] for s in facts] == [False, True, False]
    assert sum(s["settlement_halves"] for s in facts) == 0


def test_a_deleted_game_has_no_facts_until_it_is_restored(night: Night):
    night.make_group("Friday", ("Ann", "Bob"))
    view = night.start(("Ann", "Bob"))
    night.play(view, totals("Ann", {"Ann": 110, "Bob": 10}, {"Bob": 5}))
    before = stored(night, view)
    assert night.client.post(f"/games/{view}/delete", data={"version": "0"}).status_code == 303
    assert stored(night, view) == []
    night.client.post(f"/games/{view}/restore", data={"version": "0"})
    assert stored(night, view) == before == recomputed(night, view)


def _import(night: Night, document: dict[str, Any]) -> str:
    """Import a group's file through the import form; the new group's view token."""
    upload = {"file": (io.BytesIO(json.dumps(document).encode()), "group.json")}
    answer = night.client.post("/groups/import", data=upload, content_type="multipart/form-data")
    assert answer.status_code == 303, answer.data
    return str(answer.headers["Location"]).rsplit("/", 1)[-1]


def _exported_group(night: Night) -> dict[str, Any]:
    """A group of Ann and Bob whose one game Ann won in one round, as its file."""
    night.make_group("Friday", ("Ann", "Bob"))
    view = night.start(("Ann", "Bob"), stake="0.25")
    night.play(view, totals("Ann", {"Ann": 110, "Bob": 10}, {"Bob": 5}))
    return dict(json.loads(night.client.get(night.url("/export.json")).data))


def _views(night: Night, slug: str) -> list[str]:
    """The view tokens of the group's games, oldest first."""
    with night.app.app_context():
        group_id = db.session.execute(
            db.select(Group.id).where(Group.view_token == slug)
        ).scalar_one()
        query = db.select(Game.view_token).where(Game.group_id == group_id).order_by(Game.id)
        return list(db.session.execute(query).scalars())


def test_an_imported_group_has_its_games_facts(night: Night):
    document = _exported_group(night)
    document["name"] = "Friday again"
    document["games"].append(copy.deepcopy(document["games"][0]))
    slug = _import(night, document)
    views = _views(night, slug)
    assert len(views) == 2
    for view in views:
        assert stored(night, view) == recomputed(night, view)
    csv = night.client.get(f"/groups/{slug}/season.csv").get_data(as_text=True)
    # Ann 110, Bob 5 in each game: Bob pays 105 points (26.25 at 0.25) twice
    assert csv.splitlines()[1:] == ["1,Ann,2,2,220,210,52.50", "2,Bob,2,0,10,-210,-52.50"]


def facts_now(night: Night) -> list[tuple[Any, ...]]:
    """Every stored fact, game and seat, without the rows' own ids."""
    with night.app.app_context():
        games = db.session.execute(
            db.select(
                GameFact.game_id,
                GameFact.digital_game_id,
                GameFact.group_id,
                GameFact.kind,
                GameFact.counts,
                GameFact.started_at,
                GameFact.finished_at,
                GameFact.winner,
                GameFact.stake,
            ).order_by(GameFact.game_id, GameFact.digital_game_id)
        ).all()
        seats = db.session.execute(
            db.select(GameFact.game_id, GameFact.digital_game_id, SeatFact)
            .join(GameFact, GameFact.id == SeatFact.fact_id)
            .order_by(GameFact.game_id, GameFact.digital_game_id, SeatFact.seat)
        ).all()
        found = [tuple(row) for row in games]
        found += [(g, d, *(getattr(s, k) for k in STORED)) for g, d, s in seats]
        return found


def test_the_migration_fills_the_facts_of_existing_games(night: Night):
    night.make_group("Friday", ("Ann", "Bob", "Cat"))
    won = night.start(("Ann", "Bob"), guests=("Dee",), stake="0.10")
    night.play(won, totals("Ann", {"Ann": 110, "Bob": 10, "Dee": 0}, {"Bob": 5, "Dee": 20}))
    in_play = night.start(("Bob", "Cat"))
    night.play(
        in_play, R1 | {"shown": {"Bob": 30, "Cat": 5}, "in_hand": {"Cat": 10}} | {"went_out": "Bob"}
    )
    archived = night.start(("Ann", "Cat"))
    deleted = night.start(("Ann", "Bob"))
    with night.app.app_context():
        archived_id = night.game(archived).id
    night.client.post(night.url(f"/games/table/{archived_id}/archive"), data={"archived": "yes"})
    night.client.post(f"/games/{deleted}/delete", data={"version": "0"})
    slug = night.play_digital("Cat", seed=4)
    night.client.post(
        night.url("/attach"), data={"link": f"http://127.0.0.1:5000/play/{slug}", "confirm": "yes"}
    )
    before, totals_before = facts_now(night), summed(night)
    assert totals_before[0] == totals_before[1]
    kinds = Counter(row[3] for row in before if len(row) == 9)
    assert kinds == {"table": 3, "digital": 1}
    with night.app.app_context():
        for table in (PartnerTotal, PlayerTotal, SeatFact, GameFact):
            db.session.execute(db.delete(table))
        db.session.commit()
        db.session.remove()
        assert facts_now(night) == []
        downgrade(revision=BEFORE)
        upgrade()  # by hand, as `flask db upgrade`: the migration, then the app's backfill
        db.session.remove()
    assert facts_now(night) == before
    assert summed(night) == totals_before


def _group_of(night: Night, games: int) -> str:
    """A group imported from its file: Ann and Bob, ``games`` games Ann won."""
    document = _exported_group(night)
    document["name"] = "Many"
    document["games"] = [copy.deepcopy(document["games"][0]) for _ in range(games)]
    return _import(night, document)


def test_long_lists_come_a_page_at_a_time_in_a_stable_order(night: Night):
    slug = _group_of(night, 53)
    night.slug = slug

    def games_on(page: str) -> list[str]:
        games = page.split("<h2>Games</h2>", 1)[1].split("</section>", 1)[0]
        return re.findall(r'href="/games/([^"/]+)"', games)

    first, second = night.page(""), night.page("?page=1")
    assert len(games_on(first)) == 50 and len(games_on(second)) == 3
    assert f"/groups/{slug}?page=1" in first and "Older games" in first
    assert "Older games" not in second and "Newer games" in second
    assert sorted(games_on(first) + games_on(second)) == sorted(_views(night, slug))
    assert games_on(night.page("")) == games_on(first)
    with night.app.app_context():
        members = db.session.execute(
            db.select(Member.name, Member.id).join(Group).where(Group.view_token == slug)
        ).all()
    ann, bob = dict(members)["Ann"], dict(members)["Bob"]
    together = night.page(f"/versus?a={ann}&b={bob}")
    older = night.page(f"/versus?a={ann}&b={bob}&page=1")
    listed = [p.split("<h3>Their games</h3>", 1)[1].count("<li>") for p in (together, older)]
    assert listed == [50, 3] and "Older games" in together
    assert "Games together</dt><dd>53<" in together
    profile = night.page(f"/players/{ann}")
    assert (
        profile.count('class="dot"') == 50 and "Points per game in the latest 50 games" in profile
    )
    for bad in ("?page=x", "?page=-1"):
        assert night.client.get(night.url(bad)).status_code == 400


def _statements(night: Night, path: str) -> int:
    """The SQL statements the database ran to answer GET ``path`` (200) on this phone."""
    ran: list[str] = []

    def count(*args: Any) -> None:
        ran.append(args[2])

    with night.app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        night.page(path)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return len(ran)


def test_profile_and_season_run_a_few_statements_whatever_the_games(night: Night):
    """The group and its players in one statement, a profile's totals, chart and partners
    in one each, a season's table in one: as many for 12 games as for 2 (no statement per
    game or per player)."""
    document = _exported_group(night)
    found = []
    for games in (2, 12):
        document["name"] = f"{games} games"
        document["games"] = [copy.deepcopy(document["games"][0]) for _ in range(games)]
        night.slug = _import(night, document)
        with night.app.app_context():
            ann = db.session.execute(
                db.select(Member.id)
                .join(Group)
                .where(Group.view_token == night.slug)
                .where(Member.name == "Ann")
            ).scalar_one()
        found.append((_statements(night, f"/players/{ann}"), _statements(night, "/season")))
    assert found == [(4, 2), (4, 2)]


def test_figures_pages_answer_304_until_the_group_changes(night: Night):
    night.make_group("Friday", ("Ann", "Bob"))
    view = night.start(("Ann", "Bob"))
    night.play(view, totals("Ann", {"Ann": 40, "Bob": 10}, {"Bob": 5}))
    ann, bob = night.member("Ann"), night.member("Bob")
    pages = [f"/players/{ann}", "/season", "/season.csv", f"/versus?a={ann}&b={bob}"]
    tags = {}
    for page in pages:
        first = night.client.get(night.url(page))
        tags[page] = first.headers["ETag"]
        again = night.client.get(night.url(page), headers={"If-None-Match": tags[page]})
        assert (again.status_code, again.data) == (304, b""), page
    viewer = night.app.test_client().get(
        night.url(pages[0]), headers={"If-None-Match": tags[pages[0]]}
    )
    assert viewer.status_code == 200 and viewer.headers["ETag"] != tags[pages[0]]
    night.play(view, totals("Bob", {"Ann": 10, "Bob": 40}, {"Ann": 5}))
    for page in pages:
        changed = night.client.get(night.url(page), headers={"If-None-Match": tags[page]})
        assert changed.status_code == 200 and changed.headers["ETag"] != tags[page], page
        tags[page] = changed.headers["ETag"]
    night.client.post(night.url("/players"), data={"name": "Cat"})
    night.client.get(night.url(""))  # the flash "Cat joined the group." is shown
    newer = night.client.get(night.url(pages[0]), headers={"If-None-Match": tags[pages[0]]})
    assert newer.status_code == 200


def test_a_winning_streak_counts_on_and_is_counted_again_after_a_correction(night: Night):
    night.make_group("Friday", ("Ann", "Bob"))
    ann_wins = totals("Ann", {"Ann": 110, "Bob": 10}, {"Bob": 5})
    views = [night.start(("Ann", "Bob")) for _ in range(3)]
    for view in views:
        night.play(view, ann_wins)
        assert stored(night, view) == recomputed(night, view)
    profile = night.page(f"/players/{night.member('Ann')}")
    assert "<dt>Longest winning streak</dt><dd>3</dd>" in profile
    with night.app.app_context():
        game = night.game(views[1])
        bob_wins = totals("Bob", {"Ann": 10, "Bob": 110}, {"Ann": 5})
        sheet.correct_round(game, game.rounds[0], "totals", bob_wins, game.rounds[0].version)
    assert stored(night, views[1]) == recomputed(night, views[1])
    profile = night.page(f"/players/{night.member('Ann')}")
    assert "<dt>Longest winning streak</dt><dd>1</dd>" in profile
    assert "<dt>Longest winning streak</dt><dd>1</dd>" in night.page(
        f"/players/{night.member('Bob')}"
    )
