"""Which task queue runs the app's jobs (issue 34): Huey beside RQ, Dramatiq and a plain
process pool, measured the same way on this machine, each in the same run.

Each queue runs a no-op job (``benchmarks/queue_jobs.py``: it notes how long it waited)
with 2 worker processes, as the app's ``serve`` runs 2:
- ``huey-nudged``: the app's queue on one machine (Huey's SQLite storage, its idle
  workers nudged when a job is queued, ``scorekeeper/jobs/queue.py``);
- ``huey-sqlite``: Huey's own SQLite storage, its workers polling (Huey's defaults);
- ``huey-redis``: Huey on Redis (the app with ``REDIS_URL``);
- ``rq``: RQ on Redis, 2 ``rq worker`` processes (each forks a work horse per job, as
  shipped);
- ``dramatiq``: Dramatiq on Redis, 2 processes of 1 thread;
- ``pool``: :class:`concurrent.futures.ProcessPoolExecutor` of 2 processes in the
  asking process (no queue outside its memory).
Figures per queue: a job's wait (from being asked to starting) one job at a time
(``--jobs``, median and p99, ms); ``--burst`` jobs asked at once, jobs done per second;
and the CPU its workers (and Redis, for the queues on it) spend over ``--idle`` seconds
with nothing to do, as % of one core. RQ and Dramatiq are not the app's dependencies:
``pip install rq dramatiq`` (a queue not installed is left out, and said so).
Printed with the machine's load average.

    python benchmarks/queue_bench.py [--jobs 100] [--burst 500] [--idle 10] [--repeat 3]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import multi_bench as mb  # noqa: E402
import queue_jobs  # noqa: E402

HERE = Path(__file__).resolve().parent
QUEUES = ("huey-nudged", "huey-sqlite", "huey-redis", "rq", "dramatiq", "pool")
ON_REDIS = ("huey-redis", "rq", "dramatiq")


def worker_command(kind: str, redis_url: str) -> list[list[str]]:
    """The commands that run ``kind``'s 2 workers (one command for Huey's consumer and
    Dramatiq's, two ``rq worker`` processes)."""
    python = sys.executable
    if kind.startswith("huey"):
        code = (
            "from queue_jobs import huey\n"
            "huey.create_consumer(workers=2, worker_type='process').run()"
        )
        return [[python, "-c", code]]
    if kind == "rq":
        return [[python, "-m", "rq.cli", "worker", "--url", redis_url, "bench"]] * 2
    return [[python, "-m", "dramatiq", "queue_jobs", "--processes", "2", "--threads", "1"]]


class Asker:
    """Asks ``kind``'s job in this process (the same code path the app would use)."""

    def __init__(self, kind: str, redis_url: str) -> None:
        self.kind = kind
        self.pool: ProcessPoolExecutor | None = None
        if kind == "pool":
            self.pool = ProcessPoolExecutor(2)
        elif kind == "rq":
            import redis
            from rq import Queue

            self.rq = Queue("bench", connection=redis.Redis.from_url(redis_url))
        self.jobs = importlib.reload(queue_jobs)  # built for this queue (the environment's)

    def ask(self) -> None:
        asked = time.time()
        if self.pool is not None:
            self.pool.submit(self.jobs.waited, asked)
        elif self.kind == "rq":
            self.rq.enqueue(self.jobs.waited, asked)
        elif self.kind == "dramatiq":
            self.jobs.dramatiq_waited.send(asked)
        else:
            self.jobs.huey_waited(asked)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()


def lines(out: Path) -> list[float]:
    try:
        return [float(x) for x in out.read_text().split()]
    except FileNotFoundError:
        return []


def until(out: Path, count: int, seconds: float = 120) -> None:
    """Wait (looking every ms) until ``out`` holds ``count`` jobs' lines."""
    deadline = time.monotonic() + seconds
    while len(lines(out)) < count:
        if time.monotonic() > deadline:
            raise SystemExit(f"{out}: {len(lines(out))} of {count} jobs done in {seconds} s")
        time.sleep(0.001)


