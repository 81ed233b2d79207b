"""The job rows' services: asking for a job, running one, telling its progress and
recovering lost ones: the only module of ``jobs/`` that commits (see the package for
the glossary)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from flask import current_app
from sqlalchemy import ColumnElement, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from ..engine import say
from ..extensions import db
from ..inputs import client_key
from ..models import Job

log = logging.getLogger(__name__)

Handler = Callable[[Job], "dict[str, object] | None"]
"""A job's work: given its row, it does the work (writing the game itself, tied to the
job's version) and returns what to keep as the job's ``result`` (or None)."""

HANDLERS: dict[str, Handler] = {}
"""Each kind of job's handler, registered by :func:`handler`."""

MAX_ATTEMPTS = 3
"""A job is tried at most this many times (a worker killed each time: given up)."""


class Refused(Exception):
    """A client asked for more work than its bound allows: nothing was queued.
    ``message`` is one plain sentence for the person; ``retry_after`` seconds to wait."""

    def __init__(self, message: str, retry_after: int = 5) -> None:
        self.message = message
        self.retry_after = retry_after
        super().__init__(message)


def handler(kind: str) -> Callable[[Handler], Handler]:
    """Register the decorated function as the handler of jobs of ``kind``."""

    def register(function: Handler) -> Handler:
        HANDLERS[kind] = function
        return function

    return register


def _now() -> float:
    return time.time()


def _fresh(now: float) -> ColumnElement[bool]:
    """The SQL test of a job still waiting or running (not finished, not abandoned)."""
    stale = float(current_app.config.get("JOBS_STALE_SECONDS", 30))
    return (Job.finished_at.is_(None)) & (Job.created_at > now - 10 * stale)


def waiting(client: str, address: str, kinds: tuple[str, ...] | None = None) -> tuple[int, int]:
    """Jobs waiting or running now, of ``kinds`` (every kind when None): ``(of the
    client's session, of the client's address)`` (0 for an empty key)."""
    now = _now()
    counts = []
    for column, value in ((Job.client, client), (Job.address, address)):
        if not value:
            counts.append(0)
            continue
        query = select(func.count()).where(column == value, _fresh(now))
        if kinds is not None:
            query = query.where(Job.kind.in_(kinds))
        counts.append(int(db.session.execute(query).scalar_one()))
    return counts[0], counts[1]


def over_bound(client: str, address: str) -> bool:
    """True when the client's session has ``PLAY_JOBS_PER_CLIENT`` jobs waiting (6), or
    its address ``PLAY_JOBS_PER_ADDRESS`` (24: a game night's phones behind one
    router)."""
    config = current_app.config
    mine, theirs = waiting(client, address)
    return mine >= int(config.get("PLAY_JOBS_PER_CLIENT", 6)) or theirs >= int(
        config.get("PLAY_JOBS_PER_ADDRESS", 24)
    )


def find(kind: str, game_id: int | None, version: int, seat: int = 0) -> Job | None:
    """The job of ``kind`` about ``game_id`` at ``version`` for ``seat``, or None."""
    query = select(Job).where(
        Job.kind == kind, Job.game_id == game_id, Job.version == version, Job.seat == seat
    )
    return db.session.execute(query).scalar_one_or_none()


def submit(
    kind: str,
    game_id: int | None,
    version: int,
    seat: int = 0,
    args: dict[str, object] | None = None,
    *,
    who: tuple[str, str] | None = None,
    bounded: bool = False,
    refusal: str = "",
) -> Job:
    """Ask for a job of ``kind`` (see :data:`HANDLERS`) about ``game_id`` at ``version``
    for ``seat``, with ``args``, for ``who`` (``(client, address)``, default the
    request's, :func:`client_key`): the row is written and committed, then queued with
    its client's turn as priority (see the module). The same job asked again is the row
    already there, not queued again. ``bounded``: refused when this client has as many
    jobs waiting as its bounds allow (:func:`over_bound`): raises :class:`Refused`
    (``refusal``, one sentence), nothing written. Commits the session."""
    found = find(kind, game_id, version, seat)
    if found is not None:
        return found
    client, address = who if who is not None else client_key()
    if bounded and over_bound(client, address):
        raise Refused(
            refusal or say("you have asked for a lot at once: wait a moment and try again")
        )
    ahead = waiting(client, address)[0]
    job = Job(
        kind=kind,
        game_id=game_id,
        version=version,
        seat=seat,
        args=args or {},
        client=client,
        address=address,
    )
    db.session.add(job)
    try:
        db.session.commit()
    except IntegrityError:  # asked at the same moment by another request: that one stands
        db.session.rollback()
        found = find(kind, game_id, version, seat)
        assert found is not None
        return found
    current_app.extensions["jobs"].enqueue(job.id, -ahead)
    return job


