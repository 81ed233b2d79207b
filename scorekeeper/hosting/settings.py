"""Where the app keeps its data and how it is configured from the environment.

Glossary:
- data folder: the folder of the SQLite database, the generated secret key, the
  migration lock, the local certificate authority of ``serve --https`` and an optional
  ``config.py``. ``SCOREKEEPER_DATA`` when set; else ``instance/`` in a git checkout
  (the package beside a ``pyproject.toml``); else the user's data folder (platformdirs:
  ``~/.local/share/scorekeeper`` on Linux, ``%LOCALAPPDATA%\\scorekeeper`` on Windows)
  for an installed wheel.
- setting: a field of :class:`Settings`, read from the environment as
  ``SCOREKEEPER_<NAME>`` or the plain ``<NAME>`` (the prefixed one wins; an empty value
  is unset), typed and bounded. A bad value is :class:`SettingsError`, one line per bad
  setting naming the variable as the host wrote it. Other Flask keys may still be given
  as ``SCOREKEEPER_<KEY>`` (:func:`other_flask_keys`), never one a setting owns.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import re
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from flask import Config
from limits import parse_many
from limits.errors import ConfigurationError
from limits.storage import storage_from_string
from platformdirs import user_data_path
from pydantic import AliasChoices, Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

PACKAGE = Path(__file__).resolve().parent.parent
CHECKOUT = PACKAGE.parent
"""The git checkout's root when the package is run from one (``scripts/serve``)."""
PREFIX = "SCOREKEEPER"
LOG = logging.getLogger("scorekeeper.settings")


class SettingsError(ValueError):
    """Settings of the environment the app cannot run with: the message has one line
    per bad setting, ``NAME=value: what it accepts`` (``NAME`` as the host wrote it)."""


class DataFolderError(RuntimeError):
    """The data folder cannot be made or written: one line naming it, the user the app
    runs as and what to do."""


LIMIT = "a rate limit such as '10 per minute' or '5/second;120/minute'"
"""What a ``RATELIMIT_*`` setting accepts (the ``limits`` package's notation)."""


def _named(name: str, default: Any, accepts: str, **bounds: Any) -> Any:
    """A setting's field: read as ``SCOREKEEPER_<name>`` or ``<name>``; ``accepts`` (what
    a good value is) becomes its description and the message of a bad value."""
    aliases = AliasChoices(f"{PREFIX}_{name}", name)
    return Field(default, validation_alias=aliases, description=accepts, **bounds)


def _seconds(name: str, default: float, what: str) -> Any:
    """A positive number of seconds (finite), ``what`` it bounds."""
    accepts = f"{what}: a positive number of seconds"
    return _named(name, default, accepts, gt=0, allow_inf_nan=False)


def _count(name: str, default: int, what: str, least: int = 1) -> Any:
    """A whole number of at least ``least``, ``what`` it counts."""
    return _named(name, default, f"{what}: a whole number, at least {least}", ge=least)


def _needs(module: str, extra: str, what: str) -> None:
    """ValueError (one line) when ``module`` is not installed (looked up, not imported)."""
    if importlib.util.find_spec(module) is None:
        raise ValueError(f"{what} needs {module}: pip install 'scorekeeper[{extra}]'")


def _from_kubernetes(port: str) -> bool:
    """Whether ``port`` is Kubernetes's service address (``tcp://10.0.0.5:5000``), not a port."""
    return port.startswith("tcp://")


def _is_redis(url: str) -> bool:
    """Whether ``url`` names a Redis server (``redis://``, ``rediss://``, ``redis+...``)."""
    return urlsplit(url).scheme.startswith("redis")


