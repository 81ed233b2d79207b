"""What a seat is shown (issue 23): for random table games under every preset and the house
rules that add moves (dealer's gambit X2 among them), nothing a seat is shown changes when
the cards it cannot see are dealt again: another seat's hidden cards, the stock, and under
X2, before the dealer nominates, its own hand too (seed 002: "before any of the players
look at their cards").

Each game is played by bots through :func:`.steps.step`, the function that makes and
tells every move at /play. Each move is also told from a copy of the game with every card
no seat sees but its holder dealt again (the cards the move shows kept): its words
(:func:`.moves.describe`) and its reason (:func:`engine.bots.bots.move_reason`, what every
phone shows with a bot's move) must read the same. At the end, one seat's board
(:func:`.board.board`, the round-end pause in it while the game waits after a round), the
board as the page draws it (``play/_board.html``), its view and legal moves
(``state.json``) and its hint must be the same from a copy with the cards that seat
cannot see dealt again.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from flask import Flask, render_template
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scorekeeper.engine import (
    Action,
    Discard,
    GameState,
    LayDown,
    LayOff,
    Phase,
    current_player,
    is_terminal,
    legal_actions,
    make_bot,
    new_game,
    observation,
)
from scorekeeper.engine.bots.bots import move_reason
from scorekeeper.engine.cards import JOKER, Card
from scorekeeper.models import DigitalGame
from scorekeeper.play.board import board
from scorekeeper.play.ending import ending
from scorekeeper.play.forms import MoveForm
from scorekeeper.play.hints import hint
from scorekeeper.play.moves import describe
from scorekeeper.play.steps import step
from tests.conftest import make_app
from tests.engine.test_game_properties import HOUSE_RULES, players_for

LEVELS = ("random", "basic", "strong")
"""The bots that play the games (the expert plays as slowly as it thinks)."""
X2 = next(choice for choice in HOUSE_RULES if choice[1].get("dealers_gambit"))


def dealt_again(
    state: GameState, rng: random.Random, seat: int | None, keep: Sequence[Card] = ()
) -> GameState:
    """A copy of ``state`` with the cards ``seat`` cannot see dealt again at random (with
    ``seat`` None, the cards no seat sees but its holder): every hand keeps its size, its
    cards seen taken from the pile (``known``) and, for the current seat, the cards of
    ``keep`` (those a move shows); the stock keeps its size. While the dealer nominates
    (X2) no seat has seen its own hand."""
    other = GameState.from_json(state.to_json())
    looked = other.phase is not Phase.NOMINATE
    stays: list[list[Card]] = []
    pool = list(other.stock)
    for place, hand in enumerate(other.hands):
        if place == seat and looked:
            stays.append(list(hand))
            continue
        stay = list(other.known[place])
        for card in keep if place == other.seat else ():
            if stay.count(card) < keep.count(card):
                stay.append(card)
        rest = list(hand)
        for card in stay:
            rest.remove(card)
        stays.append(stay)
        pool += rest
    rng.shuffle(pool)
    for place, stay in enumerate(stays):
        hidden = len(other.hands[place]) - len(stay)
        other.hands[place], pool = [*stay, *pool[:hidden]], pool[hidden:]
    other.stock = pool
    return other


def shown_cards(action: Action) -> list[Card]:
    """The cards of the mover's hand that ``action`` puts face up (under X2 the dealer's
    joker comes from beside the pack)."""
    cards: list[Card] = []
    if isinstance(action, LayDown):
        cards = [c.physical for m in action.melds for c in m]
    if isinstance(action, LayOff | Discard):
        cards = [action.card.physical]
    if isinstance(action, LayDown | LayOff) and action.dealers_joker:
        cards.remove(JOKER)
    return cards


def told(state: GameState, action: Action) -> dict[str, Any]:
    """``action`` of the current seat of ``state`` in words, and the reason every seat is
    shown with it, as :func:`.steps.run_bots` tells a bot's move."""
    return describe(state, state.seat, action) | {"why": move_reason(state, action)}


