"""The no-op job of ``benchmarks/queue_bench.py`` on each queue it weighs, importable by
their workers: it appends how long it waited (seconds from being asked to starting, the
machine's one clock) to the file ``QUEUE_BENCH_OUT`` names, one line a job.

``QUEUE_BENCH_KIND`` picks the queue this process builds: ``huey-nudged`` (the app's
SQLite storage with nudged workers), ``huey-sqlite`` (Huey's own SQLite storage, its
workers polling), ``huey-redis`` (Huey on Redis, ``REDIS_URL``), ``rq``, ``dramatiq``
(both on Redis); ``pool`` needs nothing here."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

KIND = os.environ.get("QUEUE_BENCH_KIND", "pool")
FOLDER = Path(os.environ.get("QUEUE_BENCH_FOLDER", "."))
REDIS_URL = os.environ.get("REDIS_URL", "")


def waited(asked: float) -> None:
    """The job: append ``now - asked`` (s) to the output file."""
    started = time.time()
    with open(os.environ["QUEUE_BENCH_OUT"], "a") as out:
        out.write(f"{started - asked:.6f}\n")


huey: Any = None
if KIND.startswith("huey"):
    from huey import PriorityRedisHuey, SqliteHuey

    if KIND == "huey-nudged":
        from scorekeeper.jobs.queue import WORKERS, NudgedSqliteHuey

        huey = NudgedSqliteHuey(
            "bench",
            filename=str(FOLDER / "queue.sqlite3"),
            results=False,
            nudges=str(FOLDER / WORKERS),
            read_timeout=0.1,
        )
    elif KIND == "huey-sqlite":
        huey = SqliteHuey("bench", filename=str(FOLDER / "queue.sqlite3"), results=False)
    else:
        huey = PriorityRedisHuey("bench", url=REDIS_URL, results=False)
    huey_waited = huey.task(name="waited")(waited)

dramatiq_waited: Any = None
if KIND == "dramatiq":
    import dramatiq
    from dramatiq.brokers.redis import RedisBroker

    dramatiq.set_broker(RedisBroker(url=REDIS_URL))
    dramatiq_waited = dramatiq.actor(waited, max_retries=0)
