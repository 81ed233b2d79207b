"""The scoresheet services the pages call: start a game, record, correct, delete and undo
rounds, and read the standings. The only request-path module that commits.

Glossary:
- input: what the table entered for a round. Net mode: ``{"went_out", "net"}`` (each
  player's round score as the table counted it, points either sign). Totals mode:
  ``{"went_out", "shown", "in_hand", "adjust", "seven_card_run"}`` (points per player).
  Cards mode: the scoring contract's request without rules, players, teams and totals:
  ``{"went_out", "melds", "layoffs", "hands"}`` (card texts).
- figures: the engine's answer for a round (a typed
  :class:`~scorekeeper.engine.scoring.RoundScore`), stored in the scoring contract's
  response shape.
- state of a round: ``{"mode", "input", "deleted"}``, what the history keeps before and
  after each change so that any change can be undone.

Every change runs as one transaction: it bumps the game's version only if the version
the form was based on is still current (:class:`StaleVersion` otherwise), stores the
round, its history entry and the recomputed figures of every round, then commits; any
problem rolls it all back.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from decimal import Decimal
from typing import Any

from sqlalchemy import update
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import joinedload, selectinload

from ..engine.reading import score_sheet
from ..engine.rules import RulesError, RuleSet, ruleset
from ..engine.scoring import RoundError, RoundScore
from ..engine.tally import TableCount, next_dealer, tally_net, tally_round
from ..extensions import db
from ..models import Change, Game, Player, Round, new_token, now_utc

MODES = ("net", "totals", "cards")
ENTRY_MODES = ("net", "totals")
"""The modes the game page's one-screen entry offers (cards have their own page)."""


class ScoresheetError(ValueError):
    """A change refused; nothing was stored. ``problems`` lists ``(where, message)``."""

    def __init__(self, problems: Sequence[tuple[str, str]]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(message for _, message in self.problems))


class StaleVersion(ScoresheetError):
    """The game changed (another phone saved) since the form was opened."""

    def __init__(self) -> None:
        super().__init__(
            [
                (
                    "version",
                    "someone else changed this game meanwhile: nothing was saved. "
                    "Check the latest scores and enter it again if it is still needed.",
                )
            ]
        )


class StaleRound(StaleVersion):
    """The round being corrected changed (corrected, deleted, undone on another phone)
    since the form was opened; other rounds saved meanwhile do not count."""

    def __init__(self) -> None:
        ScoresheetError.__init__(
            self,
            [
                (
                    "version",
                    "someone else changed this round meanwhile: nothing was saved. "
                    "Check it and correct it again if it is still needed.",
                )
            ],
        )


class SaveFailed(ScoresheetError):
    """The database could not store the change (unreachable, read-only, full, busy):
    nothing was saved, and the same change may simply be sent again."""

    def __init__(self) -> None:
        super().__init__(
            [
                (
                    "database",
                    "the scores could not be saved just now (the database did not answer): "
                    "nothing was lost, what you typed is still here. Try again in a moment.",
                )
            ]
        )


@contextmanager
def saving() -> Iterator[None]:
    """Run a change; a database failure (not a refused duplicate) rolls it back and
    becomes :class:`SaveFailed`."""
    try:
        yield
    except IntegrityError:
        raise
    except DBAPIError as error:
        db.session.rollback()
        raise SaveFailed() from error


class AlreadySaved(ScoresheetError):
    """The same form was posted twice; ``round`` is the round the first post saved."""

    def __init__(self, round_: Round) -> None:
        self.round = round_
        super().__init__([("nonce", "this round was already saved (the form was sent twice)")])


# ---- reading a game -------------------------------------------------------------------


def rules_of(game: Game) -> RuleSet:
    """The game's :class:`RuleSet`: its preset with its house rules."""
    return ruleset(game.preset, game.options)


def names_of(game: Game) -> list[str]:
    """The players' names in seat order."""
    return [p.name for p in game.players]


def teams_of(game: Game) -> tuple[tuple[str, ...], ...] | None:
    """The two sides (P1) as tuples of names, or None without partnership rules."""
    if not any(p.side is not None for p in game.players):
        return None
    return tuple(tuple(p.name for p in game.players if p.side == s) for s in (0, 1))


