"""Issue 34: the serving loop only waits. On SQLite a save waits for the database's one
write lock while another process writes (a job's worker, the other web worker); under
``serve``'s gevent workers that wait runs off the loop (:mod:`scorekeeper.loop`), so the
worker's other requests are answered meanwhile, and the save completes once the lock is
free. The server is the real ``scorekeeper serve`` with ONE web worker; the test holds
the lock itself and waits on answers (each bounded), never on a clock."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import threading

from tests.hosting.servers import free_port, serving
from tests.hosting.test_hung_database import Phone, _new_game, _state


def test_a_save_waiting_for_sqlites_lock_holds_no_other_request(tmp_path) -> None:
    port = free_port()
    data = tmp_path / "data"
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    env.pop("DATABASE_URL", None)
    env |= {"SCOREKEEPER_DATA": str(data), "SCOREKEEPER_JOB_PROCESSES": "0"}
    env |= {"SCOREKEEPER_PLAY_REVIEW": "off"}
    command = [sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--workers", "1"]
    base = f"http://127.0.0.1:{port}"
    with serving(command, base, env, tmp_path, tmp_path / "serve.log"):
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
