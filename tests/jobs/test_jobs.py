"""Issue 34: the bots' moves, hints and reviews are jobs of the queue, done by worker
processes (``scorekeeper worker``), never in a web request; each job tied to the game's
version, run at most once in effect; a client's work bounded (429).

The worker is the real command in a process of its own, on the same database (SQLite or
PostgreSQL) and queue (a SQLite file, or Redis); the tests wait on conditions (the
game's version, a job's row), never on a clock."""

from __future__ import annotations

import copy
import io
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from scorekeeper import create_app, jobs
from scorekeeper.engine import current_player
from scorekeeper.extensions import db
from scorekeeper.live import bus
from scorekeeper.live.keys import play_key
from scorekeeper.models import DigitalGame, Game, Group, Job, SeatFact
from scorekeeper.play import services as digital
from tests.conftest import make_app
from tests.hosting.test_group_files import exported  # noqa: F401 (a fixture)
from tests.play.test_streams import Listening

TRIES = 2400
"""Looks at the database before a test gives up waiting (a bound against a hang, every
0.05 s: never a measure of speed)."""


def _queued_config(tmp_path: Path, **extra: Any) -> dict[str, Any]:
    """A queued app's settings (``JOBS = "queue"``: nothing runs until a worker does)."""
    return {
        "JOBS": "queue",
        "JOBS_QUEUE_PATH": str(tmp_path / "jobs.sqlite3"),
        "PLAY_EXPERT_SAMPLES": 4,
        "PLAY_GRACE_SECONDS": 600,
        "PLAY_STREAM_SECONDS": 30,
        "PLAY_POLL_SECONDS": 0.05,
        **extra,
    }


def _queued_app(tmp_path: Path, **extra: Any) -> Flask:
    return make_app(str(tmp_path / "q.sqlite3"), **_queued_config(tmp_path, **extra))


class Worker:
    """``scorekeeper worker`` in a process group of its own, with the app's settings in
    its environment (``SCOREKEEPER_<KEY>``, JSON values), stopped at the end."""

    def __init__(self, database: str, config: dict[str, Any], processes: int = 1) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
        env["SCOREKEEPER_SQLALCHEMY_DATABASE_URI"] = database
        env["SCOREKEEPER_SECRET_KEY"] = "test-secret-of-at-least-32-characters"
        for key, value in config.items():
            env[f"SCOREKEEPER_{key}"] = value if isinstance(value, str) else json.dumps(value)
        command = [sys.executable, "-m", "scorekeeper", "worker", "--processes", str(processes)]
        self.process = subprocess.Popen(
            command, env=env, start_new_session=True, stderr=subprocess.DEVNULL
        )

    def kill(self) -> None:
        """SIGKILL to the consumer and its worker processes at once (a crash)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=60)

    def stop(self) -> None:
        """As ``serve`` stops it: SIGINT (it finishes its running jobs), then wait."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.kill()


def _worked_through(app: Flask, tmp_path: Path, kind: str) -> None:
    """A worker on the queued app's database and queue until every job of ``kind`` is
    finished."""
    worker = Worker(f"sqlite:///{tmp_path / 'q.sqlite3'}", _queued_config(tmp_path))
    try:
        _until(app, lambda: all(j.finished_at for j in _jobs(app, kind)))
    finally:
        worker.stop()


def _until(app: Flask, check: Any) -> Any:
    """Look again until ``check()`` (in an app context) is true; its value."""
    for _ in range(TRIES):
        with app.app_context():
            found = check()
            db.session.remove()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("the worker did not get there")


def _game(app: Flask, slug: str) -> DigitalGame:
    with app.app_context():
        game = digital.get_game(slug)
        assert game is not None
        db.session.expunge(game)
        return game


def _jobs(app: Flask, kind: str = "bot") -> list[Job]:
    with app.app_context():
        rows = list(db.session.execute(db.select(Job).where(Job.kind == kind)).scalars())
        for row in rows:
            db.session.expunge(row)
        return rows


def _start(client: Any, **fields: str) -> str:
    data = {"name": "Sam", "preset": "standard", "bot_0": "casual", "seed": "5"} | fields
    response = client.post("/play", data=data)
    assert response.status_code == 302, response.data[:300]
    return str(response.headers["Location"].split("?")[0].rsplit("/", 1)[1])


