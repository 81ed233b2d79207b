"""The TV / big-screen view of a table game: ``/games/<view token>/tv``, landscape and
readable across a room with 2 to 8 players or two sides, on one screen without scrolling
(standings with progress to the target, the last round's full change with its bonuses,
the next dealer or Persian's "Deal 1 of 2", a QR code of the view link; once the game is
over the winner and who pays whom; the night's room code, and between games tonight's
tally). The table blueprint
(:data:`scorekeeper.table.views.bp`) takes these routes through :func:`register`.

It needs only the view link (the view token is in its URL) and never offers a change. It
stays live as a table's phones do: an event stream (``/games/<slug>/tv/events``, woken
by the process's one listener when a round is saved, corrected or deleted,
:mod:`scorekeeper.live.bus`) says the version and static/table.js swaps in
``/games/<slug>/tv/live``; it polls ``/games/<slug>/version`` while the stream is down.
Once the night's next game exists ("Play again" takes this game's next version), the
swapped-in part carries a link to the next game's TV view and static/night.js follows
it (:mod:`.nights`).
"""

from __future__ import annotations

from collections.abc import Iterator

from flask import Blueprint, Response, abort, render_template, request, url_for
from flask_babel import gettext as _

from ..engine import N_
from ..extensions import db
from ..hosting.addresses import qr_svg, share_base
from ..languages.reader import chosen_language, number, translate, use_language
from ..live.keys import table_key
from ..live.streams import open_stream, since_asked, version_events
from ..models import Game
from . import page
from . import services as sheet
from .result import last_change, money_text
from .sheets import last_figures
from .standings import Standings


def _view(slug: str) -> Game:
    game = sheet.get_game(slug, rounds=False)
    if game is None:
        abort(404, description=_("There is no game at this link."))
    return game


def why_won(outcome: str, winner_line: str) -> str:
    """The reason in the engine's ``outcome`` of the last round, said under the banner's
    ``winner_line`` ("Ann wins") without naming the winner again: "Ann wins (reached the
    target)" gives "Reached the target", "Ann & Cat win after two deals" "After two
    deals"; an outcome of another form is given as it is."""
    if not winner_line or not outcome.startswith(winner_line):
        return str(translate(outcome))
    reason = outcome[len(winner_line) :].strip().strip("()").strip()
    if reason in REASONS:
        return str(_(REASONS[reason]))
    return reason[:1].upper() + reason[1:]


REASONS = {
    "reached the target": N_("Reached the target"),
    "went out": N_("Went out"),
    "highest score": N_("Highest score"),
    "after two deals": N_("After two deals"),
}
"""The reasons the engine gives for a win (G1, G2, P5), as the TV says them under the
winner's name."""


PAYS = {
    (False, False): N_("pays %(payee)s %(points)s"),
    (False, True): N_("pays %(payee)s %(points)s (%(money)s)"),
    (True, False): N_("pay %(payee)s %(points)s"),
    (True, True): N_("pay %(payee)s %(points)s (%(money)s)"),
}
"""A loser's part in the settlement on its TV card (its name is the card's), by (a side
pays, with money)."""


def settled(st: Standings) -> dict[str, str]:
    """Once the game is won, each unit's part in the settlement (G3, the engine's
    ``settle`` through the standings) as its card on the TV says it: a loser's
    ``"pays Ann 120"`` (with the money at the game's stake), the winner's ``"collects
    340"`` (its sum in plain digits, as the TV has always said it); empty before."""
    said: dict[str, str] = {}
    collected = 0
    for payer, payee, points, money in st.settlement:
        sentence = PAYS[" & " in payer, money is not None]
        figures = {"payee": payee, "points": number(points), "money": money_text(money)}
        said[payer] = _(sentence, **figures)
        collected += points
    if st.winner and st.settlement:
        said[st.winner] = _("collects %(points)s", points=collected)
    return said


def tv_page(game: Game) -> dict[str, object]:
    """What the TV templates (table/tv.html, table/_tv_live.html) are given: the game
    page's figures (:func:`.page.page`), the ``last`` round's row (None before the first
    round), its full ``change`` with its bonuses (:func:`.result.last_change`: P5's 50
    counted in, as the engine explains it), each unit's part in the settlement
    (``settled``, :func:`settled`), once the game is over ``why``, the reason it was won
    (:func:`why_won`), and the ``tv_live`` and ``tv_events`` URLs."""
    shown = page.page(game)
    rows, rounds, st = shown.rows, shown.rounds, shown.standings
    outcome = (rounds[-1].figures or {}).get("outcome", "") if rounds and game.winner else ""
    figures = (rounds[-1].figures or last_figures(game)) if rounds else None
    return shown.context() | {
        "last": rows[-1] if rows else None,
        "change": last_change(st, shown.count, figures, shown.teams),
        "settled": settled(st),
        "why": why_won(outcome, st.winner_line),
        "tv_live": url_for("table.tv_live", slug=game.view_token),
        "tv_events": url_for("table.tv_events", slug=game.view_token),
    }


def _answer(game: Game, template: str, **extra: object) -> Response:
    """``template`` for ``game`` with an ETag of the game's version (304 when the TV's
    copy is current; the TV reads in the game's language, and the tag names it)."""
    use_language(game.language)
    tag = f"tv{game.id}v{game.version}-{chosen_language()}"
    if tag in request.if_none_match:
        return page.not_modified(tag)
    return page.conditional(render_template(template, **tv_page(game), **extra), tag)


def show_tv(slug: str) -> Response:
    """The TV page: the standings, the last round and the next deal, with a QR code of
    the view link for phones in the room and the room code of the game's night (the
    game given a night if it has none); 404 for an unknown link."""
    game = _view(slug)
    view_url = share_base() + url_for("table.show", slug=slug)
    try:
        code = sheet.night_of(game).code
    except sheet.SaveFailed:
        code = None
    return _answer(
        game,
        "table/tv.html",
        view_url=view_url,
        view_qr=qr_svg(view_url),
        room_code=code,
        join_url=share_base() + url_for("home.index"),
    )


def tv_live(slug: str) -> Response:
    """The TV page's changing part, swapped in when the game's version changes."""
    return _answer(_view(slug), "table/_tv_live.html")


def _version_of(slug: str) -> tuple[int, str | None]:
    """The game's stored version (``"gone"`` once deleted), in a transaction of its own."""
    number = sheet.game_version(slug)
    db.session.rollback()
    return (0, "gone") if number is None else (number, None)


def _tv_lines(slug: str) -> Iterator[str]:
    game = _view(slug)
    since, key = since_asked(), table_key(game.id)
    db.session.rollback()
    return version_events(key, lambda: _version_of(slug), since)


def tv_events(slug: str) -> Response:
    """Server-sent events: ``version`` each time a round is saved, corrected or deleted
    (``end`` with ``"gone"`` once the game is deleted); 503 with ``Retry-After`` beyond
    the process's cap of streams; 404 for an unknown link."""
    return open_stream(lambda: _tv_lines(slug))


def register(bp: Blueprint) -> None:
    """Add the TV routes to the table blueprint (:mod:`.views` calls it)."""
    bp.add_url_rule("/games/<slug>/tv", view_func=show_tv)
    bp.add_url_rule("/games/<slug>/tv/live", view_func=tv_live)
    bp.add_url_rule("/games/<slug>/tv/events", view_func=tv_events)
