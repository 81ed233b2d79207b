"""``python -m scorekeeper simulate``: games between bots, summed up for a table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper.__main__ import main
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
