"""The application factory: the one place that wires the app together."""

from __future__ import annotations

import gc
import logging
import math
import secrets
from collections.abc import Mapping
from pathlib import Path

from flask import Config, Flask, Response, request
from flask_talisman import Talisman
from sqlalchemy import Connection, text
from werkzeug.middleware.proxy_fix import ProxyFix

from .extensions import csrf, db, limiter, migrate
from .hosting.assets import register_assets
from .hosting.health import register_health
from .hosting.loop import SqliteConnection
from .hosting.schema import BACKFILLS, MIGRATIONS, bring_up_to_date
from .hosting.settings import (
    SERVING_ONLY,
    Settings,
    data_folder,
    is_on,
    load_settings,
    other_flask_keys,
    ready_data_folder,
)
from .hosting.trust import register_trust
from .inputs import IdConverter
from .languages.reader import init_app as init_languages
from .web import TokenSafeSessions, register_unavailable

CSP = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "media-src": ["'self'", "data:"],
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
"""The Content-Security-Policy: scripts only from this site's files (no inline script),
never framed by another site (no clickjacking of delete, undo or play again); media from
``data:`` for NoSleep.js's silent video (scorekeeper/static/awake.js, where the Wake Lock API is
missing)."""
STREAMS_PER_PROCESS = 6000
"""Event streams (``/play/<slug>/events``) one process holds open at most unless
``PLAY_STREAMS_PER_PROCESS`` says otherwise; one more is answered 503 with
``Retry-After`` and its page polls instead. An open stream holds no thread (``serve``
runs gevent workers), only a socket, a greenlet and 26-60 KiB (benchmarks/idle_bench.py),
so 6,000 cost a worker 160-360 MiB: ``serve``'s 2 workers hold 1,000 tables of 8 phones
(8,000 streams) with room for the two getting unequal shares. ``serve`` gives each
worker this many connections plus ``PAGE_CONNECTIONS`` (:mod:`scorekeeper.__main__`),
so streams never take every connection a worker has, and raises its open files limit
to match. The database pool (``pool_size`` 10 + ``max_overflow`` 22 per process) is
never taken by streams: an open stream holds no connection between its reads and at
most :data:`scorekeeper.live.caps.OPENING_AT_ONCE` open at once."""
STREAM_SECONDS = 3600
"""Seconds an event stream lasts unless ``PLAY_STREAM_SECONDS`` says otherwise; its page
then reconnects (``retry``) and opens a new one. Each opening is a request (measured in
process on PostgreSQL: three statements and about 5 ms of CPU, the test client's
included), so 8,000 streams of 300 s would open 27 a second (a seventh of a core), of
an hour 2.2; an idle stream costs nothing meanwhile (no thread; a keep-alive every
``PLAY_CHECK_SECONDS``, which also finds a phone gone)."""
app_log = logging.getLogger("scorekeeper")
TOKEN_ARGS = frozenset({"slug", "token"})
"""URL parts that hold a secret: pages with them send no Referer at all."""


def _secret_key(instance: Path) -> str:
    """The secret key, generated into ``instance/secret_key`` on first run, and made
    again (one line logged) when that file is empty: no session could have been signed
    with an empty key, and every page would fail with it."""
    path = instance / "secret_key"
    if path.exists() and path.read_text().strip():
        return path.read_text().strip()
    if path.exists():
        app_log.warning("%s was empty: a new secret key was made in it", path)
    path.write_text(secrets.token_hex(32))
    path.chmod(0o600)
    return path.read_text().strip()


def _defaults(app: Flask, settings: Settings) -> dict[str, object]:
    """The app's config: fixed defaults, then every setting of ``settings`` (as its key
    in upper case) but those only the command line reads."""
    database = settings.database_url or (
        f"sqlite:///{Path(app.instance_path) / 'scorekeeper.sqlite3'}"
    )
    return (
        {
            "SQLALCHEMY_ENGINE_OPTIONS": {"pool_size": 10, "max_overflow": 22},
            "MAX_CONTENT_LENGTH": 1024 * 1024,
            "WTF_CSRF_TIME_LIMIT": None,
            # over https Flask-WTF would also demand a same-site Referer, which pages whose
            # address holds a token never send (Referrer-Policy no-referrer): the CSRF token
            # and the SameSite session cookie guard every form either way
            "WTF_CSRF_SSL_STRICT": False,
            "SEND_FILE_MAX_AGE_DEFAULT": 3600,
            "SESSION_COOKIE_HTTPONLY": True,
            "SESSION_COOKIE_SAMESITE": "Lax",
            "RATELIMIT_HEADERS_ENABLED": True,
            "MIGRATE_ON_START": True,
        }
        | _work_defaults(settings)
        | {"SQLALCHEMY_DATABASE_URI": database}
    )


