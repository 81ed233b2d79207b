"""One typed settings object and a command line that explains itself (issue "Operate it
for real", settings): what a host meets, each through the public face it meets it by:
``python -m scorekeeper ...`` in a child process (its exit status, ONE line on standard
error, never a traceback), ``create_app()`` (raises :class:`SettingsError`), and the
:class:`Settings` object itself."""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from scorekeeper import create_app
from scorekeeper.__main__ import parser, with_settings
from scorekeeper.extensions import db
from scorekeeper.hosting.settings import (
    NAMES,
    PREFIX,
    DataFolderError,
    Settings,
    SettingsError,
    load_settings,
    ready_data_folder,
    unusable,
)
from tests.engine.test_contract import EXAMPLE

ROOT = Path(__file__).resolve().parents[2]
KEY = "k" * 40
"""A secret key long enough to be accepted."""


@pytest.fixture
def environment(tmp_path, monkeypatch):
    """No setting of the machine's; the data folder in tmp_path."""
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(f"{PREFIX}_{name}", raising=False)
    monkeypatch.setenv("SCOREKEEPER_DATA", str(tmp_path / "data"))
    return monkeypatch


def _run(tmp_path: Path, *args: str, **variables: str) -> subprocess.CompletedProcess[str]:
    """``python -m scorekeeper *args`` with only ``variables`` of the settings set, this
    checkout's package imported, the data folder in ``tmp_path`` unless given."""
    names = NAMES | {f"{PREFIX}_{name}" for name in NAMES}
    env = {k: v for k, v in os.environ.items() if k not in names and k != "SCOREKEEPER_DATA"}
    env |= {"PYTHONPATH": str(ROOT), "SCOREKEEPER_DATA": str(tmp_path / "data")} | variables
    command = [sys.executable, "-m", "scorekeeper", *args]
    return subprocess.run(command, env=env, cwd=tmp_path, capture_output=True, text=True)


def _one_line(done: subprocess.CompletedProcess[str]) -> str:
    """The one line a refusal writes to standard error (never a traceback)."""
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


SERVING_BAD = {"PORT": "abc", "TRUSTED_PROXIES": "yes", "SCOREKEEPER_WORKERS": "-3"}
"""Serving settings no command but serve's could start with."""


def test_score_reads_no_serving_setting(tmp_path):
    (tmp_path / "round.json").write_text(json.dumps(EXAMPLE))
    done = _run(tmp_path, "score", "round.json", **SERVING_BAD)
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout)["players"]["Ann"]["total"] == 141


def test_simulate_reads_no_serving_setting(tmp_path):
    done = _run(tmp_path, "simulate", "--games", "1", "--quiet", "--json", **SERVING_BAD)
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout)


@pytest.mark.parametrize(
    ("command", "variables", "line"),
    [
        (
            ["serve"],
            {"TRUSTED_PROXIES": "yes"},
            "TRUSTED_PROXIES=yes: how many reverse proxies are in front, "
            "a whole number from 0 to 10",
        ),
        (["worker"], {"SCOREKEEPER_TRUSTED_PROXIES": "-1"}, "SCOREKEEPER_TRUSTED_PROXIES=-1: "),
        (["backup", "b.sqlite3"], {"SECRET_KEY": "a"}, "SECRET_KEY=<1 characters, not shown>: "),
        (["restore", "b.sqlite3"], {"PUBLIC_URL": "rum.example.org"}, "PUBLIC_URL=rum."),
        (["serve"], {"PORT": "abc"}, "PORT=abc: serve's port, a whole number from 1 to 65535"),
        (["serve"], {"SCOREKEEPER_WORKERS": "0"}, "SCOREKEEPER_WORKERS=0: "),
        (["serve"], {"HTTPS": "maybe"}, "HTTPS=maybe: "),
        (["worker"], {"SCOREKEEPER_JOB_PROCESSES": "two"}, "SCOREKEEPER_JOB_PROCESSES=two: "),
    ],
)
def test_a_bad_setting_is_one_line_and_status_2(tmp_path, command, variables, line):
    done = _run(tmp_path, *command, **variables)
    assert done.returncode == 2
    assert _one_line(done).startswith(line)
    assert not (tmp_path / "data" / "scorekeeper.sqlite3").exists()  # refused before any work


