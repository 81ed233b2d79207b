"""Playing whole games with bots, many at a time, and summing up who wins and how long.

Glossary:
- game seed: each game's own seed, drawn from the run's seed, so the same run seed always
  plays the same games (deals, bot choices, everything).
- seating: the bot levels given are dealt round the seats, shifted one seat each game
  (game g, seat s plays ``bots[(s + g) % len(bots)]``), so every level sits everywhere.
- turn: one player's turn (a draw and a discard, or going out), as counted by the state.

:func:`play_game` plays one game; :func:`simulate` plays many and returns a
:class:`Summary` (``summary.table()`` for people, ``summary.to_json()`` for programs).
"""

from __future__ import annotations

import json
import random
import statistics
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO, TypedDict

from ..game.actions import Discard
from ..game.deal import SIMULATION_LIMIT, new_game, stop_game
from ..game.records import game_record
from ..game.state import GameState, Phase, observation
from ..game.turns import apply_action, is_terminal, legal_actions
from .bots import Bot
from .levels import Level, make_bot

MAX_ROUNDS = 400
"""A game still undecided after 400 rounds is stopped (random play can drift below zero
for ever); it counts as a game with no winner."""

MAX_ROUND_TURNS = 2000
"""The simulator's guard against an endless bot round: a round still in play after 2,000
turns stops the game (no rule text limits a round's turns; people at /play are never cut
off)."""


@dataclass
class GameResult:
    """One finished game: winning seats (both partners of a side, P1), rounds, turns per
    round, every player's round figures (points), the bot level of each seat; ``stopped``
    when a guard ended it unfinished (:data:`deal.SIMULATION_LIMIT`)."""

    seed: int
    bots: list[str]
    winners: list[int]
    rounds: int
    turns: int
    round_scores: list[int]
    totals: list[int]
    record: Mapping[str, object] | None = None
    stopped: bool = False


def play_game(
    players: int,
    bots: Sequence[str | Level],
    *,
    preset: str = "standard",
    options: Mapping[str, object] | None = None,
    seed: int = 0,
    keep_record: bool = False,
    samples: int | None = None,
) -> GameResult:
    """Play one game, seat ``s`` by a bot of level ``bots[s]`` (a name for
    :func:`levels.make_bot`, or a :class:`levels.Level` of its own, e.g. a benchmark's
    contender); each bot sees only its seat's view; an expert samples ``samples`` deals
    per decision (its level's own when None). Returns the :class:`GameResult` (with its
    game record when asked; the seats' bots by name)."""
    state = new_game(players, preset=preset, options=options, seed=seed)
    seats: list[Bot] = [_bot(level, samples) for level in bots]
    names = [level if isinstance(level, str) else level.name for level in bots]
    rng = random.Random(seed)
    turns = 0
    while not is_terminal(state):
        if len(state.rounds) >= MAX_ROUNDS or state.turns >= MAX_ROUND_TURNS:
            stop_game(state, SIMULATION_LIMIT)
            break
        seat = state.seat
        legal = legal_actions(state)
        action = seats[seat].choose(observation(state, seat), legal, rng)
        turns += isinstance(action, Discard) and state.phase is Phase.PLAY
        apply_action(state, action)
    return _result(state, names, seed, turns, keep_record)


def _bot(level: str | Level, samples: int | None) -> Bot:
    return make_bot(level, samples) if isinstance(level, str) else level.bot(None, samples)


def _result(
    state: GameState, bots: list[str], seed: int, turns: int, keep_record: bool
) -> GameResult:
    scores = [figures["round"] for r in state.rounds for figures in (r["scores"] or {}).values()]
    return GameResult(
        seed=seed,
        bots=bots,
        winners=winning_seats(state),
        rounds=len(state.rounds),
        turns=turns + _turns_gone_out_by_play(state),
        round_scores=scores,
        totals=list(state.totals),
        record=game_record(state, bots) if keep_record else None,
        stopped=bool(state.rounds) and state.rounds[-1]["end"]["reason"] == SIMULATION_LIMIT,
    )


class SummaryJSON(TypedDict):
    """:meth:`Summary.to_json`'s figures: counts, averages (points, rounds, turns),
    ``rounds`` and ``turns`` per game as ``min``/``median``/``max`` (``turns`` with its
    ``average``), and shares of the games won by seat (from ``"1"``) and by bot level."""

    preset: str
    players: int
    bots: list[str]
    seed: int
    games: int
    undecided: int
    stopped_at_guard: int
    average_rounds_per_game: float
    average_round_score: float
    rounds: dict[str, float]
    turns: dict[str, float]
    wins_by_seat: dict[str, float]
    wins_by_bot: dict[str, float]


def winning_seats(state: GameState) -> list[int]:
    """The seats of the winner, both partners of a winning side (P1); none unfinished."""
    if state.winner is None:
        return []
    winners = state.winner.split(" & ")
    return [s for s, name in enumerate(state.players) if name in winners]


def _turns_gone_out_by_play(state: GameState) -> int:
    """The rounds whose player went out without a last discard (O2): that last turn
    is counted here, the others at their discards."""
    return sum(
        1
        for r in state.rounds
        if r["end"]["went_out"] is not None
        and not any(s >= 0 and a["type"] == "discard" for s, a in r["log"][-1:])
    )


