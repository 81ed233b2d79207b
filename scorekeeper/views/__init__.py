"""One blueprint per feature; :func:`register_blueprints` attaches them all."""

from __future__ import annotations

from flask import Flask


def register_blueprints(app: Flask) -> None:
    """Attach every feature's blueprint to ``app``."""
