"""Alembic's environment for Flask-Migrate: runs the migrations of
``scorekeeper/migrations/versions`` on the app's database (``create_app`` brings a
database up to date on start; ``flask --app scorekeeper db upgrade`` does it by hand)."""

from __future__ import annotations

import logging
from logging.config import fileConfig
from typing import Any

from alembic import context
from alembic.script.revision import RangeNotAncestorError
from flask import current_app
from sqlalchemy import Connection, Engine, MetaData

config = context.config

# Interpret the config file for Python logging, leaving the loggers already there alone:
# migrations run inside create_app, which must not silence the app's or gunicorn's logs.
# ``-x quiet=true`` (the app's upgrade on start, scorekeeper/hosting/schema.py) leaves
# logging as the app set it: alembic's lines go to the data folder's migrations.log.
QUIET = context.get_x_argument(as_dictionary=True).get("quiet") == "true"
if config.config_file_name is not None and not QUIET:
    fileConfig(config.config_file_name, disable_existing_loggers=False)
logger = logging.getLogger("alembic.env")


def get_engine() -> Engine:
    """The app's SQLAlchemy engine."""
    engine: Engine = current_app.extensions["migrate"].db.engine
    return engine


def get_engine_url() -> str:
    """The engine's URL with its password, ``%`` doubled for the ini file's syntax."""
    return get_engine().url.render_as_string(hide_password=False).replace("%", "%%")


config.set_main_option("sqlalchemy.url", get_engine_url())
target_db = current_app.extensions["migrate"].db


def get_metadata() -> MetaData:
    """The tables' metadata (the default bind's, when the app has several)."""
    if hasattr(target_db, "metadatas"):
        metadata: MetaData = target_db.metadatas[None]
        return metadata
    single: MetaData = target_db.metadata
    return single


def run_migrations_offline() -> None:
    """Run the migrations as SQL text (``--sql``): no database connection needed."""
    url = config.get_main_option("sqlalchemy.url")
    context.configure(url=url, target_metadata=get_metadata(), literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def _no_empty_revision(context_: Any, revision: Any, directives: list[Any]) -> None:
    """With ``--autogenerate``, write no migration when the schema did not change."""
    if getattr(config.cmd_opts, "autogenerate", False):
        script = directives[0]
        if script.upgrade_ops.is_empty():
            directives[:] = []
            logger.info("No changes in schema detected.")


def run_migrations_online() -> None:
    """Run the migrations on a connection to the app's database."""
    conf_args = current_app.extensions["migrate"].configure_args
    if conf_args.get("process_revision_directives") is None:
        conf_args["process_revision_directives"] = _no_empty_revision
    with get_engine().connect() as connection:
        if connection.dialect.name == "postgresql":  # a migration may take longer than a page
            connection.exec_driver_sql("SET statement_timeout = 0")
            connection.commit()  # the setting stays with the session; alembic begins anew
        context.configure(connection=connection, target_metadata=get_metadata(), **conf_args)
        before = context.get_context().get_current_heads()
        with context.begin_transaction():
            context.run_migrations()
        _backfill(connection, before)


def _applied(before: tuple[str, ...]) -> list[str]:
    """The revisions this run applied, oldest first (none when it went down or nowhere)."""
    after = context.get_context().get_current_heads()
    if set(after) == set(before) or len(after) != 1 or len(before) > 1:
        return []
    try:
        found = context.script.iterate_revisions(after[0], before[0] if before else "base")
        return [script.revision for script in reversed(list(found))]
    except RangeNotAncestorError:  # a downgrade: nothing to fill
        return []


def _backfill(connection: Connection, before: tuple[str, ...]) -> None:
    """Run the app's backfill of each revision this run applied (``app.extensions
    ["backfills"]``, ``{revision: fill(connection)}``: the data a migration's revision
    needs, written with today's code, so the migration itself imports nothing of the
    app), one transaction each, in the migrations' order, however the upgrade was started
    (the app on start, ``flask db upgrade``, a restore)."""
    fills = current_app.extensions.get("backfills", {})
    applied = _applied(before)
    if connection.in_transaction():  # reading the heads began one: end it
        connection.commit()
    for revision in applied:
        if revision in fills:
            with connection.begin():
                fills[revision](connection)


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