class Settings(BaseSettings):
    """Every setting of the app from the environment (see the module's glossary); the
    fields are the Flask config keys in lower case. Raises :class:`pydantic.ValidationError`
    (use :func:`load_settings` for :class:`SettingsError`)."""

    model_config = SettingsConfigDict(case_sensitive=True, env_ignore_empty=True, extra="ignore")

    secret_key: str = _named(
        "SECRET_KEY",
        "",
        "signs sessions: at least 32 characters (python -c 'import secrets; "
        "print(secrets.token_hex(32))'), or unset to have one made in the data folder",
    )
    database_url: str = _named(
        "DATABASE_URL",
        "",
        "a database URL: postgresql://, postgres:// or any SQLAlchemy URL; unset: SQLite "
        "in the data folder",
    )
    public_url: str = _named(
        "PUBLIC_URL", "", "the address phones open: an http:// or https:// URL, or unset"
    )
    trusted_proxies: int = _named(
        "TRUSTED_PROXIES",
        0,
        "how many reverse proxies are in front, a whole number from 0 to 10",
        ge=0,
        le=10,
    )
    host: str = _named("HOST", "0.0.0.0", "the address serve listens on")
    port: int = _named("PORT", 5000, "serve's port, a whole number from 1 to 65535", ge=1, le=65535)
    workers: int = _count("WORKERS", 2, "serve's web worker processes")
    https: bool = _named("HTTPS", False, "serve https with its own certificates: on or off")
    job_processes: int = _count("JOB_PROCESSES", 2, "the queue's worker processes", least=0)
    redis_url: str = _named(
        "REDIS_URL", "", "a redis://, rediss:// or unix:// (a socket) URL, or unset"
    )
    ratelimit_storage_uri: str = _named(
        "RATELIMIT_STORAGE_URI",
        "",
        "where rate limits are counted: memory:// or a shared store such as redis://...; "
        "unset: REDIS_URL when set, else memory://",
    )
    ratelimit_api: str = _named("RATELIMIT_API", "120 per minute", LIMIT)
    ratelimit_import: str = _named("RATELIMIT_IMPORT", "10 per minute", LIMIT)
    ratelimit_new_games: str = _named("RATELIMIT_NEW_GAMES", "20 per minute", LIMIT)
    ratelimit_hints: str = _named("RATELIMIT_HINTS", "5 per second;120 per minute", LIMIT)
    ratelimit_room_codes: str = _named("RATELIMIT_ROOM_CODES", "10 per minute;60 per hour", LIMIT)
    play_grace_seconds: float = _seconds("PLAY_GRACE_SECONDS", 60, "a dropped phone's grace")
    play_stream_seconds: float = _seconds("PLAY_STREAM_SECONDS", 3600, "an event stream's life")
    play_check_seconds: float = _seconds("PLAY_CHECK_SECONDS", 30, "a stream's keep-alive")
    play_poll_seconds: float = _seconds("PLAY_POLL_SECONDS", 0.2, "SQLite's check for moves")
    play_think_seconds: float = _seconds("PLAY_THINK_SECONDS", 2, "the expert's CPU per decision")
    play_streams_per_process: int = _count("PLAY_STREAMS_PER_PROCESS", 6000, "streams a process")
    play_streams_per_link: int = _count("PLAY_STREAMS_PER_LINK", 8, "streams a link")
    play_streams_per_client: int = _count("PLAY_STREAMS_PER_CLIENT", 16, "streams a session")
    play_streams_per_address: int = _count("PLAY_STREAMS_PER_ADDRESS", 512, "streams an address")
    play_expert_samples: int | None = _named(
        "PLAY_EXPERT_SAMPLES",
        None,
        "the sampled deals every expert level weighs: a whole number, at least 1",
        ge=1,
    )
    play_hint_samples: int = _count("PLAY_HINT_SAMPLES", 16, "a hint's sampled deals")
    play_jobs_per_client: int = _count("PLAY_JOBS_PER_CLIENT", 6, "jobs a session has waiting")
    play_jobs_per_address: int = _count("PLAY_JOBS_PER_ADDRESS", 24, "jobs an address has waiting")
    play_review: bool | None = _named("PLAY_REVIEW", None, "the review of moves: on or off")
    play_review_samples: int | None = _named(
        "PLAY_REVIEW_SAMPLES", None, "the older review setting: a whole number (0: off)", ge=0
    )
    jobs: Literal["queue", "inline"] = _named(
        "JOBS", "queue", "where jobs run: queue (worker processes) or inline (tests)"
    )
    jobs_stale_seconds: float = _seconds("JOBS_STALE_SECONDS", 30, "a started job's life")
    jobs_poll_seconds: float = _seconds("JOBS_POLL_SECONDS", 0.1, "an idle worker's look")
    jobs_nice: int = _named("JOBS_NICE", 10, "the workers' nice steps, 0 to 19", ge=0, le=19)
    jobs_queue_name: str = _named("JOBS_QUEUE_NAME", "scorekeeper", "the queue's name")
    jobs_queue_path: str = _named("JOBS_QUEUE_PATH", "", "the SQLite queue's file")
    redis_timeout_seconds: float = _seconds("REDIS_TIMEOUT_SECONDS", 5, "a Redis call's wait")
    database_connect_seconds: float = _seconds("DATABASE_CONNECT_SECONDS", 3, "a connect's wait")
    database_statement_seconds: float = _seconds("DATABASE_STATEMENT_SECONDS", 5, "a statement")
    database_lock_seconds: float = _seconds("DATABASE_LOCK_SECONDS", 3, "a lock's wait")
    request_wait_seconds: float = _seconds("REQUEST_WAIT_SECONDS", 2.5, "a request's wait")
    health_seconds: float = _seconds("HEALTH_SECONDS", 1.5, "/healthz's answer")

    @model_validator(mode="before")
    @classmethod
    def _kubernetes_port(cls, data: Any) -> Any:
        """Kubernetes sets ``SCOREKEEPER_PORT=tcp://...`` for a service named scorekeeper:
        ignored (one warning), so ``PORT`` is read instead."""
        prefixed = f"{PREFIX}_PORT"
        if isinstance(data, dict) and _from_kubernetes(str(data.get(prefixed, ""))):
            LOG.warning("%s=%s ignored (set by Kubernetes): PORT is used", prefixed, data[prefixed])
            data = {k: v for k, v in data.items() if k != prefixed}
            if os.environ.get("PORT", "").strip():
                data["PORT"] = os.environ["PORT"].strip()
        return data

    @field_validator("secret_key")
    @classmethod
    def _secret(cls, key: str) -> str:
        if key and len(key) < 32:
            raise ValueError(str(cls.model_fields["secret_key"].description))
        return key

    @field_validator("database_url")
    @classmethod
    def _database(cls, url: str) -> str:
        """``postgres://`` and ``postgresql://`` are PostgreSQL through psycopg 3."""
        if not url:
            return url
        try:
            parsed = make_url(url)
        except (ArgumentError, ValueError):  # ValueError: a port that is not a number
            raise ValueError("not a database URL: postgresql://user:password@host/db") from None
        if parsed.drivername in ("postgres", "postgresql"):
            parsed = parsed.set(drivername="postgresql+psycopg")
        if parsed.drivername == "postgresql+psycopg":
            _needs("psycopg", "postgres", "PostgreSQL")
        return parsed.render_as_string(hide_password=False)

    @field_validator("public_url")
    @classmethod
    def _public(cls, url: str) -> str:
        parts = urlsplit(url)
        if url and (parts.scheme not in ("http", "https") or not parts.netloc):
            raise ValueError("the address phones open: an http:// or https:// URL, or unset")
        return url

    @field_validator("redis_url")
    @classmethod
    def _redis(cls, url: str) -> str:
        if url and urlsplit(url).scheme not in ("redis", "rediss", "unix"):
            raise ValueError(str(cls.model_fields["redis_url"].description))
        if url:
            _needs("redis", "redis", "Redis")
        return url

    @field_validator("ratelimit_storage_uri")
    @classmethod
    def _rate_store(cls, url: str) -> str:
        """A store the ``limits`` package knows (made once here, which connects to none)."""
        if _is_redis(url):
            _needs("redis", "redis", "Redis")
        try:
            storage_from_string(url) if url else None
        except ConfigurationError as error:
            raise ValueError(f"{error} (e.g. memory:// or redis://host:6379/0)") from None
        return url

    @field_validator(
        "ratelimit_api",
        "ratelimit_import",
        "ratelimit_new_games",
        "ratelimit_hints",
        "ratelimit_room_codes",
    )
    @classmethod
    def _limits(cls, limit: str) -> str:
        try:
            parse_many(limit)
        except ValueError:
            raise ValueError(LIMIT) from None
        return limit

    def rate_storage(self) -> str:
        """Where rate limits are counted: ``RATELIMIT_STORAGE_URI``, else Redis whenever it
        is there (every worker shares the limits), else memory."""
        redis = re.sub(r"^unix://", "redis+unix://", self.redis_url)  # limits' name for it
        return self.ratelimit_storage_uri or redis or "memory://"

    def reviewing(self) -> bool:
        """``PLAY_REVIEW`` when set, else the older ``PLAY_REVIEW_SAMPLES`` (0: off), else on."""
        if self.play_review is not None:
            return self.play_review
        return self.play_review_samples != 0


