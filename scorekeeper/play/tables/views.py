"""The routes of a game on several phones (:mod:`.views` adds them to the ``play``
blueprint through :func:`register`): the host sets the table up, every person's seat has
a link and QR code, the host's page shows who has joined and swaps seats between people
and bots (:mod:`scorekeeper.play.tables.seating`)."""

from __future__ import annotations

from dataclasses import replace

from flask import Blueprint, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from werkzeug.wrappers import Response as WerkzeugResponse

from ...extensions import csrf, limiter, new_games_limit
from ...hosting.addresses import current_share_place, qr_svg
from ...languages.places import change_place_language
from ...models import DigitalGame
from .. import estimate, refusals, services
from ..forms import MoveForm
from ..seats import shown_levels
from . import seating, watch
from . import services as table_services
from .forms import NewTableForm


def _table_game(slug: str) -> DigitalGame:
    """The table game at ``slug``; raises :class:`..refusals.NoGame` (the play
    blueprint's error handlers answer every refusal, :func:`scorekeeper.play.views.refused`)."""
    game = services.get_game(slug)
    if game is None or game.host_token is None:
        raise refusals.NoGame(_("There is no table game at this link."))
    return game


def new_table() -> ResponseReturnValue:
    """Set up a table for several phones: the rules, then who sits where (people, bots)."""
    form = NewTableForm()
    reading = estimate.phone_reading(services.games_by_slugs(session.get("played", [])))
    form.label_match(reading.match_label)
    if form.validate_on_submit():
        seats = [seating.SeatChoice(n, reading.chosen(lv)) for n, lv in form.seats()]
        try:
            game = table_services.start_table(
                form.name.data or "", form.preset.data, form.options(), seats
            )
        except refusals.PlayError as error:
            form.field_for(error.where).errors.append(error.message)
        else:
            table_services.remember(game)
            return redirect(url_for("play.table_seats_page", slug=game.slug))
    status = 422 if form.is_submitted() else 200
    page = {"form": form, "levels": shown_levels()}
    return render_template("play/new_table.html", **page), status


def table_seats_page(slug: str) -> str:
    """Who sits where and who has joined; on the host's phone each person's secret link
    with its QR code, and the buttons that swap a seat between a person and a bot."""
    game = _table_game(slug)
    sitting = table_services.sitting(game)
    if sitting.seat is None:
        raise refusals.NotSeated()
    place = current_share_place()
    base = place.base
    seats = [
        _with_link(seat, slug, base) if sitting.host else seat for seat in seating.seat_list(game)
    ]
    watching = watch.watch_url(game) if sitting.host else None
    spectator = base + watching if watching else None
    return render_template(
        "play/seats.html",
        watching=watching,
        spectator=spectator,
        spectator_qr=qr_svg(spectator) if spectator else None,
        game=game,
        seats=seats,
        sitting=sitting,
        levels=shown_levels(),
        standin=seating.STANDIN_TITLE,
        form=MoveForm(version=game.version, formdata=None),
        share_hint=place.hint,
    )


def _with_link(seat: seating.SeatLine, slug: str, base: str) -> seating.SeatLine:
    """``seat`` with its secret link and QR code on the host's page (a person's seat but
    the host's own: the host's phone already sits there)."""
    if seat.row is None or not seat.seat:
        return seat
    link = base + url_for("play.sit", slug=slug, seat=seat.seat, token=seat.row.token)
    return replace(seat, link=link, qr=qr_svg(link))


def sit(slug: str, seat: int, token: str) -> WerkzeugResponse:
    """A seat's secret link: this phone sits there (kept in its session), then plays."""
    game = _table_game(slug)
    if not table_services.sit_down(game, seat, token):
        raise refusals.NotAllowed(_("This seat's link is no longer valid: ask the host for it."))
    table_services.remember(game)
    return redirect(url_for("play.show", slug=slug), 303)


def change_seat(slug: str, seat: int) -> WerkzeugResponse:
    """The host gives a seat to a bot (``make`` a level), or to a person with a new link
    (``make=person``: a bot's seat back to a person, or a person removed). Refusals
    (403) are raised: :func:`scorekeeper.play.views.refused` answers them."""
    game = _table_game(slug)
    if not table_services.sitting(game).host:
        raise refusals.NotAllowed(_("Only the host's phone changes the seats."))
    make = request.form.get("make", "")
    if make == "person":
        table_services.seat_for_person(game, seat)
    else:
        table_services.seat_as_bot(game, seat, make)
    return redirect(url_for("play.table_seats_page", slug=slug), 303)


def table_language(slug: str) -> ResponseReturnValue:
    """The host keeps the language of the table's spectator board (its TV), and goes back
    to the seats; another phone is refused (403)."""
    game = _table_game(slug)
    if not table_services.sitting(game).host:
        raise refusals.NotAllowed(_("Only the host's phone chooses the table's language."))
    return change_place_language(game, url_for("play.table_seats_page", slug=slug))


csrf.exempt(table_language)  # the form checks its own token: a stale one is told, not a 400


def register(bp: Blueprint) -> None:
    """Add these routes to the ``play`` blueprint (:mod:`.views` calls it)."""
    limited = limiter.limit(new_games_limit, methods=["POST"])(new_table)
    bp.add_url_rule("/table", view_func=limited, methods=["GET", "POST"])
    bp.add_url_rule("/<slug>/seats", view_func=table_seats_page)
    bp.add_url_rule("/<slug>/sit/<int:seat>/<token>", view_func=sit)
    bp.add_url_rule("/<slug>/seats/<int:seat>", view_func=change_seat, methods=["POST"])
    bp.add_url_rule("/<slug>/seats/language", view_func=table_language, methods=["POST"])
