"""The strong bot: values hands, remembers the pile, weighs what opponents collect, and
values a stock draw by sampling the cards it has not seen.

Glossary:
- unseen: cards the seat has not seen: the whole pack less its hand, the pile, the table
  and the cards opponents were seen taking (the stock and the rest of other hands).
- outs: unseen cards that would turn a loose card into a meld.
- value of a hand: points it can lay down now (greedy best melds, S1 to S5), plus cards it
  can lay off, plus each remaining card's points weighted by the chance it will be melded
  before the round ends, minus the chance it is caught in hand (S7).
- danger of a discard: what it gives the next players: a lay-off onto the table (L1), a
  card that matches what an opponent has been collecting (T1), a "Rummy!" call (X1).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import JOKER, Card, make_pack
from ..checker.candidates import candidate_melds
from ..game.actions import (
    Action,
    Discard,
    Draw,
    DrawTwo,
    EndRound,
    LayDown,
    LayOff,
    Pass,
    RummyCall,
)
from ..game.hand_melds import accepts, hand_melds, meld_points, remove_cards
from ..game.state import Observation, Phase
from ..rules.ruleset import RuleSet
from ..scoring.score_round import card_points
from .hidden import unseen

SAMPLES = 6
"""Unseen cards sampled to value a stock draw."""


@dataclass(frozen=True)
class Style:
    """How much of the strong bot's skill a player has: ``depth`` is how many cards from
    the top of the discard pile it looks at for a take (None: the whole pile, as T2
    allows; a steady player looks three deep, most people only at the top card)."""

    depth: int | None = None


class Context:
    """What one decision needs, computed once from the view: unseen cards, table lay-off
    targets, opponents' collections, how long the round may last."""

    def __init__(self, view: Observation, style: Style | None = None) -> None:
        self.view = view
        self.style = style or Style()
        self.rules: RuleSet = view.rules
        self.points = [card_points(c, view.rules)[0] for c in _rank_cards()]
        self.takes = accepts(view.melds_now, view.rules)
        self.unseen = Counter(unseen(view))
        self.unseen_total = max(1, sum(self.unseen.values()))
        self.by_rank = [0] * 14
        self.by_suit: dict[str, list[int]] = {s: [0] * 16 for s in "SHDC"}
        for card, count in self.unseen.items():
            if card.rank:
                self.by_rank[card.rank] += count
                self.by_suit[card.suit][card.rank] += count
        opponents = [s for s in range(len(view.players)) if _opponent(view, s)]
        self.collected: Counter[tuple[str, int]] = Counter()
        for s in opponents:
            for c in view.known[s]:
                self.collected[("r", c.rank)] += 1
                self.collected[("s" + c.suit, c.rank)] += 1
        draws_left = view.stock_size / max(1, len(view.players))
        self.draw_share = min(1.0, draws_left / self.unseen_total)
        short = min((view.hand_sizes[s] for s in opponents), default=7)
        self.risk = 1.0 if short <= 3 else 0.8
        if view.rules.stock_exhausted == "nobody-deducts":
            self.risk *= 0.5
        self.cache: dict[tuple[int, ...], float] = {}

    def pts(self, card: Card) -> int:
        """A card's points in hand (S1 to S5, S9)."""
        return self.points[card.rank]


def _rank_cards() -> list[Card]:
    pack = make_pack()
    by_rank = {c.rank: c for c in pack}
    return [JOKER] + [by_rank[r] for r in range(1, 14)]


def _opponent(view: Observation, seat: int) -> bool:
    if seat == view.seat:
        return False
    if view.teams is None:
        return True
    side = next(i for i, t in enumerate(view.teams) if view.seat in t)
    return seat not in view.teams[side]


def best_melds(hand: list[Card], rules: RuleSet) -> tuple[int, list[Card]]:
    """The most points of disjoint melds in ``hand`` found greedily (from each of the three
    best first melds): ``(points, cards left)``."""
    melds = hand_melds(hand, rules)
    if not melds:
        return 0, hand
    scored = sorted(((meld_points(m, rules), m) for m in melds), key=lambda x: -x[0])
    best = (0, hand)
    for start in range(min(3, len(scored))):
        total, rest = scored[start][0], remove_cards(hand, scored[start][1])
        if rest is None:
            continue
        for points, meld in scored:
            left = remove_cards(rest, meld)
            if left is not None:
                total, rest = total + points, left
        if total > best[0]:
            best = (total, rest)
    return best


def hand_value(hand: list[Card], ctx: Context) -> float:
    """The value of ``hand`` (points, see the glossary); cached per decision."""
    key = tuple(sorted(id(c) for c in hand))
    cached = ctx.cache.get(key)
    if cached is not None:
        return cached
    melded, rest = best_melds(hand, ctx.rules)
    value = float(melded)
    for card in rest:
        value += _loose_value(card, rest, ctx)
    ctx.cache[key] = value
    return value


def _loose_value(card: Card, rest: list[Card], ctx: Context) -> float:
    points = ctx.pts(card)
    if card.rank == 0:
        return points * 0.5
    if card in ctx.takes and ctx.view.opened[ctx.view.seat]:
        return points * 0.9
    same = near = 0
    for other in rest:
        if other is card or other.rank == 0:
            continue
        if other.rank == card.rank:
            same += 1
        elif other.suit == card.suit and abs(other.rank - card.rank) <= 2:
            near += 1
    outs = 0
    rank = card.rank
    if same:
        outs += ctx.by_rank[rank]
    if near:
        row = ctx.by_suit[card.suit]
        outs += sum(row[max(1, rank - 2) : rank + 3]) - row[rank]
    chance = min(0.85, outs * ctx.draw_share * 1.5) if outs else 0.0
    return points * (chance - (1 - chance) * ctx.risk)


