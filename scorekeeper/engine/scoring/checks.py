"""A round as the table states it, and its checks: players and sides, cards the pack
can hold, legal melds and lay-offs, who went out.

Glossary:
- round play: what happened in one round: the melds laid down (each all at once, in
  order: the table index), the lay-offs (each naming its meld, L3), the hands left, who
  went out, the sides (P1) and which deal of the game it was (P5).
- as laid / as it stands: a meld when it was laid down, and after every lay-off onto it.

Every problem is ``(where, message)``, ``where`` in the scoring contract's terms
(``"melds[2]"``, ``"layoffs[0].meld"``, ``"hands.Bob[1]"``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ..cards import JOKERS, Card
from ..melds import IllegalMeld, Meld, check_meld, extend
from ..messages import listed, say, say_plural
from ..rules.ruleset import RuleSet


def located(problems: Sequence[tuple[str, str]]) -> str:
    """``problems`` as one text, each ``where: message``, joined by "; " (a message,
    translated where shown, when any message is one)."""
    return listed([say("%(where)s: %(problem)s", where=w, problem=m) for w, m in problems])


class RoundError(ValueError):
    """A round that cannot be scored: ``problems`` lists ``(where, message)`` pairs, every
    problem found, ``where`` in the scoring contract's terms (``"melds[2]"``)."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__(located(problems))


class MeldPlay(NamedTuple):
    """A meld laid down by ``owner``: its cards as laid, all at once; ``final_turn`` when
    it was laid in the turn its owner went out (S10)."""

    owner: str
    cards: tuple[Card, ...]
    final_turn: bool = False


class LayoffPlay(NamedTuple):
    """``card`` laid off by ``owner`` onto the meld at table index ``meld`` (L1, L3)."""

    owner: str
    card: Card
    meld: int


@dataclass(frozen=True, init=False)
class RoundPlay:
    """What happened in one round, as the scoring contract's request states it.

    ``melds`` in the order laid down (table index = position), ``layoffs`` in the order
    made, ``hands`` every player's cards left, ``went_out`` the player who went out or None
    (stock ran out), ``teams`` the sides for partnership rules (P1), ``deal_number`` the
    1-based deal of the game (P5's two-deal game), ``went_out_by`` how the player went
    out: ``"discard"`` (their last card discarded) or ``"play"`` (melded or laid off).
    """

    players: tuple[str, ...]
    melds: tuple[MeldPlay, ...] = ()
    layoffs: tuple[LayoffPlay, ...] = ()
    hands: Mapping[str, Sequence[Card]] = field(default_factory=dict)
    went_out: str | None = None
    teams: tuple[tuple[str, ...], ...] | None = None
    deal_number: int = 1
    went_out_by: str = "discard"

    def __init__(
        self,
        players: tuple[str, ...],
        melds: tuple[MeldPlay, ...] = (),
        layoffs: tuple[LayoffPlay, ...] = (),
        hands: Mapping[str, Sequence[Card]] | None = None,
        went_out: str | None = None,
        teams: tuple[tuple[str, ...], ...] | None = None,
        deal_number: int = 1,
        went_out_by: str = "discard",
    ) -> None:
        # One store of every field: a round is made for every round scored, and a frozen
        # dataclass's own __init__ sets its fields one object.__setattr__ at a time.
        object.__setattr__(
            self,
            "__dict__",
            {
                "players": players,
                "melds": melds,
                "layoffs": layoffs,
                "hands": {} if hands is None else hands,
                "went_out": went_out,
                "teams": teams,
                "deal_number": deal_number,
                "went_out_by": went_out_by,
            },
        )


def unit_of(play: RoundPlay) -> dict[str, str]:
    """Each player's scoring unit: their own name, or their side's (P1) ``"Ann & Cat"``."""
    if not play.teams:
        return {p: p for p in play.players}
    return {p: " & ".join(team) for team in play.teams for p in team}


