"""500 Rum scorekeeper: the rules engine (``scorekeeper.engine``) and the Flask app.

``score(request)`` is the scoring contract's Python entry point; ``create_app()`` builds
the web app. Importing this package does not import Flask, so the command line scores
without it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from .engine import ScoreRequestError, score

if TYPE_CHECKING:
    from flask import Flask

__all__ = ["ScoreRequestError", "create_app", "score"]


def create_app(test_config: Mapping[str, object] | None = None) -> Flask:
    """Build the Flask app (see :func:`scorekeeper.app.create_app`)."""
    from .app import create_app as _create_app

    return _create_app(test_config)
