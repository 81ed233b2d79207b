"""A game as a file: JSON (rounds in the scoring contract's shapes) and CSV, and reading
a JSON export back.

The JSON export, format ``"500rum-scoresheet/1"``::

    {"format": "500rum-scoresheet/1", "title": "", "rules": {"preset", "options"},
     "players": ["Ann", ...], "teams": [["Ann", "Cat"], ["Bob", "Dee"]] | null,
     "first_dealer": 0, "stake": "0.05" | null,
     "rounds": [{"mode": "net" | "totals" | "cards", "input": {...},
                 "request": {...} | null, "response": {...}}]}

``request`` is the round as a scoring contract request (cards rounds only; a totals round
has no cards) and ``response`` the contract's response: every figure of the round.
Importing replays every round's ``input`` through the engine (nothing is taken on trust).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence

from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from ..engine import RulesError, RuleSet, ruleset
from ..inputs import clean_name
from ..languages.reader import translate
from ..models import Game
from ..web import spreadsheet_cell
from .entries import clean_title, names_problems, parse_stake
from .forms import RoundForm, cards_form, net_form, totals_form
from .games import ExportParts
from .round_inputs import MOST_SLOTS, cards_data, cards_slots, net_data, read_round, totals_data
from .services import live_rounds, names_of, teams_of

FORMAT = "500rum-scoresheet/1"
MAX_ROUNDS = 1000
"""Rounds an imported game may have at most (a game to 500 takes a few dozen)."""


def export_json(game: Game) -> dict[str, object]:
    """The game as the JSON document described above."""
    names, teams = names_of(game), teams_of(game)
    rounds = []
    totals: dict[str, int] = {}
    for number, r in enumerate(live_rounds(game), start=1):
        request = None
        if r.mode == "cards":
            request = {
                "rules": {"preset": game.preset, "options": game.options},
                "players": names,
                "teams": [list(t) for t in teams] if teams else None,
                **r.input,
                "totals_before": totals,
                "deal_number": number,
            }
        rounds.append({"mode": r.mode, "input": r.input, "request": request, "response": r.figures})
        totals = {n: f["total"] for n, f in r.figures["players"].items()}
    return {
        "format": FORMAT,
        "title": game.title,
        "rules": {"preset": game.preset, "options": game.options},
        "players": names,
        "teams": [list(t) for t in teams] if teams else None,
        "first_dealer": game.first_dealer,
        "stake": game.stake,
        "rounds": rounds,
    }


def export_csv(game: Game) -> str:
    """One row per round and player: round, mode, player, went out, shown, in hand,
    bonus, round score, total (points)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["round", "mode", "player", "went_out", "shown", "in_hand", "bonus", "round_score", "total"]
    )
    for number, r in enumerate(live_rounds(game), start=1):
        went_out = r.input.get("went_out") or ""
        for name, f in r.figures["players"].items():
            writer.writerow(
                [
                    number,
                    r.mode,
                    spreadsheet_cell(name),
                    spreadsheet_cell(went_out),
                    f["shown"],
                    f["in_hand"],
                    f["bonus"],
                    f["round"],
                    f["total"],
                ]
            )
    return out.getvalue()


class BadExport(ValueError):
    """A document that is not a game export; ``problems`` lists ``(where, message)``."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(m for _, m in problems))


def read_export(doc: object) -> ExportParts:
    """Check an export as the new-game and round forms check what a table types, and
    return its parts: ``title, preset, options, names, sides, first_dealer, stake,
    rounds`` (rounds as ``(mode, input)``, each input as its round form gives it back).
    Raises :class:`BadExport` listing every problem (nothing is stored then); at most
    :data:`MAX_ROUNDS` rounds."""
    if not isinstance(doc, Mapping) or doc.get("format") != FORMAT:
        raise BadExport(
            [("format", _("this is not a game exported by 500 Rum (%(format)s)", format=FORMAT))]
        )
    problems: list[tuple[str, str]] = []
    names = _names(doc.get("players"), problems)
    preset, options, rules = _rules(doc.get("rules"), problems)
    sides = _sides(doc.get("teams"), names, problems)
    stake, problem = parse_stake(doc.get("stake"))
    if problem:
        problems.append(("stake", problem))
    dealer = _first_dealer(doc.get("first_dealer", 0), names, problems)
    rounds = _round_list(doc.get("rounds"), problems)
    if problems or rules is None or rounds is None:
        raise BadExport(problems)
    return ExportParts(
        title=clean_title(doc.get("title")),
        preset=preset,
        options=options,
        names=names,
        sides=sides,
        first_dealer=dealer,
        stake=stake,
        rounds=_rounds(rounds, names, rules.seven_card_straight),
    )


def _first_dealer(raw: object, names: list[str], problems: list[tuple[str, str]]) -> int:
    """The first dealer's seat; a problem noted when it is no seat of ``names``."""
    dealer = -1 if isinstance(raw, bool) or not isinstance(raw, int) else raw
    if not 0 <= dealer < max(len(names), 1):
        problems.append(("first_dealer", _("the first dealer must be one of the players")))
    return dealer


def _round_list(raw: object, problems: list[tuple[str, str]]) -> list[Mapping[str, object]] | None:
    """The export's rounds (None, a problem noted, when they are not a list of
    objects); a problem noted too beyond :data:`MAX_ROUNDS`."""
    if not isinstance(raw, list) or not all(isinstance(r, Mapping) for r in raw):
        problems.append(("rounds", _("rounds must be a list")))
        return None
    if len(raw) > MAX_ROUNDS:
        problems.append(("rounds", _("a game has at most %(most)s rounds", most=MAX_ROUNDS)))
    return raw


