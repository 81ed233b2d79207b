"""One blueprint per feature; :func:`register_blueprints` attaches them all."""

from __future__ import annotations

from flask import Flask


def register_blueprints(app: Flask) -> None:
    """Attach every feature's blueprint to ``app``."""
    from .games import bp as games_bp

    app.register_blueprint(games_bp)
    from .api import register_api
    from .rules import bp as rules_bp

    app.register_blueprint(rules_bp)
    register_api(app)
    from .play import bp as play_bp

    app.register_blueprint(play_bp)
