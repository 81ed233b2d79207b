"""Between the round forms (:mod:`.forms`) and a round's input (:mod:`.services`' glossary):
a posted form's data as the input the engine scores, the field each engine problem
belongs to, and a stored input as form data again (for a correction).

Fields are named by seat (``net-0``, ``shown-0``, ``meld-0-1``); inputs by player name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext as _

from ..engine import SIDE_BONUSES
from ..inputs import is_int
from .forms import LAYOFF_SLOTS, MELD_SLOTS, RoundForm, cards_form, net_form, totals_form

MOST_SLOTS = 12
"""Most meld or lay-off rows per player a cards form grows to."""


def round_form(
    names: Sequence[str],
    seven_card: bool,
    mode: str,
    stored: dict[str, Any] | None,
    data: dict[str, object] | None,
    posted_slots: Sequence[int] = (0, 0),
) -> RoundForm:
    """The form of a round in ``mode`` ("net", "totals" or "cards") for the players
    ``names``: filled with ``data`` (a page opened; with ``stored``, the input of the round
    being corrected, shown again) or, when ``data`` is None, with the posted fields; a
    cards form has the rows ``stored`` or ``posted_slots`` (melds, lay-offs) need."""
    if data is not None and stored is not None:
        fill = {"net": net_data, "totals": totals_data}.get(mode, cards_data)
        data = data | fill(stored, names)
    if mode == "net":
        return net_form(names, data=data)
    if mode == "totals":
        return totals_form(names, seven_card, data=data)
    melds, layoffs = cards_slots(stored or {}, names)
    melds, layoffs = max(melds, posted_slots[0]), max(layoffs, posted_slots[1])
    slots = min(melds, MOST_SLOTS), min(layoffs, MOST_SLOTS)
    return cards_form(names, *slots, seven_card, data=data)


def read_round(
    form: RoundForm, mode: str, names: Sequence[str]
) -> tuple[dict[str, object], dict[str, str], list[tuple[str, str]]]:
    """A validated round form as ``(input, field of each engine "where", early problems)``."""
    if mode == "net":
        return (*net_input(form, names), [])
    if mode == "totals":
        return (*totals_input(form, names), [])
    return cards_input(form, names)


def where_in_words(where: str, melds: dict[int, str] | None = None) -> str:
    """The engine's 0-based ``"layoff 0 onto meld 1"`` as the form numbers things:
    ``"lay-off onto Bob's meld 1"`` with ``melds`` (:func:`meld_names`), else
    ``"lay-off onto meld 2"`` (the template filter ``where``)."""
    if where == "hand":
        return str(_("hand"))
    names = melds or {}

    def said(found: re.Match[str]) -> str:
        index = int(found.group(2))
        meld = names.get(index) or _("meld %(number)s", number=index + 1)
        return _("lay-off onto %(meld)s", meld=meld) if found.group(1) else meld

    where = re.sub(r"(layoff \d+ onto )?meld (\d+)", said, where)
    onto = re.fullmatch(r"layoff \d+ onto (.+)", where)
    return _("lay-off onto %(meld)s", meld=onto.group(1)) if onto else where


def credited(note: Mapping[str, object], figures: Mapping[str, object]) -> str:
    """Who a scored round's ``note`` (the contract's ``notes`` row) is credited to, as the
    pages say it: for a side's bonus (:data:`SIDE_BONUSES`) in a game of sides, the side
    of the note's owner ("Bob & Dee", P1), else the owner (the template filter
    ``credited``)."""
    owner = str(note.get("owner", ""))
    if note.get("rule") not in SIDE_BONUSES:
        return owner
    sides = figures.get("sides")
    units = [str(side) for side in sides] if isinstance(sides, Mapping) else []
    return next((side for side in units if owner in side.split(" & ")), owner)


def _seat(value: str | None, names: Sequence[str]) -> str | None:
    return names[int(value)] if value is not None and is_int(value, 0, len(names) - 1) else None


def totals_input(form: RoundForm, names: Sequence[str]) -> tuple[dict[str, object], dict[str, str]]:
    """A totals form's data as a round input (see :mod:`scorekeeper.table.services`), and
    the field of each ``where`` the engine may name."""
    went_out = _seat(form.went_out.data, names)
    seven = getattr(form, "seven", None)
    data: dict[str, object] = {
        "went_out": went_out,
        "shown": {n: form[f"shown-{i}"].data or 0 for i, n in enumerate(names)},
        "in_hand": {n: form[f"in_hand-{i}"].data or 0 for i, n in enumerate(names)},
        "adjust": {
            n: form[f"adjust-{i}"].data for i, n in enumerate(names) if form[f"adjust-{i}"].data
        },
        "seven_card_run": went_out if seven is not None and seven.data else None,
    }
    fields = {"went_out": "went_out", "seven_card_run": "seven"}
    for i, n in enumerate(names):
        for key in ("shown", "in_hand", "adjust"):
            fields[f"{key}.{n}"] = f"{key}-{i}"
    return data, fields


def net_input(form: RoundForm, names: Sequence[str]) -> tuple[dict[str, object], dict[str, str]]:
    """A net form's data as a round input ``{"went_out", "net"}`` and the field of each
    ``where`` the engine may name."""
    data: dict[str, object] = {
        "went_out": _seat(form.went_out.data, names),
        "net": {n: form[f"net-{i}"].data or 0 for i, n in enumerate(names)},
    }
    fields = {"went_out": "went_out"} | {f"net.{n}": f"net-{i}" for i, n in enumerate(names)}
    return data, fields


def net_data(data: dict[str, Any], names: Sequence[str]) -> dict[str, object]:
    """Form data that shows a stored net input again (for a correction)."""
    form: dict[str, object] = {"went_out": _seat_of(data.get("went_out"), names), "mode": "net"}
    for i, n in enumerate(names):
        form[f"net-{i}"] = data.get("net", {}).get(n, 0)
    return form


def totals_data(data: dict[str, Any], names: Sequence[str]) -> dict[str, object]:
    """Form data that shows a stored totals input again (for a correction)."""
    form: dict[str, object] = {"went_out": _seat_of(data.get("went_out"), names), "mode": "totals"}
    for i, n in enumerate(names):
        form[f"shown-{i}"] = data.get("shown", {}).get(n, 0)
        form[f"in_hand-{i}"] = data.get("in_hand", {}).get(n, 0)
        form[f"adjust-{i}"] = data.get("adjust", {}).get(n)
    form["seven"] = bool(data.get("seven_card_run"))
    return form


def _seat_of(name: str | None, names: Sequence[str]) -> str:
    return str(list(names).index(name)) if name is not None and name in names else ""


def _melds_input(
    form: RoundForm, names: Sequence[str], fields: dict[str, str]
) -> tuple[list[dict[str, object]], dict[str, int]]:
    """The melds of a cards form in the contract's shape, and each filled slot's index
    among them (``"seat-row"``); ``fields`` gains each meld's field."""
    melds: list[dict[str, object]] = []
    slot: dict[str, int] = {}
    for i, n in enumerate(names):
        for k in range(form.meld_slots):
            cards = (form[f"meld-{i}-{k}"].data or "").split()
            if cards:
                slot[f"{i}-{k}"] = len(melds)
                fields[f"melds[{len(melds)}]"] = f"meld-{i}-{k}"
                fields[f"melds[{len(melds)}].final_turn"] = f"meld-{i}-{k}"
                melds.append({"owner": n, "cards": cards})
                if f"final-{i}-{k}" in form and form[f"final-{i}-{k}"].data:
                    melds[-1]["final_turn"] = True
    return melds, slot


