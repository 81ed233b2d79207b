"""A record's turn (shared/game-record.md): the game's moves written as turns, and a
turn read back as the moves it stands for.

Glossary: a *turn* is one player's draw (or "Rummy!" call, pass or end of round), the
melds laid down, the cards laid off (in ``plays``, in the order made) and the discard; a
turn made out of turn (T7) or laying deadwood (O3) says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import parse_card
from .actions import (
    Action,
    Block,
    Discard,
    DrawTwo,
    EndRound,
    Nominate,
    Pass,
    RummyCall,
    Split,
    action_from_json,
)


def turns_of(log: list[list[Any]], names: Sequence[str]) -> list[dict[str, Any]]:
    """A round's moves (``[seat, action JSON]`` and ``[-1, event]``) as record turns."""
    turns: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    reshuffled: list[str] | None = None
    deadwood = False
    called: str | None = None
    for seat, item in log:
        if seat < 0:
            if item["event"] == "reshuffle":
                reshuffled = item["stock"]
            if item["event"] == "rummy":
                called = item["card"]
            if item["event"] == "split" and current is not None:
                current["split"]["removed"] = item["removed"]
            deadwood = deadwood or item["event"] == "deadwood"
            continue
        kind = item["type"]
        starts = kind in ("draw", "draw_two", "rummy", "pass", "nominate", "split") or (
            kind == "end_round" and not deadwood
        )
        if starts or current is None or current["player"] != names[seat]:
            current = {
                "player": names[seat],
                "draw": None,
                "melds": [],
                "layoffs": [],
                "discard": None,
                "plays": [],
            }
            if not starts:
                current["deadwood" if deadwood else "out_of_turn"] = True
            if reshuffled is not None:
                current["reshuffled_stock"] = reshuffled
                reshuffled = None
            turns.append(current)
        _add(current, {**item, "card": called} if kind == "rummy" else item)
    return turns


def _add(turn: dict[str, Any], item: dict[str, Any]) -> None:
    kind = item["type"]
    if kind == "draw":
        turn["draw"] = {k: v for k, v in item.items() if k != "type"}
    elif kind == "draw_two":
        turn["draw"] = {"from": "stock", "count": 2}
    elif kind == "pass":
        turn["pass"] = True
    elif kind == "end_round":
        turn["end_round"] = True
    elif kind == "rummy":
        turn["rummy"] = {"index": item["index"], "meld": item["meld"]}
        if item["meld"] is not None:
            turn["layoffs"].append({"card": item["card"], "meld": item["meld"]})
    elif kind == "lay_down":
        turn["melds"].extend(item["melds"])
        turn["plays"].append({"melds": item["melds"], **_dealers(turn, item)})
    elif kind == "lay_off":
        layoff = {"card": item["card"], "meld": item["meld"]}
        turn["layoffs"].append(layoff)
        turn["plays"].append({"layoff": layoff, **_dealers(turn, item)})
    elif kind == "discard":
        turn["discard"] = item["card"]
    else:
        _add_gambit(turn, item)


def _add_gambit(turn: dict[str, Any], item: dict[str, Any]) -> None:
    """X2's turn fields: ``nominate`` (the dealer's nomination), ``split`` (``index``,
    ``dealers_joker``, the cards ``removed``), ``block`` (in ``plays`` too, in order)."""
    kind = item["type"]
    if kind == "nominate":
        turn["nominate"] = item["effect"]
    elif kind == "split":
        turn["split"] = {"index": item["index"], "dealers_joker": item["dealers_joker"]}
    elif kind == "block":
        turn["block"] = True
        turn["plays"].append({"block": True})


def _dealers(turn: dict[str, object], item: Mapping[str, object]) -> dict[str, bool]:
    """X2: a play holding the dealer's joker says so, and so does its turn."""
    if not item.get("dealers_joker"):
        return {}
    turn["dealers_joker"] = True
    return {"dealers_joker": True}


def turn_actions(turn: dict[str, Any]) -> list[Action]:
    """The moves a record's ``turn`` stands for, in the order they were made (its
    ``plays`` when given, else lay-downs and lay-offs in the order the draw allows).
    Raises the actions' own errors (``ActionError``, ``CardError``) for a bad entry."""
    if turn.get("nominate") is not None:
        return [Nominate(str(turn["nominate"]))]
    out = _turn_start(turn)
    if not out and turn.get("end_round") and not turn.get("deadwood"):
        return [EndRound()]
    out.extend(_plays(turn))
    if turn.get("discard") is not None:
        out.append(Discard(parse_card(turn["discard"])))
    if turn.get("deadwood") and turn.get("end_round"):
        out.append(EndRound())
    return out


def _turn_start(turn: dict[str, Any]) -> list[Action]:
    """The move that opens ``turn``: a split (X2), a "Rummy!" call (X1), a draw (T1,
    T6) or a pass (O3); none for a turn out of turn (T7) or of deadwood (O4)."""
    if turn.get("split") is not None:
        split = turn["split"]
        return [Split(int(split["index"]), bool(split.get("dealers_joker")))]
    if turn.get("rummy") is not None:
        call = turn["rummy"]
        return [RummyCall(int(call["index"]), call.get("meld"))]
    draw = turn.get("draw")
    if draw is not None:
        if draw.get("count") == 2:
            return [DrawTwo()]
        return [action_from_json({"type": "draw", **draw})]
    if turn.get("pass"):
        return [Pass()]
    return []


def _plays(turn: dict[str, Any]) -> list[Action]:
    """The turn's lay-downs and lay-offs: as its ``plays`` list them, or else in the order
    its draw allows (:func:`_plays_in_draw_order`)."""
    if "plays" not in turn:
        return _plays_in_draw_order(turn)
    out: list[Action] = []
    for play in turn["plays"]:
        flag = {"dealers_joker": True} if play.get("dealers_joker") else {}
        if "melds" in play:
            out.append(action_from_json({"type": "lay_down", "melds": play["melds"], **flag}))
        elif play.get("block"):
            out.append(Block())
        else:
            out.append(action_from_json({"type": "lay_off", **play["layoff"], **flag}))
    return out


def _plays_in_draw_order(turn: dict[str, Any]) -> list[Action]:
    """A turn without ``plays``: its melds, then its lay-offs (the one a "Rummy!" call
    made left out, X1), but lay-offs first when the turn took the discard pile and laid
    down nothing (T1: the card taken is laid off at once)."""
    melds = turn.get("melds") or []
    layoffs = _layoffs_not_called(turn)
    downs: list[Action] = [action_from_json({"type": "lay_down", "melds": melds})] if melds else []
    draw = turn.get("draw") or {}
    first_is_layoff = draw.get("from") == "discard" and layoffs and not melds
    return layoffs + downs if first_is_layoff else downs + layoffs


def _layoffs_not_called(turn: dict[str, Any]) -> list[Action]:
    """The turn's ``layoffs`` but the first when a "Rummy!" call laid it off (X1: the
    call itself is that move)."""
    called = turn.get("rummy") or {}
    skip = 1 if called.get("meld") is not None else 0
    return [action_from_json({"type": "lay_off", **x}) for x in (turn.get("layoffs") or [])[skip:]]
