"""The services of a table game on several phones: what changes a table, and the only
request-path module of ``play/tables`` that commits: the table started, a phone sitting
down or stamping its contact, a stream counted, a seat given to a bot or back to a
person, the stand-ins' moves caught up, and each process's sweep of its open streams
(see :mod:`.seating`'s glossary).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

from flask import session
from flask_babel import gettext as _
from sqlalchemy import tuple_, update

from ...engine import BOTS, GameSetupError, RulesError, current_player, new_game
from ...extensions import db
from ...languages.reader import error_text
from ...live import bus
from ...live.keys import play_key, seat_key
from ...models import DigitalGame, DigitalSeat, new_token
from ...web import same_token
from .. import refusals, services
from ..seats import BOT_NAMES
from .seating import (
    TOUCH_EVERY,
    Opening,
    SeatChoice,
    Sitting,
    contact_values,
    due_games,
    grace,
    playing_bots,
    seat_rows,
    seated,
    seconds_now,
    token_seat,
)

KEEP_SEATS = 12
"""Seats (and host rights) remembered per phone, newest kept."""


def _people(host: str, seats: Sequence[SeatChoice]) -> list[str]:
    """The people's names in seat order: the host (``"Host"`` when blank), then each
    person's seat of ``seats`` as typed (or ``"Player N"``)."""
    return [host.strip() or "Host"] + [
        s.name.strip() or f"Player {n}" for n, s in enumerate(seats, start=2) if s.level is None
    ]


def _names(host: str, seats: Sequence[SeatChoice]) -> list[str]:
    """Every player's name: the people's (:func:`_people`), each bot a bot name nobody
    else has. Raises :class:`PlayError` when two are the same or a bot has none left."""
    people = _people(host, seats)
    taken = {n.casefold() for n in people}
    spare = iter(n for n in BOT_NAMES if n.casefold() not in taken)
    people_left = iter(people[1:])
    names = [people[0]]
    names += [next(people_left) if c.level is None else next(spare, "") for c in seats]
    if len({n.casefold() for n in names}) != len(names) or "" in names:
        raise refusals.PlayError(_("each player needs a different name"), "D1", "seats")
    return names


def start_table(
    host: str,
    preset: str,
    options: Mapping[str, object],
    seats: Sequence[SeatChoice],
) -> DigitalGame:
    """A new table game: the host in seat 0, then ``seats`` in order (2 to 8 players in
    all, D1; partnership rules: 4, P1), dealt from a seed the server draws
    (:func:`services.drawn_seed`): no seat chooses or learns it before the game ends. Each
    person's seat gets a secret token; the host phone keeps the host token and seat 0's
    token. Raises :class:`PlayError`."""
    unknown = [s.level for s in seats if s.level is not None and s.level not in BOTS]
    if unknown:
        unknown_level = _("there is no bot level %(level)s", level=repr(unknown[0]))
        raise refusals.PlayError(unknown_level, None, "seats")
    names = _names(host, seats)
    seed = services.drawn_seed()
    try:
        state = new_game(names, preset=preset, options=dict(options), seed=seed)
    except RulesError as error:
        where, message = error.problems[0]
        raise refusals.PlayError(message, None, where) from None
    except GameSetupError as error:
        raise refusals.PlayError(error_text(error), "D1", "seats") from None
    game = DigitalGame(
        preset=preset,
        options=dict(options),
        seed=str(seed),
        seed_chosen=False,
        human_seat=0,
        bots=[None, *(s.level for s in seats)],
        state={},
        version=1,
        host_token=new_token(),
    )
    services.first_moves(game, state)
    rows = _person_seats(game, seats)
    db.session.add_all(rows)
    services.check_share()
    db.session.commit()
    assert game.host_token is not None
    _keep("hosts", game.slug, game.host_token)
    _keep("seats", game.slug, rows[0].token)
    services.ask_bots(game, state, playing_bots(game, rows))
    return game


def _person_seats(game: DigitalGame, seats: Sequence[SeatChoice]) -> list[DigitalSeat]:
    """The seat rows of a new table: the host's seat 0 (joined now) and one, not yet
    joined, for each person's seat of ``seats`` (bots have none)."""
    now = seconds_now()
    rows = [DigitalSeat(game_id=game.id, seat=0, joined_at=now, last_seen=now)]
    rows += [
        DigitalSeat(game_id=game.id, seat=n)
        for n, choice in enumerate(seats, start=1)
        if choice.level is None
    ]
    return rows