def measure(kind: str, args: Any, folder: Path, redis: tuple[str, int] | None) -> dict[str, Any]:
    """One queue's figures (see the module)."""
    place = folder / kind
    place.mkdir(parents=True)
    out = place / "out.txt"
    url = redis[0] if redis else ""
    env = {"QUEUE_BENCH_KIND": kind, "QUEUE_BENCH_FOLDER": str(place)}
    env |= {"QUEUE_BENCH_OUT": str(out), "REDIS_URL": url, "PYTHONPATH": str(HERE)}
    os.environ.update(env)
    workers = []
    if kind != "pool":
        for n, command in enumerate(worker_command(kind, url)):
            workers.append(mb.start(command, env, HERE, place / f"worker-{n}.log"))
    asker = Asker(kind, url)
    try:
        asker.ask()  # the workers are up and warm once it is done
        until(out, 1)
        done = 1
        for _ in range(args.jobs):
            asker.ask()
            done += 1
            until(out, done)
        waits = lines(out)[1:]
        started = time.monotonic()
        for _ in range(args.burst):
            asker.ask()
        until(out, done + args.burst, 600)
        burst = time.monotonic() - started
        roots = [w.pid for w in workers] + ([redis[1]] if redis and kind in ON_REDIS else [])
        if kind == "pool":
            roots = [os.getpid()]  # its processes are this one's children; this one sleeps
        time.sleep(1)
        cpu = mb.tree_cpu(roots)
        time.sleep(args.idle)
        idle = (mb.tree_cpu(roots) - cpu) / args.idle * 100
    finally:
        asker.close()
        for worker in workers:
            mb.stop_group(worker)
    return {
        "median": statistics.median(waits) * 1000,
        "p99": mb.p99(waits) * 1000,
        "per_second": args.burst / burst,
        "idle": idle,
        "load": mb.load(),
    }


def installed(kind: str) -> bool:
    name = {"rq": "rq", "dramatiq": "dramatiq"}.get(kind)
    return name is None or importlib.util.find_spec(name) is not None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=100, help="jobs one at a time")
    parser.add_argument("--burst", type=int, default=500, help="jobs asked at once")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds idle")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--queues", default=",".join(QUEUES))
    args = parser.parse_args()
    kinds = [k for k in args.queues.split(",") if k]
    for kind in kinds:
        if not installed(kind):
            print(f"{kind}: not installed (pip install {kind}): left out")
    kinds = [k for k in kinds if installed(k)]
    runs: dict[str, list[dict[str, Any]]] = {k: [] for k in kinds}
    with tempfile.TemporaryDirectory(prefix="queue-bench-") as name, ExitStack() as stack:
        folder = Path(name)
        on_redis = set(kinds) & set(ON_REDIS)
        redis = stack.enter_context(mb.redis_server(folder)) if on_redis else None
        for repeat in range(args.repeat):
            for kind in kinds:  # the queues alternate within each repeat
                found = measure(kind, args, folder / str(repeat), redis)
                runs[kind].append(found)
                print(
                    f"run {repeat + 1} {kind}: wait median {found['median']:.1f} ms,"
                    f" p99 {found['p99']:.1f} ms; burst {found['per_second']:.0f} jobs/s;"
                    f" idle {found['idle']:.2f}% of a core; load {found['load']}",
                    flush=True,
                )
    print(
        f"\nMedians of {args.repeat} runs (2 workers each, {args.jobs} jobs, {args.burst} at once):"
    )
    for kind in kinds:
        keys = ("median", "p99", "per_second", "idle")
        med = {k: statistics.median(r[k] for r in runs[kind]) for k in keys}
        print(
            f"  {kind:12} wait median {med['median']:6.1f} ms, p99 {med['p99']:6.1f} ms;"
            f" {med['per_second']:5.0f} jobs/s at once; idle {med['idle']:.2f}% of a core"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
