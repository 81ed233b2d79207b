"""The pause at a round's end, as the play page shows it: every player's melds, lay-offs
and hand left, each card with its points and the rule (the engine's scoring of the round,
card by card), the round's figures and the running totals.

Glossary:
- ending: an :class:`.shown.Ending` for ``templates/play/_ending.html``: ``number`` (the
  round, from 1), ``went_out``, ``reason``, ``players`` (per player in seat order:
  ``name``, ``melds`` (lists of cards), ``layoffs`` (cards, each with ``onto``: the meld
  it went on, from 1), ``hand`` (cards left), and ``figures``: shown, in hand, bonus,
  round, total), ``notes`` (bonuses explained) and ``outcome`` (the scoring's summary in
  words). Each card is a :class:`.shown.ScoredCard`: its face (:func:`.board.face`) with
  ``points``, ``why``, ``rule``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..engine import CardError, parse_card
from .board import face
from .shown import EndedPlayer, Ending, ScoredCard
from .steps import round_over, told
from .store import items_of, part_of


def _card(item: Mapping[str, object], onto: int | None = None) -> ScoredCard:
    text, points, why, rule = str(item["card"]), item["points"], told(item, "why"), item["rule"]
    try:
        card = parse_card(text)
    except CardError:
        return ScoredCard(text, text, text, "", "", "", points, why, rule, onto)
    return ScoredCard(**face(card), points=points, why=why, rule=rule, onto=onto)


def _player(
    name: str, cards: Sequence[Mapping[str, object]], figures: Mapping[str, object]
) -> EndedPlayer:
    """One player's cards sorted into melds (by table index), lay-offs and hand."""
    melds: dict[int, list[ScoredCard]] = {}
    layoffs: list[ScoredCard] = []
    hand: list[ScoredCard] = []
    for item in cards:
        where = str(item["where"]).split()
        if where[0] == "meld":
            melds.setdefault(int(where[1]), []).append(_card(item))
        elif where[0] == "layoff":
            layoffs.append(_card(item, int(where[-1]) + 1))
        else:
            hand.append(_card(item))
    return EndedPlayer(
        name, tuple(tuple(melds[i]) for i in sorted(melds)), tuple(layoffs), tuple(hand), figures
    )


def ending(
    number: int,
    record: Mapping[str, object],
    scored: Mapping[str, object] | None,
    names: Sequence[str],
) -> Ending:
    """The round ``number`` as it ended (its engine ``record`` and its ``scored`` figures,
    card by card, the scoring contract's response), for the players ``names`` in seat
    order (:class:`.shown.Ending`)."""
    end = part_of(record, "end")
    figures = scored or {"players": {}, "cards": [], "notes": [], "outcome": ""}
    by_owner: dict[str, list[Mapping[str, object]]] = {name: [] for name in names}
    for item in items_of(figures, "cards"):
        by_owner.setdefault(str(item["owner"]), []).append(item)
    players = part_of(figures, "players")
    return Ending(
        number=number,
        went_out=end.get("went_out"),
        reason=end.get("reason", ""),
        over=round_over(number, end.get("went_out"), end.get("reason", "")),
        players=[_player(name, by_owner[name], part_of(players, name)) for name in names],
        notes=figures.get("notes") or [],
        outcome=told(figures, "outcome"),
        sides=figures.get("sides"),
    )