def _keep(key: str, slug: str, token: str) -> None:
    kept = {k: v for k, v in dict(session.get(key) or {}).items() if k != slug}
    kept[slug] = token
    session[key] = dict(list(kept.items())[-KEEP_SEATS:])
    session.permanent = True


def sitting(game: DigitalGame) -> Sitting:
    """Who this phone is at ``game`` (from its signed session), stamping the contact of
    its seat (:func:`touch`)."""
    if game.host_token is None:
        return Sitting(game.human_seat, None, False, False)
    rows = seat_rows(game)
    seat = token_seat(rows, dict(session.get("seats") or {}).get(game.slug))
    host = same_token(dict(session.get("hosts") or {}).get(game.slug), game.host_token)
    if seat is not None:
        row = next(r for r in rows if r.seat == seat)
        every = min(TOUCH_EVERY, grace() / 4)
        if row.away or row.last_seen is None or seconds_now() - row.last_seen >= every:
            touch(game, seat)
            row.away = False
    return seated(game, rows, seat, host)


def touch(game: DigitalGame, seat: int) -> None:
    """Stamp a contact from ``seat``'s phone: ``last_seen`` now, the person back (no
    longer away), and ``joined_at`` the first time. One UPDATE, committed."""
    now = seconds_now()
    db.session.execute(
        update(DigitalSeat)
        .where(DigitalSeat.game_id == game.id, DigitalSeat.seat == seat)
        .values(**contact_values(now))
        .execution_options(synchronize_session=False)
    )
    db.session.commit()


def new_stream(found: Opening) -> int | None:
    """Count a new event stream of ``found``'s seat and stamp its contact (as
    :func:`touch`) in ONE ``UPDATE ... RETURNING``, committed with the seat's notice (so
    any older stream of the seat, in whichever process, ends: ``replaced``); then, only
    when a stand-in may be due (``found.due``), :func:`catch_up`. The stream's number
    (the seat's newest); None, nothing written, when the seat is no longer ``found``'s
    (given to a bot or a new link meanwhile). Ends the transaction."""
    assert found.seat is not None
    now = seconds_now()
    numbered = db.session.execute(
        update(DigitalSeat)
        .where(
            DigitalSeat.game_id == found.game_id,
            DigitalSeat.seat == found.seat,
            DigitalSeat.token == found.token,
        )
        .values(stream=DigitalSeat.stream + 1, **contact_values(now))
        .returning(DigitalSeat.stream)
        .execution_options(synchronize_session=False)
    ).scalar_one_or_none()
    if numbered is not None:
        bus.moved(seat_key(found.game_id, found.seat))
        db.session.commit()
        game = db.session.get(DigitalGame, found.game_id) if found.due else None
        if game is not None:
            catch_up(game)
    db.session.rollback()
    return numbered


def sit_down(game: DigitalGame, seat: int, token: str) -> bool:
    """The phone that opened seat ``seat``'s link sits there (the token kept in its
    session, the contact stamped); False when the token is not that seat's."""
    rows = [r for r in seat_rows(game) if r.seat == seat]
    if not rows or token_seat(rows, token) != seat:
        return False
    _keep("seats", game.slug, rows[0].token)
    touch(game, seat)
    return True


def _since(game: DigitalGame) -> float:
    """When the game last moved (the turn in play began), in seconds since the epoch."""
    return game.moved_at or seconds_now()


def catch_up(game: DigitalGame) -> bool:
    """What any request does first at a game: at a table game, a person whose turn has
    waited the grace period with no contact is marked away; at any game, the move due
    from a bot (a stand-in, a bot seat) is asked of the queue when it has no job yet
    (the same job asked twice is one: this finds a move whose job was never asked).
    True when a bot is due."""
    if game.paused or game.finished:
        return False
    if game.host_token is None:
        return services.let_bots_play(game, game.bots)
    rows = seat_rows(game)
    late = _late(game, rows)
    if not late and not any(r.away for r in rows):
        return False
    _mark_away(game, late)
    return services.let_bots_play(game, playing_bots(game, rows))


def _late(game: DigitalGame, rows: Sequence[DigitalSeat]) -> list[DigitalSeat]:
    """The person seats of ``rows`` not yet away with no contact for the grace period,
    while the turn in play has waited it too."""
    now, waited = seconds_now(), seconds_now() - _since(game)
    return [
        r for r in rows if not r.away and waited >= grace() and now - (r.last_seen or 0) >= grace()
    ]