def went_out_by_hand(in_hand: Mapping[str, int | None]) -> str | None:
    """Who went out, read from the points each player has left in hand (``None`` or 0
    for nothing): the one player with nothing in hand, or None when no player or several
    have nothing (then the table must say who went out, or that the stock ran out).

    O1 (every seed, 000 to 004): a player goes out by melding, laying off or discarding
    the last card, so the player who went out holds nothing; in a round counted as
    shown and in hand, the one empty hand tells who it was. ``in_hand`` maps any key
    (a name, a seat) to points; the key is returned."""
    empty = [who for who, points in in_hand.items() if not points]
    return empty[0] if len(empty) == 1 else None


def check_players(rules: RuleSet, play: RoundPlay) -> list[tuple[str, str]]:
    """The players and sides: 2 to the rules' most (D1), each named once, two sides of two
    under partnership rules and sides only under them (P1)."""
    problems: list[tuple[str, str]] = []
    n = len(play.players)
    if not 2 <= n <= rules.max_players:
        problems.append(
            (
                "players",
                say(
                    "a game has 2 to %(most)s players, not %(players)s",
                    most=rules.max_players,
                    players=n,
                ),
            )
        )
    if len(set(play.players)) != n:
        problems.append(("players", say("each player needs a different name")))
    if rules.partnership:
        if n != 4:
            problems.append(("players", say("partnership play is for 4 players in two sides (P1)")))
        teams = play.teams or ()
        members = sorted(p for team in teams for p in team)
        if len(teams) != 2 or any(len(t) != 2 for t in teams):
            problems.append(("teams", say("partnership rules need two sides of two players (P1)")))
        elif members != sorted(play.players):
            problems.append(("teams", say("each player must be in exactly one side (P1)")))
    elif play.teams:
        problems.append(("teams", say("sides are only for partnership rules (P1)")))
    return problems


_JOKERS = JOKERS


def check_cards(rules: RuleSet, play: RoundPlay) -> list[tuple[str, str]]:
    """Where a card is one too many for the pack, or a hand names a joker (D2, M5)."""
    everything = [c for meld in play.melds for c in meld.cards]
    everything += [layoff.card for layoff in play.layoffs]
    everything += [c for hand in play.hands.values() for c in hand]
    if pack_holds(rules, play, everything):
        return []
    placed = [
        *(
            (card, f"melds[{i}].cards[{j}]")
            for i, m in enumerate(play.melds)
            for j, card in enumerate(m.cards)
        ),
        *((layoff.card, f"layoffs[{i}].card") for i, layoff in enumerate(play.layoffs)),
        *(
            (card, f"hands.{p}[{j}]")
            for p in play.players
            for j, card in enumerate(play.hands.get(p, ()))
        ),
    ]
    packs = rules.packs_for(len(play.players))
    return _card_problems(placed, rules.jokers * packs, packs)


def pack_holds(rules: RuleSet, play: RoundPlay, everything: Sequence[Card]) -> bool:
    """True when the pack surely holds ``everything`` (every card of ``play``: melds,
    lay-offs, hands) and no hand names a joker (D2, M5): each card at most once per pack,
    jokers within the pack's. False means "look closer" (:func:`check_round` then says
    where, or finds that declared jokers are the pack's jokers after all)."""
    distinct = set(everything)
    if len(distinct) == len(everything) and distinct.isdisjoint(_JOKERS):
        return True  # each card once, no joker (so none declared in a hand): nothing to say
    packs = rules.packs_for(len(play.players))
    counts = Counter(everything)
    jokers = sum(counts[card] for card in counts.keys() & _JOKERS)
    if jokers > rules.jokers * packs or max(counts.values(), default=0) > packs:
        return False
    return not any(c.stands_for for hand in play.hands.values() for c in hand)