def _work_defaults(settings: Settings) -> dict[str, object]:
    """Every setting the app reads (:class:`~scorekeeper.hosting.settings.Settings`: the
    queue's, the bounds on a client's work, the timeouts of calls that can hang, see
    docs/architecture.md, "Where the work runs"), ``PLAY_REVIEW`` resolved to a bool."""
    values = {
        name.upper(): value
        for name, value in settings.model_dump().items()
        if name.upper() not in SERVING_ONLY
    }
    return values | {
        "PLAY_REVIEW": settings.reviewing(),
        "RATELIMIT_STORAGE_URI": settings.rate_storage(),
    }


def _from_environment(settings: Settings) -> dict[str, object]:
    """The config keys of the settings the environment gave (they win over ``config.py``,
    as every ``SCOREKEEPER_<KEY>`` did before settings were typed)."""
    given = {name.upper() for name in settings.model_fields_set}
    if given & {"PLAY_REVIEW", "PLAY_REVIEW_SAMPLES"}:
        given.add("PLAY_REVIEW")
    if "RATELIMIT_STORAGE_URI" in given or "REDIS_URL" in given:
        given.add("RATELIMIT_STORAGE_URI")
    if "DATABASE_URL" in given:
        given.add("SQLALCHEMY_DATABASE_URI")
    database = {"SQLALCHEMY_DATABASE_URI": settings.database_url}
    values = _work_defaults(settings) | database
    return {key: value for key, value in values.items() if key in given}


def _configure(app: Flask, test_config: Mapping[str, object] | None) -> None:
    """Defaults and the environment's settings (:func:`~.hosting.settings.load_settings`:
    :class:`~.hosting.settings.SettingsError` for a bad one), then the data folder's
    ``config.py``, then again the settings the environment gave (they win over
    ``config.py``) and its ``SCOREKEEPER_<KEY>`` for Flask keys no setting owns, then
    ``test_config``; then the secret key (generated into the data folder on first run).
    The data folder is made and checked first (:class:`~.hosting.settings.DataFolderError`).
    A database server's connections are checked before use (``pool_pre_ping``: it may
    have dropped them); a SQLite file's need no such round trip. The check is one more
    round trip a checkout (a request, a stream's wake-up read): about 0.1-0.2 ms of CPU
    of a move's 3.5-4 ms (issue 27, measured in process on PostgreSQL), and kept:
    without it, after PostgreSQL restarts or a network device drops idle connections,
    the request that meets a dead connection fails with a 500. A SQLite file's writes
    and commits wait for its lock off ``serve``'s loop
    (:class:`scorekeeper.hosting.loop.SqliteConnection`)."""
    settings = load_settings()
    ready_data_folder(Path(app.instance_path))
    app.config.from_mapping(_defaults(app, settings))
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    app.config.from_mapping(_from_environment(settings) | other_flask_keys(app.root_path))
    app.config.from_mapping(test_config or {})
    app.config["PLAY_REVIEW"] = is_on(app.config["PLAY_REVIEW"])  # "off" as config.py sets it
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(Path(app.instance_path))
    url = str(app.config["SQLALCHEMY_DATABASE_URI"])
    server = not url.startswith("sqlite")
    options = _postgresql_timeouts(app.config) if url.startswith("postgresql") else {}
    if url.startswith("sqlite"):  # its writes wait for the lock off the serving loop
        options = {"connect_args": {"factory": SqliteConnection}}
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = (
        {"pool_pre_ping": server} | options | app.config.get("SQLALCHEMY_ENGINE_OPTIONS", {})
    )
    app.config["RATELIMIT_STORAGE_OPTIONS"] = _store_timeouts(app.config)


