"""A move's board rendered once per version (issue 27, item 3): the stock, discard pile
and melds that every seat without a move on them sees are rendered once per version in
a process and shared; each seat's hand and buttons are its own, so a phone's board
(``board.json``, the same after an event or a poll) never holds another seat's cards.
The spectator board and the TV view get the seats' wake-up (item 4): an event stream
woken by the process's listener."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from flask import template_rendered

from scorekeeper.engine import current_player, legal_actions
from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.play import services as digital
from scorekeeper.play import store, taps
from tests.conftest import make_app
from tests.play.test_pages import PlayActions, _stage
from tests.play.test_streams import Listening, Statements, _hand
from tests.play.test_table import Table, _hidden_from

EVERYONE = {"seat_2": "person", "who_2": "Kim"}
"""Four people at the table (the host and three), no bot: nothing moves unless a test
moves."""


def test_each_phone_gets_its_own_hand_and_the_shared_parts_once_per_version(
    tmp_path, monkeypatch
) -> None:
    """The public parts rendered, and the game's state decoded (item 2 of the board
    brief: once per version per process, for every phone), once per version; the
    decoded state shared by the boards is only read (equal to the stored one after)."""
    app = make_app(str(tmp_path / "p.sqlite3"))
    table = Table(app, **EVERYONE)
    for seat in (1, 2, 3):
        table.join(seat)
    rendered: Counter[str] = Counter()
    decoded: list[int] = []
    load_state = store.load_state
    monkeypatch.setattr(store, "load_state", lambda game: decoded.append(0) or load_state(game))

    def count(sender: Any, template: Any, context: dict[str, Any], **extra: Any) -> None:
        rendered[template.name] += 1

    template_rendered.connect(count, app)
    for _ in range(4):  # four moves, each a new version seen by all four phones
        state = table.state()
        decoded.clear()
        for seat, phone in table.phones.items():
            for _asked in range(2):  # after the event, and again by the polling fallback
                answer = phone.get(f"/play/{table.slug}/board.json").get_json()
                assert sorted(_hand(answer["board"])) == sorted(c.text for c in state.hands[seat])
                assert not any(word in answer["board"] for word in _hidden_from(state, seat))
        assert len(decoded) <= 1  # eight boards of this version, one decoding
        with app.app_context():
            game = digital.get_game(table.slug)
            assert game is not None
            assert taps.shared_state(game).to_json() == load_state(game).to_json()
        turn = current_player(state)
        assert turn is not None
        assert table.act(turn, legal_actions(state)[0].to_json()).status_code == 200
    template_rendered.disconnect(count, app)
    # 32 boards (four versions, four phones, two asks each): the shared table rendered at
    # most once for each of the five versions (the first and the four moves')
    assert rendered["play/_board.html"] >= 4 * 4 * 2
    assert 1 <= rendered["play/_pile_table.html"] <= 5, rendered
    # the latest moves, the same on every seat's board, also rendered once per version
    assert 1 <= rendered["play/_moves.html"] <= 5, rendered
    board = table.host.get(f"/play/{table.slug}/board.json").get_json()["board"]
    assert "Latest moves (" in board and "draws from the stock" in board


WOKEN_ONLY = {"PLAY_CHECK_SECONDS": 600, "PLAY_STREAM_SECONDS": 600, "PLAY_GRACE_SECONDS": 600}
"""Streams that neither end nor read their game again by themselves within a test: a
change reaches them only through the process's listener."""


def test_the_spectator_board_is_woken_by_a_move_and_refuses_bad_asks(tmp_path) -> None:
    app = make_app(str(tmp_path / "w.sqlite3"), **WOKEN_ONLY)
    table = Table(app, **EVERYONE)
    for seat in (1, 2, 3):
        table.join(seat)
    page = table.host.get(f"/play/{table.slug}/seats").get_data(as_text=True)
    link = re.search(r'href="(/play/[^"]+/watch/[0-9a-f]+)"', page)
    assert link, "the host's seats page links the spectator board"
    screen = app.test_client()
    assert f'data-events="{link.group(1)}/events"' in screen.get(link.group(1)).get_data(
        as_text=True
    )
    watching = Listening(screen, table.slug, path=f"{link.group(1)}/events")
    assert watching.status == 200 and watching.next() == ("version", {"version": 1})
    state = table.state()
    turn = current_player(state)
    assert turn is not None
    assert table.act(turn, legal_actions(state)[0].to_json()).status_code == 200
    assert watching.next() == ("version", {"version": table.version()})
    refused = screen.get(f"{link.group(1)}/events?since=x")
    assert refused.status_code == 400
    wrong = screen.get(f"/play/{table.slug}/watch/{'0' * 24}/events")
    assert wrong.status_code == 403


def test_the_tv_view_is_woken_by_a_round_saved(tmp_path) -> None:
    app = make_app(str(tmp_path / "tv.sqlite3"), **WOKEN_ONLY)
    client = app.test_client()
    names = {"player_0": "Ann", "player_1": "Bob", "preset": "standard", "first_dealer": "0"}
    started = client.post("/games/new", data=names)
    slug = started.location.rsplit("/", 1)[-1]
    with app.app_context():
        view = db.session.execute(db.select(Game.view_token)).scalar_one()
    tv = app.test_client()
    assert f'data-events="/games/{view}/tv/events"' in tv.get(f"/games/{view}/tv").get_data(
        as_text=True
    )
    watching = Listening(tv, view, path=f"/games/{view}/tv/events")
    assert watching.status == 200 and watching.next() == ("version", {"version": 1})
    form = client.get(f"/games/{slug}/rounds/new").get_data(as_text=True)
    hidden = re.findall(r'<input id="(\w+)" name="\w+" type="hidden" value="([^"]*)"', form)
    fields = dict(hidden) | {"mode": "totals", "action": "save", "went_out": "0"}
    fields |= {"shown-0": "45", "in_hand-0": "0", "shown-1": "20", "in_hand-1": "12"}
    assert client.post(f"/games/{slug}/rounds/new", data=fields).status_code == 303
    assert watching.next() == ("version", {"version": 2})
    assert tv.get("/games/no-such-game/tv/events").status_code == 404


