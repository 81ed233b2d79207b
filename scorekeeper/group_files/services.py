"""A group's file written as a new group: the only module of ``group_files/`` that
commits."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence

from .. import jobs
from ..engine import Message, say
from ..extensions import db
from ..groups.facts import store_new_facts
from ..groups.members import point_seats
from ..models import Game, Group, Job, Member
from ..players.services import GroupError
from ..table.errors import ScoresheetError
from ..table.exchange import BadExport
from ..table.games import write_games
from .reading import (
    GroupParts,
    Told,
    checked_games,
    read_group,
)


def kept(sentence: object) -> object:
    """A problem as the job's result keeps it (JSON): a sentence to translate as
    :meth:`Message.to_json`, anything else as its text (see :func:`said`)."""
    return sentence.to_json() if isinstance(sentence, Message) else str(sentence)


def said(kept_sentence: object) -> str:
    """A problem :func:`kept` wrote, back as a sentence (a :class:`Message`, translated
    where shown) or its text; a malformed one as its text."""
    if isinstance(kept_sentence, Mapping):
        try:
            return Message.from_json(kept_sentence)
        except (KeyError, TypeError, ValueError):
            pass
    return str(kept_sentence)


def import_group(parts: GroupParts, told: Told | None = None) -> Group:
    """A new group from :func:`read_group`'s parts: every game checked and scored first
    (:func:`checked_games`, no transaction open: nothing is stored when anything is
    refused, :class:`ScoresheetError`), then written in one short transaction
    (:func:`~scorekeeper.groups.services.write_group`)."""
    return write_group(parts, checked_games(parts, told))


@jobs.handler("import")
def import_job(job: Job) -> dict[str, object]:
    """An ``import`` job: the group's document (``args["doc"]``) checked, each game
    scored, then written (:func:`import_group`), its progress kept on the job's row as it
    goes (``{"checked", "of"}``). ``{"group": id}``, or ``{"problems": [...]}`` (at most
    20 sentences) when anything is refused, nothing written then."""

    def told(checked: int, total: int) -> None:
        jobs.progress(job.id, {"checked": checked, "of": total})

    try:
        group = import_group(read_group(job.args["doc"]), told)
    except (BadExport, ScoresheetError) as error:
        return {"problems": [kept(m) for _, m in error.problems][:20]}
    except GroupError as error:
        return {"problems": [kept(error.args[0] if error.args else str(error))]}
    return {"group": group.id}


def write_group(parts: GroupParts, games: Sequence[Game]) -> Group:
    """A new group from :func:`~.reading.read_group`'s ``parts`` and its
    ``games`` already checked and scored in memory
    (:func:`~.reading.checked_games`): the group, its players and every
    game written in one short transaction, in bulk (a multi-row INSERT a table,
    :func:`~scorekeeper.table.games.write_games`; its seats pointed at the players by
    name, :func:`~scorekeeper.groups.members.point_seats`), and the games' stored facts
    computed in bulk (:func:`~scorekeeper.groups.facts.store_new_facts`). Commits; rolls
    everything back on any error."""
    try:
        group = Group(name=parts["name"], preset=parts["preset"], options=parts["options"])
        group.members.extend(Member(name=n) for n in parts["players"])
        db.session.add(group)
        db.session.flush()
        for game in games:
            game.group_id = group.id
            point_seats(game, group)
        ids = write_games(games)
        store_new_facts(db.session.connection(), ids)
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return group


def ask_import(doc: Mapping[str, object]) -> Job:
    """Ask for the import job of the group's file ``doc`` (its handler,
    :func:`import_job`, registered here), with a secret token for its progress page.
    Raises :class:`scorekeeper.jobs.Refused` when this client has too many jobs waiting.
    Commits the job's row."""
    return jobs.submit(
        "import",
        None,
        0,
        0,
        {"doc": dict(doc), "token": secrets.token_urlsafe(16)},
        bounded=True,
        refusal=say("this phone is importing already: wait until that import is done"),
    )
