"""The ladder's figures: Wilson intervals, Elo ratings fitted to matches, a person's
estimate, the nearest level, fair steps, and the match runner (pairs of games on one deal,
worker processes, a time bound, one progress count). The cheap levels play here; which
level is stronger by how much is the benchmark's business, never a test's."""

from __future__ import annotations

import pytest

from scorekeeper.engine import (
    LEVELS,
    Match,
    estimate_rating,
    fair_step,
    fit_ratings,
    ladder_ratings,
    match_line,
    nearest_level,
    play_ladder,
    play_match,
    wilson,
)

CHEAP = [level for level in LEVELS if not level.samples]
"""The heuristic levels: quick enough to play whole games in a test."""
A, B, C = (level.name for level in LEVELS[:3])


def test_wilson_on_a_worked_example() -> None:
    low, high = wilson(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4)
    assert high == pytest.approx(0.9433, abs=1e-4)
    assert wilson(735, 1000) == pytest.approx((0.7068, 0.7614), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == 1.0


def test_a_76_percent_match_is_about_200_elo() -> None:
    ratings = fit_ratings([Match(B, A, 1000, 760)])
    assert ratings[A] == 1000
    assert ratings[B] - ratings[A] == pytest.approx(200, abs=2)


def test_a_three_level_chain_adds_its_steps() -> None:
    ratings = fit_ratings([Match(B, A, 1000, 760), Match(C, B, 1000, 640)])
    assert ratings[A] == 1000
    assert ratings[B] - ratings[A] == pytest.approx(200, abs=2)
    assert ratings[C] - ratings[B] == pytest.approx(100, abs=2)


def test_no_rating_fits_a_level_that_won_every_game() -> None:
    with pytest.raises(ValueError, match="won or lost every game"):
        fit_ratings([Match(B, A, 10, 10)])


def test_no_result_gives_no_estimate() -> None:
    assert estimate_rating([]) is None
    assert estimate_rating([("nobody", 1.0)]) is None


def test_more_wins_give_a_higher_estimate() -> None:
    middle = LEVELS[len(LEVELS) // 2].name
    lost = estimate_rating([(middle, 0.0)] * 6)
    even = estimate_rating([(middle, 1.0), (middle, 0.0)] * 3)
    won = estimate_rating([(middle, 1.0)] * 6)
    assert lost is not None and even is not None and won is not None
    assert lost.rating < even.rating < won.rating
    assert won.results == 6


def test_former_names_are_read_as_todays_levels() -> None:
    assert estimate_rating([("basic", 1.0)]) == estimate_rating([("casual", 1.0)])


def test_each_levels_rating_is_nearest_that_level() -> None:
    ratings = ladder_ratings()
    for level in LEVELS:
        assert nearest_level(ratings[level.name]) == level
    assert nearest_level(-10_000) == LEVELS[0]
    assert nearest_level(10_000) == LEVELS[-1]
    table = {level.name: 1000 + 100 * i for i, level in enumerate(LEVELS)}
    assert nearest_level(1149, table) == LEVELS[1]
    assert nearest_level(1150, table) == LEVELS[1]


def test_a_fair_step_is_65_to_75_percent_with_its_interval_inside_60_to_80() -> None:
    assert fair_step(Match(B, A, 1000, 700))
    assert not fair_step(Match(B, A, 1000, 800))
    assert not fair_step(Match(B, A, 1000, 600))
    assert not fair_step(Match(B, A, 20, 14))
    assert not fair_step(Match(B, A, 0, 0))


def test_a_match_line_says_the_rate_its_interval_and_the_verdict() -> None:
    line = match_line(Match(B, A, 1000, 735))
    assert line.startswith(f"{LEVELS[1].title} ")
    assert f" vs {LEVELS[0].title}" in line
    assert "1,000 games" in line and "73.5% (70.7-76.1%)" in line
    assert line.endswith("fair step") and "NOT" not in line
    assert "NOT a fair step" in match_line(Match(B, A, 1000, 900))


def test_a_tiny_match_is_the_same_in_one_process_and_in_two() -> None:
    upper, lower = CHEAP[1].name, CHEAP[0].name
    here = play_match(upper, lower, 4, seed=5, jobs=1)
    pool = play_match(upper, lower, 4, seed=5, jobs=2)
    assert here == pool
    assert (here.upper, here.lower) == (upper, lower)
    assert 0 < here.games <= 4 and 0 <= here.upper_wins <= here.games
    assert play_match(upper, lower, 0) == Match(upper, lower, 0, 0)


def test_bad_matches_are_refused() -> None:
    with pytest.raises(ValueError, match="0 or more"):
        play_match(A, B, -1)
    with pytest.raises(ValueError, match="no bot level"):
        play_match("genius", A, 2)


def test_a_ladder_past_its_deadline_plays_no_game() -> None:
    calls: list[tuple[int, int]] = []
    matches = play_ladder(100, seconds=0, progress=lambda done, total: calls.append((done, total)))
    pairs = [(up.name, low.name) for low, up in zip(LEVELS, LEVELS[1:], strict=False)]
    assert [(m.upper, m.lower) for m in matches] == pairs
    assert all(m.games == 0 for m in matches)
    assert calls == []


def test_the_ladder_plays_adjacent_pairs_under_one_progress_count() -> None:
    calls: list[tuple[int, int]] = []
    matches = play_ladder(
        2, seed=3, levels=CHEAP[:3], progress=lambda done, total: calls.append((done, total))
    )
    assert [(m.upper, m.lower) for m in matches] == [
        (CHEAP[1].name, CHEAP[0].name),
        (CHEAP[2].name, CHEAP[1].name),
    ]
    assert calls == [(done, 4) for done in range(1, 5)]
    assert matches[0] == play_match(CHEAP[1].name, CHEAP[0].name, 2, seed=3)


def test_a_level_of_its_own_plays_as_its_name_does() -> None:
    upper, lower = CHEAP[1], CHEAP[0]
    assert play_match(upper, lower.name, 2, seed=8) == play_match(upper.name, lower.name, 2, seed=8)


def test_a_finished_partnership_game_gives_a_result_against_each_opposing_bot_only() -> None:
    import random

    from scorekeeper.engine import (
        apply_action,
        is_terminal,
        legal_actions,
        make_bot,
        new_game,
        observation,
        results_against,
    )

    state = new_game(4, preset="partnership", seed=5)
    bot, rng = make_bot("casual"), random.Random(5)
    while not is_terminal(state):
        view = observation(state, state.seat)
        apply_action(state, bot.choose(view, legal_actions(state), rng))
    levels = [None, "casual", "steady", "strong"]  # seat 2 is seat 0's partner (P1)
    found = results_against(state, 0, levels)
    won = state.winner is not None and state.players[0] in state.winner.split(" & ")
    assert found == [("casual", float(won)), ("strong", float(won))]
