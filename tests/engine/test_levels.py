"""The ladder's levels play like people of that level: none makes a move a person would
laugh at, and each level's knobs are the ones its words name."""

from __future__ import annotations

import random

import pytest

from scorekeeper.engine import (
    BOTS,
    LEVELS,
    Discard,
    Draw,
    GameState,
    apply_action,
    is_terminal,
    legal_actions,
    make_bot,
    middle_level,
    new_game,
    observation,
)
from scorekeeper.engine.game.hand_melds import hand_melds


def _melded(state: GameState, seat: int) -> set[object]:
    """The cards some meld in ``seat``'s hand uses."""
    return {c for meld in hand_melds(list(state.hands[seat]), state.rules) for c in meld}


def _play(level: str, preset: str, seed: int, moves: int) -> list[tuple[object, object]]:
    """Every discard of a game of ``level`` against itself made while the card drawn from
    the stock that turn still completed a meld in hand: ``(drawn card, discarded
    card)``."""
    state = new_game(2, preset=preset, seed=seed)
    bots = [make_bot(level), make_bot(level)]
    rng = random.Random(seed)
    drawn: object = None
    found = []
    for _ in range(moves):
        if is_terminal(state):
            break
        seat = state.seat
        move = bots[seat].choose(observation(state, seat), legal_actions(state), rng)
        before = list(state.hands[seat])
        if isinstance(move, Discard) and drawn is not None and drawn in _melded(state, seat):
            found.append((drawn, move.card))
        apply_action(state, move)
        if isinstance(move, Draw) and move.source == "stock":
            new = [c for c in state.hands[seat] if c not in before]
            drawn = new[0] if len(new) == 1 else None
        elif isinstance(move, Discard):
            drawn = None
    return found


@pytest.mark.parametrize("level", [lv.name for lv in LEVELS])
@pytest.mark.parametrize("preset", ["standard", "modern"])
def test_no_level_throws_away_the_card_it_just_drew_to_complete_a_meld(
    level: str, preset: str
) -> None:
    # "No level makes silly moves that a person would laugh at (discarding the card it
    # just drew to complete a meld)": modern's M6 (30 points to start) keeps small melds
    # in hand, where a careless bot would throw their cards away.
    expert = BOTS[level].samples > 0
    seeds = range(2) if expert else range(12)
    seen = 0
    for seed in seeds:
        for drawn, discarded in _play(level, preset, seed, 120 if expert else 2000):
            seen += 1
            assert discarded != drawn, f"{level} threw away {drawn} which completed a meld"
    assert seen or expert or preset == "standard"  # modern's M6 met the case


def test_the_ladder_runs_weakest_first_with_distinct_names_and_titles() -> None:
    names = [lv.name for lv in LEVELS]
    assert list(BOTS) == names
    assert len(set(names)) == len(names) == len({lv.title for lv in LEVELS})
    assert all(lv.words and lv.title[0].isupper() for lv in LEVELS)
    assert middle_level() is LEVELS[len(LEVELS) // 2]


def test_former_level_names_still_make_their_bots() -> None:
    for former in ("basic", "strong", "expert", "random"):
        make_bot(former)
    with pytest.raises(ValueError, match="no bot level 'genius': choose beginner"):
        make_bot("genius")
