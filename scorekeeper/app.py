"""The application factory: the one place that wires the app together."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask

from .extensions import csrf, db, migrate

ROOT = Path(__file__).resolve().parent.parent
MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def _secret_key(instance: Path) -> str:
    """The secret key, generated into ``instance/secret_key`` on first run."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: defaults, then ``instance/config.py``, then ``test_config``.

    The database is ``DATABASE_URL`` when set (any SQLAlchemy URL), else SQLite at
    ``instance/scorekeeper.sqlite3``; its schema is managed by the migrations in
    ``scorekeeper/migrations`` (``flask --app scorekeeper db upgrade``). ``PUBLIC_URL``
    (config or environment, e.g. ``https://rum.example.org``) is the address the share
    page gives other phones; without it, the machine's LAN address.
    """
    app = Flask(
        __name__,
        instance_path=str(ROOT / "instance"),
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    os.makedirs(app.instance_path, exist_ok=True)
    database = os.environ.get("DATABASE_URL") or (
        f"sqlite:///{Path(app.instance_path) / 'scorekeeper.sqlite3'}"
    )
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=database,
        SQLALCHEMY_ENGINE_OPTIONS={"pool_pre_ping": True},
        MAX_CONTENT_LENGTH=1024 * 1024,
        WTF_CSRF_TIME_LIMIT=None,
        SEND_FILE_MAX_AGE_DEFAULT=3600,
        PUBLIC_URL=os.environ.get("PUBLIC_URL", ""),
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(Path(app.instance_path))

    db.init_app(app)
    migrate.init_app(app, db, directory=str(MIGRATIONS), render_as_batch=True)
    csrf.init_app(app)

    from .api.views import register_api
    from .play.views import bp as play_bp
    from .rules.views import bp as rules_bp
    from .table.home import bp as home_bp
    from .table.views import bp as table_bp

    app.register_blueprint(table_bp)
    app.register_blueprint(home_bp)
    app.register_blueprint(rules_bp)
    app.register_blueprint(play_bp)
    register_api(app)
    return app
