"""A group's file read and checked before anything is written, and a group written as
one: the document's shape (see the package), each game through the table's single-game
import, each name through the group's name rules."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypedDict

from sqlalchemy import select
from werkzeug.datastructures import MultiDict

from ..engine import Message, RulesError, ruleset, say
from ..extensions import db
from ..models import Game, Group, now_utc
from ..players.forms import NewGroupForm
from ..players.services import MAX_MEMBERS, GroupError, new_member_name
from ..table.errors import ScoresheetError
from ..table.exchange import BadExport, export_json, read_export
from ..table.games import ExportParts, imported_game

FORMAT = "500rum-group/1"


MAX_GAMES = 500
"""Games a group's file may hold at most."""


MAX_BYTES = 1024 * 1024
"""Bytes of a group's file at most (the app's request limit)."""


def not_a_group() -> Message:
    """The refusal of a document that is not a group's file."""
    return say("this is not a group exported by 500 Rum (%(format)s)", format=FORMAT)


def _sentence(reason: object) -> object:
    """A reason kept as a sentence to translate (a :class:`Message`), else its text."""
    return reason if isinstance(reason, Message) else str(reason)


def _in_game(number: int, problem: object) -> Message:
    """``problem`` (a sentence) said of the group's game ``number`` (from 1)."""
    return say("game %(number)s: %(problem)s", number=number, problem=_sentence(problem))


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
        reason = problems[0] if problems else say("a name and a preset are needed")
        raise GroupError(say("the group: %(problem)s", problem=_sentence(reason)))
    try:
        ruleset(preset, options)
    except RulesError as error:
        raise GroupError(
            say("the group's rules: %(problem)s", problem=error.problems[0][1])
        ) from None
    return form.clean_name(), preset, dict(options)


def _players(raw: object) -> list[str]:
    """The players' names, each through the group's name rules."""
    if not isinstance(raw, list) or len(raw) > MAX_MEMBERS:
        raise GroupError(
            say("players must be a list of at most %(count)s names", count=MAX_MEMBERS)
        )
    names: list[str] = []
    for given in raw:
        if not isinstance(given, str):
            raise GroupError(say("each player is a name"))
        try:
            names.append(new_member_name(given, names))
        except GroupError as error:
            raise GroupError(
                say("player %(name)s: %(problem)s", name=repr(given), problem=error.args[0])
            ) from None
    return names


def read_group(doc: object) -> GroupParts:
    """Check a group's document as the forms check what is typed; its parts: ``name,
    preset, options, players, games`` (each game as ``(archived, read_export parts)``).
    Raises :class:`GroupError` or :class:`BadExport` naming the first problems."""
    if not isinstance(doc, Mapping) or doc.get("format") != FORMAT:
        raise GroupError(not_a_group())
    name, preset, options = _group_name(doc)
    players = _players(doc.get("players"))
    games = doc.get("games")
    if not isinstance(games, list) or len(games) > MAX_GAMES:
        raise GroupError(say("games must be a list of at most %(count)s games", count=MAX_GAMES))
    checked = []
    for number, entry in enumerate(games, start=1):
        if not isinstance(entry, Mapping):
            raise GroupError(say("game %(number)s is not a game", number=number))
        try:
            checked.append((entry.get("archived") is True, read_export(entry.get("game"))))
        except BadExport as error:
            raise BadExport([(w, _in_game(number, m)) for w, m in error.problems]) from None
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
            found = [(w, _in_game(number, m)) for w, m in error.problems]
            raise ScoresheetError(found) from None
        game.archived_at = now_utc() if archived else None
        games.append(game)
        if told is not None and number % TELL_EVERY == 0:
            told(number, total)
    return games


Told = Callable[[int, int], None]
"""Told how far a group's check got: ``(games checked, games in all)``."""


class GroupParts(TypedDict):
    """A group's file as :func:`~.reading.read_group` checked it: its
    ``name``, usual rules (``preset``, ``options``), its ``players``' names and its
    ``games``, each as ``(archived, the game's export parts)``."""

    name: str
    preset: str
    options: dict[str, object]
    players: list[str]
    games: list[tuple[bool, ExportParts]]


TELL_EVERY = 25
"""Games checked between two words of progress."""
