"""The spectator board of a digital game on several phones: ``/play/<slug>/watch/<token>``,
for a TV or anyone in the room. It shows the public table only (the melds, the discard
pile, the stock, each seat's hand size and total, whose turn it is, the latest moves in
the words every seat reads) and never a card of any hand, in HTML or JSON (issue 26).

Its token is derived from the host's secret (an HMAC of the game's slug under
``host_token``), so it needs no column of its own, only the host's page shows it, and it
cannot be turned back into the host's or a seat's link. :mod:`.views` adds the routes
to the ``play`` blueprint through :func:`register`. The page stays live as the seats'
pages do: an event stream (``.../events``, woken by the process's one listener,
:mod:`scorekeeper.live.bus`) says the version, and static/table.js swaps in ``.../live``;
it polls ``.../version`` while the stream is down.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Mapping
from dataclasses import replace

from flask import Blueprint, Response, abort, jsonify, render_template, request, url_for
from flask_babel import gettext as _

from ...engine import GameState, current_player, wins
from ...extensions import db
from ...languages.reader import use_language
from ...live.keys import play_key
from ...live.streams import open_stream, since_asked, version_events
from ...models import DigitalGame
from ...web import same_token
from .. import services
from ..board import shared
from ..ending import ending
from ..shown import Ending, SpectatorBoard
from . import services as table_services

SHOWN_MOVES = 8
"""The latest moves the board lists."""


def watch_token(game: DigitalGame) -> str:
    """The spectator token of a table game (24 hex digits); raises ValueError for a game of
    one person (it has no host and no spectator board)."""
    if game.host_token is None:
        raise ValueError("a game of one person has no spectator board")
    key = game.host_token.encode()
    return hmac.new(key, f"watch:{game.slug}".encode(), hashlib.sha256).hexdigest()[:24]


def watch_url(game: DigitalGame) -> str:
    """The spectator board's path for ``game`` (a table game)."""
    return url_for("play.watch", slug=game.slug, token=watch_token(game))


def _watched(slug: str, token: str) -> DigitalGame:
    """The table game watched with ``token``: 404 for no table game, 403 for a wrong token."""
    game = services.get_game(slug)
    if game is None or game.host_token is None:
        abort(404, description=_("There is no table game at this link."))
    if not same_token(token, watch_token(game)):
        abort(403, description=_("This spectator link is not valid for this table."))
    return game


def _public_step(step: Mapping[str, object]) -> dict[str, object]:
    """A move as every seat reads it, without a bot's reason (which may speak of its hand)."""
    public = {
        key: step.get(key, "" if key in ("who", "text", "kind") else []) for key in _STEP_KEYS
    }
    if isinstance(step.get("text_said"), Mapping):
        public["text_said"] = step["text_said"]  # the words to translate (steps.told)
    return public


_STEP_KEYS = ("who", "kind", "text", "cards", "groups")


def paused_round(game: DigitalGame, state: GameState) -> Ending | None:
    """The round just played (:func:`.ending.ending`, without a person's review) while
    ``game`` pauses after it, else None (no pause, or no round kept)."""
    last = services.last_round(game) if game.paused and not game.finished else None
    if last is None:
        return None
    number, record, scored = last
    return ending(number, record, scored, state.players)


def spectator_board(game: DigitalGame, state: GameState) -> SpectatorBoard:
    """The public board (:func:`.board.public`) with no seat's view in it: no "you", no
    cards seen taken; ``turn`` (whose turn, a name, or None), ``moves`` (the latest
    :data:`SHOWN_MOVES` in words), ``over``, ``paused``, ``winner_line`` and, in the
    pause after a round, that round's ``ending`` (:func:`paused_round`; ``round`` is
    then its number, not the next deal's) (:class:`.shown.SpectatorBoard`)."""
    seen = shared(game, state, 0)
    seen = replace(seen, players=tuple(replace(p, you=False, known=()) for p in seen.players))
    turn = current_player(state)
    just_played = paused_round(game, state)
    return SpectatorBoard(
        **vars(seen),
        round=just_played["number"] if just_played else state.deal_number,
        turn=state.players[turn] if turn is not None and not game.paused else None,
        moves=tuple(_public_step(s) for s in game.moves[-SHOWN_MOVES:]),
        over=game.finished,
        paused=game.paused,
        winner_line=wins(state.winner) if state.winner else "",
        ending=just_played,
    )


