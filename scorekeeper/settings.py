"""Where the app keeps its data and how it is configured from the environment.

Glossary:
- data folder: the folder of the SQLite database, the generated secret key, the
  migration lock, the local certificate authority of ``serve --https`` and an optional
  ``config.py``. ``SCOREKEEPER_DATA`` when set; else ``instance/`` in a git checkout
  (the package beside a ``pyproject.toml``); else the user's data folder (platformdirs:
  ``~/.local/share/scorekeeper`` on Linux, ``%LOCALAPPDATA%\\scorekeeper`` on Windows)
  for an installed wheel.
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_path

PACKAGE = Path(__file__).resolve().parent
CHECKOUT = PACKAGE.parent
"""The git checkout's root when the package is run from one (``scripts/serve``)."""


def data_folder() -> Path:
    """The data folder (see the module's glossary), not yet created."""
    chosen = os.environ.get("SCOREKEEPER_DATA", "").strip()
    if chosen:
        return Path(chosen).expanduser().resolve()
    if (CHECKOUT / "pyproject.toml").is_file():
        return CHECKOUT / "instance"
    return user_data_path("scorekeeper", appauthor=False)
