"""The app factory: configuration, instance folder, secret key."""

from scorekeeper import create_app


def test_factory_uses_test_config(app):
    assert app.testing
    assert app.config["SECRET_KEY"] == "test-secret"


def test_secret_key_is_generated_into_instance(tmp_path, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'x.sqlite3'}")
    app = create_app()
    assert len(app.config["SECRET_KEY"]) == 64
    assert create_app().config["SECRET_KEY"] == app.config["SECRET_KEY"]


def test_engine_imports_no_web_framework():
    import subprocess
    import sys

    code = (
        "import sys, scorekeeper.engine.contract, scorekeeper.engine.scoring;"
        "bad = [m for m in ('flask', 'sqlalchemy', 'wtforms') if m in sys.modules];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_sqlite_runs_in_write_ahead_mode_for_several_workers(app):
    from scorekeeper.extensions import db

    with app.app_context():
        with db.engine.connect() as connection:
            mode = connection.exec_driver_sql("PRAGMA journal_mode").scalar()
            timeout = connection.exec_driver_sql("PRAGMA busy_timeout").scalar()
    assert mode == "wal" and timeout == 5000
