"""Command line (``scorekeeper`` or ``python -m scorekeeper``): ``score FILE|-``,
``serve``, ``worker``, ``simulate``, ``backup FILE``, ``restore FILE`` and ``--version``.
``serve``, ``worker``, ``backup`` and ``restore`` read the settings
(:mod:`scorekeeper.hosting.settings`): a bad one is one line and status 2, an unusable
data folder one line and status 1; ``score`` and ``simulate`` read none.

``score`` follows shared/score-contract.md: the response JSON on standard output and exit
status 0, or the error body and exit status 2 with every problem listed. ``serve`` brings
the database schema up to date (migrations) and runs the web app under gunicorn.
``simulate --preset P --players N --games G --seed S [--bots casual,strong] [--samples N]
[--records DIR]``
plays whole games between bots (progress on standard error) and prints a summary table
(``--json`` for JSON); the same seed plays the same games. ``simulate --ladder [--games N]
[--minutes M] [--jobs J]`` plays each adjacent pair of the ladder's levels (docs/ladder.md)
and prints each pair's win rate with its interval and the ratings fitted to the run.
``backup`` and ``restore`` copy the SQLite database with its online backup API
(:mod:`scorekeeper.hosting.backup`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .languages import terminal

if TYPE_CHECKING:
    from .engine import Match


def _(message: str, /, **figures: object) -> str:
    """``message`` in the terminal's language, ``%(name)s`` filled from ``figures``."""
    return str(terminal.gettext(message, **figures))


def N_(message: str) -> str:
    """Marks ``message`` for the catalogues; translated where used (``_(...)``)."""
    return message


def _said(error: BaseException) -> str:
    """What ``error`` says, in the terminal's language when it is an engine sentence."""
    return str(terminal.said(error))


def _line(text: object) -> str:
    """An engine sentence (or any text) in the terminal's language."""
    return str(terminal.sentence(text))