def test_kubernetes_service_port_is_ignored_with_one_warning_then_port_is_read(tmp_path):
    done = _run(tmp_path, "serve", SCOREKEEPER_PORT="tcp://10.0.0.5:5000", PORT="abc")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    warning, refusal = done.stderr.strip().splitlines()
    assert warning.startswith("SCOREKEEPER_PORT=tcp://10.0.0.5:5000 ignored")
    assert refusal.startswith("PORT=abc: ")  # PORT was read, as the host wrote it


def test_kubernetes_service_port_falls_back_to_port(environment, caplog):
    environment.setenv("SCOREKEEPER_PORT", "tcp://10.0.0.5:5000")
    with caplog.at_level(logging.WARNING, logger="scorekeeper.settings"):
        assert with_settings(parser().parse_args(["serve"])).port == 5000
        environment.setenv("PORT", "8123")
        assert with_settings(parser().parse_args(["serve"])).port == 8123
    assert [r.getMessage().count("\n") for r in caplog.records] == [0, 0]


def test_the_version_is_the_installed_ones(tmp_path):
    done = _run(tmp_path, "--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"scorekeeper {version('scorekeeper')}"


@pytest.mark.parametrize(
    "command", [[], ["score"], ["serve"], ["worker"], ["backup"], ["restore"], ["simulate"]]
)
def test_help_is_plain_text_naming_the_hosting_docs(tmp_path, command):
    done = _run(tmp_path, *command, "--help")
    assert done.returncode == 0
    assert "`" not in done.stdout and ":mod:" not in done.stdout
    assert "docs/hosting.md" in done.stdout
    description = done.stdout.split("\n\n")[1]
    assert "\n" not in description.strip()  # one line
    if not command:
        for name in ("score", "serve", "worker", "backup", "restore", "simulate"):
            assert re.search(rf"^\s+{name}\s+\w", done.stdout, re.MULTILINE), name


def _good_values(name: str) -> tuple[str, str]:
    """Two good values of the setting ``name`` that read differently."""
    special = {
        "SECRET_KEY": ("a" * 32, "b" * 32),
        "DATABASE_URL": ("sqlite:///plain.db", "sqlite:///prefixed.db"),
        "PUBLIC_URL": ("http://plain.example.org", "https://prefixed.example.org"),
        "HOST": ("127.0.0.1", "::1"),
        "REDIS_URL": ("redis://plain:6379/0", "redis://prefixed:6379/0"),
        "RATELIMIT_STORAGE_URI": ("memory://", "redis://prefixed:6379/0"),
        "JOBS": ("inline", "queue"),
        "JOBS_QUEUE_NAME": ("plain", "prefixed"),
        "JOBS_QUEUE_PATH": ("/plain.sqlite3", "/prefixed.sqlite3"),
        "HTTPS": ("on", "off"),
        "PLAY_REVIEW": ("on", "off"),
    }
    if name.startswith("RATELIMIT_") and name not in special:
        return ("7 per minute", "8 per second")
    return special.get(name, ("3", "4"))


@pytest.mark.parametrize("name", sorted(NAMES))
def test_every_setting_is_read_with_and_without_the_prefix(environment, name):
    plain, prefixed = _good_values(name)
    environment.setenv(name, plain)
    from_plain = getattr(load_settings(), name.lower())
    environment.setenv(f"{PREFIX}_{name}", prefixed)
    from_prefixed = getattr(load_settings(), name.lower())
    assert from_plain != from_prefixed  # the prefixed one wins
    assert str(from_prefixed).lower() in (prefixed.lower(), "4", "4.0", "false")


def test_every_documented_name_is_a_setting():
    """The names docs/hosting.md's Configuration table gives are the Settings' fields."""
    text = (ROOT / "docs" / "hosting.md").read_text()
    table = text.split("## Configuration", 1)[1].split("\n\n|", 1)[1].split("\n\n", 1)[0]
    documented = set(re.findall(r"`(?:SCOREKEEPER_)?([A-Z][A-Z_]*[A-Z])`", table))
    assert documented - {"DATA"} <= NAMES
    assert len(documented) > 30


@pytest.mark.parametrize(
    ("variables", "line"),
    [
        ({"TRUSTED_PROXIES": "-1"}, "TRUSTED_PROXIES=-1: "),
        ({"TRUSTED_PROXIES": "11"}, "TRUSTED_PROXIES=11: "),
        ({"SCOREKEEPER_SECRET_KEY": "hunter2"}, "SCOREKEEPER_SECRET_KEY=<7 characters, not shown>"),
        ({"RATELIMIT_API": "lots"}, "RATELIMIT_API=lots: a rate limit such as"),
        ({"PLAY_GRACE_SECONDS": "0"}, "PLAY_GRACE_SECONDS=0: "),
        ({"SCOREKEEPER_JOBS_POLL_SECONDS": "nan"}, "SCOREKEEPER_JOBS_POLL_SECONDS=nan: "),
        ({"PLAY_STREAMS_PER_LINK": "0"}, "PLAY_STREAMS_PER_LINK=0: "),
        ({"PLAY_REVIEW": "sometimes"}, "PLAY_REVIEW=sometimes: the review of moves: on or off"),
        (
            {"DATABASE_URL": "postgres://u:hunter2@h:port/db"},
            "DATABASE_URL=postgres://u:***@h:port",
        ),
        ({"JOBS": "later"}, "JOBS=later: "),
    ],
)
def test_create_app_raises_one_line_per_bad_setting(environment, variables, line):
    for name, value in variables.items():
        environment.setenv(name, value)
    with pytest.raises(SettingsError) as refused:
        create_app()
    assert str(refused.value).startswith(line) and "\n" not in str(refused.value)
    assert "hunter2" not in str(refused.value)  # a secret is never shown


def test_two_bad_settings_are_two_lines(environment):
    environment.setenv("TRUSTED_PROXIES", "yes")
    environment.setenv("SCOREKEEPER_PLAY_HINT_SAMPLES", "many")
    with pytest.raises(SettingsError) as refused:
        load_settings()
    assert str(refused.value).splitlines() == [
        "TRUSTED_PROXIES=yes: how many reverse proxies are in front, a whole number from 0 to 10",
        "SCOREKEEPER_PLAY_HINT_SAMPLES=many: a hint's sampled deals: a whole number, at least 1",
    ]


def test_trusted_proxies_beyond_the_bounds_never_reaches_a_request(environment):
    environment.setenv("TRUSTED_PROXIES", "-1")
    with pytest.raises(SettingsError):
        create_app()


@pytest.mark.parametrize("scheme", ["postgres", "postgresql", "postgresql+psycopg"])
def test_a_postgresql_url_of_any_spelling_is_served_by_psycopg(environment, postgres_url, scheme):
    environment.setenv("DATABASE_URL", postgres_url.replace("postgresql+psycopg", scheme, 1))
    app = create_app()
    with app.app_context():
        assert db.engine.url.drivername == "postgresql+psycopg"
    assert app.test_client().get("/healthz").status_code == 200
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def without(environment):
    """Make ``find_spec`` say the modules named are not installed (``without(name)``)."""
    real = importlib.util.find_spec

    def hide(*names: str) -> None:
        fake = lambda name, *rest: None if name in names else real(name, *rest)  # noqa: E731
        environment.setattr(importlib.util, "find_spec", fake)

    return hide


@pytest.mark.parametrize(
    ("name", "value", "module", "extra"),
    [
        ("DATABASE_URL", "postgres://u:p@h/db", "psycopg", "postgres"),
        ("SCOREKEEPER_DATABASE_URL", "postgresql://u@h/db", "psycopg", "postgres"),
        ("REDIS_URL", "redis://localhost:6379/0", "redis", "redis"),
        ("RATELIMIT_STORAGE_URI", "redis://localhost:6379/1", "redis", "redis"),
    ],
)
def test_a_missing_extra_is_named_in_one_line(environment, without, name, value, module, extra):
    without(module)
    environment.setenv(name, value)
    with pytest.raises(SettingsError) as refused:
        create_app()
    message = str(refused.value)
    assert message.startswith(f"{name}=") and "\n" not in message
    assert message.endswith(f"needs {module}: pip install 'scorekeeper[{extra}]'")


def test_rate_limits_are_counted_in_redis_whenever_it_is_there(environment):
    assert load_settings().rate_storage() == "memory://"
    environment.setenv("REDIS_URL", "redis://cache:6379/0")
    assert load_settings().rate_storage() == "redis://cache:6379/0"
    environment.setenv("REDIS_URL", "unix:///run/redis.sock")  # redis-py's; limits' name:
    assert load_settings().rate_storage() == "redis+unix:///run/redis.sock"
    environment.setenv("RATELIMIT_STORAGE_URI", "memory://")
    assert load_settings().rate_storage() == "memory://"


@pytest.mark.parametrize(
    ("name", "value"),
    [("RATELIMIT_STORAGE_URI", "nowhere://x"), ("REDIS_URL", "http://cache:6379")],
)
def test_a_store_of_an_unknown_kind_is_refused(environment, name, value):
    environment.setenv(name, value)
    with pytest.raises(SettingsError) as refused:
        create_app()
    assert str(refused.value).startswith(f"{name}={value}: ") and "\n" not in str(refused.value)


def test_typed_settings_are_not_read_again_raw_but_other_flask_keys_are(environment, tmp_path):
    environment.setenv("SCOREKEEPER_PLAY_GRACE_SECONDS", "30")
    environment.setenv("SCOREKEEPER_PLAY_REVIEW", "off")
    environment.setenv("SCOREKEEPER_SESSION_COOKIE_NAME", "rum")
    config = create_app().config
    assert config["PLAY_GRACE_SECONDS"] == 30.0 and isinstance(config["PLAY_GRACE_SECONDS"], float)
    assert config["PLAY_REVIEW"] is False
    assert config["SESSION_COOKIE_NAME"] == "rum"


def test_the_environment_wins_over_the_data_folders_config(environment, tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "config.py").write_text("PLAY_GRACE_SECONDS = 99\nPLAY_REVIEW = 'off'\n")
    config = create_app().config
    assert (config["PLAY_GRACE_SECONDS"], config["PLAY_REVIEW"]) == (99, False)
    environment.setenv("PLAY_GRACE_SECONDS", "30")
    assert create_app().config["PLAY_GRACE_SECONDS"] == 30


def test_an_empty_secret_key_file_is_made_again(environment, tmp_path, caplog):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "secret_key").write_text("\n")
    with caplog.at_level(logging.WARNING):
        app = create_app()
    kept = (tmp_path / "data" / "secret_key").read_text().strip()
    assert len(kept) == 64 and app.config["SECRET_KEY"] == kept
    assert [r.getMessage() for r in caplog.records if "secret_key" in r.getMessage()] == [
        f"{tmp_path / 'data' / 'secret_key'} was empty: a new secret key was made in it"
    ]
    assert app.test_client().get("/").status_code == 200