def _discard_value(hand: list[Card], ctx: Context) -> float:
    """The value of ``hand`` once its worst card is discarded."""
    if not hand:
        return 0.0
    worst = min(hand, key=lambda c: _loose_value(c, hand, ctx))
    rest = list(hand)
    rest.remove(worst)
    return hand_value(rest, ctx)


def danger(card: Card, ctx: Context) -> float:
    """What discarding ``card`` may give the opponents (points)."""
    points = ctx.pts(card)
    if card.rank == 0:
        return points * 2.0
    risk = 0.0
    if card in ctx.takes:
        risk += points * (1.5 if ctx.rules.rummy_call != "off" else 0.8)
    collected = ctx.collected
    if collected[("r", card.rank)]:
        risk += points * 0.6
    for d in (-2, -1, 1, 2):
        if collected[("s" + card.suit, card.rank + d)]:
            risk += points * 0.4
            break
    return risk


def idle_take(view: Observation, action: Action) -> bool:
    """True when ``action`` takes the top discard only to keep it (T3) while the stock can
    be drawn: the card makes no meld with the hand and lays off on no table meld. Bots
    never make such a take, so they never take discards back and forth for nothing (which
    would keep a round going for ever: no rule text limits a round's turns)."""
    if not (isinstance(action, Draw) and action.source == "discard") or not view.stock_size:
        return False
    if action.index != len(view.pile) - 1:
        return False
    card = view.pile[-1]
    if candidate_melds(card, view.hand, view.rules):
        return False
    return not (view.opened[view.seat] and card in accepts(view.melds_now, view.rules))


def choose_draw(ctx: Context, legal: Sequence[Action], rng: random.Random) -> Action:
    """The draw of best expected value: each pile option valued exactly (those within the
    style's depth), the stock by sampling unseen cards; never an idle take
    (:func:`idle_take`)."""
    hand = list(ctx.view.hand)
    best: tuple[float, Action] | None = None
    for action in legal:
        if idle_take(ctx.view, action):
            continue
        if isinstance(action, Draw) and action.source == "discard":
            assert action.index is not None
            if not _within(action.index, ctx):
                continue
            value = _discard_value(hand + list(ctx.view.pile[action.index :]), ctx)
        elif isinstance(action, Draw | DrawTwo):
            value = _stock_value(hand, ctx, rng, 2 if isinstance(action, DrawTwo) else 1)
        else:
            value = hand_value(hand, ctx) - 0.5
        if best is None or value > best[0]:
            best = (value, action)
    assert best is not None
    return best[1]


def _within(index: int, ctx: Context) -> bool:
    """A take at ``index`` of the pile lies within the style's depth from the top."""
    depth = ctx.style.depth
    return depth is None or len(ctx.view.pile) - index <= depth


def _stock_value(hand: list[Card], ctx: Context, rng: random.Random, count: int) -> float:
    pool = list(ctx.unseen.elements())
    if not pool:
        return _discard_value(hand, ctx)
    total = 0.0
    samples = min(SAMPLES, len(pool))
    for _ in range(samples):
        drawn = rng.sample(pool, min(count, len(pool)))
        total += _discard_value(hand + drawn, ctx)
    return total / samples


def choose_discard(ctx: Context, legal: Sequence[Action]) -> Action:
    """The discard that keeps the most value and gives the opponents the least."""
    hand = list(ctx.view.hand)
    best: tuple[float, Action] | None = None
    for action in legal:
        if not isinstance(action, Discard):
            continue
        rest = list(hand)
        rest.remove(action.card)
        value = hand_value(rest, ctx) - danger(action.card, ctx)
        if best is None or value > best[0]:
            best = (value, action)
    assert best is not None
    return best[1]


def choose_play(ctx: Context, plays: Sequence[LayDown | LayOff]) -> LayDown | LayOff:
    """The lay-down or lay-off that leaves the most valuable hand (usually the biggest)."""
    hand = list(ctx.view.hand)

    def after(play: LayDown | LayOff) -> float:
        cards = [c for m in play.melds for c in m] if isinstance(play, LayDown) else [play.card]
        rest = remove_cards(hand, cards) or []
        laid = sum(ctx.pts(c) for c in cards)
        return laid + hand_value(rest, ctx)

    return max(plays, key=after)


class StrongBot:
    """Plays to win: see the module docstring; ``style`` (:class:`Style`) takes some of
    its skill away for a lower level of the ladder."""

    name = "strong"

    def __init__(self, style: Style | None = None) -> None:
        self.style = style or Style()

    def choose(self, view: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """The move of best expected value among ``legal``."""
        if len(legal) == 1:
            return legal[0]
        ctx = Context(view, self.style)
        phase = view.phase
        if phase is Phase.DRAW:
            return choose_draw(ctx, legal, rng)
        calls = [a for a in legal if isinstance(a, RummyCall)]
        if calls:
            return calls[-1]
        plays = [a for a in legal if isinstance(a, LayDown | LayOff)]
        if plays:
            return choose_play(ctx, plays)
        if any(isinstance(a, Discard) for a in legal):
            return choose_discard(ctx, legal)
        for a in legal:
            if isinstance(a, Pass | EndRound):
                return a
        return legal[0]
