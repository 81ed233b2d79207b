"""The queue of jobs and its worker processes: Huey (a well-kept task queue), its
storage a SQLite file in the data folder (``jobs.sqlite3``) by default, its idle workers
nudged when a job is queued (:class:`NudgedSqliteStorage`), Redis when ``REDIS_URL`` is
set (a sorted set: the clients' turns as priorities, and the workers woken at once by a
blocking read).

Huey was chosen by measuring beside the alternatives (docs/architecture.md, "Where the work runs"):
RQ and Dramatiq need a Redis (or RabbitMQ) server even on the laptop at the table; a
plain process pool per web process keeps its queue in that process's memory (lost with
the process, invisible to the others, no recovery); Huey keeps its queue in a file on
one machine and in Redis on several, with a consumer of processes.

- ``scorekeeper serve`` starts a consumer beside the web workers (gunicorn's hooks,
  ``serving.py``); ``scorekeeper worker`` runs one on another machine beside the
  database and Redis (:func:`work`).
- The queue holds only job ids (:mod:`scorekeeper.jobs`): the job's row says the rest.
- Each worker process builds its app once and runs each job in an app context of its
  own; the database's connections are renewed after the fork.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from functools import partial
from pathlib import Path

from flask import Flask
from huey import PriorityRedisHuey, SqliteHuey, crontab
from huey.api import Huey
from huey.storage import SqliteStorage

from ..extensions import db
from ..hosting.loop import off_the_loop
from ..live.nudges import Nudges

log = logging.getLogger(__name__)

QUEUE_FILE = "jobs.sqlite3"
"""The queue's SQLite file in the data folder (no ``REDIS_URL``)."""


WORKERS = "workers"
"""The folder of the idle workers' sockets beside the SQLite queue's file
(:class:`NudgedSqliteStorage`)."""


class NudgedSqliteStorage(SqliteStorage):  # type: ignore[misc]
    """Huey's SQLite storage whose idle workers wait for a nudge (:mod:`scorekeeper.live.nudges`)
    instead of polling: a job queued nudges every worker waiting in ``nudges`` (a folder),
    so it starts at once; a worker that finds the queue empty waits for a nudge, at most
    ``read_timeout`` seconds, then looks again (a nudge lost costs that long). A
    blocking storage as Huey defines it (``blocking``: its consumer does not sleep
    between looks), as its Redis storage's blocking read is."""

    blocking = True

    def __init__(self, name: str, nudges: str, read_timeout: float, **kwargs: object) -> None:
        super().__init__(name, **kwargs)
        self.nudges = Nudges(Path(nudges))
        self.read_timeout = read_timeout

    def enqueue(self, data: bytes, priority: int | None = None) -> None:
        super().enqueue(data, priority)
        self.nudges.send()

    def dequeue(self) -> bytes | None:
        data: bytes | None = super().dequeue()
        if data is None:
            self.nudges.open()  # in the worker process, once
            self.nudges.wait(self.read_timeout)
            data = super().dequeue()
        return data


class NudgedSqliteHuey(SqliteHuey):  # type: ignore[misc]
    """Huey on :class:`NudgedSqliteStorage`."""

    storage_class = NudgedSqliteStorage


def _huey_without_tasks(app: Flask) -> Huey:
    """The app's Huey without its tasks: on Redis when ``REDIS_URL`` is set, else on its
    SQLite file with nudged workers (see :func:`make_huey`)."""
    redis_url = str(app.config.get("REDIS_URL") or "")
    name = str(app.config.get("JOBS_QUEUE_NAME", "scorekeeper"))
    if redis_url:
        import redis

        timeout = float(app.config.get("REDIS_TIMEOUT_SECONDS", 5))
        pool = redis.ConnectionPool.from_url(
            redis_url,
            socket_timeout=timeout + 2,  # beyond the blocking read's 1 s
            socket_connect_timeout=timeout,
        )
        found: Huey = PriorityRedisHuey(name, connection_pool=pool, results=False)
        return found
    path = Path(app.config.get("JOBS_QUEUE_PATH") or Path(app.instance_path) / QUEUE_FILE)
    nudged: Huey = NudgedSqliteHuey(
        name,
        filename=str(path),
        results=False,
        timeout=30,
        nudges=str(path.parent / WORKERS),
        read_timeout=float(app.config.get("JOBS_POLL_SECONDS", 0.1)),
    )
    return nudged