def live_rounds(game: Game) -> list[Round]:
    """The rounds that count, in order (deleted rounds left out)."""
    return [r for r in game.rounds if not r.deleted]


def get_game(view_token: str, *, light: bool = False) -> Game | None:
    """The game whose view link carries ``view_token``, or None (also when deleted);
    players and rounds loaded with it; ``light`` leaves each round's input and figures to
    load when used, for adding a round to a long game."""
    rounds = selectinload(Game.rounds)
    if light:
        rounds = rounds.defer(Round.input).defer(Round.figures)
    query = (
        db.select(Game)
        .where(Game.view_token == view_token, Game.deleted_at.is_(None))
        .options(joinedload(Game.players), rounds)
    )
    return db.session.execute(query).unique().scalar_one_or_none()


def game_version(view_token: str) -> int | None:
    """The version of the game at ``view_token`` (one small query), or None."""
    query = db.select(Game.version).where(Game.view_token == view_token, Game.deleted_at.is_(None))
    return db.session.execute(query).scalar_one_or_none()


# ---- scoring a round ------------------------------------------------------------------


def score_input(
    game: Game,
    mode: str,
    data: Mapping[str, Any],
    totals_before: Mapping[str, int],
    deal_number: int,
) -> RoundScore:
    """The engine's scoring of one round's input: net and totals modes as a
    :class:`~scorekeeper.engine.tally.TableCount` through
    :func:`~scorekeeper.engine.tally.tally_net` or
    :func:`~scorekeeper.engine.tally.tally_round`, cards mode read into a
    :class:`~scorekeeper.engine.scoring.RoundPlay` and scored by
    :func:`~scorekeeper.engine.reading.score_sheet`. Raises :class:`ScoresheetError`
    listing every problem.
    """
    rules, players, teams = rules_of(game), tuple(names_of(game)), teams_of(game)
    if mode in ENTRY_MODES:
        return _score_count(rules, players, teams, mode, data, totals_before, deal_number)
    if mode == "cards":
        return _score_cards(rules, players, teams, data, totals_before, deal_number)
    raise ScoresheetError([("mode", f"a round is entered as net, totals or cards, not {mode!r}")])


def _score_count(
    rules: RuleSet,
    players: tuple[str, ...],
    teams: tuple[tuple[str, ...], ...] | None,
    mode: str,
    data: Mapping[str, Any],
    totals_before: Mapping[str, int],
    deal_number: int,
) -> RoundScore:
    bad = [
        (k, "must be points per player")
        for k in ("shown", "in_hand", "adjust", "net")
        if not isinstance(data.get(k) or {}, Mapping)
    ]
    if bad:
        raise ScoresheetError(bad)
    count = TableCount(
        players=players,
        shown=data.get("shown") or {},
        in_hand=data.get("in_hand") or {},
        went_out=data.get("went_out"),
        adjust=data.get("adjust") or {},
        teams=teams,
        deal_number=deal_number,
        seven_card_run=data.get("seven_card_run"),
    )
    try:
        if mode == "net":
            return tally_net(rules, count, data.get("net") or {}, totals_before)
        return tally_round(rules, count, totals_before)
    except RoundError as error:
        raise ScoresheetError(error.problems) from None


def _score_cards(
    rules: RuleSet,
    players: tuple[str, ...],
    teams: tuple[tuple[str, ...], ...] | None,
    data: Mapping[str, Any],
    totals_before: Mapping[str, int],
    deal_number: int,
) -> RoundScore:
    written = {
        "went_out": data.get("went_out"),
        "melds": data.get("melds") or [],
        "layoffs": data.get("layoffs") or [],
        "hands": data.get("hands") or {},
        "went_out_by": data.get("went_out_by"),
    }
    try:
        return score_sheet(rules, players, written, totals_before, teams, deal_number)
    except RoundError as error:
        raise ScoresheetError(error.problems) from None


def preview_round(
    game: Game, mode: str, data: Mapping[str, Any], replacing: Round | None = None
) -> dict[str, Any]:
    """The figures the round would get if saved now (as new, or in place of ``replacing``)."""
    rounds = live_rounds(game)
    index = rounds.index(replacing) if replacing in rounds else len(rounds)
    before = rounds[index - 1].figures["players"] if index else {}
    totals = {name: fig["total"] for name, fig in before.items()}
    return score_input(game, mode, data, totals, index + 1).to_json()