def _pass_the_turn(client: Any, slug: str) -> int:
    """The person draws and discards (two moves, answered at once); the version after."""
    for kind in ("draw", "discard"):
        seen = client.get(f"/play/{slug}/state.json").get_json()
        action = next(a for a in seen["legal"] if a["type"] == kind)
        body = {"version": seen["version"], "action": action}
        answer = client.post(f"/play/{slug}/move.json", json=body)
        assert answer.status_code == 200, answer.get_json()
    return int(answer.get_json()["version"])


def _persons_turn(game: DigitalGame) -> bool:
    with_state = digital.load_state(game)
    return game.paused or game.finished or current_player(with_state) == game.human_seat


# ---- the person's move answers at once; the bots' moves are the worker's -------------------


def test_a_move_answers_at_once_and_a_worker_makes_each_bots_move_as_a_version(tmp_path) -> None:
    app = _queued_app(tmp_path)
    client = app.test_client()
    slug = _start(client, bot_1="strong")
    version = _pass_the_turn(client, slug)
    queued = _jobs(app)
    assert [(j.version, j.finished_at) for j in queued] == [(version, None)]  # asked, not run
    assert _game(app, slug).version == version  # nothing computed in the request
    worker = Worker(f"sqlite:///{tmp_path / 'q.sqlite3'}", _queued_config(tmp_path))
    try:
        done = _until(app, lambda: _persons_turn(g := digital.get_game(slug)) and g)
    finally:
        worker.stop()
    made = _moves_by_version(done)
    assert sorted(made) == list(range(version + 1, done.version + 1))  # a version a move
    assert set(made.values()) == {1}
    (row,) = _jobs(app)  # one job made the bots' turn, move by move
    assert row.finished_at is not None and row.attempts == 1 and not row.error
    assert row.result == {"version": done.version, "moves": done.version - version}


def test_a_job_queued_nudges_the_idle_sqlite_worker_at_once(tmp_path) -> None:
    """The SQLite queue's idle worker waits for a nudge (its socket in ``workers/``
    beside the queue's file), not for its next look: that look is 600 s away here, so
    only the nudge sent when the move queued the bots' job starts it within the test."""
    config = _queued_config(tmp_path, JOBS_POLL_SECONDS=600)
    app = make_app(str(tmp_path / "q.sqlite3"), **config)
    client = app.test_client()
    slug = _start(client, bot_1="strong")
    worker = Worker(f"sqlite:///{tmp_path / 'q.sqlite3'}", config)
    try:
        _until(app, lambda: list((tmp_path / "workers").glob("*.sock")))  # it waits
        version = _pass_the_turn(client, slug)
        done = _until(app, lambda: _persons_turn(g := digital.get_game(slug)) and g)
    finally:
        worker.kill()  # its socket stays behind, nobody holding it
    assert done.version > version
    left = list((tmp_path / "workers").glob("*.sock"))
    assert left
    _until(app, lambda: all(_nobody_holds(s) for s in left))  # its processes are gone
    _pass_the_turn(client, slug)  # the next job queued finds it dead and removes it
    assert not list((tmp_path / "workers").glob("*.sock"))


def _nobody_holds(path: Path) -> bool:
    """True once no process holds the datagram socket at ``path`` (a SIGKILL's processes
    exit a moment after the signal: the test waits for that, not for a time)."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    try:
        probe.connect(str(path))
    except ConnectionRefusedError:
        return True
    except FileNotFoundError:
        return True
    finally:
        probe.close()
    return False


def _moves_by_version(game: DigitalGame) -> Counter[int]:
    """How many bot moves each version of ``game``'s latest moves holds."""
    return Counter(m["v"] for m in game.moves if m.get("bot") and m["kind"] == "move")