def play(
    state: GameState, levels: Sequence[str], moves: int, rng: random.Random
) -> tuple[list[dict[str, Any]], bool]:
    """Up to ``moves`` bot moves, each checked as told from a copy dealt again; the steps
    made and whether the game now waits after a round (the pause)."""
    bots = [make_bot(level) for level in levels]
    steps: list[dict[str, Any]] = []
    paused = False
    for _ in range(moves):
        if is_terminal(state):
            break
        mover = current_player(state)
        assert mover is not None
        action = bots[mover].choose(observation(state, mover), legal_actions(state), rng)
        said = told(state, action)
        assert told(dealt_again(state, rng, None, shown_cards(action)), action) == said
        paused = step(state, action, steps, [], None, said["why"])
    return steps, paused


def pause(game: DigitalGame, state: GameState) -> dict[str, Any] | None:
    """The round-end pause while ``game`` waits after a round: the round as it ended and
    its scoring card by card, as /play keeps them with the round."""
    if not game.paused:
        return None
    scored = state.scores[-1].to_json()
    return ending(len(state.rounds), state.rounds[-1], scored, state.players) | {"review": []}


def seat_sees(
    app: Flask, game: DigitalGame, state: GameState, seat: int, shown: dict[str, Any] | None
) -> dict[str, Any]:
    """Everything ``seat`` is shown of ``state``: its board (with the round-end pause
    ``shown`` while the game waits), the board's HTML, its view and legal moves, its
    hint."""
    b = board(game, state, shown, seat)
    mine = current_player(state) == seat and not game.paused
    with app.test_request_context(f"/play/{game.slug}"):
        form = MoveForm(version=game.version, formdata=None)
        html = render_template("play/_board.html", game=game, b=b, form=form)
        said = hint(game, state, seat)
    return {
        "board": b,
        "html": html,
        "view": observation(state, seat).to_json(),
        "legal": [a.to_json() for a in legal_actions(state)] if mine else [],
        "hint": said,
    }


@pytest.fixture(scope="module")
def seat_app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    """One app for every example (a hint reads one sampled deal)."""
    path = tmp_path_factory.mktemp("seat-view") / "seat.sqlite3"
    return make_app(str(path), PLAY_HINT_SAMPLES=1)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    choice=st.sampled_from(HOUSE_RULES),
    seed=st.integers(0, 2**31 - 1),
    extra=st.integers(0, 4),
    moves=st.integers(0, 160),
    viewer=st.integers(0, 7),
    levels=st.lists(st.sampled_from(LEVELS), min_size=8, max_size=8),
)
@example(choice=X2, seed=1, extra=1, moves=0, viewer=0, levels=["basic"] * 8)  # P1 deals
@example(choice=X2, seed=1, extra=1, moves=0, viewer=1, levels=["basic"] * 8)
@example(choice=("standard", {}), seed=5, extra=0, moves=40, viewer=0, levels=["strong"] * 8)
def test_nothing_a_seat_is_shown_changes_when_cards_it_cannot_see_are_dealt_again(
    seat_app: Flask,
    choice: tuple[str, dict[str, Any]],
    seed: int,
    extra: int,
    moves: int,
    viewer: int,
    levels: list[str],
) -> None:
    """A game of ``moves`` bot moves (levels round the seats) seen from seat ``viewer``
    (modulo the players), its cards unseen there dealt again."""
    preset, options = choice
    state = new_game(players_for(preset, extra), preset=preset, options=options, seed=seed)
    rng = random.Random(seed)
    steps, paused = play(state, levels, moves, rng)
    seat = viewer % state.n
    game = DigitalGame(
        slug="seat-view",
        preset=preset,
        options=options,
        seed=str(seed),
        human_seat=seat,
        bots=[None if place == seat else levels[place] for place in range(state.n)],
        version=len(steps) + 1,
        paused=paused and not is_terminal(state),
        finished=is_terminal(state),
        moves=steps[-80:],
        host_token="host",
    )
    shown = pause(game, state)
    with seat_app.app_context():
        seen = seat_sees(seat_app, game, state, seat, shown)
        assert seat_sees(seat_app, game, dealt_again(state, rng, seat), seat, shown) == seen