def make_huey(app: Flask) -> Huey:
    """The app's Huey: on Redis when ``REDIS_URL`` is set (socket timeouts of
    ``REDIS_TIMEOUT_SECONDS``), else on ``jobs.sqlite3`` in the data folder; no result
    store (a job keeps its result on its row); ``JOBS_QUEUE_PATH`` names another file.
    Its one task, ``work``, runs a job by id in an app context
    (:func:`scorekeeper.jobs.run`); its periodic task, every minute, queues again the
    jobs whose worker died (:func:`scorekeeper.jobs.recover`)."""
    huey = _huey_without_tasks(app)

    from .services import recover, run  # the jobs' functions; this module is imported by them

    @huey.task(name="work")  # type: ignore[untyped-decorator]
    def _work(job_id: int) -> None:
        with app.app_context():
            run(job_id)

    @huey.periodic_task(crontab(), name="recover")  # type: ignore[untyped-decorator]
    def _recover() -> None:
        with app.app_context():
            again = recover()
            if again:
                log.warning("queued again %d jobs whose worker stopped: %s", len(again), again)

    @huey.on_startup()  # type: ignore[untyped-decorator]
    def _fresh_connections() -> None:
        with app.app_context():
            db.engine.dispose(close=False)  # the parent's connections stay the parent's

    @huey.on_shutdown()  # type: ignore[untyped-decorator]
    def _unbind() -> None:
        if isinstance(huey.storage, NudgedSqliteStorage):
            huey.storage.nudges.close()  # this worker waits for nudges no more

    app.extensions["huey_work"] = _work
    return huey


class Queued:
    """The queue of the app (``JOBS = "queue"``, the default): a job id sent to Huey's
    ``work`` task with its priority; the consumer's workers run it."""

    def __init__(self, huey: Huey, work: Callable[..., object]) -> None:
        self.huey = huey
        self.work = work

    def enqueue(self, job_id: int, priority: int) -> None:
        """Queue ``job_id``; a higher ``priority`` runs first. Under gevent the write
        runs on a thread of gevent's pool, the request's greenlet waiting for it: the
        SQLite queue's write may wait for its lock (a worker taking a job), which would
        block every other request of the loop meanwhile."""
        off_the_loop(partial(self.work, priority=priority), job_id)


def attach(app: Flask) -> None:
    """Give ``app`` its queue (``app.extensions["jobs"]``) as ``JOBS`` says: ``"queue"``
    (Huey, see the module) or ``"inline"`` (the tests: each job run where it is asked)."""
    from .services import Inline

    if app.config.get("JOBS", "queue") == "inline":
        app.extensions["jobs"] = Inline()
        return
    huey = make_huey(app)
    app.extensions["jobs"] = Queued(huey, app.extensions.pop("huey_work"))
    app.extensions["huey"] = huey


def work(app: Flask, processes: int) -> int:
    """Run the consumer of ``app``'s queue with ``processes`` worker processes until
    SIGTERM or SIGINT (``scorekeeper worker``); its exit status. An idle worker starts a
    job at once when it is queued (SQLite: a nudge, :class:`NudgedSqliteStorage`; Redis:
    its blocking read), and looks at the queue every ``JOBS_POLL_SECONDS`` (0.1) anyway.
    They run ``JOBS_NICE`` (10) steps below the web workers' priority, so that on a
    machine where both share the cores, pages, moves and streams are served first and
    the bots think with what is left."""
    huey: Huey | None = app.extensions.get("huey")
    if huey is None:
        log.error("JOBS is inline: this app runs its jobs where they are asked")
        return 2
    poll = float(app.config.get("JOBS_POLL_SECONDS", 0.1))
    consumer = huey.create_consumer(
        workers=max(1, processes),
        worker_type="process",
        initial_delay=poll,  # after an error reading the queue
        backoff=1.15,
        max_delay=poll,
        periodic=True,
        check_worker_health=True,
        health_check_interval=5,
    )
    with app.app_context():
        db.engine.dispose()  # no connection of the parent's shared with the workers
    nice = int(app.config.get("JOBS_NICE", 10))
    if nice and hasattr(os, "nice"):
        os.nice(nice)  # the web workers, which only wait, come first for the cores
    consumer.run()
    return 0