@pytest.fixture(params=["sqlite", "postgresql+redis"])
def shared(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch) -> Iterator[tuple]:
    """A table's app and its database and queue settings: SQLite with the queue in a
    SQLite file, or PostgreSQL with the queue and the wake-ups on Redis."""
    config = _queued_config(tmp_path, PLAY_STREAM_SECONDS=60)
    if request.param == "sqlite":
        database = f"sqlite:///{tmp_path / 'q.sqlite3'}"
        yield make_app(str(tmp_path / "q.sqlite3"), **config), database, config
        return
    database = request.getfixturevalue("postgres_url")
    config |= {"REDIS_URL": request.getfixturevalue("redis_url"), "JOBS_QUEUE_NAME": database}
    monkeypatch.setenv("DATABASE_URL", database)
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test-secret",
            "SQLALCHEMY_DATABASE_URI": database,
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,
            **config,
        }
    )
    yield app, database, config
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_a_workers_bot_moves_reach_every_phone_of_a_table(shared) -> None:
    from tests.play.test_table import Table

    app, database, config = shared
    table = Table(app, seat_2="strong")  # Hana, Ivo and Jun, and a strong bot in seat 3
    ivo, _jun = table.join(1), table.join(2)
    worker = Worker(database, config)
    try:
        _until(app, lambda: current_player(table.state()) != 3)  # the bot, if it starts
        streams = {seat: Listening(phone, table.slug) for seat, phone in table.phones.items()}
        start = table.version()
        for stream in streams.values():
            assert stream.told() == start
        while True:  # the people move until the bot's turn
            asked = table.version()  # read first: the bot may move right after the state
            state = table.state()
            seat = current_player(state)
            if seat == 3:
                break
            assert seat in (0, 1, 2)
            seen = table.phones[seat].get(f"/play/{table.slug}/state.json").get_json()
            assert table.act(seat, seen["legal"][0]).status_code == 200
        done = _until(app, lambda: current_player(table.state()) != 3 and table.version())
        assert done > asked  # the worker made the bot's moves
        for stream in streams.values():
            told = 0
            while told < done:  # every version reaches every phone, in order
                name, data = stream.next()
                assert name == "version" and data["version"] > told
                told = data["version"]
                assert "hcard" in data["board"]  # its own hand, from its own seat
    finally:
        worker.stop()
    _gone(app, table.slug)
    assert [stream.end() for stream in streams.values()] == ["gone"] * 3  # closed now
    assert ivo is table.phones[1]


def _gone(app: Flask, slug: str) -> None:
    """Delete the game: its streams end ("gone"), their connections given back."""
    with app.app_context():
        game = digital.get_game(slug)
        assert game is not None
        bus.moved(play_key(game.id))
        db.session.delete(game)
        db.session.commit()


# ---- at most once --------------------------------------------------------------------------


def test_a_worker_killed_in_the_middle_of_a_job_runs_it_again_and_the_game_moves_once(
    tmp_path,
) -> None:
    """The first worker thinks for ever (a huge expert) over the bot's discard; it is
    killed mid-job. The job is found (started, not finished) and queued again; its
    version has passed if the bot's draw was saved, so it asks for the job of the game's
    version, which the next worker makes: each bot move is one version, once."""
    app = _queued_app(tmp_path)
    client = app.test_client()
    slug = _start(client, bot_0="expert")
    version = _pass_the_turn(client, slug)
    database = f"sqlite:///{tmp_path / 'q.sqlite3'}"
    slow = _queued_config(tmp_path, PLAY_EXPERT_SAMPLES=10**7, PLAY_THINK_SECONDS=10**5)
    first = Worker(database, slow)
    try:
        started = _until(app, _thinking)  # a move the expert weighs: it thinks for ever
    finally:
        first.kill()
    assert started.finished_at is None and started.attempts == 1
    killed_at = _game(app, slug).version  # what the job saved before: the draw, or nothing
    assert killed_at in (version, version + 1)
    with app.app_context():
        assert jobs.recover(now=started.started_at + 10**6) == [started.id]
    second = Worker(database, _queued_config(tmp_path))
    try:
        done = _until(app, lambda: _persons_turn(g := digital.get_game(slug)) and g)
    finally:
        second.stop()
    rows = {r.version: r for r in _jobs(app)}
    assert rows[version].attempts == 2 and rows[version].finished_at
    assert set(rows) == {version, killed_at}  # the game's own version asked when it passed
    assert all(r.attempts == 1 for v, r in rows.items() if v != version)
    made = _moves_by_version(done)
    assert sorted(made) == list(range(version + 1, done.version + 1))  # in order
    assert set(made.values()) == {1}  # each move once


