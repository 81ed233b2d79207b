"""A whole group as one JSON file: downloaded by the group's edit link, imported
elsewhere as a new group, all or nothing.

Where the table and the players features meet (features never import each other; this
module, like :mod:`scorekeeper.groups.members`, is shared): each game goes through the table's
single-game export and import (:mod:`scorekeeper.table.exchange`, replayed by the engine,
nothing taken on trust), the group's name through the new-group form's checks and each
player's name through the group's name rules (:func:`new_member_name`).

The document, format ``"500rum-group/1"``::

    {"format": "500rum-group/1", "name": "Friday family",
     "rules": {"preset": "standard", "options": {...}},
     "players": ["Ann", "Bob", ...],
     "games": [{"archived": false, "game": {a game's export, "500rum-scoresheet/1"}}]}

Games at the table only: a digital game (against bots, or a shared table) stays where it
was played.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Mapping
from typing import NamedTuple

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from sqlalchemy import select
from werkzeug.datastructures import MultiDict

from .. import jobs
from ..engine import RulesError, ruleset
from ..extensions import db, limiter
from ..inputs import BadJson, load_json
from ..models import Game, Group, Job, now_utc
from ..players.forms import NewGroupForm
from ..players.services import MAX_MEMBERS, GroupError, new_member_name
from ..table.errors import ScoresheetError
from ..table.exchange import BadExport, export_json, read_export
from ..table.forms import ImportForm
from ..table.games import imported_game
from ..web import same_token
from .members import can_add, grant_group, group_by_slug
from .services import GroupParts, write_group

FORMAT = "500rum-group/1"
MAX_GAMES = 500
"""Games a group's file may hold at most."""
MAX_BYTES = 1024 * 1024
"""Bytes of a group's file at most (the app's request limit)."""

bp = Blueprint("group_files", __name__, url_prefix="/groups")


def export_group(group: Group) -> dict[str, object]:
    """The group as the document above (its games at the table, oldest first)."""
    games = db.session.scalars(
        select(Game)
        .where(Game.group_id == group.id, Game.deleted_at.is_(None))
        .order_by(Game.created_at, Game.id)
    )
    return {
        "format": FORMAT,
        "name": group.name,
        "rules": {"preset": group.preset, "options": dict(group.options or {})},
        "players": [m.name for m in group.members],
        "games": [{"archived": g.archived_at is not None, "game": export_json(g)} for g in games],
    }


def _group_name(doc: Mapping[str, object]) -> tuple[str, str, dict[str, object]]:
    """The name and usual rules, through the new-group form's own checks."""
    given = doc.get("rules")
    rules: Mapping[str, object] = given if isinstance(given, Mapping) else {}
    name, preset = doc.get("name"), rules.get("preset", "standard")
    options = rules.get("options") or {}
    options = options if isinstance(options, Mapping) else {"?": None}
    form = NewGroupForm(
        formdata=MultiDict({"name": name, "preset": preset, "nonce": "import-group"}),
        meta={"csrf": False},
    )
    if not isinstance(name, str) or not isinstance(preset, str) or not form.validate():
        problems = [m for errors in form.errors.values() for m in errors]
        raise GroupError(f"the group: {(problems or ['a name and a preset are needed'])[0]}")
    try:
        ruleset(preset, options)
    except RulesError as error:
        raise GroupError(f"the group's rules: {error.problems[0][1]}") from None
    return form.clean_name(), preset, dict(options)


def _players(raw: object) -> list[str]:
    """The players' names, each through the group's name rules."""
    if not isinstance(raw, list) or len(raw) > MAX_MEMBERS:
        raise GroupError(f"players must be a list of at most {MAX_MEMBERS} names")
    names: list[str] = []
    for given in raw:
        if not isinstance(given, str):
            raise GroupError("each player is a name")
        try:
            names.append(new_member_name(given, names))
        except GroupError as error:
            raise GroupError(f"player {given!r}: {error}") from None
    return names


