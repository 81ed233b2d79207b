"""Scorekeeping at a real table: games, rounds, corrections, sharing, export and import.

A game is reached by its view link (``/games/<view token>``, watch only); its edit link
(``/games/<view token>/edit/<edit token>``) stores the right to change it in this
phone's session. Every change is a POST carrying the game's version.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException
from wtforms import Field

from ..extensions import db
from ..groups.members import group_of_new_game, usual_rules, with_picked
from ..groups.services import start_in_group
from ..hosting import assets
from ..hosting.addresses import current_share_place, qr_svg
from ..inputs import MAX_VERSION, parse_int
from ..languages.reader import use_language
from ..models import Game, Group, Round
from ..web import same_token
from . import changes, deal_melds, entry, files, game_language, nights, page, tv
from . import services as sheet
from .changes import change_words
from .entry import Submitted
from .forms import ConfirmForm, NewGameForm, RoundForm
from .mine import remember
from .result import money_text, picture
from .rights import can_edit, grant, require_edit
from .round_inputs import (
    credited,
    meld_names,
    place_errors,
    read_round,
    round_form,
    where_in_words,
)

bp = Blueprint("table", __name__)
files.register(bp)  # a game as a file: export and import
tv.register(bp)  # the TV / big-screen view
game_language.register(bp)  # the language of the TV and the shared result
deal_melds.register(bp)  # the melds a round by cards is tapped into
nights.register(bp)  # a game's night (its room code, its next game) for the templates
changes.register(bp)  # a change in the history in the reader's words


# ---- helpers ---------------------------------------------------------------------------


def _game(slug: str, rounds: bool = True) -> Game:
    game = sheet.get_game(slug, rounds=rounds)
    if game is None:
        abort(404, description=_("There is no game at this link."))
    return game


def _version(field: Field) -> int:
    return parse_int(field.data, 0, MAX_VERSION, "version")


def _confirmed_version() -> int:
    """The game version a confirm button (delete, undo) was pressed on; 400 when the form
    is stale or tampered with."""
    form = ConfirmForm()
    if not form.validate():
        abort(400, description=_("This form is out of date: reload the page."))
    return _version(form.version)


bp.add_app_template_filter(where_in_words, "where")
bp.add_app_template_filter(credited, "credited")
bp.add_app_template_filter(money_text, "money")


@bp.errorhandler(400)
@bp.errorhandler(403)
@bp.errorhandler(404)
def refused(error: HTTPException) -> ResponseReturnValue:
    """A refusal with its reason (a view link used to edit, an unknown game or round), as
    JSON when the page's script asked (:mod:`.entry`); ``error`` one of the three
    registered codes."""
    status = error.code or 400
    if entry.wants_json():
        return entry.refused(status, "refused", error.description or "")
    return render_template("table/refused.html", error=error), status


# ---- pages -----------------------------------------------------------------------------


@bp.route("/games/new", methods=["GET", "POST"])
def create() -> ResponseReturnValue:
    """Start a game: players, preset, house rules, target, first dealer, stake; for a
    group (``?group=``), its players ticked and its usual rules, guests typed."""
    group = group_of_new_game(request.args.get("group"))
    if group is None:
        form = NewGameForm()
    elif request.method == "POST":
        form = NewGameForm(formdata=with_picked(request.form, group))
    else:
        form = NewGameForm(data=usual_rules(group))
    status = 200
    if form.validate_on_submit():
        try:
            game = sheet.start_game(
                form.names(),
                form.preset.data,
                form.changed_options(),
                first_dealer=int(form.first_dealer.data),
                stake=form.stake.data,
                title=form.clean_title(),
            )
        except sheet.SaveFailed as error:
            flash(error.problems[0][1], "error")
            status = 503
        except sheet.ScoresheetError as error:
            form.preset.errors = [m for _where, m in error.problems]
        else:
            if group is not None:
                start_in_group(game, group)
            grant(game)
            flash(_("Game started. Share the links so other phones can follow."), "success")
            return redirect(url_for("table.show", slug=game.view_token))
    status = 422 if form.is_submitted() and status == 200 else status
    if group is not None:
        form.name_dealers(form.names() if form.is_submitted() else [m.name for m in group.members])
    return render_template("table/new.html", form=form, group=group), status


@bp.get("/games/<slug>")
def show(slug: str) -> Response:
    """The game page: standings, the latest rounds, chart, house rules; refreshes by
    itself; 304 when the phone's copy is of the game's current version."""
    game = _game(slug, rounds=False)
    remember(game)
    return page.answer(game, "table/show.html", entry=True)


@bp.get("/games/<slug>/live")
def live(slug: str) -> Response:
    """The part of the game page that changes, for the page's refresh (304 as the page)."""
    return page.answer(_game(slug, rounds=False), "table/_live.html")