def cards_input(
    form: RoundForm, names: Sequence[str]
) -> tuple[dict[str, object], dict[str, str], list[tuple[str, str]]]:
    """A cards form's data as a round input (the scoring contract's melds, layoffs, hands
    and went_out), the field of each ``where`` the engine may name, and problems found
    before the engine (a lay-off with no meld chosen)."""
    fields: dict[str, str] = {"went_out": "went_out"}
    melds, slot = _melds_input(form, names, fields)
    layoffs: list[dict[str, object]] = []
    problems: list[tuple[str, str]] = []
    for i, n in enumerate(names):
        for k in range(form.layoff_slots):
            cards = (form[f"layoff-{i}-{k}"].data or "").split()
            onto = slot.get(form[f"onto-{i}-{k}"].data or "")
            if cards and onto is None:
                problems.append((f"layoff-{i}-{k}", "choose a meld (not empty) these cards extend"))
                continue
            for card in cards:
                fields[f"layoffs[{len(layoffs)}]"] = f"layoff-{i}-{k}"
                layoffs.append({"owner": n, "card": card, "meld": onto})
    hands = {n: (form[f"hand-{i}"].data or "").split() for i, n in enumerate(names)}
    fields |= {f"hands.{n}": f"hand-{i}" for i, n in enumerate(names)}
    data: dict[str, object] = {
        "went_out": _seat(form.went_out.data, names),
        "melds": melds,
        "layoffs": layoffs,
        "hands": hands,
    }
    if "went_out_by" in form:
        data["went_out_by"] = form.went_out_by.data or "discard"
        fields["went_out_by"] = "went_out_by"
    return data, fields, problems


