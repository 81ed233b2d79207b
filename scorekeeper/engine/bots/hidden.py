"""The cards a seat cannot see, and whole deals sampled to fit what it has seen.

Glossary:
- unseen: the pack (D2) less the seat's hand, the discard pile, the table, the cards each
  other seat was seen taking from the pile (``known``) and, under dealer's gambit (X2), the
  joker beside the pack and the cards put aside; the stock and the rest of other hands.
- passed over: a card on top of the pile when a seat drew from the stock instead (T1),
  or a card it discarded: cards that meld with it (same rank, same suit within two ranks)
  are less likely to be in that seat's hand.
- sample: one deal of the unseen cards into the other hands and the stock, each hand
  holding its ``known`` cards and as many cards as the seat sees it hold, each card weighed
  by what that hand passed over (:func:`weights`).

:func:`sample_state` builds a :class:`state.GameState` from a seat's
:class:`state.Observation` alone, ready for :func:`turns.apply_action`: a bot that
simulates on such states uses no card it cannot see.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Sequence

from ..cards import Card, make_pack
from ..game.actions import Discard, Draw, DrawTwo
from ..game.state import GameState, Observation

PASSED = 0.55
"""The weight a hand's card keeps for each card that hand passed over and melds with it."""
DISCARDED = 0.7
"""The weight a hand's card keeps for each card that hand discarded and melds with it."""
FLOOR = 0.1
"""No card is made less likely than this."""


class SampleError(ValueError):
    """The unseen cards are fewer than the hidden places (a view that no deal fits)."""


def unseen(view: Observation) -> list[Card]:
    """The cards ``view``'s seat has not seen, in pack order (each copy once per pack)."""
    rules = view.rules
    counts: Counter[Card] = Counter(make_pack(rules.jokers, rules.packs_for(len(view.players))))
    seen: list[Card] = [*view.hand, *view.pile]
    for meld in view.melds_now:
        seen.extend(c.physical for c in meld.cards)
    for seat, cards in enumerate(view.known):
        if seat != view.seat:
            seen.extend(cards)
    if view.gambit is not None:
        seen.extend(view.gambit.aside)
        if view.gambit.beside is not None:
            seen.append(view.gambit.beside)
    for card in seen:
        if counts[card] > 0:
            counts[card] -= 1
    return list((+counts).elements())


def passed_over(view: Observation) -> list[list[tuple[Card, float]]]:
    """Per seat, the cards it passed over or discarded this round, each with its weight
    (:data:`PASSED`, :data:`DISCARDED`), from the public moves (the upcard is the pile's
    bottom card while no one has taken it)."""
    out: list[list[tuple[Card, float]]] = [[] for _ in view.players]
    bottom_taken = any(
        isinstance(a, Draw) and a.source == "discard" and a.index == 0 for _, a in view.moves
    )
    top: Card | None = view.pile[0] if view.pile and not bottom_taken else None
    for seat, action in view.moves:
        if isinstance(action, Discard):
            out[seat].append((action.card, DISCARDED))
            top = action.card
        elif isinstance(action, DrawTwo) or (isinstance(action, Draw) and action.source == "stock"):
            if top is not None:
                out[seat].append((top, PASSED))
        elif isinstance(action, Draw):
            top = None
    return out


def _melds_with(card: Card, other: Card) -> bool:
    if card.rank == 0 or other.rank == 0:
        return False
    return card.rank == other.rank or (card.suit == other.suit and abs(card.rank - other.rank) <= 2)


def weights(pool: Sequence[Card], avoided: Sequence[tuple[Card, float]]) -> list[float]:
    """The weight of each card of ``pool`` in a hand that passed over ``avoided``."""
    out = []
    for card in pool:
        w = 1.0
        for other, keep in avoided:
            if _melds_with(card, other):
                w *= keep
        out.append(max(FLOOR, w))
    return out


def _pick(pool: list[Card], count: int, ws: list[float], rng: random.Random) -> list[Card]:
    """``count`` cards drawn from ``pool`` without replacement, each as likely as its weight
    (Efraimidis and Spirakis: the largest keys ``u ** (1 / w)``); removed from ``pool``."""
    if count <= 0:
        return []
    keys = sorted(range(len(pool)), key=lambda i: rng.random() ** (1.0 / ws[i]), reverse=True)
    chosen = sorted(keys[:count], reverse=True)
    picked = [pool[i] for i in chosen]
    for i in chosen:
        del pool[i]
    return picked


def sample_hands(view: Observation, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
    """One sample (see the glossary): every seat's hand (``view.hand`` for its own seat)
    and the stock. Raises :class:`SampleError` when no deal fits."""
    pool = unseen(view)
    avoided = passed_over(view)
    hands: list[list[Card]] = []
    for seat, size in enumerate(view.hand_sizes):
        if seat == view.seat:
            hands.append(list(view.hand))
            continue
        hand = list(view.known[seat])
        need = size - len(hand)
        if need > len(pool):
            raise SampleError(f"seat {seat} holds {need} hidden cards, {len(pool)} are unseen")
        hand += _pick(pool, need, weights(pool, avoided[seat]), rng)
        hands.append(hand)
    if view.stock_size > len(pool):
        raise SampleError(f"the stock holds {view.stock_size} cards, {len(pool)} are unseen")
    rng.shuffle(pool)
    return hands, pool[: view.stock_size]


def sample_state(view: Observation, rng: random.Random) -> GameState:
    """A whole game state that looks from ``view``'s seat exactly as ``view`` does, the
    hidden cards sampled (:func:`sample_hands`); its seed for any later deal drawn from
    ``rng``. Raises :class:`SampleError` when no deal fits."""
    hands, stock = sample_hands(view, rng)
    return GameState(
        rules=view.rules,
        rules_spec={},
        players=view.players,
        seed=rng.randrange(2**31),
        teams=view.teams,
        totals=list(view.totals),
        deal_number=view.deal_number,
        dealer=view.dealer,
        log=list(view.moves),
        hands=hands,
        stock=stock,
        pile=list(view.pile),
        owners=list(view.owners),
        laid=list(view.laid),
        table=list(view.melds_now),
        layoffs=list(view.layoffs),
        opened=list(view.opened),
        known=[list(k) for k in view.known],
        phase=view.phase,
        seat=view.current,
        turn_seat=view.current,
        must_use=view.must_use,
        no_discard=view.no_discard,
        turns=sum(1 for _, a in view.moves if isinstance(a, Discard)),
        gambit=copy.deepcopy(view.gambit),
    )
