"""Building a game at a real table in memory, nothing committed: a new game's rows, a game
imported from an export (every round scored once, in order), and games written in bulk.
The services (:mod:`.services`) add and commit them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import TypedDict

from flask_babel import gettext as _
from sqlalchemy import insert, inspect

from ..engine import N_, RulesError, RuleSet, ruleset
from ..extensions import db
from ..models import Change, Game, Player, Round, now_utc
from .errors import ScoresheetError
from .round_scores import score_input, summary_of
from .sheets import state_of


class ExportParts(TypedDict):
    """A game's export as :func:`scorekeeper.table.exchange.read_export` checked it: its
    ``title``, ``preset`` and house rules (``options``), the players' ``names`` in seat
    order, ``sides`` (0/1 per seat, P1, or None), the ``first_dealer``'s seat, the
    ``stake`` (or None) and its ``rounds`` as ``(mode, input)``, oldest first."""

    title: str
    preset: str
    options: dict[str, object]
    names: list[str]
    sides: list[int] | None
    first_dealer: int
    stake: Decimal | None
    rounds: list[tuple[str, dict[str, object]]]


def first_entry_mode(rules: RuleSet) -> str:
    """How a new game's page asks for its first round: "totals" (shown / in hand) where
    the app adds a bonus the table would otherwise fold into a net figure by hand (P4,
    the going-out bonus of Persian rummy), else "net"."""
    return "totals" if rules.going_out_bonus else "net"


def new_game(
    names: Sequence[str],
    preset: str,
    options: Mapping[str, object],
    first_dealer: int,
    stake: Decimal | None,
    sides: Sequence[int] | None,
    title: str,
) -> Game:
    """A game built in memory, in no session; raises :class:`ScoresheetError`."""
    try:
        rules = ruleset(preset, options)
    except RulesError as error:
        raise ScoresheetError(error.problems) from None
    problems = []
    if not 2 <= len(names) <= rules.max_players or len(set(names)) != len(names):
        problems.append(
            (
                "players",
                _("2 to %(most)s players, each named differently", most=rules.max_players),
            )
        )
    if rules.partnership and (sides is None or sorted(sides) != [0, 0, 1, 1]):
        problems.append(("sides", _("partnership play needs two sides of two (P1)")))
    if problems:
        raise ScoresheetError(problems)
    game = Game(
        title=title,
        preset=preset,
        options=dict(options),
        first_dealer=first_dealer,
        stake=str(stake) if stake else None,
        entry_mode=first_entry_mode(rules),
    )
    for seat, name in enumerate(names):
        side = sides[seat] if rules.partnership and sides else None
        game.players.append(Player(seat=seat, name=name, side=side))
    return game


def write_games(games: Sequence[Game]) -> list[int]:
    """Write ``games``, built in memory (:func:`imported_game`: no session holds them),
    with their players, rounds and history, in bulk: one multi-row INSERT a table
    (SQLAlchemy's bulk INSERT, ids returned in order) instead of the session's unit of
    work object by object, so a group's import holds the database's write lock for as
    short as it can. The caller commits; the games' ids, in order."""
    ids = _inserted(Game, [_columns(g) for g in games])
    players, rounds = [], []
    for game_id, game in zip(ids, games, strict=True):
        players += [_columns(p) | {"game_id": game_id} for p in game.players]
        rounds += [(game_id, r) for r in game.rounds]
    if players:
        db.session.execute(insert(Player), players)
    round_ids = _inserted(Round, [_columns(r) | {"game_id": g} for g, r in rounds])
    by_round = {id(r): (g, new) for (g, r), new in zip(rounds, round_ids, strict=True)}
    changes = []
    for game in games:
        for change in game.changes:
            game_id, round_id = by_round[id(change.round)]
            changes.append(_columns(change) | {"game_id": game_id, "round_id": round_id})
    if changes:
        db.session.execute(insert(Change), changes)
    return ids


PARENTS = frozenset({"game_id", "round_id"})
"""The columns :func:`write_games` sets itself (the new ids of a row's game and round)."""


def _columns(row: Game | Player | Round | Change) -> dict[str, object]:
    """A row built in memory as its table's columns (no id, nor its game's or round's:
    :data:`PARENTS`, set by the caller), each column's default filled in where the row
    left it unset."""
    values = {}
    for column in inspect(type(row)).columns:
        if column.primary_key or column.key in PARENTS:
            continue
        value = getattr(row, column.key)
        default = column.default
        if value is None and default is not None and getattr(default, "is_scalar", False):
            value = default.arg
        elif value is None and default is not None and getattr(default, "is_callable", False):
            value = default.arg(None)
        values[column.key] = value
    return values


def _inserted(model: type[Game] | type[Round], rows: list[dict[str, object]]) -> list[int]:
    """INSERT ``rows`` into ``model``'s table in bulk; their new ids, in order."""
    if not rows:
        return []
    returning = insert(model).returning(model.id, sort_by_parameter_order=True)
    return list(db.session.execute(returning, rows).scalars())


def imported_game(parts: ExportParts) -> Game:
    """The game of an export read by :func:`scorekeeper.table.exchange.read_export`, built
    in memory, in no session (the caller adds it: a group's import adds several at once,
    after every one is checked): every round scored by the engine once, in order,
    chaining the running totals (linear in the rounds). Raises
    :class:`ScoresheetError` naming the refused round."""
    game = new_game(
        parts["names"],
        parts["preset"],
        parts["options"],
        parts["first_dealer"],
        parts["stake"],
        parts["sides"],
        parts["title"],
    )
    chain: tuple[dict[str, int], int] = ({}, game.first_dealer)
    for number, (mode, data) in enumerate(parts["rounds"], start=1):
        chain = _import_round(game, number, str(mode), data, chain)
    return game


FIGURE_WORDS = {
    "shown": N_("%(name)s, shown: %(problem)s"),
    "in_hand": N_("%(name)s, in hand: %(problem)s"),
    "adjust": N_("%(name)s, ±: %(problem)s"),
    "net": N_("%(name)s, round score: %(problem)s"),
}
"""A round's figures as the entry's labels name them ("Ann, shown: …"), a problem said
after them."""


def _figure_of(where: str, problem: str) -> str:
    """``problem`` at ``"shown.Ann"`` as ``"Ann, shown: <problem>"``; at any other place
    as it is."""
    kind, _dot, name = where.partition(".")
    if kind in FIGURE_WORDS and name:
        return str(_(FIGURE_WORDS[kind], name=name, problem=problem))
    return problem


def _import_round(
    game: Game,
    number: int,
    mode: str,
    data: Mapping[str, object],
    chain: tuple[dict[str, int], int],
) -> tuple[dict[str, int], int]:
    """Score and add round ``number`` after ``chain`` (each player's running total, the
    seat dealing it); the same after it."""
    totals, dealer = chain
    try:
        figures = score_input(game, mode, data, totals, number).to_json()
    except ScoresheetError as error:
        raise ScoresheetError(
            [
                (
                    f"rounds[{number - 1}].{w}",
                    _("round %(number)s: %(problem)s", number=number, problem=_figure_of(w, m)),
                )
                for w, m in error.problems
            ]
        ) from None
    round_ = Round(
        game=game,
        position=number,
        mode=mode,
        input=dict(data),
        figures=figures,
        summary=summary_of(game, data, figures, dealer, number),
        nonce=f"import-{number}",
        deleted=False,
    )
    summary = f"round {number} imported ({mode})"
    # appended to the game (in the session), not added one by one: adding each would
    # walk every round already added, and the import would grow quadratic
    game.changes.append(
        Change(round=round_, action="record", summary=summary, after=state_of(round_))
    )
    if figures["game_over"] and game.finished_at is None:
        game.winner, game.finished_at = figures["winner"] or "", now_utc()
    totals = {name: fig["total"] for name, fig in figures["players"].items()}
    return totals, round_.totals["dealer"]
