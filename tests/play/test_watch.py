"""The spectator board of a digital game on several phones (issue 26, item 1): its own
link on the host's seats page only, the public table (melds, pile, hand sizes, whose
turn, the latest moves) refreshed by the game's version, and never a card of any hand in
its HTML or JSON."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from scorekeeper.engine import (
    Discard,
    Draw,
    GameState,
    LayDown,
    LayOff,
    current_player,
    legal_actions,
)
from scorekeeper.extensions import db
from scorekeeper.play import services as digital
from tests.conftest import make_app
from tests.play.test_table import Table

SEED = 15
"""The deal of every table here (the server's draw replaced, so a run is repeatable)."""


@pytest.fixture
def table_app(tmp_path, monkeypatch) -> Flask:
    monkeypatch.setattr(digital, "drawn_seed", lambda: SEED)
    return make_app(str(tmp_path / "watch.sqlite3"))


@pytest.fixture
def table(table_app: Flask) -> Table:
    """A table of three people (each joined on a phone of their own) and a bot."""
    table = Table(table_app)
    table.join(1)
    table.join(2)
    return table


def _spectator_link(table: Table) -> str:
    page = table.host.get(f"/play/{table.slug}/seats").get_data(as_text=True)
    found = re.search(r'href="(/play/[^"]+/watch/[0-9a-f]+)"', page)
    assert found, "the host's seats page links the spectator board"
    return found.group(1)


def _quiet_move(state: GameState) -> dict:
    """A move that puts no card of the pile into a hand: from the stock, or a discard."""
    legal = legal_actions(state)
    quiet = [a for a in legal if isinstance(a, Draw) and a.source == "stock"]
    quiet += [a for a in legal if isinstance(a, Discard)]
    return (quiet or legal)[0].to_json()


def _play(table: Table, moves: int) -> None:
    """``moves`` moves by the phones at their turns (the bot moves by itself)."""
    for _ in range(moves):
        state = table.state()
        turn = current_player(state)
        assert turn in table.phones
        assert table.act(turn, _quiet_move(state)).status_code == 200


def _hands_from_the_seats_own_boards(table: Table) -> dict[int, list[str]]:
    """Each person's hand as that seat's own phone gets it (state.json), the bot's from
    the full state; they agree with the full state."""
    state = table.state()
    hands = {}
    for seat, phone in table.phones.items():
        hands[seat] = phone.get(f"/play/{table.slug}/state.json").get_json()["view"]["hand"]
        assert sorted(hands[seat]) == sorted(c.text for c in state.hands[seat])
    for seat, hand in enumerate(state.hands):
        hands.setdefault(seat, [c.text for c in hand])
    return hands


def _public_cards(table: Table) -> set[str]:
    """The cards anyone may see: the pile, the melds, and any card a move named (a card
    taken from the pile is seen going into that hand)."""
    state = table.state()
    seen = {c.text for c in state.pile} | {c.text for m in state.table for c in m.cards}
    with table.app.app_context():
        game = digital.get_game(table.slug)
        assert game is not None
        for step in game.moves:
            seen |= set(step.get("cards", [])) | {c for g in step.get("groups", []) for c in g}
        db.session.expunge(game)
    return seen


def _words_of(table: Table, cards: set[str]) -> set[str]:
    state = table.state()
    return {
        word
        for hand in state.hands
        for card in hand
        if card.text in cards
        for word in (f'"{card.text}"', f"={card.text}", card.name, card.display)
    }


def test_the_spectator_board_never_holds_a_card_of_any_hand(table) -> None:
    link = _spectator_link(table)
    screen = table.app.test_client()  # a TV: no seat, no host
    for round_of_moves in range(4):
        hands = _hands_from_the_seats_own_boards(table)
        hidden = {c for hand in hands.values() for c in hand} - _public_cards(table)
        assert len(hidden) >= 20
        words = _words_of(table, hidden)
        texts = [
            screen.get(link).get_data(as_text=True),
            screen.get(link + "/live").get_data(as_text=True),
            screen.get(link + "/version").get_data(as_text=True),
        ]
        state = table.state()
        assert "Latest moves" in texts[0] and "Stock: " in texts[0]
        for name, hand in zip(state.players, state.hands, strict=True):
            assert f"{len(hand)} card" in texts[1].split(f'<span class="who">{name}', 1)[1]
        turn = state.players[current_player(state)]
        assert f"<strong>{turn}</strong> to play" in texts[1]
        for text in texts:
            leaked = [word for word in words if word in text]
            assert leaked == [], (round_of_moves, leaked)
        _play(table, 3)


def test_the_spectator_board_follows_the_games_version(table) -> None:
    link = _spectator_link(table)
    screen = table.app.test_client()
    polled = screen.get(link + "/version")
    assert polled.get_json() == {"version": table.version()}
    unchanged = screen.get(link + "/version", headers={"If-None-Match": polled.headers["ETag"]})
    assert unchanged.status_code == 304
    _play(table, 1)
    moved = screen.get(link + "/version", headers={"If-None-Match": polled.headers["ETag"]})
    assert moved.status_code == 200 and moved.get_json()["version"] == table.version()
    assert "Latest moves" in screen.get(link + "/live").get_data(as_text=True)


def test_the_spectator_link_is_the_hosts_to_give_and_cannot_be_guessed(table) -> None:
    link = _spectator_link(table)
    seat_page = table.phones[1].get(f"/play/{table.slug}/seats").get_data(as_text=True)
    assert "/watch/" not in seat_page  # only the host's page shows it
    screen = table.app.test_client()
    assert screen.get(link).status_code == 200
    wrong = link[:-4] + ("0000" if not link.endswith("0000") else "1111")
    assert screen.get(wrong).status_code == 403
    assert screen.get(wrong + "/version").status_code == 403
    assert screen.get(wrong + "/live").status_code == 403
    assert screen.get("/play/no-such-game/watch/00").status_code == 404
    assert screen.get(f"/play/{table.slug}").status_code == 403  # still no seat


def test_a_game_of_one_person_has_no_spectator_board(table_app) -> None:
    client = table_app.test_client()
    data = {"name": "Sam", "preset": "standard", "bot_0": "casual"}
    slug = client.post("/play", data=data).headers["Location"].split("?")[0].rsplit("/", 1)[1]
    assert client.get(f"/play/{slug}/watch/{'0' * 24}").status_code == 404


def _eager_move(state: GameState) -> dict:
    """A move that hurries the round to its end: lay down, lay off, else draw from the
    stock, else discard."""
    legal = legal_actions(state)
    for kind in (LayDown, LayOff):
        found = [a for a in legal if isinstance(a, kind)]
        if found:
            return found[0].to_json()
    return _quiet_move(state)


def _paused(table: Table) -> bool:
    with table.app.app_context():
        game = digital.get_game(table.slug)
        assert game is not None
        paused = game.paused
        db.session.expunge(game)
    return paused


def _play_to_the_rounds_end(table: Table) -> None:
    """The phones play (the bot by itself) until the round ends in its pause."""
    for _ in range(500):  # a guard against a hang: a round ends long before
        if _paused(table):
            return
        state = table.state()
        turn = current_player(state)
        assert turn in table.phones
        assert table.act(turn, _eager_move(state)).status_code == 200
    raise AssertionError("the round never ended")


def test_the_pause_after_a_round_shows_the_round_just_played(table) -> None:
    """Issue 37, item 5: in the pause after round 1 the board says "Round 1 is over" and
    shows round 1's figures (as the seats' round end scores them), not the next deal."""
    link = _spectator_link(table)
    screen = table.app.test_client()
    _play_to_the_rounds_end(table)
    state = table.state()
    assert state.deal_number == 2 and len(state.rounds) == 1
    for text in (
        screen.get(link).get_data(as_text=True),
        screen.get(link + "/live").get_data(as_text=True),
    ):
        assert "Round 1 is over" in text and "Round 2" not in text
        assert "to play" not in text and "Stock: " not in text  # not the next deal
        result = text.split('class="watch-figures"', 1)[1].split("</table>", 1)[0]
        rows = re.findall(
            r'<th scope="row">([^<]+)<br>.*?<td class="num">([^<]+)</td>'
            r'<td class="num"><strong>(-?\d+)</strong>',
            result,
            re.S,
        )
        figures = {name: (int(points), int(total)) for name, points, total in rows}
        assert list(figures) == list(state.players)
        scores = state.rounds[0]["scores"]
        for name, total in zip(state.players, state.totals, strict=True):
            assert figures[name] == (scores[name]["round"], total)
        hidden = {c.text for hand in state.hands for c in hand} - _public_cards(table)
        leaked = [word for word in _words_of(table, hidden) if word in text]
        assert leaked == []


def test_the_host_chooses_the_spectator_board_s_language(table) -> None:
    """Issue 39: a table's TV keeps the language its host chose on the seats page (the
    same form as a table game's share page); another phone may not choose it."""
    link = _spectator_link(table)
    seats = table.host.get(f"/play/{table.slug}/seats").get_data(as_text=True)
    assert f'action="/play/{table.slug}/seats/language"' in seats
    refused = table.phones[1].post(f"/play/{table.slug}/seats/language", data={"language": "de"})
    assert refused.status_code == 403
    screen = table.app.test_client()
    assert '<html lang="en"' in screen.get(link).get_data(as_text=True)
    kept = table.host.post(f"/play/{table.slug}/seats/language", data={"language": "de"})
    assert kept.status_code == 303 and kept.headers["Location"].endswith("/seats")
    board = screen.get(link, headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert '<html lang="de"' in board  # the table's, not the screen's Accept-Language
    bad = table.host.post(f"/play/{table.slug}/seats/language", data={"language": "xx"})
    assert bad.status_code == 303
    assert '<html lang="de"' in screen.get(link).get_data(as_text=True)  # nothing changed