@dataclass
class Summary:
    """Many games summed up: counts, averages (points, rounds, turns), wins per seat and
    per bot level."""

    preset: str
    players: int
    bots: list[str]
    seed: int
    results: list[GameResult] = field(default_factory=list)

    def to_json(self) -> SummaryJSON:
        """The figures as a JSON-able dict."""
        rounds = [r.rounds for r in self.results] or [0]
        turns = [r.turns for r in self.results] or [0]
        scores = [s for r in self.results for s in r.round_scores] or [0]
        return {
            "preset": self.preset,
            "players": self.players,
            "bots": self.bots,
            "seed": self.seed,
            "games": len(self.results),
            "undecided": sum(1 for r in self.results if not r.winners),
            "stopped_at_guard": sum(1 for r in self.results if r.stopped),
            "average_rounds_per_game": statistics.fmean(rounds),
            "average_round_score": statistics.fmean(scores),
            "rounds": _spread(rounds),
            "turns": {"average": statistics.fmean(turns), **_spread(turns)},
            "wins_by_seat": self._wins_by_seat(),
            "wins_by_bot": self._wins_by_bot(),
        }

    def _wins_by_seat(self) -> dict[str, float]:
        """Each seat's share of the games (seats numbered from 1)."""
        games = len(self.results) or 1
        seat_wins = Counter(s for r in self.results for s in r.winners)
        return {str(s + 1): seat_wins[s] / games for s in range(self.players)}

    def _wins_by_bot(self) -> dict[str, float]:
        """Each bot level's share of the games it played, by level name."""
        bot_wins: Counter[str] = Counter()
        bot_games: Counter[str] = Counter()
        for r in self.results:
            for level in set(r.bots):
                bot_games[level] += 1
            for level in {r.bots[s] for s in r.winners}:
                bot_wins[level] += 1
        return {b: bot_wins[b] / bot_games[b] for b in sorted(bot_games)}

    def table(self) -> str:
        """The figures as a plain-text table for people."""
        data = self.to_json()
        lines = [
            f"preset {self.preset}, {self.players} players, bots {','.join(self.bots)}, "
            f"seed {self.seed}",
            f"{'games':<28}{data['games']:>10}",
            f"{'undecided (no winner)':<28}{data['undecided']:>10}",
            f"{'stopped at the guard':<28}{data['stopped_at_guard']:>10}",
            f"{'average rounds per game':<28}{data['average_rounds_per_game']:>10.2f}",
            f"{'average round score':<28}{data['average_round_score']:>10.2f}",
            f"{'rounds per game min/med/max':<28}{_three(data['rounds']):>10}",
            f"{'turns per game average':<28}{data['turns']['average']:>10.1f}",
            f"{'turns per game min/med/max':<28}{_three(data['turns']):>14}",
            "wins by seat (share of games; the bots move one seat each game):",
        ]
        for seat, share in data["wins_by_seat"].items():
            lines.append(f"  seat {seat:<23}{share:>10.1%}")
        lines.append("wins by bot (share of the games it played):")
        for level, share in data["wins_by_bot"].items():
            lines.append(f"  {level:<28}{share:>8.1%}")
        return "\n".join(lines)


def _spread(values: Sequence[int]) -> dict[str, float]:
    """``min``, ``median`` and ``max`` of ``values``."""
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def _three(figures: Mapping[str, float]) -> str:
    return f"{figures['min']:g}/{figures['median']:g}/{figures['max']:g}"


def simulate(
    players: int,
    games: int,
    *,
    preset: str = "standard",
    options: Mapping[str, object] | None = None,
    seed: int = 0,
    bots: Sequence[str] = ("basic",),
    records: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    samples: int | None = None,
) -> Summary:
    """Play ``games`` games of ``players`` bots (levels ``bots``, seated round the table
    and shifted each game); the same ``seed`` plays the same games. Writes each game's
    record to ``records/game-0001.json`` ... when given; calls ``progress(done, games)``;
    ``samples`` is the expert's sampled deals per decision (:func:`play_game`)."""
    for level in bots:
        make_bot(level)
    new_game(players, preset=preset, options=options, seed=seed)
    summary = Summary(preset, players, list(bots), seed)
    seeds = random.Random(seed)
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    for g in range(games):
        seating = [bots[(s + g) % len(bots)] for s in range(players)]
        result = play_game(
            players,
            seating,
            preset=preset,
            options=options,
            seed=seeds.randrange(2**31),
            keep_record=records is not None,
            samples=samples,
        )
        if records is not None:
            path = records / f"game-{g + 1:04d}.json"
            path.write_text(json.dumps(result.record, ensure_ascii=False), encoding="utf-8")
            result.record = None
        summary.results.append(result)
        if progress is not None:
            progress(g + 1, games)
    return summary


def progress_bar(stream: TextIO, width: int = 30) -> Callable[[int, int], None]:
    """A progress callback drawing ``[#####.....] 12/100 games`` on ``stream``."""

    def show(done: int, total: int) -> None:
        filled = width * done // max(1, total)
        end = "\n" if done >= total else ""
        stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games{end}")
        stream.flush()

    return show


def parse_option(text: str) -> tuple[str, object]:
    """``"min_run=4"`` -> ``("min_run", 4)``; values as JSON where they parse (numbers,
    true/false), else text. Raises ``ValueError`` without ``=``."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise ValueError(f"an option is NAME=VALUE, not {text!r}")
    try:
        return name.strip(), json.loads(value)
    except ValueError:
        return name.strip(), value.strip()
