"""Every figure of a profile, head to head and a season on a small hand-built history with
known answers, read from the pages through the test client; then a correction, a deleted
round, a deleted game and an archived game change them at once.

The history (standard rules, target 100, stake 0.10 a point):
- game 1, Ann, Bob, Cat: Ann goes out twice (60, -5, -15 each round): Ann 120, Bob -10,
  Cat -30; Ann wins, Bob pays 130, Cat 150.
- game 2, Ann, Bob: Bob goes out: Bob 110, Ann 10; Bob wins, Ann pays 100.
- game 3, Ann, Bob, Cat, still in play: Cat goes out: Cat 30, Ann -20, Bob 0.
"""

from __future__ import annotations

import html
import json
import re

import pytest

from scorekeeper.table import services as sheet
from tests.players.conftest import Night, figure, totals

G1 = totals("Ann", {"Ann": 60, "Bob": 10, "Cat": 5}, {"Ann": 0, "Bob": 15, "Cat": 20})
G2 = totals("Bob", {"Ann": 20, "Bob": 110}, {"Ann": 10, "Bob": 0})
G3 = totals("Cat", {"Ann": 5, "Bob": 5, "Cat": 30}, {"Ann": 25, "Bob": 5, "Cat": 0})


@pytest.fixture
def history(night: Night) -> dict[str, str]:
    night.make_group("Friday", ("Ann", "Bob", "Cat"))
    games = {
        "g1": night.start(("Ann", "Bob", "Cat"), stake="0.10"),
        "g2": night.start(("Ann", "Bob"), stake="0.10"),
        "g3": night.start(("Ann", "Bob", "Cat"), stake="0.10"),
    }
    night.play(games["g1"], G1, G1)
    night.play(games["g2"], G2)
    night.play(games["g3"], G3)
    return games


def profile(night: Night, name: str) -> str:
    return night.page(f"/players/{night.member(name)}")


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "Ann",
            {
                "Games played": "2 (+1 in play)",
                "Games won": "1",
                "Win rate": "50%",
                "Longest winning streak": "1",
                "Average round score": "27.5",
                "Best round": "60",
                "Went out": "2 of 4 rounds (50%)",
                "Average points left in hand": "17.5",
            },
        ),
        (
            "Bob",
            {
                "Games played": "2 (+1 in play)",
                "Games won": "1",
                "Win rate": "50%",
                "Average round score": "25.0",
                "Best round": "110",
                "Went out": "1 of 4 rounds (25%)",
                "Average points left in hand": "11.7",
            },
        ),
        (
            "Cat",
            {
                "Games played": "1 (+1 in play)",
                "Games won": "0",
                "Win rate": "0%",
                "Longest winning streak": "0",
                "Average round score": "0.0",
                "Best round": "30",
                "Went out": "1 of 3 rounds (33%)",
                "Average points left in hand": "20.0",
            },
        ),
    ],
)
def test_profile_figures(night: Night, history, name, expected):
    html = profile(night, name)
    assert {label: figure(html, label) for label in expected} == expected
    assert "No digital games yet." in html


def test_the_points_chart_has_one_dot_per_finished_game(night: Night, history):
    html = profile(night, "Ann")
    assert html.count('class="dot"') == 2
    assert "<title>" in html and ": 120</title>" in html and ": 10</title>" in html
    assert "120 in the first game, 10 in the latest; lowest 10, highest 120" in html


def test_head_to_head(night: Night, history):
    ann, bob = night.member("Ann"), night.member("Bob")
    html = night.page(f"/versus?a={ann}&b={bob}")
    assert figure(html, "Games together", "result") == "2"
    assert figure(html, "Ann won", "result") == "1"
    assert figure(html, "Bob won", "result") == "1"
    # (120 - -10 + 10 - 110) / 2
    assert figure(html, "Average margin", "result").startswith("+15.0")


def test_season_league_table_and_csv(night: Night, history):
    csv = night.client.get(night.url("/season.csv")).get_data(as_text=True)
    assert csv.splitlines() == [
        "place,player,played,won,points,settlement,money",
        "1,Ann,2,1,130,180,18.00",
        "2,Bob,2,1,100,-30,-3.00",
        "3,Cat,1,0,-30,-150,-15.00",
    ]
    html = night.page("/season")
    assert html.index(">Ann</th>") < html.index(">Bob</th>") < html.index(">Cat</th>")
    assert "+18.00" in html and "-15.00" in html