def meld_names(fields: dict[str, str], names: Sequence[str]) -> dict[int, str]:
    """Each meld of a cards round (its index in the input) as the form names it, from the
    fields :func:`cards_input` returned: ``{0: "Ann's meld 1", 1: "Bob's meld 2"}``."""
    found: dict[int, str] = {}
    for key, name in fields.items():
        index, slot = re.fullmatch(r"melds\[(\d+)\]", key), re.fullmatch(r"meld-(\d+)-(\d+)", name)
        if index and slot:
            owner = names[int(slot.group(1))]
            found[int(index.group(1))] = _(
                "%(name)s's meld %(number)s", name=owner, number=int(slot.group(2)) + 1
            )
    return found


def cards_slots(data: dict[str, Any], names: Sequence[str]) -> tuple[int, int]:
    """How many meld and lay-off rows per player a stored cards input needs."""
    melds = [m.get("owner") for m in data.get("melds", [])]
    runs: dict[str, int] = {}
    last: tuple[str, int] | None = None
    for layoff in data.get("layoffs", []):
        key = (layoff.get("owner"), layoff.get("meld"))
        if key != last:
            runs[key[0]] = runs.get(key[0], 0) + 1
        last = key
    most_melds = max([melds.count(n) for n in names] + [MELD_SLOTS])
    return most_melds, max(list(runs.values()) + [LAYOFF_SLOTS])


def cards_data(data: dict[str, Any], names: Sequence[str]) -> dict[str, object]:
    """Form data that shows a stored cards input again (for a correction)."""
    form: dict[str, object] = {"went_out": _seat_of(data.get("went_out"), names), "mode": "cards"}
    slot_of: dict[int, str] = {}
    used: dict[str, int] = {}
    for index, meld in enumerate(data.get("melds", [])):
        seat = _seat_of(meld.get("owner"), names)
        k = used.get(seat, 0)
        used[seat] = k + 1
        slot_of[index] = f"{seat}-{k}"
        form[f"meld-{seat}-{k}"] = " ".join(meld.get("cards", []))
        if meld.get("final_turn"):
            form[f"final-{seat}-{k}"] = "y"
    rows: dict[str, int] = {}
    laid: dict[str, str] = {}
    last: tuple[str, object] | None = None
    for layoff in data.get("layoffs", []):
        seat = _seat_of(layoff.get("owner"), names)
        if (seat, layoff.get("meld")) != last:
            rows[seat] = rows.get(seat, -1) + 1
        last = (seat, layoff.get("meld"))
        key = f"{seat}-{rows[seat]}"
        laid[f"layoff-{key}"] = (laid.get(f"layoff-{key}", "") + " " + layoff["card"]).strip()
        form[f"onto-{key}"] = slot_of.get(layoff.get("meld"), "")
    form |= laid
    for i, n in enumerate(names):
        form[f"hand-{i}"] = " ".join(data.get("hands", {}).get(n, []))
    if data.get("went_out_by"):
        form["went_out_by"] = data["went_out_by"]
    return form


def place_errors(
    form: RoundForm, fields: dict[str, str], problems: Sequence[tuple[str, str]]
) -> list[str]:
    """Put each engine problem next to its field; return those that fit no field."""
    rest: list[str] = []
    keys = sorted(fields, key=len, reverse=True)
    for where, message in problems:
        key = next((k for k in keys if where == k or where.startswith((k + ".", k + "["))), None)
        name = fields.get(key) if key else (where if where in form._fields else None)
        if name is not None and name in form._fields:
            form[name].errors = [*form[name].errors, message]
        else:
            rest.append(message)
    return rest
