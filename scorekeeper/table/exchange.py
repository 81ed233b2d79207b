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
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from ..models import Game
from .services import live_rounds, names_of, teams_of

FORMAT = "500rum-scoresheet/1"


def export_json(game: Game) -> dict[str, Any]:
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
                    _safe(name),
                    _safe(went_out),
                    f["shown"],
                    f["in_hand"],
                    f["bonus"],
                    f["round"],
                    f["total"],
                ]
            )
    return out.getvalue()


def _safe(text: str) -> str:
    """A cell a spreadsheet will not run as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


class BadExport(ValueError):
    """A document that is not a game export; ``problems`` lists ``(where, message)``."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(m for _, m in problems))


def read_export(doc: Any) -> dict[str, Any]:
    """Check an export's shape and return its parts: ``title, preset, options, names,
    sides, first_dealer, stake, rounds`` (rounds as ``(mode, input)``). Raises
    :class:`BadExport`. Rules and rounds are checked by the engine when replayed."""
    if not isinstance(doc, Mapping) or doc.get("format") != FORMAT:
        raise BadExport([("format", f"this is not a game exported by 500 Rum ({FORMAT})")])
    problems: list[tuple[str, str]] = []
    names = doc.get("players")
    if not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
        problems.append(("players", "players must be a list of names"))
        names = []
    rules_value = doc.get("rules")
    rules: Mapping[str, Any] = rules_value if isinstance(rules_value, Mapping) else {}
    if not isinstance(rules.get("preset", "standard"), str) or not isinstance(
        rules.get("options") or {}, Mapping
    ):
        problems.append(("rules", 'rules must be {"preset": name, "options": {...}}'))
    teams = doc.get("teams")
    sides = None
    if teams:
        if (
            not isinstance(teams, list)
            or not all(isinstance(t, list) for t in teams)
            or sorted(map(str, sum(teams, []))) != sorted(names)
        ):
            problems.append(("teams", "each player must be in exactly one side"))
        else:
            sides = [0 if n in teams[0] else 1 for n in names]
    rounds = doc.get("rounds")
    if not isinstance(rounds, list) or not all(
        isinstance(r, Mapping) and isinstance(r.get("input"), Mapping) for r in rounds
    ):
        problems.append(("rounds", "rounds must be a list"))
        rounds = []
    stake = doc.get("stake")
    try:
        stake_value = Decimal(stake) if stake else None
    except (InvalidOperation, TypeError):
        problems.append(("stake", "the stake must be a number"))
        stake_value = None
    dealer = doc.get("first_dealer", 0)
    if not isinstance(dealer, int) or not 0 <= dealer < max(len(names), 1):
        problems.append(("first_dealer", "the first dealer must be one of the players"))
    if problems:
        raise BadExport(problems)
    return {
        "title": str(doc.get("title") or "")[:80],
        "preset": rules.get("preset", "standard"),
        "options": rules.get("options") or {},
        "names": names,
        "sides": sides,
        "first_dealer": dealer,
        "stake": stake_value,
        "rounds": [(r.get("mode"), r["input"]) for r in rounds],
    }