def _thinking() -> Job | None:
    """The job a worker has started and not finished, for a move the expert weighs (its
    discard: many candidates, so a think as long as its samples), if any."""
    query = db.select(Job).where(Job.started_at.is_not(None), Job.finished_at.is_(None))
    row = db.session.execute(query).scalar_one_or_none()
    game = db.session.get(DigitalGame, row.game_id) if row is not None else None
    if row is None or game is None:
        return None
    state = digital.load_state(game)
    if state.phase.value != "play" or current_player(state) == game.human_seat:
        return None
    if row is not None:
        db.session.expunge(row)
    return row


def test_a_job_queued_twice_plays_once_and_a_job_for_a_passed_version_does_nothing(
    tmp_path,
) -> None:
    app = _queued_app(tmp_path)
    client = app.test_client()
    slug = _start(client)
    version = _pass_the_turn(client, slug)
    (job,) = _jobs(app)
    with app.app_context():
        again = jobs.submit("bot", job.game_id, job.version, job.seat, who=("x", "y"))
        assert again.id == job.id  # the same job asked twice is one row
        assert jobs.run(job.id)  # the first delivery makes the bots' moves
        moved = _game(app, slug)
        assert moved.version > version and _persons_turn(moved)
        assert not jobs.run(job.id)  # the second delivery: finished, not run again
        assert _game(app, slug).version == moved.version
        passed = jobs.submit("bot", job.game_id, version - 1, job.seat, who=("x", "y"))
        assert jobs.run(passed.id)  # run, and found the game past its version
        row = db.session.get(Job, passed.id, populate_existing=True)
        assert row is not None and row.result is None and row.finished_at is not None
    after = _game(app, slug)
    assert after.version == moved.version and after.state == moved.state


# ---- fair shares ---------------------------------------------------------------------------


def test_beyond_a_clients_bound_moves_hints_and_new_games_are_429_and_change_nothing(
    tmp_path,
) -> None:
    app = _queued_app(tmp_path, PLAY_JOBS_PER_CLIENT=2)
    client = app.test_client()
    slugs = [_start(client), _start(client)]
    hint_game = _start(client, seed="7")
    for slug in slugs:
        _pass_the_turn(client, slug)  # a bot job each, waiting: the bound is reached
    before = _game(app, hint_game)
    refused = client.get(f"/play/{hint_game}/hint.json")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert "wait" in refused.get_json()["error"]
    seen = client.get(f"/play/{hint_game}/state.json").get_json()
    body = {"version": seen["version"], "action": seen["legal"][0]}
    moved = client.post(f"/play/{hint_game}/move.json", json=body)
    assert moved.status_code == 429 and _game(app, hint_game).state == before.state
    with app.app_context():
        games = db.session.execute(db.select(db.func.count()).select_from(DigitalGame))
        count = games.scalar_one()
    page = client.post("/play", data={"name": "Sam", "preset": "standard", "bot_0": "casual"})
    assert page.status_code == 429 and "A moment, please" in page.get_data(as_text=True)
    with app.app_context():
        games = db.session.execute(db.select(db.func.count()).select_from(DigitalGame))
        assert games.scalar_one() == count
    other = app.test_client()  # another phone is served as before
    assert other.get(f"/play/{slugs[0]}").status_code == 200
    assert len(_jobs(app)) == 2 and _jobs(app, "hint") == []


def test_a_hint_is_thinking_until_the_worker_is_done_then_the_same_hint(tmp_path) -> None:
    app = _queued_app(tmp_path)
    client = app.test_client()
    slug = _start(client, seed="5")
    asked = client.get(f"/play/{slug}/hint.json")
    assert asked.status_code == 202 and asked.get_json() == {"thinking": True}
    assert asked.headers["Retry-After"] == "1"
    page = client.get(f"/play/{slug}?hint=1").get_data(as_text=True)
    assert "The expert is thinking" in page
    _worked_through(app, tmp_path, "hint")
    hint = client.get(f"/play/{slug}/hint.json")
    assert hint.status_code == 200 and hint.get_json()["move"] and hint.get_json()["why"]
    assert "The expert&#39;s move:" in client.get(f"/play/{slug}?hint=1").get_data(as_text=True)
    assert len(_jobs(app, "hint")) == 1  # asked three times, thought once