def test_a_season_between_two_dates(night: Night, history):
    assert "No finished game in this season." in night.page(
        "/season?start=2000-01-01&end=2000-12-31"
    )
    csv = night.client.get(night.url("/season.csv?start=2000-01-01&end=2999-12-31"))
    assert len(csv.get_data(as_text=True).splitlines()) == 4
    bad = night.client.get(night.url("/season?start=2026-05-01&end=2026-01-01"))
    assert bad.status_code == 422 and b"the end comes before the start" in bad.data
    assert night.client.get(night.url("/season?start=99999-01-01")).status_code == 422


def test_a_corrected_round_changes_the_figures_at_once(night: Night, history):
    with night.app.app_context():
        game = night.game(history["g2"])
        round_ = game.rounds[0]
        fixed = totals("Ann", {"Ann": 120, "Bob": 10}, {"Ann": 0, "Bob": 30})
        sheet.correct_round(game, round_, "totals", fixed, round_.version)
    html = profile(night, "Ann")
    assert figure(html, "Games won") == "2"
    assert figure(html, "Longest winning streak") == "2"
    assert figure(html, "Best round") == "120"
    ann, bob = night.member("Ann"), night.member("Bob")
    versus = night.page(f"/versus?a={ann}&b={bob}")
    assert figure(versus, "Ann won", "result") == "2"
    assert figure(versus, "Bob won", "result") == "0"


def test_a_deleted_round_no_longer_counts(night: Night, history):
    with night.app.app_context():
        game = night.game(history["g3"])
        sheet.delete_round(game, game.rounds[0], game.version)
    html = profile(night, "Cat")
    assert figure(html, "Went out") == "0 of 2 rounds (0%)"
    assert figure(html, "Best round") == "-15"


def test_a_deleted_game_no_longer_counts_and_undo_brings_it_back(night: Night, history):
    answer = night.client.post(f"/games/{history['g1']}/delete", data={"version": "0"})
    assert answer.status_code == 303
    html = profile(night, "Ann")
    assert figure(html, "Games played") == "1 (+1 in play)"
    assert figure(html, "Games won") == "0"
    assert "1,Bob,2,1" not in night.client.get(night.url("/season.csv")).get_data(as_text=True)
    night.client.post(f"/games/{history['g1']}/restore", data={"version": "0"})
    assert figure(profile(night, "Ann"), "Games won") == "1"


def test_an_archived_game_no_longer_counts(night: Night, history):
    with night.app.app_context():
        game_id = night.game(history["g2"]).id
    archive = night.url(f"/games/table/{game_id}/archive")
    assert night.client.post(archive, data={"archived": "yes"}).status_code == 303
    html = profile(night, "Bob")
    assert figure(html, "Games played") == "1 (+1 in play)"
    assert figure(html, "Games won") == "0"
    assert "archived, not counted" in night.page("")
    night.client.post(archive, data={"archived": "no"})
    assert figure(profile(night, "Bob"), "Games won") == "1"


def test_guests_play_but_have_no_figures(night: Night):
    night.make_group("Club", ("Ann", "Bob"))
    view = night.start(("Ann",), guests=("Zed",))
    night.play(view, totals("Zed", {"Ann": 10, "Zed": 120}, {"Ann": 30, "Zed": 0}))
    html = profile(night, "Ann")
    assert figure(html, "Games played") == "1"
    assert figure(html, "Games won") == "0"
    csv = night.client.get(night.url("/season.csv")).get_data(as_text=True)
    assert csv.splitlines()[1:] == ["1,Ann,1,0,-20,-140,"]
    assert "Zed" not in csv


def test_partnership_games_give_favourite_partners_and_split_the_settlement(night: Night):
    night.make_group("Four", ("Ann", "Bob", "Cat", "Dee"))
    view = night.start(("Ann", "Bob", "Cat", "Dee"), preset="partnership")
    with night.app.app_context():
        game = night.game(view)
        sides = {p.name: p.side for p in game.players}
    assert sides == {"Ann": 0, "Bob": 1, "Cat": 0, "Dee": 1}
    shown = {"Ann": 60, "Bob": 0, "Cat": 50, "Dee": 0}
    hand = {"Ann": 0, "Bob": 5, "Cat": 0, "Dee": 5}
    night.play(view, totals("Ann", shown, hand))
    html = profile(night, "Ann")
    assert figure(html, "Games won") == "1"
    assert "Cat: 1 game together, 1 won" in html
    csv = night.client.get(night.url("/season.csv")).get_data(as_text=True).splitlines()
    # Ann & Cat 110 against Bob & Dee -10: 120 points, split between partners
    assert csv[1:] == [
        "1,Ann,1,1,60,60,",
        "2,Cat,1,1,50,60,",
        "3,Bob,1,0,-5,-60,",
        "4,Dee,1,0,-5,-60,",
    ]
    ann, cat = night.member("Ann"), night.member("Cat")
    versus = night.page(f"/versus?a={ann}&b={cat}")
    assert figure(versus, "Average margin", "result") == "—"