SERVING_ONLY = frozenset({"HOST", "PORT", "WORKERS", "HTTPS", "JOB_PROCESSES"})
"""Settings only the command line reads (``serve``, ``worker``), not the app's config."""
NAMES = frozenset(name.upper() for name in Settings.model_fields)
"""Every setting's name (without the prefix)."""


def _hidden(name: str, value: object) -> str:
    """A bad value as a message shows it: never a secret key, nor a URL's password."""
    if name.endswith("SECRET_KEY"):
        return f"<{len(str(value))} characters, not shown>"
    return re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", str(value))


def _written(name: str) -> str:
    """The variable the host set for the setting ``name`` (the prefixed one wins)."""
    prefixed = f"{PREFIX}_{name}"
    value = os.environ.get(prefixed, "").strip()
    return prefixed if value and not (name == "PORT" and _from_kubernetes(value)) else name


def _line(error: Mapping[str, Any]) -> str:
    """One bad setting's line: ``NAME=value: what it accepts``."""
    name = str(error["loc"][0]).removeprefix(f"{PREFIX}_").upper() if error["loc"] else PREFIX
    field = Settings.model_fields.get(name.lower())
    name = _written(name) if field else name
    reason = field.description if field and field.description else error["msg"]
    if error["type"] == "value_error":
        reason = str(error["ctx"]["error"])
    return f"{name}={_hidden(name, error['input'])}: {reason}"


