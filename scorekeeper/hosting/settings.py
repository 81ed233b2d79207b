"""Where the app keeps its data and how it is configured from the environment.

Glossary:
- data folder: the folder of the SQLite database, the generated secret key, the
  migration lock, the local certificate authority of ``serve --https`` and an optional
  ``config.py``. ``SCOREKEEPER_DATA`` when set; else ``instance/`` in a git checkout
  (the package beside a ``pyproject.toml``); else the user's data folder (platformdirs:
  ``~/.local/share/scorekeeper`` on Linux, ``%LOCALAPPDATA%\\scorekeeper`` on Windows)
  for an installed wheel.
- setting: a value from the environment, ``SCOREKEEPER_<NAME>`` or, for the names of
  :data:`PLAIN_NAMES`, the plain ``<NAME>`` too (the prefixed one wins). Besides these,
  any Flask config key can be set as ``SCOREKEEPER_<KEY>`` (Flask's
  ``from_prefixed_env``: the value is read as JSON when it parses, e.g.
  ``SCOREKEEPER_PLAY_GRACE_SECONDS=30``).
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_path

PACKAGE = Path(__file__).resolve().parent.parent
CHECKOUT = PACKAGE.parent
"""The git checkout's root when the package is run from one (``scripts/serve``)."""


PLAIN_NAMES = frozenset(
    {
        "SECRET_KEY",
        "DATABASE_URL",
        "PUBLIC_URL",
        "TRUSTED_PROXIES",
        "PORT",
        "RATELIMIT_STORAGE_URI",
        "REDIS_URL",
        "RATELIMIT_API",
        "RATELIMIT_IMPORT",
        "PLAY_GRACE_SECONDS",
        "PLAY_STREAM_SECONDS",
        "PLAY_CHECK_SECONDS",
        "PLAY_POLL_SECONDS",
        "PLAY_EXPERT_SAMPLES",
        "PLAY_HINT_SAMPLES",
        "PLAY_REVIEW",
        "PLAY_REVIEW_SAMPLES",
    }
)
"""Settings also read without the ``SCOREKEEPER_`` prefix: the names hosts already use
(``DATABASE_URL``, ``PORT``) and those the app read before it had a prefix."""
PREFIX = "SCOREKEEPER"


def setting(name: str, default: str) -> str:
    """The setting ``name`` from the environment (see the glossary), else ``default``."""
    prefixed = os.environ.get(f"{PREFIX}_{name}", "").strip()
    if prefixed:
        return prefixed
    plain = os.environ.get(name, "").strip() if name in PLAIN_NAMES else ""
    return plain or default


ON_WORDS = frozenset({"on", "1", "true", "yes"})
OFF_WORDS = frozenset({"off", "0", "false", "no"})
"""How an on/off setting may be written (any case): ``on``/``off``, or 1/0, true/false,
yes/no."""


def is_on(value: object, default: bool = True) -> bool:
    """An on/off setting's value as a bool: True or False as it is, a number on unless 0,
    a word of :data:`ON_WORDS` or :data:`OFF_WORDS`; anything else is ``default``."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return value != 0
    word = str(value).strip().lower()
    if word in ON_WORDS or word in OFF_WORDS:
        return word in ON_WORDS
    return default


def switch(name: str, default: bool, old: str | None = None) -> bool:
    """The on/off setting ``name`` (:func:`is_on`), else the older setting ``old`` when
    that is set (a number: 0 is off), else ``default``."""
    chosen = setting(name, "")
    if not chosen and old is not None:
        chosen = setting(old, "")
    return is_on(chosen, default) if chosen else default


def data_folder() -> Path:
    """The data folder (see the module's glossary), not yet created."""
    chosen = os.environ.get("SCOREKEEPER_DATA", "").strip()
    if chosen:
        return Path(chosen).expanduser().resolve()
    if (CHECKOUT / "pyproject.toml").is_file():
        return CHECKOUT / "instance"
    return user_data_path("scorekeeper", appauthor=False)
