"""Tonight's tally on a group's page (issue 37, item 7): each player's games played, wins
and points of tonight, equal to the games' own figures, every game started from the
group's form and every round saved through the game page's entry form."""

from __future__ import annotations

import json
import re

from tests.players.conftest import Night


def _save_net(night: Night, view: str, figures: dict[str, int], went_out: str) -> None:
    """A round by net scores through the game page's entry form, as its phone sends it."""
    page = night.client.get(f"/games/{view}").get_data(as_text=True)
    hidden = dict(re.findall(r'<input id="(\w+)" name="\w+" type="hidden" value="([^"]*)"', page))
    names = list(figures)
    data = hidden | {"mode": "net", "action": "save", "went_out": str(names.index(went_out))}
    data |= {f"net-{i}": str(points) for i, points in enumerate(figures.values())}
    saved = night.client.post(f"/games/{view}/rounds/new", data=data)
    assert saved.status_code == 303, saved.data[:300]


def _final(night: Night, view: str) -> dict[str, int]:
    """The game's final totals as its own export says them."""
    export = json.loads(night.client.get(f"/games/{view}/export.json").data)
    return {n: f["total"] for n, f in export["rounds"][-1]["response"]["players"].items()}


def _tally(page: str) -> dict[str, tuple[int, int, int]]:
    """Tonight's rows on the group's page: name -> (games, wins, points)."""
    part = page.split('class="panel tonight"', 1)[1].split("</section>", 1)[0]
    head = re.findall(r'<th scope="col"[^>]*>(\w+)</th>', part)
    assert head == ["Player", "Games", "Wins", "Points"]
    rows = re.findall(
        r'<tr><th scope="row">([^<]+)</th><td class="num">(-?\d+)</td>'
        r'<td class="num">(-?\d+)</td><td class="num">(-?\d+)</td></tr>',
        part,
    )
    return {name: (int(g), int(w), int(p)) for name, g, w, p in rows}


def test_tonights_tally_shows_games_wins_and_points_equal_to_the_games(night: Night) -> None:
    night.make_group("Friday", ("Ann", "Bob", "Cat"))
    first = night.start(("Ann", "Bob", "Cat"))
    _save_net(night, first, {"Ann": 60, "Bob": 20, "Cat": -5}, "Ann")
    _save_net(night, first, {"Ann": 55, "Bob": 10, "Cat": 15}, "Ann")
    second = night.start(("Ann", "Cat"), guests=("Zed",))
    _save_net(night, second, {"Ann": 30, "Cat": 40, "Zed": -15}, "Cat")
    _save_net(night, second, {"Ann": 5, "Cat": 70, "Zed": 20}, "Cat")
    finals = [_final(night, first), _final(night, second)]
    assert finals == [{"Ann": 115, "Bob": 30, "Cat": 10}, {"Ann": 35, "Cat": 110, "Zed": 5}]

    tally = _tally(night.page(""))
    expected = {}
    for totals in finals:
        winner = max(totals, key=lambda name: totals[name])
        for name, total in totals.items():
            games, wins, points = expected.get(name, (0, 0, 0))
            expected[name] = (games + 1, wins + (name == winner), points + total)
    assert tally == expected
    assert tally["Ann"] == (2, 1, 150) and tally["Cat"] == (2, 1, 120)
    assert list(tally)[:2] == ["Ann", "Cat"]  # most wins first, then most points
    assert "2 games finished" in night.page("")