@bp.get("/games/<slug>/result.svg")
def result_picture(slug: str) -> Response:
    """A finished game's final standings as an SVG picture for a group chat (the view
    link's right); 404 while the game is being played."""
    game = _game(slug, rounds=False)
    use_language(game.language)
    found = page.final_result(game)
    if found is None:
        abort(404, description=_("This game has no result yet: nobody has won."))
    return Response(picture(found), mimetype="image/svg+xml")


@bp.get("/games/<slug>/version")
def version(slug: str) -> Response:
    """The game's version as JSON, polled by watching phones (304 when unchanged)."""
    number = sheet.game_version(slug)
    if number is None:
        abort(404, description=_("There is no game at this link."))
    tag = f"v{number}"
    if tag in request.if_none_match:
        return page.not_modified(tag)
    return page.conditional(json.dumps({"version": number}), tag, "application/json")


SHELL_FILES = (
    "style.css",
    "theme.js",
    "table.css",
    "table.js",
    "entry.js",
    "manifest.webmanifest",
    "icon.svg",
)
"""The static files the service worker keeps from its install on (the game page's shell)."""


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker (static/sw.js) served from the root, so that it may keep the
    game pages for reading offline; named by the build, its shell's URLs hashed
    (:func:`scorekeeper.hosting.assets.service_worker`), and revalidated on every load."""
    script = assets.service_worker(SHELL_FILES)
    return Response(script, mimetype="text/javascript", headers={"Cache-Control": "no-cache"})


@bp.get("/games/<slug>/edit/<token>")
def join(slug: str, token: str) -> ResponseReturnValue:
    """The edit link: remember on this phone the right to change the game."""
    game = _game(slug)
    if not same_token(token, game.edit_token):
        abort(
            403,
            description=_(
                "This edit link is not valid for this game (a newer edit link "
                "may have replaced it)."
            ),
        )
    grant(game)
    flash(_("This phone can now change the scores of this game."), "success")
    return redirect(url_for("table.show", slug=slug))


@bp.get("/games/<slug>/share")
def share(slug: str) -> str:
    """The view and edit links, each with a QR code to scan across the table, at
    ``PUBLIC_URL`` or this machine's LAN address (never 127.0.0.1 while another exists)."""
    game = _game(slug)
    place = current_share_place()
    base = place.base
    view_url = base + url_for("table.show", slug=slug)
    edit_url = base + url_for("table.join", slug=slug, token=game.edit_token)
    editable = can_edit(game)
    return render_template(
        "table/share.html",
        game=game,
        view_url=view_url,
        view_qr=qr_svg(view_url),
        edit_url=edit_url if editable else None,
        edit_qr=qr_svg(edit_url) if editable else None,
        share_hint=place.hint,
        renew=ConfirmForm(version=game.version) if editable else None,
        room_code=_room_code(game),
    )


def _room_code(game: Game) -> str | None:
    """The room code of the game's night (the game given a night if it has none); None
    when the database could not give one (the page is shown without it)."""
    try:
        return sheet.night_of(game).code
    except sheet.SaveFailed:
        return None