def _card_problems(
    placed: list[tuple[Card, str]], joker_limit: int, packs: int
) -> list[tuple[str, str]]:
    """Where each card is one too many for the pack (D2), and declared jokers in hand."""
    problems: list[tuple[str, str]] = []
    seen: Counter[Card] = Counter()
    for card, where in placed:
        if where.startswith("hands.") and card.stands_for is not None:
            problems.append((where, say("in a hand a joker is just JK")))
        physical = card.physical
        seen[physical] += 1
        limit = joker_limit if physical.is_joker else packs
        if seen[physical] <= limit:
            continue
        if physical.is_joker:
            message = (
                say("there are only %(limit)s jokers in the pack", limit=limit)
                if limit
                else say("these rules play without jokers (D2)")
            )
        else:
            message = say_plural(
                "%(card)s appears more often than the pack allows: a single pack has one",
                "%(card)s appears more often than the pack allows: %(count)s packs have %(count)s",
                packs,
                card=physical.display,
            )
        problems.append((where, message))
    return problems


def build_table(
    rules: RuleSet, play: RoundPlay, broken: frozenset[int] = frozenset()
) -> tuple[list[Meld | None], list[Meld | None], list[tuple[str, str]]]:
    """The melds as laid and as they end the round, after every lay-off in order.

    Returns ``(as laid, as they stand, problems)``; a meld that is not legal, or listed in
    ``broken``, is None and the lay-offs onto it are not checked. Applies M1 to M5, P2, L1,
    L3 and L4 (partners laying off on each other's melds).
    """
    problems: list[tuple[str, str]] = []
    laid: list[Meld | None] = []
    unit = unit_of(play)
    for i, meld_play in enumerate(play.melds):
        meld: Meld | None = None
        if meld_play.owner not in unit:
            problems.append(
                (f"melds[{i}].owner", say("%(owner)s is not a player", owner=repr(meld_play.owner)))
            )
        if i not in broken:
            try:
                meld = check_meld(meld_play.cards, rules)
            except IllegalMeld as problem:
                problems.append((f"melds[{i}]", problem.message))
        laid.append(meld)
    table = list(laid)
    for i, layoff in enumerate(play.layoffs):
        if layoff.owner not in unit:
            problems.append(
                (f"layoffs[{i}].owner", say("%(owner)s is not a player", owner=repr(layoff.owner)))
            )
        refused = _lay_off(rules, play, unit, table, layoff)
        if refused is not None:
            problems.append((f"layoffs[{i}]{refused[0]}", refused[1]))
    return laid, table, problems


def _lay_off(
    rules: RuleSet,
    play: RoundPlay,
    unit: dict[str, str],
    table: list[Meld | None],
    layoff: LayoffPlay,
) -> tuple[str, str] | None:
    """Extend ``table`` with ``layoff``; the problem as ``(where suffix, message)``."""
    if not 0 <= layoff.meld < len(table):
        return ".meld", f"there is no meld {layoff.meld} on the table"
    target = table[layoff.meld]
    if target is None:
        return None
    if play.teams:
        refused = partner_refusal(rules, play, unit, play.melds[layoff.meld].owner, layoff.owner)
        if refused is not None:
            return "", refused
    try:
        table[layoff.meld] = extend(target, layoff.card, rules)
    except IllegalMeld as problem:
        return "", problem.message
    return None


def partner_refusal(
    rules: RuleSet, play: RoundPlay, unit: Mapping[str, str], owner: str, laid_by: str
) -> str | None:
    """Why ``laid_by`` may not lay off onto a meld of ``owner`` (L4: partners laying off on
    each other's melds, only with sides and where the rules forbid it), or None."""
    if not play.teams or rules.partners_lay_off or owner == laid_by:
        return None
    if unit.get(owner) == unit.get(laid_by):
        return "partners may not lay off on each other's melds here (L4)"
    return None