def _store_timeouts(config: Config) -> dict[str, object]:
    """The rate-limit store's options (flask-limiter's ``RATELIMIT_STORAGE_OPTIONS``,
    handed to the Redis client): for Redis, a connect and a read that wait at most
    ``REDIS_TIMEOUT_SECONDS`` (5), so a Redis that freezes costs a limited request that
    long, then it is served without its limit (the limiter swallows the store's errors,
    :data:`scorekeeper.extensions.limiter`); options already configured win."""
    given: dict[str, object] = dict(config.get("RATELIMIT_STORAGE_OPTIONS") or {})
    if not str(config["RATELIMIT_STORAGE_URI"]).startswith("redis"):
        return given
    seconds = float(config["REDIS_TIMEOUT_SECONDS"])
    waits: dict[str, object] = {"socket_timeout": seconds, "socket_connect_timeout": seconds}
    return waits | given


def _postgresql_timeouts(config: Config) -> dict[str, object]:
    """PostgreSQL's engine options so that no call waits for ever on a server that does
    not answer: ``connect_timeout`` (``DATABASE_CONNECT_SECONDS``, 3), the server's
    ``statement_timeout`` (``DATABASE_STATEMENT_SECONDS``, 5) and ``lock_timeout``
    (``DATABASE_LOCK_SECONDS``, 3) for every session, and the pool's wait for a free
    connection (as long as a connect). A server that stops answering altogether is
    bounded in the serving loop by :mod:`scorekeeper.hosting.health`'s request deadline."""
    connect = float(config["DATABASE_CONNECT_SECONDS"])
    statement = int(float(config["DATABASE_STATEMENT_SECONDS"]) * 1000)
    lock = int(float(config["DATABASE_LOCK_SECONDS"]) * 1000)
    options = f"-c statement_timeout={statement} -c lock_timeout={lock}"
    return {
        "connect_args": {"connect_timeout": max(1, math.ceil(connect)), "options": options},
        "pool_timeout": connect,
    }


def _register_blueprints(app: Flask) -> None:
    """Every feature's blueprint (imported here, so importing the package stays light)."""
    from .api.views import register_api
    from .group_files.views import bp as group_files_bp
    from .play.views import bp as play_bp
    from .players.views import bp as players_bp
    from .rules.views import bp as rules_bp
    from .table.home import bp as home_bp
    from .table.views import bp as table_bp

    app.register_blueprint(table_bp)
    app.register_blueprint(home_bp)
    app.register_blueprint(rules_bp)
    app.register_blueprint(play_bp)
    app.register_blueprint(players_bp)
    app.register_blueprint(group_files_bp)
    register_api(app)


def create_app(test_config: Mapping[str, object] | None = None) -> Flask:
    """Build the app: defaults and typed settings from the environment
    (:class:`~scorekeeper.hosting.settings.Settings`), then the data folder's
    ``config.py``, then the environment's settings again and ``SCOREKEEPER_<KEY>``
    variables of other Flask keys, then ``test_config``. Raises
    :class:`~scorekeeper.hosting.settings.SettingsError` (one line per bad setting) and
    :class:`~scorekeeper.hosting.settings.DataFolderError` (the data folder unusable).

    The database is ``DATABASE_URL`` when set (``postgres://`` and ``postgresql://`` are
    PostgreSQL through psycopg 3; any SQLAlchemy URL), else SQLite at
    ``scorekeeper.sqlite3`` in the data folder (:func:`scorekeeper.hosting.settings.data_folder`);
    its schema is brought up to date here (:mod:`scorekeeper.hosting.schema`). Rate limits:
    ``RATELIMIT_API`` and ``RATELIMIT_IMPORT`` per client, stored at
    ``RATELIMIT_STORAGE_URI`` (``memory://`` by default; ``redis://`` for several
    servers). ``TRUSTED_PROXIES``: how many reverse proxies
    in front set ``X-Forwarded-For``/``-Proto``/``-Host``/``-Port`` (0: none, the default; only
    when set is werkzeug's ProxyFix applied). ``/healthz`` tells a proxy or a container
    whether the database answers with the current schema. ``PUBLIC_URL``
    (config or environment, e.g. ``https://rum.example.org``) is the address the share
    page gives other phones; without it, the machine's LAN address.
    """
    app = Flask(
        __name__,
        instance_path=str(data_folder()),
        instance_relative_config=True,
    )
    _configure(app, test_config)
    if app.config["TRUSTED_PROXIES"]:
        hops = app.config["TRUSTED_PROXIES"]
        forwarded = {"x_for": hops, "x_proto": hops, "x_host": hops, "x_port": hops}
        app.wsgi_app = ProxyFix(app.wsgi_app, **forwarded)  # type: ignore[method-assign]
    app.url_map.converters["id"] = IdConverter
    app.session_interface = TokenSafeSessions()

    db.init_app(app)
    from .live.bus import Wakeups

    app.extensions["wakeups"] = Wakeups(app)
    from .jobs.queue import attach  # Huey: imported with the app, not the package

    attach(app)
    migrate.init_app(app, db, directory=str(MIGRATIONS), render_as_batch=True)
    csrf.init_app(app)
    limiter.init_app(app)
    _secure(app)
    register_unavailable(app)
    register_health(app)
    register_trust(app)
    register_assets(app)
    init_languages(app)
    _register_blueprints(app)
    app.extensions[BACKFILLS] = {FACTS_REVISION: store_every_groups_facts}
    if app.config["MIGRATE_ON_START"]:
        bring_up_to_date(app)
    if not app.testing:
        compile_templates(app)
        settle_memory()
    return app