def run(job_id: int, now: float | None = None) -> bool:
    """Do the job ``job_id`` once (the queue's worker calls it): claim it (one UPDATE
    that counts the attempt and stamps ``started_at``; a finished job, or one tried
    :data:`MAX_ATTEMPTS` times, is not run), call its handler, keep its result and
    stamp ``finished_at``. A handler's error is kept in ``error`` (the job is finished:
    the game stays as it was). True when the handler ran."""
    stamp = _now() if now is None else now
    claimed = db.session.execute(
        update(Job)
        .where(Job.id == job_id, Job.finished_at.is_(None), Job.attempts < MAX_ATTEMPTS)
        .values(started_at=stamp, attempts=Job.attempts + 1)
        .execution_options(synchronize_session=False)
    )
    db.session.commit()
    if claimed.rowcount != 1:  # type: ignore[attr-defined]
        return False
    job = db.session.get(Job, job_id, populate_existing=True)
    if job is None:
        return False
    result: dict[str, object] | None = None
    error: str | None = None
    try:
        result = HANDLERS[job.kind](job)
    except Exception as problem:  # kept on the row: the job is over, the game unchanged
        db.session.rollback()
        log.exception("job %s (%s) failed", job_id, job.kind)
        error = f"{type(problem).__name__}: {problem}"[:400]
    db.session.execute(
        update(Job)
        .where(Job.id == job_id, Job.finished_at.is_(None))
        .values(finished_at=_now(), result=result, error=error)
        .execution_options(synchronize_session=False)
    )
    db.session.commit()
    return True


def progress(job_id: int, said: dict[str, object]) -> None:
    """Keep how far the job ``job_id`` has got as its ``result`` while it runs (its page
    shows it), in a short transaction of its own: the session's work in hand is not
    touched (a separate connection)."""
    with db.engine.begin() as connection:
        connection.execute(
            update(Job).where(Job.id == job_id, Job.finished_at.is_(None)).values(result=said)
        )


def recover(now: float | None = None) -> list[int]:
    """Queue again every job whose worker died (started more than ``JOBS_STALE_SECONDS``
    ago and not finished) or that the queue lost (asked that long ago and never
    started), tried fewer than :data:`MAX_ATTEMPTS` times; the ids queued again. A job
    still running when it is queued again is run twice, and changes its game once
    (see "at most once")."""
    stamp = _now() if now is None else now
    stale = float(current_app.config.get("JOBS_STALE_SECONDS", 30))
    cutoff = stamp - stale
    query = select(Job.id).where(
        Job.finished_at.is_(None),
        Job.attempts < MAX_ATTEMPTS,
        or_(Job.started_at < cutoff, Job.started_at.is_(None) & (Job.created_at < cutoff)),
    )
    ids = list(db.session.execute(query).scalars())
    db.session.rollback()
    for job_id in ids:
        current_app.extensions["jobs"].enqueue(job_id, 0)
    return ids


class Inline:
    """Runs each job in the process that asked (``JOBS = "inline"``), right away: a job
    asked by a job waits until that one is over (jobs run in order, never nested)."""

    def __init__(self) -> None:
        self._local = threading.local()

    def enqueue(self, job_id: int, _priority: int) -> None:
        """Run ``job_id`` now, or after the job running in this thread."""
        pending: list[int] | None = getattr(self._local, "pending", None)
        if pending is not None:
            pending.append(job_id)
            return
        self._local.pending = pending = [job_id]
        try:
            while pending:
                run(pending.pop(0))
        finally:
            self._local.pending = None
