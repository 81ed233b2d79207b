"""The melds a round by cards is tapped into, answered by the engine under the game's own
rules (``GET /games/<slug>/melds``, scorekeeper/table/deal_melds.py): the deal-by-cards
grid (static/dealgrid.js) decides no rule, it shows these answers. Tested through the
route, as the grid asks: which row a tap makes, the next meld, the cards completing a set,
each following the game's house rules (M2, M3, M4, P2, M5); bad input is a 400, never a
500; nothing is written."""

from __future__ import annotations

import json

import pytest

from tests.table.test_pages import GameActions

JSON = {"Accept": "application/json"}
CORNER = {"opt_ace_in_run": json.dumps("round-the-corner")}
SAME_SUIT = {"opt_same_suit_in_set": json.dumps("allowed")}


@pytest.fixture
def games(client, app) -> GameActions:
    return GameActions(client, app)


def _ask(games, meld: str, card: str | None = None, client=None) -> dict:
    query = {"meld": meld} | ({"card": card} if card is not None else {})
    response = (client or games.client).get(f"/games/{games.slug}/melds", query_string=query)
    assert response.status_code == 200, response.data
    assert response.headers["Cache-Control"] == "no-store"
    return response.get_json()


def _row(games, meld: str, card: str) -> str | None:
    answer = _ask(games, meld, card)["meld"]
    return None if answer is None else " ".join(answer)


def test_two_cards_of_a_suit_fill_the_run_between_them(games):
    games.start()
    assert _row(games, "5H", "8H") == "5H 6H 7H 8H"
    assert _row(games, "8H", "5H") == "5H 6H 7H 8H"
    assert _row(games, "5H", "6H") == "5H 6H"  # next to it: nothing between
    assert _row(games, "AH", "8H") == "8H 9H 10H JH QH KH AH"  # the ace at the nearer end
    assert _row(games, "AH", "7H") == "AH 2H 3H 4H 5H 6H 7H"
    assert _row(games, "QH", "2H") == "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH"  # never K-A-2


def test_where_runs_go_round_the_corner_the_run_between_does_too(games):
    games.start(**CORNER)
    assert _row(games, "QH", "2H") == "QH KH AH 2H"
    assert _row(games, "KH AH", "2H") == "KH AH 2H"


def test_a_card_continuing_no_meld_starts_the_next(games):
    games.start()
    assert _row(games, "9S 9H", "9C") == "9S 9H 9C"
    assert _row(games, "5H 6H 7H", "8H") == "5H 6H 7H 8H"
    assert _row(games, "5H 6H 7H 8H", "9S") is None
    assert _row(games, "5H 6H 7H", "10H") is None  # a gap: not the same meld
    assert _row(games, "KH AH", "2H") is None  # K-A-2 is round the corner (M4)
    assert _row(games, "QS QH QD QC", "5H") is None
    assert _row(games, "", "5H") == "5H"


def test_a_set_follows_the_same_suit_house_rule(games):
    games.start(["Ann", "Bob", "Cat", "Dee", "Eve"])  # two packs (D2)
    assert _row(games, "7C 7C", "7H") is None  # a set's suits differ (M2)
    assert _ask(games, "7C 7C")["complete"] == []
    games.start(["Ann", "Bob", "Cat", "Dee", "Eve"], **SAME_SUIT)
    assert _row(games, "7C 7C", "7H") == "7C 7C 7H"
    assert _ask(games, "7C 7C", "7H")["complete"] == ["7S"]  # four at most (M1)


def test_all_four_names_the_suits_a_set_lacks(games):
    games.start()
    assert _ask(games, "QS") == {"meld": ["QS"], "complete": ["QH", "QD", "QC"]}
    assert _ask(games, "QS QD")["complete"] == ["QH", "QC"]
    assert _ask(games, "QS QH QD QC")["complete"] == []
    assert _ask(games, "5H 6H")["complete"] == []
    assert _ask(games, "")["complete"] == []


def test_a_run_of_four_where_runs_are_four_or_more(games):
    games.start(preset="classic")  # M3: min_run 4
    assert _row(games, "5H", "7H") == "5H 6H 7H"  # the start of a run of four
    assert _row(games, "5H 6H 7H", "8H") == "5H 6H 7H 8H"


def test_jokers_as_the_table_plays_them(games):
    games.start(["Ann", "Bob", "Cat", "Dee"], preset="persian")  # P2: sets of jokers
    assert _row(games, "JK", "JK") == "JK JK"
    assert _row(games, "9S 9H 9C", "JK") is None
    games.start(preset="modern")  # M5: wild jokers name their card
    assert _row(games, "7C 7S", "JK=7H") == "7C 7S JK=7H"
    assert _row(games, "7C 7S", "JK=7C") is None  # two clubs in a set (M2)


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ({"meld": "5H", "card": "ZZ"}, 400),
        ({"meld": "5H 1X"}, 400),
        ({"meld": "5H", "card": "5H 6H"}, 400),
        ({"meld": " ".join(["5H"] * 27)}, 400),
        ({"meld": "5H" * 10_000}, 400),
    ],
)
def test_bad_input_is_refused_not_a_500(games, query, status):
    games.start()
    response = games.client.get(f"/games/{games.slug}/melds", query_string=query, headers=JSON)
    assert response.status_code == status
    assert response.get_json()["message"]


def test_unknown_game_is_a_404_and_nothing_is_written(games, app):
    games.start()
    assert games.client.get("/games/nosuchgame/melds?meld=5H", headers=JSON).status_code == 404
    watcher = app.test_client()  # the view link's right is enough: nothing changes
    assert _ask(games, "5H", "8H", client=watcher)["meld"] == ["5H", "6H", "7H", "8H"]
    assert games.game().version == 1 and games.rounds() == []