@bp.post("/games/<slug>/share/new-edit-link")
def renew_edit_link(slug: str) -> ResponseReturnValue:
    """A new edit link: the old one (and every phone holding it) can only watch now."""
    game = _game(slug)
    require_edit(game)
    if not ConfirmForm().validate():
        abort(400, description=_("This form is out of date: reload the page."))
    sheet.renew_edit_token(game)
    grant(game)
    flash(_("New edit link made: the old one no longer changes the game."), "success")
    return redirect(url_for("table.share", slug=slug), 303)


# ---- rounds ----------------------------------------------------------------------------


def _round_form(game: Game, mode: str, round_: Round | None) -> RoundForm:
    stored = round_.input if round_ is not None and round_.mode == mode else None
    data: dict[str, object] | None = None
    if request.method == "GET":
        data = {"mode": mode, "version": game.version}
        if round_ is not None:
            data["round_version"] = round_.version
    slots = (
        parse_int(request.form.get("meld_slots", "0"), 0, 99, "meld rows"),
        parse_int(request.form.get("layoff_slots", "0"), 0, 99, "lay-off rows"),
    )
    rules = sheet.rules_of(game)
    return round_form(sheet.names_of(game), rules.seven_card_straight, mode, stored, data, slots)


def _enter_round(game: Game, round_: Round | None) -> ResponseReturnValue:
    """The record / correct page: a form, a preview, then one save (JSON for the game
    page's script, :mod:`.entry`)."""
    require_edit(game)
    default = round_.mode if round_ is not None else game.entry_mode
    mode = request.values.get("mode") or default
    if mode not in sheet.MODES:
        if request.method == "POST":
            abort(400, description=_("A round is entered as net, totals or cards."))
        mode = default
    form = _round_form(game, mode, round_)
    preview: dict[str, object] | None = None
    problems: list[str] = []
    status = 200
    if form.is_submitted():
        slug = game.view_token
        answered, preview, problems = _submit_round(game, round_, mode, form)
        if isinstance(answered, Response):
            return answered
        status = answered
        if status == 303:
            return redirect(url_for("table.show", slug=slug), 303)
        if entry.wants_json():
            return entry.invalid(form, problems, sheet.names_of(game))
    return render_template(
        "table/round.html",
        game=game,
        form=form,
        mode=mode,
        round=round_,
        preview=preview,
        problems=problems,
        names=sheet.names_of(game),
        rules=sheet.rules_of(game),
        number=sheet.round_number(round_) if round_ is not None else None,
    ), status


def _submit_round(game: Game, round_: Round | None, mode: str, form: RoundForm) -> Submitted:
    """Preview or save a posted round: ``(status or JSON answer, preview, problems)``."""
    if not form.validate():
        return 422, None, [_(entry.FIX_FIELDS)]
    data, fields, early = read_round(form, mode, sheet.names_of(game))
    if early:
        return 422, None, place_errors(form, {k: k for k, _problem in early}, early)
    try:
        if request.form.get("action") != "save":
            return _preview(game, round_, mode, data, form, fields)
        return _save(game, round_, mode, data, form), None, []
    except sheet.ScoresheetError as error:
        return entry.refusal(game, round_, form, fields, error)


def _preview(
    game: Game,
    round_: Round | None,
    mode: str,
    data: Mapping[str, object],
    form: RoundForm,
    fields: dict[str, str],
) -> Submitted:
    """The figures a posted round would get; as JSON for the page's script, with who
    went out as the server counted it (told, or inferred: :func:`.forms` O1)."""
    figures = sheet.preview_round(game, mode, data, replacing=round_)
    names = sheet.names_of(game)
    if entry.wants_json():
        html = render_template("table/_preview.html", preview=figures, names=names)
        return entry.answer(200, html=html, went_out=form.went_out.data), None, []
    form.meld_names = meld_names(fields, names)
    return 200, figures, []


