"""Players across game nights (``/groups``): a group's page with its players and games,
its view and edit links with QR codes, a player's profile, two players head to head, a
season's league table (and its CSV), and attaching an existing game (or detaching it).

A group is reached by its view link (``/groups/<view token>``, read only); its edit link
(``/groups/<view token>/edit/<edit token>``) stores on this phone the right to add players,
start games and attach, archive or detach them, as a game's edit link does. Attaching a
game needs its edit link (its view link is shown to anyone at the table).

The figures pages (profile, head to head, season and its CSV) carry an ETag of the
group's ``facts_version`` (counted up whenever any figure of the group changes) and of
this phone's right to add: a phone asking again with it gets 304 Not Modified.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, time, timedelta

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.exceptions import HTTPException

from ..engine import say
from ..groups.members import can_add, grant_group, group_by_slug, my_groups
from ..hosting.addresses import current_share_place, qr_svg
from ..inputs import parse_int
from ..languages.reader import error_text, translate, use_language
from ..models import DigitalGame, Game, Group
from ..web import same_token
from . import figures, group_language, history, pages, services
from .forms import AttachForm, ConfirmForm, MemberForm, NewGroupForm, SeasonForm

bp = Blueprint("players", __name__, url_prefix="/groups")
group_language.register(bp)  # the language of the group's shared pages
bp.add_app_template_global(services.tonight, "tonight_of")  # the TV between games shows it


def _group(slug: str) -> Group:
    group = group_by_slug(slug)
    if group is None:
        abort(404, description=_("There is no group at this link."))
    return group


def _require_add(group: Group) -> None:
    if not can_add(group):
        abort(
            403,
            description=_(
                "This is the group's view link: it shows the figures but cannot "
                "add players or games. Open the group's edit link to add."
            ),
        )


def _qr(url: str) -> Markup:
    return qr_svg(url)


def _page_number() -> int:
    """The page asked for (``?page=``, from 0; a 400 for anything but a whole number)."""
    return parse_int(request.args.get("page", "0"), 0, 100_000, say("page"))


def conditional(group: Group, build: Callable[[], Response | str]) -> Response:
    """The figures page ``build`` makes, with an ETag of the group's ``facts_version``
    and this phone's right to add; 304 Not Modified when the phone's copy (its
    ``If-None-Match``) is current and no message (a flash) waits to be shown."""
    tag = f"f{group.id}v{group.facts_version}{'e' if can_add(group) else 'w'}"
    if tag in request.if_none_match and "_flashes" not in session:
        response = Response(status=304)
    else:
        built = build()
        response = built if isinstance(built, Response) else Response(built)
    if response.status_code in (200, 304):
        response.set_etag(tag)
        response.headers["Cache-Control"] = "private, no-cache"
    return response


@bp.errorhandler(400)
@bp.errorhandler(403)
@bp.errorhandler(404)
def refused(error: HTTPException) -> ResponseReturnValue:
    """A refusal with its reason (a view link used to add, an unknown group or player)."""
    return render_template("players/refused.html", error=error), error.code or 400


@bp.get("/")
def index() -> str:
    """The groups this phone may add to, and a form for a new one."""
    return render_template("players/index.html", groups=my_groups(), form=NewGroupForm())


@bp.route("/new", methods=["GET", "POST"])
def create() -> ResponseReturnValue:
    """Make a group: a name and its usual rules; this phone may add to it."""
    form = NewGroupForm()
    if form.validate_on_submit():
        made = session.get("made_groups", {})
        if form.nonce.data in made:
            return redirect(url_for("players.show", slug=made[form.nonce.data]), 303)
        try:
            group = services.create_group(form.clean_name(), form.preset.data)
        except services.GroupError as error:
            form.preset.errors = [error_text(error)]
        else:
            grant_group(group)
            session["made_groups"] = dict(list(made.items())[-4:]) | {
                form.nonce.data: group.view_token
            }
            flash(_("Group made. Add its players, then share its links."), "success")
            return redirect(url_for("players.show", slug=group.view_token), 303)
    status = 422 if form.is_submitted() else 200
    return render_template("players/new.html", form=form), status


@bp.get("/<slug>")
def show(slug: str) -> str:
    """The group: its players (each with a profile), its latest games, new game."""
    group = _group(slug)
    editable = can_add(group)
    page = _page_number()
    games, older = services.recent_games(group, page)
    return render_template(
        "players/group.html",
        group=group,
        editable=editable,
        member_form=MemberForm() if editable else None,
        confirm=ConfirmForm(),
        games=games,
        page=page,
        older=older,
        tonight=services.tonight(group),
    )


@bp.get("/<slug>/edit/<token>")
def join(slug: str, token: str) -> ResponseReturnValue:
    """The group's edit link: this phone may add players and games from now on."""
    group = _group(slug)
    if not same_token(token, group.edit_token):
        abort(403, description=_("This edit link is not valid for this group."))
    grant_group(group)
    flash(_("This phone can now add players and games to the group."), "success")
    return redirect(url_for("players.show", slug=slug))