def _names(raw: object, problems: list[tuple[str, str]]) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(n, str) for n in raw):
        problems.append(("players", _("players must be a list of names")))
        return []
    found = [(f"players[{s}]", m) for s, m in names_problems(raw) if s >= 0]
    found += [("players", m) for s, m in names_problems(raw) if s < 0]
    found += [
        (f"players[{s}]", _("%(name)r has invisible characters: remove them", name=n))
        for s, n in enumerate(raw)
        if clean_name(n) and n != clean_name(n)
    ]
    problems.extend(found)
    return raw


def _rules(
    raw: object, problems: list[tuple[str, str]]
) -> tuple[str, dict[str, object], RuleSet | None]:
    rules_value = raw if isinstance(raw, Mapping) else {}
    preset, options = rules_value.get("preset", "standard"), rules_value.get("options") or {}
    if not isinstance(preset, str) or not isinstance(options, Mapping):
        problems.append(("rules", _('rules must be {"preset": name, "options": {...}}')))
        return "", {}, None
    try:
        return preset, dict(options), ruleset(preset, options)
    except RulesError as error:
        problems.extend((f"rules.{w}", translate(m)) for w, m in error.problems)
        return preset, dict(options), None


def _sides(teams: object, names: list[str], problems: list[tuple[str, str]]) -> list[int] | None:
    if not teams:
        return None
    if (
        not isinstance(teams, list)
        or len(teams) != 2
        or not all(isinstance(t, list) and all(isinstance(n, str) for n in t) for t in teams)
        or sorted(teams[0] + teams[1]) != sorted(names)
    ):
        problems.append(("teams", _("each player must be in exactly one side")))
        return None
    return [0 if n in teams[0] else 1 for n in names]


def _rounds(
    rounds: Sequence[Mapping[str, object]], names: list[str], seven_card: bool
) -> list[tuple[str, dict[str, object]]]:
    """Every round through its form; :class:`BadExport` naming each refused round."""
    checked, problems = [], []
    for number, stored in enumerate(rounds, start=1):
        round_input, found = checked_round(
            names, seven_card, stored.get("mode"), stored.get("input")
        )
        problems += [(f"rounds[{number - 1}]", f"round {number}: {m}") for m in found]
        checked.append((str(stored.get("mode")), round_input))
    if problems:
        raise BadExport(problems[:20])
    return checked


def _posted(filled: Mapping[str, object]) -> MultiDict[str, str]:
    """Form data as a browser would post it: a ticked box as ``"y"``, an unticked or
    empty one left out, any other value as its text."""
    posted = MultiDict({"version": "1", "nonce": "imported-round"})
    for key, value in filled.items():
        if value is True:
            posted[key] = "y"
        elif value is not None and value is not False:
            posted[key] = str(value)
    return posted


def _posted_form(
    names: Sequence[str],
    seven_card: bool,
    mode: str,
    posted: MultiDict[str, str],
    slots: tuple[int, int],
) -> RoundForm:
    """The round form of ``mode`` filled with ``posted`` (a cards form with the meld and
    lay-off rows ``slots`` asks for, :data:`MOST_SLOTS` at most)."""
    if mode == "net":
        return net_form(names, formdata=posted)
    if mode == "totals":
        return totals_form(names, seven_card, formdata=posted)
    most = (min(slots[0], MOST_SLOTS), min(slots[1], MOST_SLOTS))
    return cards_form(names, *most, formdata=posted)


def _form_data(
    names: Sequence[str], mode: str, data: Mapping[str, object]
) -> tuple[dict[str, object], tuple[int, int]] | None:
    """A stored round input as its form's data and the meld and lay-off rows it needs
    (none but in cards mode); None when it is not in the shape the app exports."""
    try:
        fill = {"net": net_data, "totals": totals_data}.get(mode, cards_data)
        filled = fill(dict(data), names)
        slots = cards_slots(dict(data), names) if mode == "cards" else (0, 0)
    except (AttributeError, TypeError, KeyError, ValueError):
        return None
    return filled, slots


def checked_round(
    names: Sequence[str], seven_card: bool, mode: object, data: object
) -> tuple[dict[str, object], list[str]]:
    """A round from a file passed through the very form a table fills in: its input as
    that form gives it back (unknown fields dropped), and every problem the form finds
    (``"Shown: ..."``); an input not in the shape the app exports is one problem."""
    if mode not in ("net", "totals", "cards") or not isinstance(data, Mapping):
        return {}, [_("a round is entered as net, totals or cards")]
    went_out = data.get("went_out")
    if went_out is not None and went_out not in names:
        return {}, [_("who went out must be one of the players")]
    found = _form_data(names, mode, data)
    if found is None:
        return {}, [_("this round is not in the shape the app exports")]
    filled, slots = found
    form = _posted_form(names, seven_card, mode, _posted(filled), slots)
    if not form.validate():
        return {}, [
            _("%(field)s: %(problem)s", field=form[k].label.text, problem=m)
            for k, ms in form.errors.items()
            for m in ms
        ]
    round_input, _fields, early = read_round(form, mode, names)
    return round_input, [m for _, m in early]