def recompute(game: Game, since: int = 0) -> None:
    """Score the live rounds again, in order, chaining the running totals, from the first
    placed at position ``since`` or later (earlier rounds keep their stored figures: a
    change never moves them). Set the game's winner and end from the first round that
    ends it (G1, G2, G4, P5); when the game had ended, every round is looked at again."""
    rounds = live_rounds(game)
    ended = game.finished_at
    if ended is not None:
        since = 0
    first = next((i for i, r in enumerate(rounds) if r.position >= since), len(rounds))
    before = rounds[first - 1].figures["players"] if first else {}
    totals = {name: fig["total"] for name, fig in before.items()}
    game.winner, game.finished_at = None, None
    for number, round_ in enumerate(rounds[first:], start=first + 1):
        result = score_input(game, round_.mode, round_.input, totals, number)
        figures = result.to_json()
        if figures != round_.figures:
            round_.figures = figures
        totals = {name: fig.total for name, fig in result.players.items()}
        if result.game_over and game.finished_at is None:
            game.winner, game.finished_at = result.winner or "", ended or now_utc()


# ---- changing a game ------------------------------------------------------------------


def _new_game(
    names: Sequence[str],
    preset: str,
    options: Mapping[str, Any],
    first_dealer: int,
    stake: Decimal | None,
    sides: Sequence[int] | None,
    title: str,
) -> Game:
    """A game added to the session, not committed; raises :class:`ScoresheetError`."""
    try:
        rules = ruleset(preset, options)
    except RulesError as error:
        raise ScoresheetError(error.problems) from None
    problems = []
    if not 2 <= len(names) <= rules.max_players or len(set(names)) != len(names):
        problems.append(("players", f"2 to {rules.max_players} players, each named differently"))
    if rules.partnership and (sides is None or sorted(sides) != [0, 0, 1, 1]):
        problems.append(("sides", "partnership play needs two sides of two (P1)"))
    if problems:
        raise ScoresheetError(problems)
    game = Game(
        title=title,
        preset=preset,
        options=dict(options),
        first_dealer=first_dealer,
        stake=str(stake) if stake else None,
    )
    for seat, name in enumerate(names):
        side = sides[seat] if rules.partnership and sides else None
        game.players.append(Player(seat=seat, name=name, side=side))
    db.session.add(game)
    return game


def start_game(
    names: Sequence[str],
    preset: str,
    options: Mapping[str, Any],
    *,
    first_dealer: int = 0,
    stake: Decimal | None = None,
    sides: Sequence[int] | None = None,
    title: str = "",
) -> Game:
    """Create and commit a game: players in seat order, ``sides`` 0/1 per seat for
    partnership rules (P1; partners sit opposite, so seats 0 and 2 against 1 and 3 when
    not given). Raises :class:`ScoresheetError` for players or rules the engine refuses."""
    if sides is None and len(names) == 4:
        sides = [0, 1, 0, 1]
    with saving():
        game = _new_game(names, preset, options, first_dealer, stake, sides, title)
        db.session.commit()
    return game


def renew_edit_token(game: Game) -> None:
    """Give ``game`` a new edit token: its old edit link, and every phone that held it,
    can only watch from now on."""
    with saving():
        game.edit_token = new_token()
        db.session.commit()


def play_again(game: Game) -> Game:
    """A new game with the same players, sides, rules and stake; the next dealer deals."""
    sides = [p.side or 0 for p in game.players] if teams_of(game) else None
    rounds = live_rounds(game)
    went_out = [r.input.get("went_out") for r in rounds]
    seat = next_dealer(rules_of(game), names_of(game), game.first_dealer, went_out)
    return start_game(
        names_of(game),
        game.preset,
        game.options,
        first_dealer=seat,
        stake=Decimal(game.stake) if game.stake else None,
        sides=sides,
        title=game.title,
    )