def _score(path: str) -> int:
    from .engine import ScoreRequestError, score

    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    except OSError as error:
        return _fail(
            "file", _("cannot read %(path)s: %(reason)s", path=path, reason=error.strerror)
        )
    try:
        request = json.loads(text)
    except ValueError as error:
        return _fail("request", _("not valid JSON: %(error)s", error=error))
    try:
        result = score(request)
    except ScoreRequestError as error:
        json.dump(error.body, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return 2
    json.dump(result, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0


ACCESS_LOG_FORMAT = '%(h)s %(t)s "%(m)s %({scorekeeper.route}e)s" %(s)s %(b)s %(M)sms'
"""Gunicorn's access log line: the route template (``/games/<slug>/edit/<token>``), never
the path, so no link's secret is written to the log."""


PAGE_CONNECTIONS = 200
"""Connections of each worker that event streams never take: ``serve`` runs gevent
workers (an open event stream, ``/play/<slug>/events``, waits in a greenlet on its
process's one listener, holding no thread and costing no CPU while the game is quiet)
with the app's cap of open streams (``PLAY_STREAMS_PER_PROCESS``, 6,000 unless
configured) plus these; a stream beyond the cap is answered 503 at once (the page polls
instead), so these connections are always left for pages and moves. Gevent was chosen
by measuring (docs/hosting.md, "A group that outgrows one machine"): beside threaded workers it
serves every stream of a worker in one thread, and beside an async server for the
streams it keeps one app, one process kind and one command."""


def gunicorn_command(
    host: str,
    port: int,
    workers: int,
    streams: int | None = None,
    tls: tuple[str, str] | None = None,
) -> list[str]:
    """The gunicorn command line ``serve`` runs: gevent workers of ``streams`` (the
    app's ``PLAY_STREAMS_PER_PROCESS``; :data:`scorekeeper.app.STREAMS_PER_PROCESS` when
    None) plus :data:`PAGE_CONNECTIONS` connections each, a short keep-alive, the log
    without secrets; ``tls`` (certificate and key files) serves https. A stop waits at
    most :data:`~scorekeeper.jobs.serving.GRACEFUL_SECONDS` for running requests (the
    event streams end at once: :mod:`scorekeeper.jobs.serving`)."""
    from .app import STREAMS_PER_PROCESS
    from .jobs.serving import GRACEFUL_SECONDS

    connections = (STREAMS_PER_PROCESS if streams is None else streams) + PAGE_CONNECTIONS
    served = ["--certfile", tls[0], "--keyfile", tls[1]] if tls else []
    return [
        sys.executable,
        "-m",
        "gunicorn",
        *served,
        "--workers",
        str(workers),
        "--worker-class",
        "gevent",
        "--worker-connections",
        str(connections),
        "--keep-alive",
        "2",
        "--timeout",
        "30",
        "--graceful-timeout",
        str(GRACEFUL_SECONDS),
        "--bind",
        f"{host}:{port}",
        "--access-logfile",
        "-",
        "--access-logformat",
        ACCESS_LOG_FORMAT,
        "--config",
        str(Path(__file__).parent / "jobs" / "serving.py"),
        "scorekeeper:create_app()",
    ]


def raise_open_files(needed: int) -> int:
    """Raise this process's soft limit of open files towards ``needed`` (at most to its
    hard limit; the workers ``serve`` starts inherit it: each open stream is a socket);
    the soft limit now. Nothing changes where limits are not Unix's."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to raise
        return needed
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        return wanted
    return soft


def _serve(host: str, port: int, workers: int, https: bool) -> int:
    """``scorekeeper serve``: bring the schema up to date, announce the address, then
    become gunicorn (the settings are checked here, before any worker starts)."""
    import os
    from pathlib import Path

    from . import create_app
    from .hosting.addresses import announce, announce_authority, serve_url

    _one_line_schema_log()
    app = create_app()  # brings the database schema up to date, or says which command to run
    tls = _certificates(Path(app.instance_path)) if https else None
    url = serve_url(host, port, app.config.get("PUBLIC_URL", ""), "https" if https else "http")
    if https:
        announce_authority(url + "ca")
    announce(url, chosen=not app.config.get("PUBLIC_URL"))
    streams = int(app.config["PLAY_STREAMS_PER_PROCESS"])
    os.environ["SCOREKEEPER_DATA"] = app.instance_path  # gunicorn's serving lock's folder
    raise_open_files(streams + PAGE_CONNECTIONS + 100)  # and the database's, the logs'
    os.execv(sys.executable, gunicorn_command(host, port, workers, streams, tls))
    return 0  # pragma: no cover - execv does not return


def _one_line_schema_log() -> None:
    """The schema's one line on start (``Database brought up to date (14 migrations;
    ...)``, INFO of ``scorekeeper.schema``) shown on stderr, before the address; the
    migrations' own lines stay in the data folder's migrations.log."""
    import logging

    said = logging.StreamHandler(sys.stderr)
    said.setFormatter(logging.Formatter("%(message)s"))
    schema_log = logging.getLogger("scorekeeper.schema")
    schema_log.setLevel(logging.INFO)
    schema_log.addHandler(said)


def _worker(processes: int) -> int:
    """``scorekeeper worker``: the queue's consumer with ``processes`` worker processes
    (:func:`scorekeeper.jobs.queue.work`), on this machine's share of the database and
    Redis."""
    from . import create_app
    from .hosting.inuse import serving
    from .jobs.queue import work

    app = create_app()
    with serving(Path(app.instance_path)):  # ``restore`` refuses meanwhile
        return work(app, processes)


def _certificates(data: Path) -> tuple[str, str]:
    """``serve --https``'s certificate and key files, made in the data folder if need be."""
    from .hosting.addresses import choose_lan_address, interface_addresses
    from .hosting.certificates import ensure_certificates

    files = ensure_certificates(data, choose_lan_address(interface_addresses()))
    return str(files.cert), str(files.key)