def _mark_away(game: DigitalGame, late: Sequence[DigitalSeat]) -> None:
    """Mark away the seat of ``late`` whose turn it is (a stand-in plays it), committed."""
    turn = current_player(services.load_state(game))
    for row in late:
        if row.seat == turn:
            row.away = True
            db.session.commit()


def sweep(contacts: Sequence[bus.Contact], keys: Sequence[str], due: float) -> list[int]:
    """A process's sweep of its open streams (:class:`scorekeeper.live.bus.Wakeups`, every
    :func:`~scorekeeper.live.bus.check_every`): the contact of every seat in ``contacts``
    (game id, seat, stream number: a replaced stream's seat is not stamped) stamped in
    one UPDATE, committed, so a phone in touch is never taken for away; then
    :func:`catch_up` for the games of ``keys`` (the streams' games) where
    :func:`due_games` finds something due, until ``due`` (``time.monotonic``: the next
    sweep's time; the games left catch up then, or at their phones' next request). The
    ids of the games that moved."""
    if contacts:
        now = seconds_now()
        held = tuple_(DigitalSeat.game_id, DigitalSeat.seat, DigitalSeat.stream)
        db.session.execute(
            update(DigitalSeat)
            .where(held.in_(sorted(set(contacts))))
            .values(**contact_values(now))
            .execution_options(synchronize_session=False)
        )
        db.session.commit()
    ids = [int(k.split(":")[1]) for k in keys if k.startswith("play:")]
    moved = []
    for game in due_games(ids):
        if time.monotonic() >= due:
            break
        if catch_up(game):
            moved.append(game.id)
    db.session.rollback()
    return moved


def seat_as_bot(game: DigitalGame, seat: int, level: str) -> None:
    """The host gives seat ``seat`` (not the host's own) to a bot of ``level``: its token
    stops working; the bot moves at once if it is its turn. Raises
    :class:`..refusals.NotAllowed` (403) or :class:`..refusals.StaleGame`."""
    _check_seat(game, seat)
    if level not in BOTS:
        raise refusals.NotAllowed(_("there is no bot level %(level)s", level=repr(level)))
    bots = list(game.bots)
    bots[seat] = level
    _change_bots(game, bots)
    db.session.execute(
        db.delete(DigitalSeat).where(DigitalSeat.game_id == game.id, DigitalSeat.seat == seat)
    )
    db.session.commit()
    services.let_bots_play(game, playing_bots(game, seat_rows(game)))


def seat_for_person(game: DigitalGame, seat: int) -> None:
    """The host makes seat ``seat`` a person's seat with a new secret link (a bot's seat
    given back to a person, or a person removed: the old link and phone no longer sit
    there). Raises :class:`..refusals.NotAllowed` (403) or :class:`..refusals.StaleGame`."""
    _check_seat(game, seat)
    bots = list(game.bots)
    bots[seat] = None
    _change_bots(game, bots)
    db.session.execute(
        db.delete(DigitalSeat).where(DigitalSeat.game_id == game.id, DigitalSeat.seat == seat)
    )
    db.session.add(DigitalSeat(game_id=game.id, seat=seat))
    db.session.commit()


def _check_seat(game: DigitalGame, seat: int) -> None:
    if not 1 <= seat < len(game.bots):
        raise refusals.NotAllowed(_("choose another player's seat (the host keeps seat 1)"))


def _change_bots(game: DigitalGame, bots: list[str | None]) -> None:
    """Write the seats' levels as a new version (other phones see the change)."""
    version = game.version
    done = db.session.execute(
        update(DigitalGame)
        .where(DigitalGame.id == game.id, DigitalGame.version == version)
        .values(bots=bots, version=version + 1, moved_at=seconds_now())
        .execution_options(synchronize_session=False)
    )
    if getattr(done, "rowcount", 1) != 1:
        db.session.rollback()
        raise refusals.StaleGame()
    bus.moved(play_key(game.id))
    game.bots, game.version = bots, version + 1


KEEP_GAMES = 12
"""Games remembered per phone (session cookie), newest kept, listed on /play."""


def remember(game: DigitalGame) -> None:
    """Keep ``game`` among this phone's games (its signed session), listed on /play."""
    played = [s for s in session.get("played", []) if s != game.slug]
    session["played"] = [*played, game.slug][-KEEP_GAMES:]
    session.permanent = True