def import_game(parts: Mapping[str, Any]) -> Game:
    """Create a game from an export read by :func:`scorekeeper.table.exchange.read_export`,
    every round scored by the engine once, in order, chaining the running totals (linear
    in the rounds), all in one transaction (nothing is stored when any round is refused;
    problems name the round)."""
    try:
        with saving():
            game = _new_game(
                parts["names"],
                parts["preset"],
                parts["options"],
                parts["first_dealer"],
                parts["stake"],
                parts["sides"],
                parts["title"],
            )
            totals: dict[str, int] = {}
            for number, (mode, data) in enumerate(parts["rounds"], start=1):
                totals = _import_round(game, number, str(mode), data, totals)
            db.session.commit()
    except ScoresheetError:
        db.session.rollback()
        raise
    return game


FIGURE_WORDS = {"shown": "shown", "in_hand": "in hand", "adjust": "±", "net": "round score"}
"""A round's figures as the entry's labels name them ("Ann, shown")."""


def _figure_of(where: str) -> str:
    """``"shown.Ann"`` as ``"Ann, shown: "``; any other place as nothing."""
    kind, _, name = where.partition(".")
    return f"{name}, {FIGURE_WORDS[kind]}: " if kind in FIGURE_WORDS and name else ""


def _import_round(
    game: Game, number: int, mode: str, data: Mapping[str, Any], totals: dict[str, int]
) -> dict[str, int]:
    """Score and add round ``number`` after ``totals``; the totals after it."""
    try:
        figures = score_input(game, mode, data, totals, number).to_json()
    except ScoresheetError as error:
        raise ScoresheetError(
            [
                (f"rounds[{number - 1}].{w}", f"round {number}: {_figure_of(w)}{m}")
                for w, m in error.problems
            ]
        ) from None
    round_ = Round(
        game=game,
        position=number,
        mode=mode,
        input=dict(data),
        figures=figures,
        nonce=f"import-{number}",
        deleted=False,
    )
    summary = f"round {number} imported ({mode})"
    # appended to the game (in the session), not added one by one: adding each would
    # walk every round already added, and the import would grow quadratic
    game.changes.append(
        Change(round=round_, action="record", summary=summary, after=_state(round_))
    )
    if figures["game_over"] and game.finished_at is None:
        game.winner, game.finished_at = figures["winner"] or "", now_utc()
    return {name: fig["total"] for name, fig in figures["players"].items()}


def _bump(game: Game, version: int) -> None:
    """Take the game's next version, or raise :class:`StaleVersion` (atomic in SQL)."""
    result = db.session.execute(
        update(Game)
        .where(Game.id == game.id, Game.version == version)
        .values(version=version + 1, updated_at=now_utc())
    )
    if getattr(result, "rowcount", 0) != 1:
        db.session.rollback()
        raise StaleVersion()
    game.version = version + 1


def _state(round_: Round | None) -> dict[str, Any] | None:
    if round_ is None:
        return None
    return {"mode": round_.mode, "input": round_.input, "deleted": round_.deleted}


def _commit_change(
    game: Game,
    round_: Round,
    action: str,
    before: Any,
    summary: str,
    version: int,
    undoes: Change | None = None,
) -> Change:
    """Recompute, log the change (marking ``undoes`` as undone by it), take the game's
    next version and commit, all in one transaction; on any problem roll everything back.
    The database is written only at the end, so the write lock is held briefly."""
    try:
        with saving():
            return _commit_now(game, round_, action, before, summary, version, undoes)
    except ScoresheetError:
        db.session.rollback()
        raise


def _commit_now(
    game: Game,
    round_: Round,
    action: str,
    before: Any,
    summary: str,
    version: int | None,
    undoes: Change | None,
) -> Change:
    """The body of :func:`_commit_change` (``version`` None: the game row is already
    locked and bumped, as a correction does)."""
    if action != "record":
        round_.version = (round_.version or 1) + 1
    recompute(game, since=round_.position)
    change = Change(
        game=game,
        round=round_,
        action=action,
        summary=summary[:200],
        before=before,
        after=_state(round_),
    )
    db.session.add(change)
    if version is not None:
        _bump(game, version)
    if undoes is not None:
        db.session.flush()
        undoes.undone_by = change.id
    db.session.commit()
    return change


def _existing(game: Game, nonce: str) -> Round | None:
    query = db.select(Round).where(Round.game_id == game.id, Round.nonce == nonce)
    return db.session.execute(query).scalar_one_or_none()


