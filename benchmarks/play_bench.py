"""The cost of a move and of the board page of a digital game (/play) early and late in a
game: at round 1 and at round 20 (``--late``), through Flask's test client on SQLite.

A game of 3 seats (the person and two basic bots, target 10,000 so it lasts) is played
by random legal moves in the engine until the round asked for, with the person to draw;
it is stored as the app stores it (the round in play on the game's row, each finished
round in its own row). Then, ``--repeat`` times (the MEDIAN is printed):
- a move: the person's tap "Draw" (``POST /play/<slug>/tap``, JSON), the game put back
  as it was after each (so every tap does the same work), ``--moves`` taps;
- the board page: ``GET /play/<slug>``, ``--moves`` times.
CPU is this process's (user + system, time.process_time) per request, wall beside it.
Aim (issue 13): round 20 at most 1.2x round 1, for the move and for the page.

    python benchmarks/play_bench.py [--moves 40] [--repeat 3] [--late 20]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import delete, update  # noqa: E402

from scorekeeper.engine import (  # noqa: E402
    GameState,
    Phase,
    apply_action,
    legal_actions,
    new_game,
)
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.models import DigitalGame, DigitalRound  # noqa: E402
from scorekeeper.play import store  # noqa: E402
from tests.conftest import make_app  # noqa: E402

NAMES = ["Sam", "Ada", "Bea"]


def played_to(number: int, seed: int = 3) -> GameState:
    """A game played by random moves until round ``number`` with the person to draw."""
    state = new_game(NAMES, preset="standard", options={"target": 10_000}, seed=seed)
    rng = random.Random(seed)
    while not (state.deal_number == number and state.phase is Phase.DRAW and state.seat == 0):
        apply_action(state, rng.choice(legal_actions(state)))
    return state


def stored(state: GameState) -> str:
    """Store ``state`` as the app does; returns the game's slug."""
    game = DigitalGame(
        preset="standard",
        options={"target": 10_000},
        seed=str(state.seed),
        human_seat=0,
        bots=[None, "basic", "basic"],
        state=store.current_json(state),
        version=1,
    )
    db.session.add(game)
    db.session.flush()
    scored = [s.to_json() for s in state.scores]
    store.append_rounds(game, list(state.rounds), scored)
    db.session.commit()
    return game.slug


def _reset(slug: str, saved: dict[str, Any]) -> None:
    game = db.session.execute(db.select(DigitalGame).where(DigitalGame.slug == slug)).scalar_one()
    db.session.execute(
        update(DigitalGame).where(DigitalGame.id == game.id).values(state=saved, version=1)
    )
    db.session.execute(
        delete(DigitalRound).where(
            DigitalRound.game_id == game.id, DigitalRound.number >= saved["deal_number"]
        )
    )
    db.session.commit()


def measure(app: Any, slug: str, moves: int, repeat: int) -> dict[str, tuple[float, float]]:
    """Median CPU and wall milliseconds per tap and per page."""
    client = app.test_client()
    with app.app_context():
        saved = db.session.execute(
            db.select(DigitalGame.state).where(DigitalGame.slug == slug)
        ).scalar_one()
    taps: list[tuple[float, float]] = []
    pages: list[tuple[float, float]] = []
    for _ in range(repeat):
        cpu = wall = 0.0
        for _ in range(moves):
            c0, w0 = time.process_time(), time.perf_counter()
            answer = client.post(f"/play/{slug}/tap", json={"version": 1, "do": "stock"})
            cpu += time.process_time() - c0
            wall += time.perf_counter() - w0
            assert answer.status_code == 200, answer.get_json()
            with app.app_context():
                _reset(slug, saved)
        taps.append((cpu / moves * 1000, wall / moves * 1000))
        c0, w0 = time.process_time(), time.perf_counter()
        for _ in range(moves):
            assert client.get(f"/play/{slug}").status_code == 200
        pages.append(
            ((time.process_time() - c0) / moves * 1000, (time.perf_counter() - w0) / moves * 1000)
        )
    return {
        "move": (statistics.median(t[0] for t in taps), statistics.median(t[1] for t in taps)),
        "page": (statistics.median(p[0] for p in pages), statistics.median(p[1] for p in pages)),
    }


def main() -> None:
    """Print the figures and their ratios (late round to round 1)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--late", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = make_app(str(Path(folder) / "bench.sqlite3"))
        figures = {}
        for number in (1, args.late):
            state = played_to(number)
            with app.app_context():
                slug = stored(state)
                size = len(str(db.session.get(DigitalGame, 1 if number == 1 else 2).state))
            figures[number] = measure(app, slug, args.moves, args.repeat)
            print(f"round {number:>2}: game row state {size / 1024:.1f} KB of text")
    for what in ("move", "page"):
        early, late = figures[1][what], figures[args.late][what]
        print(
            f"{what}: round 1 CPU {early[0]:.2f} ms (wall {early[1]:.2f}); "
            f"round {args.late} CPU {late[0]:.2f} ms (wall {late[1]:.2f}); "
            f"ratio CPU {late[0] / early[0]:.2f}x, wall {late[1] / early[1]:.2f}x"
        )


if __name__ == "__main__":
    main()