def fitting_order(rules: RuleSet, play: RoundPlay) -> tuple[int, ...]:
    """An order of ``play.layoffs`` (their indexes) in which each card fits the meld it
    names as that meld then stands (L1, L3). A table at game night does not note the
    order of lay-offs, so Cat's 6♣ onto 3♣ 4♣ 5♣ may need to come before Bob's 7♣: the
    lay-offs are placed in passes, each as soon as it fits, keeping their given order
    where it works. Lay-offs that never fit (or name an illegal meld) come last, in their
    order, for :func:`check_round` to report."""
    table: list[Meld | None] = []
    for meld_play in play.melds:
        try:
            table.append(check_meld(meld_play.cards, rules))
        except IllegalMeld:
            table.append(None)
    pending = list(range(len(play.layoffs)))
    order: list[int] = []
    placed = True
    while pending and placed:
        placed = False
        for index in list(pending):
            layoff = play.layoffs[index]
            target = table[layoff.meld] if 0 <= layoff.meld < len(table) else None
            if target is None:
                continue
            try:
                table[layoff.meld] = extend(target, layoff.card, rules)
            except IllegalMeld:
                continue
            order.append(index)
            pending.remove(index)
            placed = True
    return tuple(order + pending)


def check_round(
    rules: RuleSet, play: RoundPlay, broken: frozenset[int] = frozenset()
) -> list[tuple[str, str]]:
    """Every problem with ``play`` under ``rules``: players and sides (D1, P1), cards the
    pack cannot hold (D2), illegal melds and lay-offs (M1 to M5, L1 to L4, P2), the hands
    and who went out (O1, O3). An empty list means the round can be scored. ``broken``
    lists meld indexes already known to be unreadable (not checked again)."""
    return full_check(rules, play, broken)[0]


def full_check(
    rules: RuleSet, play: RoundPlay, broken: frozenset[int]
) -> tuple[list[tuple[str, str]], list[Meld | None], list[Meld | None]]:
    """:func:`check_round`'s problems with the melds as laid and as they stand
    (:func:`build_table`), so that scoring checks a round once."""
    problems = check_players(rules, play)
    problems += check_cards(rules, play)
    laid, table, meld_problems = build_table(rules, play, broken)
    problems += meld_problems
    problems += check_hands(rules, play)
    return problems, laid, table


def check_hands(rules: RuleSet, play: RoundPlay) -> list[tuple[str, str]]:
    """The hands and who went out: a hand for each player and none for anyone else, the
    player who went out holds nothing (O1), a round without anyone out only where the
    stock may run out (O3), and how the player went out (:func:`_check_going_out`)."""
    problems: list[tuple[str, str]] = []
    players, hands, goer = play.players, play.hands, play.went_out
    for name in hands:
        if name not in players:
            problems.append((f"hands.{name}", say("%(name)s is not a player", name=repr(name))))
    for player in players:
        if player not in hands:
            problems.append(
                ("hands", say("no hand is given for %(player)s (use [] for none)", player=player))
            )
    if goer is not None:
        if goer not in players:
            problems.append(("went_out", say("%(goer)s is not a player", goer=repr(goer))))
        elif hands.get(goer):
            problems.append(
                ("went_out", say("%(goer)s went out, so their hand must be empty (O1)", goer=goer))
            )
    elif rules.stock_exhausted in ("reshuffle", "play-on"):
        problems.append(
            ("went_out", say("under these rules a round ends only when someone goes out (O3)"))
        )
    problems += _check_going_out(rules, play)
    return problems


def _check_going_out(rules: RuleSet, play: RoundPlay) -> list[tuple[str, str]]:
    """``went_out_by`` and ``melds[].final_turn`` (S10): "play" only where the rules let a
    player go out without a discard (not under O2, unless by a "Rummy!" call, X1), a
    final-turn meld only of the player who went out."""
    problems: list[tuple[str, str]] = []
    if play.went_out_by not in ("discard", "play"):
        problems.append(("went_out_by", say('must be "discard" or "play"')))
    elif play.went_out_by == "play" and rules.discard_to_go_out and rules.rummy_call == "off":
        problems.append(
            ("went_out_by", say("under these rules a player goes out by a discard (O2)"))
        )
    goer = play.went_out
    for i, meld in enumerate(play.melds):
        if meld.final_turn and meld.owner != goer:
            problems.append(
                (
                    f"melds[{i}].final_turn",
                    say("%(owner)s did not go out, so had no final turn", owner=meld.owner),
                )
            )
    return problems


# ---- scoring a round -----------------------------------------------------------------
