"""Issue 34: the serving loop only waits. On SQLite a save waits for the database's one
write lock while another process writes (a job's worker, the other web worker); under
``serve``'s gevent workers that wait runs off the loop (:mod:`scorekeeper.hosting.loop`), so the
worker's other requests are answered meanwhile, and the save completes once the lock is
free. The server is the real ``scorekeeper serve`` with ONE web worker; the test holds
the lock itself and waits on answers (each bounded), never on a clock."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading

from tests.hosting.servers import one_web_worker
from tests.hosting.test_hung_database import Phone, _new_game, _state


def test_a_save_waiting_for_sqlites_lock_holds_no_other_request(tmp_path) -> None:
    data = tmp_path / "data"
    with one_web_worker(tmp_path) as base:
        phone = Phone(base)
        slug = _new_game(phone)
        before = _state(phone, slug)
        move = json.dumps({"version": before["version"], "action": before["legal"][0]}).encode()
        other = Phone(base)
        saved: list[tuple[int, bytes]] = []

        def save() -> None:
            saved.append(phone.send(f"/play/{slug}/move.json", move, "application/json"))

        holder = sqlite3.connect(data / "scorekeeper.sqlite3", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # the write lock, as another process's save
        saver = threading.Thread(target=save)
        saver.start()
        try:
            for _ in range(10):  # each answered while the save still waits for the lock
                assert other.send("/healthz")[0] == 200
                assert saver.is_alive(), f"the save did not wait for the lock: {saved}"
        finally:
            holder.execute("ROLLBACK")
            holder.close()
            saver.join(60)
        assert saved and saved[0][0] == 200, saved
        assert json.loads(saved[0][1])["version"] == before["version"] + 1
        assert _state(phone, slug)["version"] == before["version"] + 1


WRITERS = """
from gevent import monkey

monkey.patch_all()
import json, sys
import gevent
from sqlalchemy import text
from scorekeeper import create_app
from scorekeeper.extensions import db

app = create_app(json.loads(sys.argv[1]))
with app.app_context():
    db.session.execute(text("CREATE TABLE tally (n INTEGER)"))
    db.session.commit()


def write(n):
    with app.app_context():
        db.session.execute(text("INSERT INTO tally VALUES (:n)"), {"n": n})
        gevent.sleep(0)  # the others run while this transaction holds SQLite's lock
        db.session.commit()


writers = [gevent.spawn(write, n) for n in range(30)]
gevent.joinall(writers)
with app.app_context():
    count = db.session.execute(text("SELECT count(*) FROM tally")).scalar()
print(json.dumps({"errors": [str(w.exception) for w in writers if w.exception], "count": count}))
"""


def test_a_processs_writing_transactions_take_turns_under_gevent(tmp_path) -> None:
    """30 greenlets of one process each write, yield mid-transaction, then commit: each
    waits for the process's write turn (``loop.SqliteConnection``) instead of fighting
    the others for SQLite's lock from gevent's pool's threads (where the one holding it
    could not get a thread to commit), so every write lands and none is refused."""
    config = {
        "SECRET_KEY": "turns",
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'turns.sqlite3'}",
        "JOBS": "inline",
    }
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    env["SCOREKEEPER_DATA"] = str(tmp_path / "data")
    done = subprocess.run(
        [sys.executable, "-c", WRITERS, json.dumps(config)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"errors": [], "count": 30}