def read_group(doc: object) -> GroupParts:
    """Check a group's document as the forms check what is typed; its parts: ``name,
    preset, options, players, games`` (each game as ``(archived, read_export parts)``).
    Raises :class:`GroupError` or :class:`BadExport` naming the first problems."""
    if not isinstance(doc, Mapping) or doc.get("format") != FORMAT:
        raise GroupError(f"this is not a group exported by 500 Rum ({FORMAT})")
    name, preset, options = _group_name(doc)
    players = _players(doc.get("players"))
    games = doc.get("games")
    if not isinstance(games, list) or len(games) > MAX_GAMES:
        raise GroupError(f"games must be a list of at most {MAX_GAMES} games")
    checked = []
    for number, entry in enumerate(games, start=1):
        if not isinstance(entry, Mapping):
            raise GroupError(f"game {number} is not a game")
        try:
            checked.append((entry.get("archived") is True, read_export(entry.get("game"))))
        except BadExport as error:
            raise BadExport([(w, f"game {number}: {m}") for w, m in error.problems]) from None
    return GroupParts(name=name, preset=preset, options=options, players=players, games=checked)


def checked_games(parts: GroupParts, told: Told | None = None) -> list[Game]:
    """Every game of :func:`read_group`'s parts built and scored in memory
    (:func:`~scorekeeper.table.games.imported_game`), before any transaction: raises
    :class:`ScoresheetError` naming the game and round refused, nothing written.
    ``told(checked, of)`` hears how far it got, every :data:`TELL_EVERY` games."""
    games = []
    total = len(parts["games"])
    for number, (archived, game_parts) in enumerate(parts["games"], start=1):
        try:
            game = imported_game(game_parts)
        except ScoresheetError as error:
            found = [(w, f"game {number}: {m}") for w, m in error.problems]
            raise ScoresheetError(found) from None
        game.archived_at = now_utc() if archived else None
        games.append(game)
        if told is not None and number % TELL_EVERY == 0:
            told(number, total)
    return games


Told = Callable[[int, int], None]
"""Told how far a group's check got: ``(games checked, games in all)``."""
TELL_EVERY = 25
"""Games checked between two words of progress."""


def import_group(parts: GroupParts, told: Told | None = None) -> Group:
    """A new group from :func:`read_group`'s parts: every game checked and scored first
    (:func:`checked_games`, no transaction open: nothing is stored when anything is
    refused, :class:`ScoresheetError`), then written in one short transaction
    (:func:`~scorekeeper.groups.services.write_group`)."""
    return write_group(parts, checked_games(parts, told))


@jobs.handler("import")
def import_job(job: Job) -> dict[str, object]:
    """An ``import`` job: the group's document (``args["doc"]``) checked, each game
    scored, then written (:func:`import_group`), its progress kept on the job's row as it
    goes (``{"checked", "of"}``). ``{"group": id}``, or ``{"problems": [...]}`` (at most
    20 sentences) when anything is refused, nothing written then."""

    def told(checked: int, total: int) -> None:
        jobs.progress(job.id, {"checked": checked, "of": total})

    try:
        group = import_group(read_group(job.args["doc"]), told)
    except (BadExport, ScoresheetError) as error:
        return {"problems": [m for _, m in error.problems][:20]}
    except GroupError as error:
        return {"problems": [str(error)]}
    return {"group": group.id}


@bp.get("/<slug>/export.json")
def export(slug: str) -> Response:
    """The whole group as one JSON file, for a phone that opened its edit link."""
    group = group_by_slug(slug)
    if group is None:
        abort(404, description="There is no group at this link.")
    if not can_add(group):
        abort(403, description="Only the group's edit link may download the whole group.")
    body = json.dumps(export_group(group), ensure_ascii=False, indent=1)
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = 'attachment; filename="group.json"'
    return response


def _import_limit() -> str:

    return str(current_app.config["RATELIMIT_IMPORT"])