def _backup(command: str, path: str) -> int:
    """``scorekeeper backup`` or ``restore``: 2 and one line when the file will not do
    (a bad setting or data folder is :func:`main`'s to tell)."""
    from pathlib import Path

    from . import create_app
    from .hosting.backup import BackupError, backup, restore

    app = create_app()
    try:
        if command == "backup":
            backup(app, Path(path))
            print(_("backed up the database to %(path)s", path=path))
        else:
            aside = restore(app, Path(path))
            print(
                _(
                    "restored %(path)s; the previous database is kept as %(aside)s",
                    path=path,
                    aside=aside,
                )
            )
    except BackupError as error:
        sys.stderr.write(f"{command}: {_said(error)}\n")
        return 2
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .engine import GameSetupError, RulesError, parse_option, progress_bar, simulate

    if args.ladder:
        return _ladder(args)
    try:
        options = dict(parse_option(o) for o in args.option)
        bots = [b.strip() for b in (args.bots or "").split(",") if b.strip()]
        summary = simulate(
            args.players,
            100 if args.games is None else args.games,
            preset=args.preset,
            options=options,
            seed=args.seed,
            bots=bots or ["basic"],
            records=Path(args.records) if args.records else None,
            progress=None if args.quiet else progress_bar(sys.stderr),
            samples=args.samples,
        )
    except (RulesError, GameSetupError, ValueError, OSError) as error:
        sys.stderr.write(f"simulate: {_said(error)}\n")
        return 2
    if args.json:
        json.dump(summary.to_json(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(summary.table())
    return 0


def _ladder_problem(args: argparse.Namespace) -> str | None:
    """Why ``simulate --ladder``'s other options cannot be (one line), or None."""
    mixed = [o for o in ("bots", "samples", "records") if getattr(args, o) is not None]
    if mixed or args.option:
        option = (mixed or ["option"])[0]
        return _("--ladder plays the ladder's own levels: leave out --%(option)s", option=option)
    if args.players != 2 or args.preset != "standard":
        return _("--ladder plays two players, preset standard")
    if args.games is not None and args.games < 0:
        return _("--games must be 0 or more, not %(games)s", games=args.games)
    if args.minutes <= 0 or args.jobs < 1:
        return _("--minutes must be above 0 and --jobs at least 1")
    return None


def _ladder(args: argparse.Namespace) -> int:
    """``simulate --ladder``: the adjacent levels' matches, their intervals, whether each
    is a fair step and the ratings fitted to them (JSON with ``--json``)."""
    from .engine import LEVELS, play_ladder, progress_bar

    problem = _ladder_problem(args)
    if problem:
        sys.stderr.write(f"simulate: {problem}\n")
        return 2
    games = 1000 if args.games is None else args.games
    bar = None if args.quiet else progress_bar(sys.stderr)
    seen = [0]

    def progress(done: int, total: int) -> None:
        seen[0] = done
        if bar is not None:
            bar(done, total)

    try:
        matches = play_ladder(
            games, seed=args.seed, jobs=args.jobs, seconds=args.minutes * 60, progress=progress
        )
    except KeyboardInterrupt:
        sys.stderr.write("\nsimulate: " + _("stopped (Ctrl-C): no figures") + "\n")
        return 130
    stopped = seen[0] < games * (len(LEVELS) - 1)
    if stopped and bar is not None:
        sys.stderr.write("\n")
    _ladder_report(matches, args, games, stopped)
    return 0


def _ladder_report(
    matches: list[Match], args: argparse.Namespace, games: int, stopped: bool
) -> None:
    """Print ``simulate --ladder``'s figures: a line per pair and the ratings, or JSON."""
    from .engine import fair_step, fit_ratings

    try:
        if any(not m.games for m in matches):
            raise ValueError(_("a pair played no game"))
        ratings: dict[str, int] | None = fit_ratings(matches)
        why = ""
    except ValueError as error:
        ratings, why = None, _said(error)
    if args.json:
        rows = [
            {**m.to_json(), "rate": m.rate, "interval": m.interval, "fair": fair_step(m)}
            for m in matches
        ]
        data = {
            "seed": args.seed,
            "games_per_pair": games,
            "stopped_by_bound": stopped,
            "matches": rows,
            "ratings": ratings,
        }
        json.dump(data, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return
    _ladder_lines(matches, ratings, why, f"{args.minutes:g}" if stopped else None)


def _ladder_lines(
    matches: list[Match], ratings: dict[str, int] | None, why: str, bound: str | None
) -> None:
    """``simulate --ladder``'s figures as text: the bound that stopped the run (its
    minutes, None when it ran to the end), a line per pair and the ratings (or ``why``
    none fit), in the terminal's language."""
    from .engine import BOTS, match_line

    if bound is not None:
        print(
            _("stopped by the bound of %(minutes)s minutes: the games played so far", minutes=bound)
        )
    for match in matches:
        print(_line(match_line(match)))
    if ratings is None:
        print(_("ratings: none fit this run (%(why)s)", why=why))
    else:
        shown = (f"{BOTS[n].title if n in BOTS else n} {r:,}" for n, r in ratings.items())
        print(_("ratings (Elo, fitted to this run): %(ratings)s", ratings=", ".join(shown)))


def _fail(where: str, message: str) -> int:
    json.dump({"errors": [{"where": where, "message": message}]}, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 2


DESCRIPTION = N_("500 Rum scorekeeper: score rounds, simulate bot games, serve the web app.")
EPILOG = N_(
    "Settings come from the environment (SCOREKEEPER_<NAME> or <NAME>, e.g. PORT, "
    "DATABASE_URL, SECRET_KEY): see docs/hosting.md, sections Configuration and "
    "The command line."
)


def _version() -> str:
    """The installed package's version (importlib.metadata), or why there is none."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"scorekeeper {version('scorekeeper')}"
    except PackageNotFoundError:
        return _("scorekeeper (not installed: run from a checkout)")


def parser() -> argparse.ArgumentParser:
    """The command line's parser. It reads no setting: ``serve``'s and ``worker``'s
    options left out are filled from the environment by :func:`with_settings`."""
    top = argparse.ArgumentParser(prog="scorekeeper", description=_(DESCRIPTION), epilog=_(EPILOG))
    top.add_argument("--version", action="version", version=_version())
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, text: str) -> argparse.ArgumentParser:
        made: argparse.ArgumentParser = sub.add_parser(
            name, help=text, description=text[0].upper() + text[1:] + ".", epilog=_(EPILOG)
        )
        return made

    score = command("score", _("score one round (shared/score-contract.md)"))
    score.add_argument("file", help=_("the request JSON file, or - for standard input"))
    serve = command("serve", _("migrate the database and run the web app"))
    serve.add_argument("--host", help=_("address to listen on (HOST; default: all)"))
    serve.add_argument("--port", type=int, help=_("port (PORT; default 5000)"))
    serve.add_argument("--workers", type=int, help=_("web worker processes (WORKERS; default 2)"))
    serve.add_argument(
        "--https",
        action="store_true",
        default=None,
        help=_("serve https with this machine's own certificate authority (made once; HTTPS)"),
    )
    worker = command(
        "worker", _("run the queue's worker processes (bots, hints, reviews, imports)")
    )
    worker.add_argument(
        "--processes",
        type=int,
        help=_("worker processes (JOB_PROCESSES; default 2: one per core of a small machine)"),
    )
    command("backup", _("copy the SQLite database, safe while serving")).add_argument(
        "file", help=_("the new backup file")
    )
    command("restore", _("replace the database by a backup")).add_argument(
        "file", help=_("a file written by backup")
    )
    _simulate_parser(command("simulate", _("play games between bots and sum them up")))
    return top


def with_settings(args: argparse.Namespace) -> argparse.Namespace:
    """``args`` of ``serve`` or ``worker`` with the options left out taken from the
    environment's settings (:func:`scorekeeper.hosting.settings.load_settings`; raises
    its :class:`~scorekeeper.hosting.settings.SettingsError`)."""
    from .hosting.settings import load_settings

    settings = load_settings()
    for option in ("host", "port", "workers", "https"):
        if args.command == "serve" and getattr(args, option) is None:
            setattr(args, option, getattr(settings, option))
    if args.command == "worker" and args.processes is None:
        args.processes = settings.job_processes
    return args


def _run(args: argparse.Namespace) -> int:
    """A command that builds the app (``serve``, ``worker``, ``backup``, ``restore``): a
    bad setting is one line per setting on standard error and 2, an unusable data folder
    one line and 1 (no traceback)."""
    from .hosting.settings import DataFolderError, SettingsError

    try:
        args = with_settings(args)
        if args.command == "serve":
            return _serve(args.host, args.port, args.workers, args.https)
        if args.command == "worker":
            return _worker(args.processes)
        return _backup(args.command, args.file)
    except SettingsError as error:
        sys.stderr.write(f"{_said(error)}\n")
        return 2
    except DataFolderError as error:
        sys.stderr.write(f"{_said(error)}\n")
        return 1


def main(argv: Sequence[str] | None = None) -> int:
    """Run a subcommand; returns the exit status. ``score`` and ``simulate`` read no
    setting (nor import Flask); the others as :func:`_run` says."""
    args = parser().parse_args(argv)
    if args.command == "simulate":
        return _simulate(args)
    if args.command == "score":
        return _score(args.file)
    return _run(args)


def _simulate_parser(sim: argparse.ArgumentParser) -> None:
    """The ``simulate`` subcommand's arguments, added to its parser ``sim``."""
    sim.add_argument("--preset", default="standard", help=_("rules preset (default standard)"))
    sim.add_argument("--players", type=int, default=2, help=_("players at the table"))
    sim.add_argument(
        "--games",
        type=int,
        default=None,
        help=_("games to play (default 100; with --ladder, games per pair, default 1000)"),
    )
    sim.add_argument("--seed", type=int, default=0, help=_("same seed, same games"))
    sim.add_argument("--bots", default=None, help=_bots_help())
    sim.add_argument(
        "--samples",
        type=int,
        default=None,
        help=_(
            "an expert level's sampled deals per decision (default: the level's own; "
            "fewer is faster)"
        ),
    )
    _ladder_parser(sim)
    sim.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=_("change one house rule, e.g. --option min_run=4 (repeatable)"),
    )
    sim.add_argument("--records", metavar="DIR", help=_("write each game's record here"))
    sim.add_argument("--json", action="store_true", help=_("print the summary as JSON"))
    sim.add_argument("--quiet", action="store_true", help=_("no progress bar"))


def _bots_help() -> str:
    """``simulate --bots``'s help: the levels, weakest first, and the former names."""
    from .engine import BOTS, FORMER_NAMES, RANDOM

    return _(
        "bot levels round the table, comma-separated, shifted one seat each game: "
        "%(levels)s (weakest first) or %(random)s; the former names %(former)s are "
        "accepted (default %(default)s)",
        levels=", ".join(BOTS),
        random=RANDOM,
        former=", ".join(FORMER_NAMES),
        default=next(iter(FORMER_NAMES)),
    ).replace("%", "%%")


def _ladder_parser(sim: argparse.ArgumentParser) -> None:
    """``simulate``'s ``--ladder`` and the options only it reads, added to ``sim``."""
    sim.add_argument(
        "--ladder",
        action="store_true",
        help=_(
            "play each adjacent pair of levels, two players to 500, pairs of games on one "
            "deal with the seats swapped; print each win rate with its interval and the "
            "ratings"
        ),
    )
    sim.add_argument(
        "--minutes",
        type=float,
        default=30.0,
        help=_("with --ladder: no game starts after this many minutes (default 30)"),
    )
    sim.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help=_("with --ladder: worker processes (default: this machine's cores)"),
    )


if __name__ == "__main__":
    sys.exit(main())