def test_a_move_reads_the_games_row_once_and_answers_with_what_it_wrote(tmp_path) -> None:
    """Issue 27 (CPU per move): a JSON move reads the game's row once (finding the
    game), writes it in one UPDATE and answers from the values written, not a second
    read of the row; the answer is the row as stored."""
    app = make_app(str(tmp_path / "once.sqlite3"))
    table = Table(app, **EVERYONE)
    state = table.state()
    turn = current_player(state)
    assert turn is not None
    phone = table.phones.get(turn) or table.join(turn)
    body = {"version": table.version(), "action": legal_actions(state)[0].to_json()}
    with Statements(app) as seen:
        sent = phone.post(f"/play/{table.slug}/move.json", json=body)
    assert sent.status_code == 200
    rows = [s for s in seen.sent if s.startswith("select") and "from digital_games" in s]
    assert len(rows) == 1, rows
    with app.app_context():
        game = digital.get_game(table.slug)
        assert game is not None
        stored = {"version": game.version, "steps": game.moves, "paused": game.paused}
    assert sent.get_json() == stored | {"finished": game.finished}
    assert phone.get(f"/play/{table.slug}/board.json").get_json()["version"] == game.version


def test_a_rounds_end_is_read_and_rendered_once_per_version(app, client, monkeypatch) -> None:
    """Issue 27 (push p99: a round's end is the heavy push): the last round's end (its
    row, the review) is read, and its scores rendered, once per version in a process,
    for the mover's answer and every board after it; each board still carries the
    scores and its own "Next round" form."""
    play = PlayActions(app, client)
    slug = play.start()
    _stage(play, slug, ["5H", "6H", "7H", "9C"])
    sent = client.post(
        f"/play/{slug}/tap",
        json={"version": play.game(slug).version, "do": "lay_down", "cards": ["5H", "6H", "7H"]},
    )
    assert sent.status_code == 200
    rendered: Counter[str] = Counter()
    last_round = digital.last_round
    monkeypatch.setattr(digital, "last_round", lambda g: rendered.update(["read"]) or last_round(g))

    def count(sender: Any, template: Any, context: dict[str, Any], **extra: Any) -> None:
        rendered[template.name] += 1

    template_rendered.connect(count, app)
    body = {"version": play.game(slug).version, "do": "discard", "cards": ["9C"]}
    ended = client.post(f"/play/{slug}/tap", json=body).get_json()
    boards = [client.get(f"/play/{slug}/board.json").get_json()["board"] for _ in range(3)]
    template_rendered.disconnect(count, app)
    assert ended["paused"] is True
    for board in (ended["board"], *boards):
        assert "Round 1 is over: Sam went out" in board and "hand left" in board
        assert 'value="next_round"' in board
    assert rendered["read"] == 1 and rendered["play/_round_scores.html"] == 1, rendered
    assert rendered["play/_board.html"] == 4, rendered


def test_plain_cards_players_lines_and_moves_are_rendered_once_per_process(tmp_path) -> None:
    """Issue 27 (push p99: the shared table and the latest moves are rendered before any
    board of a version): a card that cannot be tapped (the discard pile's, the melds')
    is rendered once per process for each face and classes (``play/_pcard.html``), each
    player's line in the list of players (``play/_seat_line.html``) and each move in
    words (``play/_step.html``) once; every board of every version reuses them."""
    app = make_app(str(tmp_path / "cards.sqlite3"))
    table = Table(app, **EVERYONE)
    for seat in (1, 2, 3):
        table.join(seat)
    taps.rendered_piece.cache_clear()
    rendered: Counter[str] = Counter()

    def count(sender: Any, template: Any, context: dict[str, Any], **extra: Any) -> None:
        rendered[template.name] += 1

    faces: set[tuple[str, str]] = set()
    steps: set[str] = set()
    template_rendered.connect(count, app)
    for _ in range(6):
        state = table.state()
        before = rendered["play/_seat_line.html"]
        for phone in table.phones.values():
            board = phone.get(f"/play/{table.slug}/board.json").get_json()["board"]
            faces |= set(re.findall(r'<span class="pcard ([^"]*)" title="([^"]*)"', board))
            steps |= set(re.findall(r'<li class="step .*?</li>', board, re.DOTALL))
        # four boards of four players' lines: each player's line at most twice (as the
        # board's own seat and as another's), not once a board
        assert rendered["play/_seat_line.html"] - before <= 2 * 4, rendered
        turn = current_player(state)
        assert turn is not None
        assert table.act(turn, legal_actions(state)[0].to_json()).status_code == 200
    template_rendered.disconnect(count, app)
    assert faces and len(steps) >= 5, "the discard pile shows its cards, the panel its moves"
    assert 1 <= rendered["play/_pcard.html"] <= len(faces), (rendered, len(faces))
    # six moves, no bot: six steps, each rendered once however many boards show it
    assert len(steps) <= rendered["play/_step.html"] <= 6, (rendered, len(steps))
