"""A short smoke test of the installed app: build it on a fresh SQLite database in a
temporary data folder, open a few pages, start a game and save one round through the
forms, then read its totals back from the JSON export.

Run by ``scripts/floors`` with every direct dependency at its lowest allowed version, so
a floor in ``pyproject.toml`` that is too low fails the test command. Exits non-zero,
naming the failing step, when anything is wrong.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path

from scorekeeper import create_app

PAGES = ("/", "/rules", "/check", "/play", "/groups/", "/api/v1/rules", "/healthz")


def _check(condition: bool, step: str) -> None:
    if not condition:
        sys.exit(f"smoke test failed: {step}")


def main() -> None:
    """Run the smoke test (see the module's docstring)."""
    with tempfile.TemporaryDirectory() as data:
        app = create_app(
            {
                "SECRET_KEY": "smoke",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(data) / 'smoke.sqlite3'}",
                "WTF_CSRF_ENABLED": False,
            }
        )
        client = app.test_client()
        for page in PAGES:
            status = client.get(page).status_code
            _check(status == 200, f"GET {page} answered {status}")
        names = {"player_0": "Ann", "player_1": "Bob", "preset": "standard", "first_dealer": "0"}
        started = client.post("/games/new", data=names)
        _check(started.status_code == 302, f"starting a game answered {started.status_code}")
        slug = started.location.rsplit("/", 1)[-1]
        path = f"/games/{slug}/rounds/new"
        form = client.get(path).get_data(as_text=True)
        hidden = re.findall(r'<input id="(\w+)" name="\w+" type="hidden" value="([^"]*)"', form)
        fields = dict(hidden) | {"mode": "totals", "action": "save", "went_out": "0"}
        fields |= {"shown-0": "45", "in_hand-0": "0", "shown-1": "20", "in_hand-1": "12"}
        saved = client.post(path, data=fields)
        _check(saved.status_code == 303, f"saving a round answered {saved.status_code}")
        record = json.loads(client.get(f"/games/{slug}/export.json").data)
        totals = {n: f["total"] for n, f in record["rounds"][-1]["response"]["players"].items()}
        _check(totals == {"Ann": 45, "Bob": 8}, f"the round's totals are {totals}")
        _check(client.get(f"/games/{slug}").status_code == 200, "the game page")
    _live_updates()
    print("smoke test passed")


def _live_updates() -> None:
    """``serve``'s gevent worker loads; the extras: a Redis client for the wake-ups is made
    (no server needed: it connects on first use) and psycopg imports with its binary
    build (no server: nothing connects)."""
    import psycopg
    import redis
    from gunicorn.workers.ggevent import GeventWorker

    _check(GeventWorker.__name__ == "GeventWorker", "gunicorn's gevent worker")
    _check(redis.Redis.from_url("redis://127.0.0.1:9/0") is not None, "a Redis client")
    _check(psycopg.pq.__impl__ in ("binary", "c"), f"psycopg's {psycopg.pq.__impl__} build")
    _check(psycopg.pq.version() >= 100000, "psycopg's libpq")


if __name__ == "__main__":
    main()