def record_round(game: Game, mode: str, data: Mapping[str, Any], nonce: str, version: int) -> Round:
    """Store a new round at the end of the game, scored by the engine, in one transaction;
    a net or totals round makes its mode the game's ``entry_mode``.

    Raises :class:`AlreadySaved` when ``nonce`` was used before, :class:`StaleVersion`
    when ``version`` is not current, :class:`ScoresheetError` for bad input."""
    earlier = next((r for r in game.rounds if r.nonce == nonce), None)
    if earlier is not None:
        raise AlreadySaved(earlier)
    if game.finished_at is not None:
        raise ScoresheetError([("game", "the game is over: correct a round or play again")])
    preview_round(game, mode, data)
    position = max((r.position for r in game.rounds), default=0) + 1
    round_ = Round(
        game=game, position=position, mode=mode, input=dict(data), nonce=nonce, deleted=False
    )
    db.session.add(round_)
    if mode in ENTRY_MODES:
        game.entry_mode = mode
    summary = f"round {len(live_rounds(game))} entered ({mode})"
    try:
        _commit_change(game, round_, "record", None, summary, version)
    except (StaleVersion, IntegrityError):
        db.session.rollback()
        earlier = _existing(game, nonce)  # saved by another request since this one read
        if earlier is not None:
            raise AlreadySaved(earlier) from None
        raise StaleVersion() from None
    return round_


def change_of(round_: Round) -> Change | None:
    """The newest change of ``round_`` (for an undo button right after a save)."""
    query = db.select(Change).where(Change.round_id == round_.id).order_by(Change.id.desc())
    return db.session.execute(query.limit(1)).scalar_one_or_none()


def correct_round(
    game: Game, round_: Round, mode: str, data: Mapping[str, Any], round_version: int
) -> Round:
    """Replace a round's input (and mode); every total after it is recomputed.

    ``round_version`` is the round's version the form was opened on: the correction is
    refused (:class:`StaleRound`) only when this round changed since, never because
    another round was saved meanwhile. The game's row is locked first (its version
    bumped), then the rounds are read again, so totals chain from what is stored now."""
    try:
        with saving():
            _lock(game)
            if round_.deleted or round_.version != round_version:
                raise StaleRound()
            preview_round(game, mode, data, replacing=round_)
            before = _state(round_)
            number = live_rounds(game).index(round_) + 1
            round_.mode, round_.input = mode, dict(data)
            summary = f"round {number} corrected ({mode})"
            _commit_now(game, round_, "correct", before, summary, None, None)
    except ScoresheetError:
        db.session.rollback()
        raise
    return round_


def _lock(game: Game) -> None:
    """Take the game's next version unconditionally (the row lock serialises writers),
    then forget what this session read, so the game and its rounds load afresh."""
    db.session.execute(
        update(Game)
        .where(Game.id == game.id)
        .values(version=Game.version + 1, updated_at=now_utc())
        .execution_options(synchronize_session=False)
    )
    db.session.expire_all()


def delete_round(game: Game, round_: Round, version: int) -> None:
    """Delete a round (kept in the history, so it can be undone)."""
    if round_.deleted:
        raise ScoresheetError([("round", "that round is already deleted")])
    before = _state(round_)
    number = live_rounds(game).index(round_) + 1
    round_.deleted = True
    _commit_change(game, round_, "delete", before, f"round {number} deleted", version)


def undo_change(game: Game, change: Change, version: int) -> Change:
    """Put the round ``change`` touched back as it was before it. Refused when the round
    changed again since (undo the later change first) or the change was already undone."""
    round_ = change.round
    if change.undone_by is not None:
        raise ScoresheetError([("change", "that change was already undone")])
    if _state(round_) != change.after:
        raise ScoresheetError(
            [("change", "that round changed again since: undo the later change first")]
        )
    before = change.before
    if before is None:
        round_.deleted = True
    else:
        round_.mode, round_.input, round_.deleted = (
            before["mode"],
            before["input"],
            before["deleted"],
        )
    summary = f"undo: {change.summary}"
    return _commit_change(game, round_, "undo", change.after, summary, version, undoes=change)