@pytest.mark.parametrize("command", [["serve"], ["worker"], ["backup", "b.sqlite3"]])
def test_a_data_folder_that_is_a_file_is_one_line_and_status_1(tmp_path, command):
    (tmp_path / "taken").write_text("not a folder")
    done = _run(tmp_path, *command, SCOREKEEPER_DATA=str(tmp_path / "taken"))
    assert done.returncode == 1
    line = _one_line(done)
    assert line.startswith(f"the data folder {tmp_path / 'taken'} cannot be used (it is a file)")
    assert f"user id {os.getuid()}" in line and "SCOREKEEPER_DATA" in line


def test_a_data_folder_that_cannot_be_created_is_one_line_and_status_1(tmp_path):
    (tmp_path / "file").write_text("a file, not a folder")
    done = _run(tmp_path, "serve", SCOREKEEPER_DATA=str(tmp_path / "file" / "data"))
    assert done.returncode == 1
    assert "cannot be created" in _one_line(done)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_a_read_only_data_folder_is_refused(tmp_path):
    folder = tmp_path / "read-only"
    folder.mkdir(mode=0o500)
    with pytest.raises(DataFolderError, match="cannot be written"):
        ready_data_folder(folder)


def test_the_data_folder_message_says_what_to_do(tmp_path):
    message = str(unusable(tmp_path / "data", "cannot be written: Permission denied"))
    ids = f"{os.getuid()}:{os.getgid()}"
    assert f"user id {os.getuid()}" in message and f"chown -R {ids}" in message
    assert str(tmp_path / "data") in message and "\n" not in message


def test_each_setting_says_what_it_accepts():
    for name, field in Settings.model_fields.items():
        assert field.description, name