@bp.route("/import", methods=["GET", "POST"])
@limiter.limit(_import_limit, methods=["POST"])
def import_file() -> ResponseReturnValue:
    """Import a group's file as a new group (this phone may then add to it): the file is
    read here, then checked, scored and written by a job (:func:`import_job`), whose
    progress page this phone is sent to (at once to the group, or the problems, when the
    job is already done)."""
    form = ImportForm()
    problems: list[str] = []
    if form.validate_on_submit():
        upload = request.files.get("file")
        text = (upload.read() if upload else b"") or (form.text.data or "").encode("utf-8")
        try:
            doc = load_json(text, MAX_BYTES)
            if not isinstance(doc, Mapping) or doc.get("format") != FORMAT:
                raise GroupError(f"this is not a group exported by 500 Rum ({FORMAT})")
            job = _import(doc)
        except (GroupError, BadJson) as error:
            problems = [str(getattr(error, "description", None) or error)]
        except ValueError as error:
            problems = [f"That is not valid JSON: {error}"]
        except jobs.Refused as busy:
            page = render_template("players/import.html", form=form, problems=[busy.message])
            return page, 429, {"Retry-After": str(busy.retry_after)}
        else:
            return _import_answer(job, form)
    status = 422 if form.is_submitted() else 200
    return render_template("players/import.html", form=form, problems=problems), status


class Standing(NamedTuple):
    """Where an import stands, read without its file (the job's row but its ``args``):
    the job's ``id``, its ``token`` (the progress page's key), ``finished`` or not, and
    its ``result`` so far."""

    id: int
    token: str
    finished: bool
    result: dict[str, object]


def _standing(job_id: int) -> Standing | None:
    """The import job ``job_id`` as :class:`Standing` (one row, its file left unread: a
    progress page that decoded a 1 MiB file at each reload held its worker's loop)."""
    token = Job.args["token"].as_string()
    query = select(Job.id, token, Job.finished_at, Job.result).where(
        Job.id == job_id, Job.kind == "import"
    )
    row = db.session.execute(query).one_or_none()
    if row is None:
        return None
    return Standing(row[0], str(row[1] or ""), row[2] is not None, dict(row[3] or {}))


def _import(doc: Mapping[str, object]) -> Standing:
    """Ask for the import job of ``doc`` (a client with too many jobs waiting is
    refused, :class:`scorekeeper.jobs.Refused`); where it stands after."""
    token = secrets.token_urlsafe(16)
    job = jobs.submit(
        "import",
        None,
        0,
        0,
        {"doc": dict(doc), "token": token},
        bounded=True,
        refusal="this phone is importing already: wait until that import is done",
    )
    found = _standing(job.id)  # done already when the jobs run where they are asked
    assert found is not None
    return found


def _import_answer(job: Standing, form: ImportForm | None = None) -> ResponseReturnValue:
    """Where an import stands: not done, its progress page (it reloads itself); done,
    the group (this phone given the right to add to it) or the problems (422)."""
    result = job.result
    if not job.finished:
        if request.method == "POST":
            return redirect(_progress_url(job), 303)
        body = render_template("players/importing.html", job=job, progress=result)
        return body, 200, {"Refresh": "1", "Cache-Control": "no-store"}
    group_id = result.get("group")
    if isinstance(group_id, int):
        group = db.session.get(Group, group_id)
        if group is not None:
            grant_group(group)
            flash("Group imported.", "success")
            return redirect(url_for("players.show", slug=group.view_token), 303)
    found = result.get("problems")
    problems = [str(p) for p in found] if isinstance(found, list) and found else []
    problems = problems or ["the import stopped: try again"]
    page = render_template("players/import.html", form=form or ImportForm(), problems=problems)
    return page, 422


def _progress_url(job: Standing) -> str:
    return url_for("group_files.importing", job_id=job.id, token=job.token)


@bp.get("/import/<int:job_id>/<token>")
def importing(job_id: int, token: str) -> ResponseReturnValue:
    """An import's progress page (the phone that sent the file holds its link): games
    checked so far, then the group, or what was refused."""
    job = _standing(job_id)
    if job is None or not same_token(token, job.token):
        abort(404, description="There is no import at this link.")
    return _import_answer(job)
