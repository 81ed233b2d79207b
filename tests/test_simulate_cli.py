"""``python -m scorekeeper simulate``: games between bots, summed up for a table, and
``simulate --ladder``: each adjacent pair of levels with its win rate and interval."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.__main__ import main
from scorekeeper.engine import LEVELS
from scorekeeper.engine.game.records import replay


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["simulate", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_simulate_prints_a_summary_with_a_progress_bar(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys,
        "--preset",
        "standard",
        "--players",
        "2",
        "--games",
        "4",
        "--seed",
        "1",
        "--bots",
        "basic,strong",
    )
    assert status == 0
    assert "4/4 games" in err and "#" in err
    for line in (
        "games",
        "average rounds per game",
        "average round score",
        "wins by seat",
        "wins by bot",
        "turns per game",
    ):
        assert line in out
    assert "strong" in out and "basic" in out


def test_the_same_seed_gives_the_same_games(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--players", "3", "--games", "3", "--seed", "9", "--json", "--quiet")
    first = json.loads(run(capsys, *args)[1])
    second = json.loads(run(capsys, *args)[1])
    assert first == second
    assert first["games"] == 3 and first["players"] == 3
    assert sum(first["wins_by_seat"].values()) == pytest.approx(1.0)
    other = json.loads(
        run(capsys, "--players", "3", "--games", "3", "--seed", "10", "--json", "--quiet")[1]
    )
    assert other != first


def test_records_are_written_and_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, _ = run(
        capsys,
        "--players",
        "2",
        "--games",
        "2",
        "--records",
        str(tmp_path),
        "--quiet",
        "--preset",
        "quick",
    )
    assert status == 0
    files = sorted(tmp_path.glob("game-*.json"))
    assert [f.name for f in files] == ["game-0001.json", "game-0002.json"]
    record = json.loads(files[0].read_text(encoding="utf-8"))
    assert replay(record).winner == record["final"]["winner"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--preset", "nope"), "no preset"),
        (("--players", "1"), "2 to 8 players"),
        (("--bots", "genius"), "no bot level"),
        (("--option", "min_run=9"), "min_run"),
        (("--option", "dealers_gambit=true", "--option", "jokers=1"), "X2"),
    ],
)
def test_bad_settings_exit_2_with_a_message(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    status, out, err = run(capsys, *args, "--games", "1", "--quiet")
    assert status == 2 and out == ""
    assert message in err


def test_the_score_command_does_not_import_flask() -> None:
    import subprocess
    import sys

    code = (
        "import sys, scorekeeper.__main__ as m; m.main(['simulate','--games','1',"
        "'--quiet']); print('flask' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().endswith("False")


def test_the_expert_plays_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--players", "2", "--games", "2", "--seed", "4", "--json", "--quiet")
    status, out, _ = run(capsys, *args, "--bots", "expert,strong", "--samples", "1")
    summary = json.loads(out)
    assert status == 0 and summary["games"] == 2 and summary["undecided"] == 0
    assert set(summary["wins_by_bot"]) == {"expert", "strong"}
    assert sum(summary["wins_by_seat"].values()) == 1.0


ROOT = Path(__file__).resolve().parents[1]


def _simulate_child(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m scorekeeper simulate ARGS`` in a child process, this checkout's package."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    return subprocess.run(
        [sys.executable, "-m", "scorekeeper", "simulate", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=False,
        timeout=600,
    )


def test_the_ladder_prints_every_adjacent_pair_and_a_progress_bar() -> None:
    done = _simulate_child("--ladder", "--games", "2", "--jobs", "1", "--seed", "3")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for lower, upper in zip(LEVELS, LEVELS[1:], strict=False):
        line = next(x for x in lines if x.startswith(f"{upper.title} "))
        assert f" vs {lower.title} " in line and "2 games" in line and "fair step" in line
    assert lines[-1].startswith("ratings")
    total = 2 * (len(LEVELS) - 1)
    assert f"{total}/{total} games" in done.stderr and "#" in done.stderr
    assert "stopped by the bound" not in done.stdout


def test_the_ladder_as_json_with_no_game(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--ladder", "--games", "0", "--json", "--quiet", "--seed", "7")
    data = json.loads(out)
    assert status == 0 and data["seed"] == 7 and data["games_per_pair"] == 0
    assert [(m["upper"], m["lower"]) for m in data["matches"]] == [
        (up.name, low.name) for low, up in zip(LEVELS, LEVELS[1:], strict=False)
    ]
    assert all(m["games"] == 0 and not m["fair"] for m in data["matches"])
    assert data["ratings"] is None and data["stopped_by_bound"] is False


def test_a_ladder_stopped_by_its_bound_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--ladder", "--minutes", "1e-12", "--jobs", "1", "--quiet")
    lines = out.splitlines()
    assert status == 0 and lines[0].startswith("stopped by the bound")
    assert len([x for x in lines if " vs " in x]) == len(LEVELS) - 1
    assert "none fit this run" in lines[-1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--games", "-1"), "--games must be 0 or more"),
        (("--bots", "casual"), "leave out --bots"),
        (("--samples", "2"), "leave out --samples"),
        (("--players", "3"), "two players"),
        (("--jobs", "0"), "--jobs at least 1"),
        (("--minutes", "-5"), "--minutes must be above 0"),
    ],
)
def test_bad_ladder_options_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    status, out, err = run(capsys, "--ladder", *args, "--quiet")
    assert status == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_the_bots_help_names_todays_levels_and_the_former_names() -> None:
    done = _simulate_child("--help")
    text = " ".join(done.stdout.split())
    assert done.returncode == 0
    assert ", ".join(level.name for level in LEVELS) in text
    assert "former names" in text and "basic" in text


def _terminal_child() -> None:
    """In the child before it runs: Ctrl-C as at a terminal (pytest's workers may ignore
    SIGINT, and an ignored signal stays ignored across exec)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_the_ladder_with_one_line_and_no_traceback() -> None:
    # Ctrl-C at a terminal sends SIGINT to the whole process group: the command and its
    # worker processes alike.
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    command = ["simulate", "--ladder", "--games", "1000", "--jobs", "2"]
    with subprocess.Popen(
        [sys.executable, "-m", "scorekeeper", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=env,
        start_new_session=True,
        preexec_fn=_terminal_child,
    ) as child:
        try:
            assert child.stderr is not None
            seen = b""
            while b" games" not in seen:  # its progress bar: the games are being played
                byte = child.stderr.read(1)
                assert byte, "the ladder ended before it drew its progress bar"
                seen += byte
            os.killpg(child.pid, signal.SIGINT)
            out, err = child.communicate(timeout=300)
        finally:
            if child.poll() is None:
                os.killpg(child.pid, signal.SIGKILL)
                child.wait()
    told = (seen + err).decode()
    assert child.returncode == 130
    assert "simulate: stopped (Ctrl-C): no figures" in told
    assert "Traceback" not in told and not out