# ---- imports -------------------------------------------------------------------------------


def _group_file(document: dict, games: int) -> dict:
    """The exported group ``document`` with its games repeated to ``games`` games."""
    document = copy.deepcopy(document)
    document.pop("_season", None)
    document["games"] = [copy.deepcopy(document["games"][i % 2]) for i in range(games)]
    return document


def _upload(client: Any, document: dict) -> Any:
    upload = {"file": (io.BytesIO(json.dumps(document).encode()), "group.json")}
    return client.post("/groups/import", data=upload, content_type="multipart/form-data")


def _counts(app: Flask) -> tuple[int, int, int]:
    with app.app_context():
        return tuple(  # type: ignore[return-value]
            db.session.scalar(db.select(db.func.count()).select_from(table))
            for table in (Group, Game, SeatFact)
        )


def test_a_group_import_is_a_job_with_a_progress_page_then_the_group(
    tmp_path,
    exported,  # noqa: F811 (the fixture)
) -> None:
    app = _queued_app(tmp_path)
    client = app.test_client()
    sent = _upload(client, _group_file(exported, 60))
    assert sent.status_code == 303 and "/groups/import/" in sent.headers["Location"]
    progress = client.get(sent.headers["Location"])
    assert progress.status_code == 200 and progress.headers["Refresh"] == "1"
    assert "waiting its turn" in progress.get_data(as_text=True)
    assert _counts(app) == (0, 0, 0)  # nothing written before the worker checks it all
    assert app.test_client().get(sent.headers["Location"] + "x").status_code == 404
    _worked_through(app, tmp_path, "import")
    done = client.get(sent.headers["Location"])
    assert done.status_code == 303 and "/groups/" in done.headers["Location"]
    groups, games, seats = _counts(app)
    assert (groups, games) == (1, 60) and seats > 0  # the facts computed in bulk
    group_page = client.get(done.headers["Location"])
    assert group_page.status_code == 200 and "Group imported." in group_page.get_data(as_text=True)


def test_an_import_refused_at_its_last_game_writes_nothing(
    tmp_path,
    exported,  # noqa: F811 (the fixture)
) -> None:
    app = _queued_app(tmp_path)
    client = app.test_client()
    document = _group_file(exported, 40)
    document["games"][39]["game"]["rounds"][0]["input"]["shown"] = {"Bob": -40, "Cat": 70}
    sent = _upload(client, document)
    _worked_through(app, tmp_path, "import")
    answer = client.get(sent.headers["Location"])
    assert answer.status_code == 422 and "game 40" in answer.get_data(as_text=True)
    assert _counts(app) == (0, 0, 0)


def test_a_replay_is_laid_out_by_a_job_never_in_the_request(tmp_path) -> None:
    from scorekeeper.engine import simulate

    simulate(3, 1, preset="quick", seed=5, bots=["basic"], records=tmp_path / "records")
    record = next((tmp_path / "records").glob("*.json")).read_bytes()
    app = _queued_app(tmp_path)
    client = app.test_client()
    upload = {"record": (io.BytesIO(record), "game.json")}
    sent = client.post("/play/replay", data=upload, content_type="multipart/form-data")
    assert sent.status_code == 303 and "/play/replay/" in sent.headers["Location"]
    waiting = client.get(sent.headers["Location"])
    assert waiting.status_code == 200 and waiting.headers["Refresh"] == "1"
    assert "data-steps" not in waiting.get_data(as_text=True)  # no step made in a request
    assert app.test_client().get(sent.headers["Location"] + "x").status_code == 404
    _worked_through(app, tmp_path, "replay")
    shown = client.get(sent.headers["Location"])
    assert shown.status_code == 200 and "data-steps" in shown.get_data(as_text=True)