FACTS_REVISION = "b27e4f1a9c01"
"""The migration that made the stored facts of a group's games (empty)."""


def store_every_groups_facts(connection: Connection) -> None:
    """The backfill of :data:`FACTS_REVISION`: the stored facts of every game of a group
    (at the table: not deleted; digital: as :func:`~scorekeeper.groups.facts.store_facts`
    decides), written in ``connection``'s transaction by the app's one writer of facts
    (the table's games, none with facts yet, in bulk: :func:`~.groups.facts.store_new_facts`)."""
    from .groups.facts import store_facts, store_new_facts

    table = connection.execute(
        text("SELECT id FROM games WHERE group_id IS NOT NULL AND deleted_at IS NULL")
    ).scalars()
    store_new_facts(connection, list(table))
    digital = connection.execute(
        text("SELECT id FROM digital_games WHERE group_id IS NOT NULL")
    ).scalars()
    for game_id in list(digital):
        store_facts(connection, "digital", game_id)


def settle_memory() -> None:
    """Once the app is made (in each worker process ``serve`` runs): collect, then
    freeze every object made so far (modules, templates, the app, about 150,000: they
    live as long as the process) out of the cycle collector's reach (``gc.freeze``).
    Its full collections walked them all, 50-75 ms of a worker's time each, every few
    dozen moves, and the push's slowest updates waited for them; frozen, a full
    collection walks only what requests made since (about 5 ms). Apps made by the
    tests leave the collector as it is."""
    gc.collect()
    gc.freeze()


def compile_templates(app: Flask) -> None:
    """Compile every page template of ``app`` now, as it starts (in each worker process
    ``serve`` runs), so that no phone's first page, move or board waits for Jinja to
    compile the templates it renders; Jinja keeps them compiled (its cache holds 400, more
    than the app has). Apps made by the tests compile theirs when first rendered."""
    env = app.jinja_env
    for name in env.list_templates(extensions=["html"]):
        env.get_template(name)


def _secure(app: Flask) -> None:
    """Security headers (flask-talisman): the CSP above, nosniff, framing denied,
    Referrer-Policy ``same-origin`` (``no-referrer`` where the URL holds a token); HTTPS
    is the proxy's business (docs/hosting.md, "Behind an HTTPS reverse proxy"), so
    Talisman does not redirect."""

    @app.after_request
    def no_referrer_with_tokens(response: Response) -> Response:
        if TOKEN_ARGS & set(request.view_args or {}):
            response.headers["Referrer-Policy"] = "no-referrer"
        request.environ["scorekeeper.route"] = (
            request.url_rule.rule if request.url_rule is not None else "-"
        )
        return response

    Talisman(
        app,
        force_https=False,
        strict_transport_security=True,
        session_cookie_secure=False,
        session_cookie_http_only=True,
        session_cookie_samesite="Lax",
        frame_options="DENY",
        content_security_policy=CSP,
        referrer_policy="same-origin",
        x_content_type_options=True,
        permissions_policy={"camera": "()", "microphone": "()", "geolocation": "()"},
    )