ZOE, ACE = "Zoë", 'Al "Ace"'


@pytest.fixture
def odd_names(night: Night) -> str:
    """A game of Zoë, Al "Ace" and Bob (stake 0.10): Zoë goes out (60, -5, -15), then Al
    (-20, 110, 0): Zoë 40, Al 105, Bob -15; Al wins, Zoë pays 65 and Bob 120."""
    night.make_group("Names", (ZOE, ACE, "Bob"))
    view = night.start((ZOE, ACE, "Bob"), stake="0.10")
    night.play(
        view,
        totals(ZOE, {ZOE: 60, ACE: 10, "Bob": 5}, {ZOE: 0, ACE: 15, "Bob": 20}),
        totals(ACE, {ZOE: 5, ACE: 110, "Bob": 5}, {ZOE: 25, ACE: 0, "Bob": 5}),
    )
    return view


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            ZOE,
            {
                "Games played": "1",
                "Games won": "0",
                "Average round score": "20.0",
                "Best round": "60",
                "Went out": "1 of 2 rounds (50%)",
                "Average points left in hand": "25.0",
            },
        ),
        (
            ACE,
            {
                "Games played": "1",
                "Games won": "1",
                "Average round score": "52.5",
                "Best round": "110",
                "Went out": "1 of 2 rounds (50%)",
                "Average points left in hand": "15.0",
            },
        ),
    ],
)
def test_a_name_with_an_accent_or_a_quote_has_its_figures(night: Night, odd_names, name, expected):
    html = profile(night, name)
    assert {label: figure(html, label) for label in expected} == expected


def test_a_name_with_an_accent_or_a_quote_has_its_season(night: Night, odd_names):
    csv = night.client.get(night.url("/season.csv")).get_data(as_text=True)
    assert csv.splitlines() == [
        "place,player,played,won,points,settlement,money",
        '1,"Al ""Ace""",1,1,105,185,18.50',
        "2,Zoë,1,0,40,-65,-6.50",
        "3,Bob,1,0,-15,-120,-12.00",
    ]


def shown_totals(night: Night, slug: str) -> dict[str, int]:
    """Each seat's total as the digital game's scores page shows it."""
    page = night.client.get(f"/play/{slug}/rounds").get_data(as_text=True)
    seats = re.findall(r'<span class="who">(.*?)</span><span class="total">(-?\d+)</span>', page)
    return {html.unescape(name): int(total) for name, total in seats}


def test_a_digital_game_counts_its_stored_rounds_for_the_person_only(night: Night):
    night.make_group("Friday", (ZOE, "Ada"))
    slug = night.play_digital(ZOE, seed=4)
    record = json.loads(night.client.get(f"/play/{slug}/record").get_data(as_text=True))
    rounds = record["rounds"]
    totals_shown = shown_totals(night, slug)
    assert rounds and record["bots"] == ["person", "casual"] and totals_shown.keys() == {ZOE, "Ada"}
    link = f"http://127.0.0.1:5000/play/{slug}"
    first = night.client.post(night.url("/attach"), data={"link": link}).get_data(as_text=True)
    matched = first.split('<ul class="plain-list matches">')[1].split("</ul>")[0]
    assert "is Zoë of the group" in matched and "Ada" not in matched
    night.client.post(night.url("/attach"), data={"link": link, "confirm": "yes"})

    mine = [r["scores"][ZOE] for r in rounds]
    out = [r["end"]["went_out"] == ZOE for r in rounds]
    left = [f["in_hand"] for f, gone in zip(mine, out, strict=True) if not gone]
    won = record["final"]["winner"] == ZOE
    page = profile(night, ZOE)
    assert {
        label: figure(page, label, "digital")
        for label in ("Games played", "Games won", "Best round", "Went out", "Average round score")
    } == {
        "Games played": "1",
        "Games won": "1" if won else "0",
        "Best round": str(max(f["round"] for f in mine)),
        "Went out": f"{sum(out)} of {len(rounds)} rounds ({round(100 * sum(out) / len(rounds))}%)",
        "Average round score": f"{sum(f['round'] for f in mine) / len(mine):.1f}",
    }
    assert figure(page, "Average points left in hand", "digital") == (
        f"{sum(left) / len(left):.1f}" if left else "—"
    )
    assert "No games at the table yet." in page
    assert "No digital games yet." in profile(night, "Ada")
    season = night.client.get(night.url("/season.csv")).get_data(as_text=True).splitlines()
    mine_total, bot_total = totals_shown[ZOE], totals_shown["Ada"]
    assert mine_total == mine[-1]["total"]
    assert season[1:] == [f"1,{ZOE},1,{int(won)},{mine_total},{mine_total - bot_total},"]