def _fresh(game: DigitalGame) -> tuple[bool, str]:
    tag = f"w{game.version}"
    return request.if_none_match.contains(tag), tag


def _page(slug: str, token: str, template: str) -> Response:
    """``template`` with the spectator board, ETag of the game's version (304 when current)."""
    game = _watched(slug, token)
    use_language(game.language)
    table_services.catch_up(game)
    fresh, tag = _fresh(game)
    if fresh:
        return Response(status=304, headers={"ETag": f'"{tag}"', "Cache-Control": "no-cache"})
    b = spectator_board(game, services.load_state(game))
    links = {
        "version": url_for("play.watch_version", slug=slug, token=token),
        "live": url_for("play.watch_live", slug=slug, token=token),
        "events": url_for("play.watch_events", slug=slug, token=token),
    }
    response = Response(render_template(template, game=game, b=b, links=links))
    response.set_etag(tag)
    response.headers["Cache-Control"] = "private, no-cache"
    return response


def watch(slug: str, token: str) -> Response:
    """The spectator board: the public table, refreshed as the game moves."""
    return _page(slug, token, "play/watch.html")


def watch_live(slug: str, token: str) -> Response:
    """The spectator board's changing part, swapped in when the version changes."""
    return _page(slug, token, "play/_watch_board.html")


def watch_version(slug: str, token: str) -> Response:
    """``{"version": n}`` of the watched game, ETag ``"w<n>"`` (304 when unchanged); the
    request makes any bot moves due first, as every phone's does."""
    game = _watched(slug, token)
    table_services.catch_up(game)
    fresh, tag = _fresh(game)
    if fresh:
        return Response(status=304, headers={"ETag": f'"{tag}"', "Cache-Control": "no-cache"})
    response = jsonify(version=game.version)
    response.set_etag(tag)
    response.headers["Cache-Control"] = "no-cache"
    return response


def _version_of(game_id: int) -> tuple[int, str | None]:
    """The stored version of the game ``game_id`` (``"gone"`` once it is deleted), read
    in a transaction of its own."""
    found = db.session.execute(
        db.select(DigitalGame.version).where(DigitalGame.id == game_id)
    ).scalar_one_or_none()
    db.session.rollback()
    return (0, "gone") if found is None else (found, None)


def _watch_lines(slug: str, token: str) -> Iterator[str]:
    game = _watched(slug, token)
    table_services.catch_up(game)
    since, game_id = since_asked(), game.id
    db.session.rollback()
    return version_events(play_key(game_id), lambda: _version_of(game_id), since)


def watch_events(slug: str, token: str) -> Response:
    """Server-sent events: ``version`` each time the watched game moves (``end`` with
    ``"gone"`` once it is deleted); 503 with ``Retry-After`` beyond the process's cap
    of streams; 404 or 403 as :func:`watch`."""
    return open_stream(lambda: _watch_lines(slug, token))


def register(bp: Blueprint) -> None:
    """Add the spectator routes to the ``play`` blueprint (:mod:`.views` calls it)."""
    bp.add_url_rule("/<slug>/watch/<token>", view_func=watch)
    bp.add_url_rule("/<slug>/watch/<token>/live", view_func=watch_live)
    bp.add_url_rule("/<slug>/watch/<token>/version", view_func=watch_version)
    bp.add_url_rule("/<slug>/watch/<token>/events", view_func=watch_events)
