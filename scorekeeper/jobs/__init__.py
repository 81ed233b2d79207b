"""Work that computes, done by the queue's worker processes, never in a web request: the
serving loop only waits.

Glossary:
- job: one piece of work (a bot's move, the expert's hint, the review of a person's
  move), a :class:`~scorekeeper.models.Job` row tied to the game's ``version`` it is
  about; its handler (:func:`handler`) runs in a worker process of the queue
  (:mod:`.queue`: Huey, SQLite in the data folder by default, Redis when ``REDIS_URL``
  is set) and reads and writes the database only, so nothing of a game lives in a
  worker's memory.
- at most once: a job asked twice is the same row (one per kind, game, version and
  seat), a row is claimed by one attempt at a time and finished once, and a handler
  writes the game only if its version is still the job's (one conditional UPDATE), so a
  job run twice (queued twice, or retried after its worker was killed) changes the game
  at most once; a job for a version that has passed does nothing.
- recovery: a job started and not finished within ``JOBS_STALE_SECONDS`` (its worker
  died), or queued and never started (the queue lost it), is queued again by
  :func:`recover` (the consumer runs it every minute), at most
  :data:`MAX_ATTEMPTS` times.
- client: who asked, as a session's key and a network address
  (:func:`scorekeeper.inputs.client_key`);
  the bounds count the jobs a client has waiting (:func:`waiting`) and refuse more
  (:class:`Refused`, answered 429 with ``Retry-After``). The queue takes clients in
  turn: a job's priority is minus the jobs its client already has waiting, so a
  client's flood waits behind itself, not others.
- inline: ``JOBS = "inline"`` (the tests' setting) runs each job in the process that
  asked, right after it is asked, and the jobs those ask after them, in order.
"""

from __future__ import annotations

from .services import (
    MAX_ATTEMPTS,
    Inline,
    Refused,
    find,
    handler,
    over_bound,
    progress,
    recover,
    run,
    submit,
    waiting,
)

__all__ = [
    "Inline",
    "MAX_ATTEMPTS",
    "Refused",
    "find",
    "handler",
    "over_bound",
    "progress",
    "recover",
    "run",
    "submit",
    "waiting",
]