@bp.get("/<slug>/share")
def share(slug: str) -> str:
    """The group's view link and (for a phone that may add) its edit link, with QR codes."""
    group = _group(slug)
    place = current_share_place()
    base = place.base
    view_url = base + url_for("players.show", slug=slug)
    edit_url = base + url_for("players.join", slug=slug, token=group.edit_token)
    editable = can_add(group)
    return render_template(
        "players/share.html",
        group=group,
        view_url=view_url,
        view_qr=_qr(view_url),
        edit_url=edit_url if editable else None,
        edit_qr=_qr(edit_url) if editable else None,
        share_hint=place.hint,
    )


@bp.post("/<slug>/players")
def add_member(slug: str) -> ResponseReturnValue:
    """Add a player to the group."""
    group = _group(slug)
    _require_add(group)
    form = MemberForm()
    if form.validate_on_submit():
        try:
            services.add_member(group, form.clean_name())
        except services.GroupError as error:
            flash(_("Not added: %(reason)s.", reason=error_text(error)), "error")
        else:
            flash(_("%(name)s joined the group.", name=form.clean_name()), "success")
    else:
        problems = [e for errors in form.errors.values() for e in errors]
        reason = translate(problems[0]) if problems else _("reload the page")
        flash(_("Not added: %(reason)s.", reason=reason), "error")
    return redirect(url_for("players.show", slug=slug), 303)


@bp.get("/<slug>/players/<id:member_id>")
def profile(slug: str, member_id: int) -> Response:
    """A player's profile: table games and digital games apart."""
    group = _group(slug)
    member = next((m for m in group.members if m.id == member_id), None)
    if member is None:
        abort(404, description=_("There is no such player in this group."))

    def build() -> str:
        kinds = history.profiles(group.id, member.id)
        return render_template(
            "players/profile.html",
            group=group,
            member=member,
            kinds=kinds,
            names=pages.names(group),
            charts={k: pages.chart(p.series) for k, p in kinds.items()},
        )

    return conditional(group, build)


@bp.get("/<slug>/versus")
def versus(slug: str) -> Response:
    """Two players head to head: games together, wins each, average margin, and their
    games a page at a time (``?page=``, newest first)."""
    group = _group(slug)
    ids = [m.id for m in group.members]
    a = parse_int(request.args.get("a", "0"), 0, 2**31 - 1, say("player"))
    b = parse_int(request.args.get("b", "0"), 0, 2**31 - 1, say("player"))
    page = _page_number()
    pair = (a, b) if a in ids and b in ids and a != b else None

    def build() -> str:
        result = history.head_to_head(group.id, a, b, page) if pair else None
        return render_template(
            "players/versus.html",
            group=group,
            names=pages.names(group),
            pair=pair,
            result=result,
            page=page,
        )

    return conditional(group, build)


def _season(group: Group) -> tuple[SeasonForm, list[figures.LeagueRow]]:
    form = SeasonForm(request.args)
    rows: list[figures.LeagueRow] = []
    if form.validate():
        start, end = form.start.data, form.end.data
        begin = datetime.combine(start, time(), UTC) if start else None
        until = datetime.combine(end, time(), UTC) + timedelta(days=1) if end else None
        rows = history.league(group.id, _naive(begin), _naive(until))
    return form, rows