def _save(
    game: Game, round_: Round | None, mode: str, data: Mapping[str, object], form: RoundForm
) -> int | Response:
    """Store a posted round, new or corrected: 303, or the JSON answer (:mod:`.entry`)."""
    if round_ is not None:
        sheet.correct_round(game, round_, mode, data, _version(form.round_version))
        flash(_("Round corrected; the totals after it were recomputed."), "success")
        return 303
    nonce, version = form.nonce.data or "", _version(form.version)
    if not entry.wants_json():
        sheet.record_round(game, mode, data, nonce, version)
        flash(_("Round saved."), "success")
        return 303
    saved = sheet.record_round(game, mode, data, nonce, version, shown=page.SHOWN)
    undo = url_for("table.undo", slug=game.view_token, change_id=saved.change)
    return entry.saved(game, saved, undo)


@bp.route("/games/<slug>/rounds/new", methods=["GET", "POST"])
def record_round(slug: str) -> ResponseReturnValue:
    """Record a round, by net, totals or cards (the game page's entry saves here too)."""
    return _enter_round(_game(slug, rounds=False), None)


def _round(game: Game, round_id: int) -> Round:
    found = next((r for r in game.rounds if r.id == round_id), None)
    return found or abort(404, description=_("There is no such round in this game."))


@bp.route("/games/<slug>/rounds/<id:round_id>/edit", methods=["GET", "POST"])
def correct_round(slug: str, round_id: int) -> ResponseReturnValue:
    """Correct a round; the totals after it are recomputed."""
    game = _game(slug)
    round_ = _round(game, round_id)
    if round_.deleted:
        abort(404, description=_("That round was deleted: undo the deletion in the history."))
    return _enter_round(game, round_)


@bp.post("/games/<slug>/rounds/<id:round_id>/delete")
def delete_round(slug: str, round_id: int) -> ResponseReturnValue:
    """Delete a round (kept in the history, can be undone)."""
    game = _game(slug)
    require_edit(game)
    round_ = _round(game, round_id)
    try:
        sheet.delete_round(game, round_, _confirmed_version())
        flash(_("Round deleted. It is kept in the history, where you can undo this."), "success")
    except sheet.ScoresheetError as error:
        flash(error.problems[0][1], "error")
    return redirect(url_for("table.show", slug=slug), 303)


@bp.get("/games/<slug>/history")
def history(slug: str) -> str:
    """Every change to the game's rounds, newest first, each with an undo button."""
    game = _game(slug)
    return render_template(
        "table/history.html",
        game=game,
        changes=list(reversed(game.changes)),
        editable=can_edit(game),
        confirm=ConfirmForm(version=game.version),
    )


@bp.post("/games/<slug>/history/<id:change_id>/undo")
def undo(slug: str, change_id: int) -> ResponseReturnValue:
    """Undo one change from the history."""
    game = _game(slug)
    require_edit(game)
    change = next((c for c in game.changes if c.id == change_id), None)
    if change is None:
        abort(404, description=_("There is no such change in this game's history."))
    try:
        sheet.undo_change(game, change, _confirmed_version())
    except sheet.ScoresheetError as error:
        if entry.wants_json():
            return entry.refused(409, "refused", error.problems[0][1], version=game.version)
        flash(error.problems[0][1], "error")
    else:
        message = _("Undone: %(change)s.", change=change_words(change.summary))
        if entry.wants_json():
            live = render_template("table/_live.html", **page.page(game).context())
            return entry.answer(200, version=game.version, live=live, message=message)
        flash(message, "success")
    return redirect(url_for("table.history", slug=slug), 303)


@bp.post("/games/<slug>/again")
def play_again(slug: str) -> ResponseReturnValue:
    """A new game with the same players and rules, in the same night (the TV and the
    watching phones of this game move to it) and the same group."""
    game = _game(slug)
    require_edit(game)
    if not ConfirmForm().validate():
        abort(400, description=_("This form is out of date: reload the page."))
    try:
        new = sheet.play_again(game)
    except sheet.ScoresheetError as error:
        flash(error.problems[0][1], "error")
        return redirect(url_for("table.show", slug=slug), 303)
    group = db.session.get(Group, game.group_id) if game.group_id is not None else None
    if group is not None:
        start_in_group(new, group)
    grant(new)
    flash(
        _("New game with the same players and rules: the TV and the watching phones follow."),
        "success",
    )
    return redirect(url_for("table.show", slug=new.view_token), 303)
