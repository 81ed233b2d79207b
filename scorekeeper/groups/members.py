"""Groups where features meet: the table's new-game form starts a game for a group, and
the players feature reads and changes groups. Features never import each other, so what
both need lives here: a group's rights on this phone, its players picked for a new game,
and a game's seats matched to the group's members by name.

Glossary:
- group: the people who play together (:class:`scorekeeper.models.Group`); its view link
  reads, its edit link carries the right to add (players, games) on the phone that opened
  it, kept in the session as the table keeps a game's edit right.
- member: one of the group's players; a guest is a seat that matches no member.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from flask import session
from sqlalchemy import bindparam
from sqlalchemy.orm import joinedload, selectinload
from werkzeug.datastructures import MultiDict

from ..engine import OPTIONS
from ..extensions import db
from ..house_rules import option_field_name
from ..inputs import MAX_VERSION, is_int, name_key
from ..models import DigitalGame, Game, Group, Member
from ..web import same_token
from .facts import refresh

KEEP_GROUP_RIGHTS = 20
"""Group edit rights remembered per phone (session cookie), newest kept."""
SEATS = 8
"""Name fields of the new-game form (``player_0`` .. ``player_7``)."""


BY_SLUG = (
    db.select(Group).where(Group.view_token == bindparam("slug")).options(joinedload(Group.members))
)
"""The group whose view link carries ``slug``, its members joined in the same query
(built once: SQLAlchemy caches its compiled form, and every group page runs it)."""


def group_by_slug(slug: str) -> Group | None:
    """The group whose view link carries ``slug``, its members loaded, or None."""
    return db.session.execute(BY_SLUG, {"slug": slug}).unique().scalar_one_or_none()


def can_add(group: Group) -> bool:
    """True when this phone opened the group's edit link (or made the group)."""
    held = session.get("groups", {}).get(str(group.id), "")
    return same_token(held, group.edit_token)


def grant_group(group: Group) -> None:
    """Remember on this phone the right to add to ``group`` (its edit token)."""
    rights = {k: v for k, v in dict(session.get("groups", {})).items() if k != str(group.id)}
    rights[str(group.id)] = group.edit_token
    session["groups"] = dict(list(rights.items())[-KEEP_GROUP_RIGHTS:])
    session.permanent = True


def my_groups() -> list[Group]:
    """The groups this phone may add to (from its session), by name."""
    held = session.get("groups", {})
    ids = [int(k) for k in held if is_int(k, 1, MAX_VERSION)]
    if not ids:
        return []
    query = db.select(Group).where(Group.id.in_(ids)).options(selectinload(Group.members))
    found = db.session.execute(query).scalars()
    return sorted((g for g in found if can_add(g)), key=lambda g: g.name.casefold())


def member_by_name(group: Group, name: str) -> Member | None:
    """The member named ``name`` but for case and invisible characters, or None."""
    key = name_key(name)
    return next((m for m in group.members if name_key(m.name) == key), None)


def with_picked(form: MultiDict[str, str], group: Group) -> MultiDict[str, str]:
    """The new-game form's data with the ticked members (``pick``: member ids, in the
    group's order) in the first seats, then the guests typed in the name fields (a
    typed name of a ticked member is not repeated); eight seats at most."""
    ticked = set(form.getlist("pick"))
    picked = [m.name for m in group.members if str(m.id) in ticked]
    taken = {name_key(name) for name in picked}
    typed = [form.get(f"player_{i}", "") for i in range(SEATS)]
    guests = [t for t in typed if t.strip() and name_key(t) not in taken]
    names = (picked + guests)[:SEATS]
    merged = MultiDict([(k, v) for k, v in form.items(multi=True) if not k.startswith("player_")])
    for seat, name in enumerate(names):
        merged.add(f"player_{seat}", name)
    return merged


def link_players(game: Game | DigitalGame, group: Group, names: Iterable[str] = ()) -> None:
    """Put ``game`` in ``group`` (not committed): each seat of a game at the table, or the
    person of a digital game, points at the member of the same name; ``names`` are added
    as members first (a confirmed attach); then the game's facts are stored
    (:func:`scorekeeper.groups.facts.refresh`)."""
    for name in names:
        if member_by_name(group, name) is None:
            group.members.append(Member(name=name))
    db.session.flush()
    game.group_id = group.id
    point_seats(game, group)
    refresh(game)


def point_seats(game: Game | DigitalGame, group: Group) -> None:
    """Each seat of a game at the table, or the person of a digital game, pointed at the
    member of ``group`` of the same name (none when there is none); the members have
    their ids (flushed). Nothing written."""
    if isinstance(game, DigitalGame):
        person = game.state["players"][game.human_seat]
        found = member_by_name(group, person)
        game.member_id = found.id if found else None
        return
    for player in game.players:
        found = member_by_name(group, player.name)
        player.member_id = found.id if found else None


def usual_rules(group: Group) -> dict[str, object]:
    """The new-game form's data for the group's usual preset and house rules (those of
    its latest game): ``preset``, ``target`` and each ``opt_NAME`` as its field holds it."""
    data: dict[str, object] = {"preset": group.preset}
    for name, value in group.options.items():
        if name not in OPTIONS:
            continue
        if name == "target" or OPTIONS[name].minimum is not None:
            data["target" if name == "target" else option_field_name(name)] = value
        else:
            data[option_field_name(name)] = json.dumps(value)
    return data


def group_of_new_game(slug: str | None) -> Group | None:
    """The group a new game is started for (``?group=<view token>``), when this phone
    may add to it; else None (the form is the plain one)."""
    if not slug:
        return None
    group = group_by_slug(slug)
    return group if group is not None and can_add(group) else None