def _naive(when: datetime | None) -> datetime | None:
    """``when`` as the stored times are kept: UTC without its zone."""
    return when.replace(tzinfo=None) if when is not None else None


@bp.get("/<slug>/season")
def season(slug: str) -> Response:
    """The league table of a season (two dates, or since the group's first game), in the
    group's language when it keeps one."""
    group = _group(slug)
    use_language(group.language)

    def build() -> Response:
        form, rows = _season(group)
        page = render_template(
            "players/season.html", group=group, form=form, rows=rows, names=pages.names(group)
        )
        return Response(page, status=422 if form.errors else 200)

    return conditional(group, build)


@bp.get("/<slug>/season.csv")
def season_csv(slug: str) -> Response:
    """The season's league table as CSV (text cells guarded against spreadsheet formulas)."""
    group = _group(slug)
    use_language(group.language)

    def build() -> Response:
        form, rows = _season(group)
        if form.errors:
            abort(400, description=_("Those dates cannot make a season."))
        return Response(
            pages.season_csv(rows, pages.names(group)),
            mimetype="text/csv",
            headers={"Content-Disposition": 'attachment; filename="season.csv"'},
        )

    return conditional(group, build)


@bp.route("/<slug>/attach", methods=["GET", "POST"])
def attach(slug: str) -> ResponseReturnValue:
    """Attach an existing game: its edit link (or a digital game's address), then its
    players matched by name, confirmed."""
    group = _group(slug)
    _require_add(group)
    form = AttachForm()
    game, found = None, []
    if form.validate_on_submit():
        game = _game_to_attach(form)
        if game is not None and form.confirmed():
            try:
                services.attach(group, game, form.add.data or [])
            except services.GroupError as error:
                flash(_("Not attached: %(reason)s.", reason=error_text(error)), "error")
            else:
                flash(_("Game attached: its figures now count for the group."), "success")
            return redirect(url_for("players.show", slug=slug), 303)
        if game is not None:
            found = [
                replace(m, problem=translate(m.problem)) for m in services.matches(group, game)
            ]
    status = 422 if form.errors else 200
    return render_template(
        "players/attach.html", group=group, form=form, game=game, found=found
    ), status


def _game_to_attach(form: AttachForm) -> Game | DigitalGame | None:
    """The game whose link ``form`` holds, or None with the reason on the link field."""
    try:
        return services.game_to_attach(form.link.data or "")
    except services.GroupError as error:
        form.link.errors = [error_text(error)]
        return None


def _changed_game(slug: str, kind: str, game_id: int) -> Game | DigitalGame:
    """The group's game a button changes, once this phone may add to the group and the
    form's CSRF token holds (403, 400, 404 otherwise)."""
    group = _group(slug)
    _require_add(group)
    if not ConfirmForm().validate_on_submit():
        abort(400, description=_("This form is out of date: reload the page."))
    game = services.game_of(group, kind, game_id)
    if game is None:
        abort(404, description=_("There is no such game in this group."))
    return game


@bp.post("/<slug>/games/<kind>/<id:game_id>/archive")
def archive(slug: str, kind: str, game_id: int) -> ResponseReturnValue:
    """Archive a game in the group (kept, not counted), or bring it back."""
    game = _changed_game(slug, kind, game_id)
    archived = request.form.get("archived") == "yes"
    services.set_archived(game, archived)
    flash(
        _("Game archived: it no longer counts.") if archived else _("Game counts again."), "success"
    )
    return redirect(url_for("players.show", slug=slug), 303)


@bp.post("/<slug>/games/<kind>/<id:game_id>/detach")
def detach(slug: str, kind: str, game_id: int) -> ResponseReturnValue:
    """Take a game out of the group: its figures no longer count here, and its edit link
    may attach it to another group."""
    services.detach(_changed_game(slug, kind, game_id))
    flash(
        _(
            "Game detached: it is no longer in the group and its figures no longer count "
            "here. Its edit link can attach it to a group again."
        ),
        "success",
    )
    return redirect(url_for("players.show", slug=slug), 303)
