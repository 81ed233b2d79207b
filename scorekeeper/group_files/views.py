"""The routes of a group's file (blueprint ``group_files``, under ``/groups``): the
download by the group's edit link, the import (rate-limited, run as a job of the queue)
and its progress page."""

from __future__ import annotations

import json
from collections.abc import Mapping
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
from flask_babel import gettext as _
from sqlalchemy import select

from .. import jobs
from ..extensions import db, limiter
from ..groups.members import can_add, grant_group, group_by_slug
from ..inputs import BadJson, load_json
from ..languages.reader import error_text, translate
from ..models import Group, Job
from ..players.services import GroupError
from ..table.forms import ImportForm
from ..web import same_token
from . import services
from .reading import (
    FORMAT,
    MAX_BYTES,
    export_group,
    not_a_group,
)

bp = Blueprint("group_files", __name__, url_prefix="/groups")


@bp.get("/<slug>/export.json")
def export(slug: str) -> Response:
    """The whole group as one JSON file, for a phone that opened its edit link."""
    group = group_by_slug(slug)
    if group is None:
        abort(404, description=_("There is no group at this link."))
    if not can_add(group):
        abort(403, description=_("Only the group's edit link may download the whole group."))
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
                raise GroupError(not_a_group())
            job = _import(doc)
        except (GroupError, BadJson) as error:
            described = getattr(error, "description", None)
            problems = [translate(described) if described else error_text(error)]
        except ValueError as error:
            problems = [_("That is not valid JSON: %(error)s", error=str(error))]
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
    job = services.ask_import(doc)
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
            flash(_("Group imported."), "success")
            return redirect(url_for("players.show", slug=group.view_token), 303)
    found = result.get("problems")
    problems = [translate(services.said(p)) for p in found] if isinstance(found, list) else []
    problems = problems or [_("the import stopped: try again")]
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
        abort(404, description=_("There is no import at this link."))
    return _import_answer(job)