def load_settings() -> Settings:
    """The environment's settings; :class:`SettingsError` when any is bad."""
    try:
        return Settings()
    except ValidationError as error:
        lines = dict.fromkeys(_line(e) for e in error.errors())  # in order, once each
        raise SettingsError("\n".join(lines)) from None


def other_flask_keys(root: str) -> dict[str, Any]:
    """Flask keys given as ``SCOREKEEPER_<KEY>`` (Flask's ``from_prefixed_env``: JSON
    values) that no setting owns: the settings are read by :class:`Settings` only."""
    config = Config(root)
    config.from_prefixed_env(PREFIX)
    return {key: value for key, value in config.items() if key not in NAMES | {"DATA"}}


ON_WORDS = frozenset({"on", "1", "true", "yes"})
OFF_WORDS = frozenset({"off", "0", "false", "no"})
"""How an on/off value may be written (any case): ``on``/``off``, or 1/0, true/false,
yes/no."""


def is_on(value: object, default: bool = True) -> bool:
    """An on/off value (a setting of ``config.py`` or a test) as a bool: True or False as
    it is, a number on unless 0, a word of :data:`ON_WORDS` or :data:`OFF_WORDS`; anything
    else is ``default``."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return value != 0
    word = str(value).strip().lower()
    if word in ON_WORDS or word in OFF_WORDS:
        return word in ON_WORDS
    return default


def data_folder() -> Path:
    """The data folder (see the module's glossary), not yet created."""
    chosen = os.environ.get("SCOREKEEPER_DATA", "").strip()
    if chosen:
        return Path(chosen).expanduser().resolve()
    if (CHECKOUT / "pyproject.toml").is_file():
        return CHECKOUT / "instance"
    return user_data_path("scorekeeper", appauthor=False)


def unusable(folder: Path, reason: str) -> DataFolderError:
    """The one-line error of a data folder that cannot be used for ``reason``."""
    uid, gid = (os.getuid(), os.getgid()) if hasattr(os, "getuid") else ("?", "?")
    return DataFolderError(
        f"the data folder {folder} cannot be used ({reason}); the app runs as user id {uid}: "
        f"make it a folder that user can write (a container's volume: chown -R {uid}:{gid} "
        f"on the host's folder mounted at {folder}) or set SCOREKEEPER_DATA to another folder"
    )


def ready_data_folder(folder: Path) -> None:
    """Make ``folder`` if need be and check that files can be written in it (by writing
    one); :class:`DataFolderError` if not."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise unusable(folder, "it is a file") from None
    except OSError as error:
        raise unusable(folder, f"cannot be created: {error.strerror}") from None
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise unusable(folder, f"cannot be written: {error.strerror}") from None
