"""Wild jokers (M5): the digital game lists every meld the checker accepts, and takes
every card of the discard pile the checker says may be taken.

Seed 003: "Jokers are wild and may represent any card for the purpose of melding. At the
time that it is melded, the player must declare the card the joker stands for, and this
cannot be changed later (it is okay if the designated card is present elsewhere on the
table; there can be several "copies" of a card in play). The card named must, of course,
be able to be legally melded in order for the joker to be played."
Seed 002: "If jokers are used in the game, they are treated as wild cards and can
represent any card the player chooses even if that card is already used in another meld."

The checker's answer is :func:`melds.check_meld` (what a meld is) and
:func:`advice.advise` (what may be taken); the game's is :func:`game.legal_actions`.
"""

from __future__ import annotations

import random
from itertools import combinations, combinations_with_replacement
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.engine import Draw, LayDown, apply_action, legal_actions
from scorekeeper.engine.cards import (
    JOKER,
    SUITS,
    Card,
    declare,
    make_pack,
    natural_card,
    parse_cards,
)
from scorekeeper.engine.checker.advice import advise
from scorekeeper.engine.game.hand_melds import hand_melds
from scorekeeper.engine.game.state import Phase
from scorekeeper.engine.melds import IllegalMeld, Meld, check_meld, suits_must_differ
from scorekeeper.engine.rules.ruleset import RuleSet, ruleset

from .test_turns_scenarios import rigged

WITH_JOKERS: list[tuple[str, dict[str, Any]]] = [
    ("modern", {}),
    ("jokers-wild", {}),
    ("persian", {}),
    ("jokers-wild", {"ace_in_run": "round-the-corner"}),
    ("jokers-wild", {"two_packs": "always"}),
    ("modern", {"min_run": 4, "same_suit_in_set": "forbidden"}),
    ("modern", {"jokers": 4, "discard_use": "meld-or-lay-off"}),
    ("standard", {"jokers": 2, "joker_use": "wild", "ace_in_run": "round-the-corner"}),
]
"""Every preset with jokers, and house rules with them."""

PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def laid(text: str, rules: RuleSet) -> set[str]:
    """The melds the game lists from the hand ``text``, as they lie."""
    hand = [c for c in make_pack() if c.text in text.split()]
    hand += [JOKER] * text.split().count("JK")
    return {" ".join(c.text for c in check_meld(m, rules).cards) for m in hand_melds(hand, rules)}


def test_a_joker_as_the_queen_of_an_ace_high_run() -> None:
    for preset in ("jokers-wild", "modern"):
        assert "JK=QH KH AH" in laid("KH AH JK 4S", ruleset(preset))


def test_one_natural_card_and_two_jokers() -> None:
    found = laid("9S JK JK 4D", ruleset("jokers-wild"))
    # M2 forbidden (003): the jokers name two of the suits the set lacks, each choice listed.
    assert {m for m in found if m.startswith("9S ")} >= {
        "9S JK=9H JK=9D",
        "9S JK=9H JK=9C",
        "9S JK=9D JK=9C",
    }
    assert "JK=7S JK=8S 9S" in found and "9S JK=10S JK=JS" in found
    assert "JK=8S 9S JK=10S" in found


def test_a_joker_at_the_low_end_and_in_place_of_a_card_held() -> None:
    found = laid("5H 6H 7H JK", ruleset("modern"))
    assert {"JK=4H 5H 6H", "5H 6H JK=7H", "5H JK=6H 7H", "JK=4H 5H 6H 7H"} <= found


def test_three_wild_jokers_meld_alone() -> None:
    found = laid("JK JK JK 2C", ruleset("modern", jokers=4))
    assert "JK=2C JK=3C JK=4C" in found and "JK=QS JK=KS JK=AS" in found


def _namings(naturals: list[Card], jokers: int) -> list[tuple[Card, ...]]:
    """Every naming of ``jokers`` wild jokers that may make a meld with ``naturals``: the
    names share a rank or a suit with the naturals (a meld is one rank, M1, or one suit,
    M3); without naturals, all of one rank or all of one suit."""
    if naturals:
        first = naturals[0]
        every = [natural_card(r, s) for s in SUITS for r in range(1, 14)]
        related = [c for c in every if c.rank == first.rank or c.suit == first.suit]
        return list(combinations_with_replacement(related, jokers))
    out: list[tuple[Card, ...]] = []
    for r in range(1, 14):
        out += combinations_with_replacement([natural_card(r, s) for s in SUITS], jokers)
    for s in SUITS:
        out += combinations_with_replacement([natural_card(r, s) for r in range(1, 14)], jokers)
    return out


def _key(meld: Meld, rules: RuleSet) -> tuple[object, ...]:
    """A meld as the game tells melds apart: where M2 lets a set repeat a suit, the suit a
    joker names in it changes nothing, so such a set is its naturals and joker count."""
    if meld.kind == "set" and not suits_must_differ(rules):
        naturals = sorted(c.text for c in meld.cards if not c.is_joker)
        return ("set", meld.rank, *naturals, len(meld.cards) - len(naturals))
    if meld.kind == "set":
        return ("set", *sorted(c.text for c in meld.cards))
    return (meld.kind, *(c.text for c in meld.cards))


def accepted(hand: list[Card], rules: RuleSet) -> set[tuple[object, ...]]:
    """Every meld :func:`check_meld` accepts from the cards of ``hand``: each choice of 3
    or more of them, wild jokers named in every way (:func:`_namings`)."""
    out: set[tuple[object, ...]] = set()
    wild = rules.joker_use == "wild"
    chosen = {
        tuple(sorted(c.text for c in cards)): cards
        for size in range(3, len(hand) + 1)
        for cards in combinations(hand, size)
    }
    for cards in chosen.values():
        naturals = [c for c in cards if c.rank]
        jokers = len(cards) - len(naturals)
        tries = _namings(naturals, jokers) if wild and jokers else [()]
        for names in tries:
            named = naturals + [declare(JOKER, n) for n in names] if names else list(cards)
            try:
                out.add(_key(check_meld(named, rules), rules))
            except IllegalMeld:
                pass
    return out


def random_hand(rules: RuleSet, rng: random.Random, size: int) -> list[Card]:
    """``size`` cards dealt from a pack with the rules' jokers (two packs where the rules
    say always), mostly of two suits and five neighbouring ranks, so melds are common."""
    packs = 2 if rules.two_packs == "always" else 1
    pack = make_pack(rules.jokers, packs)
    suits = rng.sample(SUITS, 2)
    low = rng.randrange(1, 14)
    near = {(low + i - 1) % 13 + 1 for i in range(5)}
    pool = [c for c in pack if not c.rank or (c.suit in suits and c.rank in near)]
    return rng.sample(pool, min(size, len(pool)))


@PROPERTY
@given(st.sampled_from(WITH_JOKERS), st.integers(0, 2**31 - 1), st.integers(3, 8))
def test_the_listed_melds_are_every_meld_the_checker_accepts(
    choice: tuple[str, dict[str, Any]], seed: int, size: int
) -> None:
    preset, options = choice
    rules = ruleset(preset, options).replace()  # fresh memos, dropped after
    hand = random_hand(rules, random.Random(seed), size)
    expected = accepted(hand, rules)
    listed = {_key(check_meld(m, rules), rules) for m in hand_melds(hand, rules)}
    assert listed == expected, [c.text for c in hand]
    held = " ".join(c.text for c in hand)
    state = rigged([held, "2D", "3D", "4D"], preset=preset, options=options)
    state.opened = [True] * 4
    state.phase = Phase.PLAY
    lay_downs = {
        _key(check_meld(a.melds[0], state.rules), state.rules)
        for a in legal_actions(state)
        if isinstance(a, LayDown)
    }
    assert lay_downs == expected, [c.text for c in hand]


TABLES = ["", "5C 6C 7C 8C", "QD QS QH", "5C 6C 7C 8C|JK=9H 10H JH QH"]


@PROPERTY
@given(
    st.sampled_from(WITH_JOKERS),
    st.integers(0, 2**31 - 1),
    st.sampled_from(TABLES),
    st.booleans(),
)
def test_a_pick_up_the_checker_allows_is_allowed_by_the_game(
    choice: tuple[str, dict[str, Any]], seed: int, table_text: str, melded: bool
) -> None:
    preset, options = choice
    rules = ruleset(preset, options)
    rng = random.Random(seed)
    wild = rules.joker_use == "wild"
    table = [m for m in table_text.split("|") if m and (wild or "JK" not in m)]
    on_table = {t for m in table for t in m.split()}
    cards = [c for c in random_hand(rules, rng, 12) if c.text not in on_table]
    size = rng.randrange(1, min(5, len(cards)))
    pile, hand = cards[:size], cards[size:]
    if len(hand) < 2:
        return
    state = rigged(
        [" ".join(c.text for c in hand), "2D", "3D", "4D"],
        " ".join(c.text for c in pile),
        preset=preset,
        options=options,
        table=[(1, m) for m in table],
    )
    state.opened[0] = melded or not rules.first_meld_minimum
    melds = [check_meld(m.cards, rules) for m in state.table]
    checker = advise(rules, pile, hand, melds, has_melded=state.opened[0])
    game = legal_actions(state)
    for choice_ in checker:
        taken = Draw("discard", choice_.index) in game
        assert taken == choice_.allowed, (choice_.card.text, [c.text for c in hand], table)


def test_a_king_taken_for_an_ace_high_run_with_a_joker_as_the_queen() -> None:
    # Jokers-wild (003): Ann holds A♥ and a joker; K♥ is the pile's top card. The checker
    # says she may take it to meld JK(Q♥) K♥ A♥, "the card named must, of course, be able
    # to be legally melded"; the game lets her take it and lay that meld down.
    rules = ruleset("jokers-wild")
    pile, hand = "3C KH", "AH JK 4S 8D 9C"
    (under, top) = advise(rules, parse_cards(pile), parse_cards(hand))
    assert top.allowed and not under.allowed
    assert "meld JK(Q♥) K♥ A♥" in {u.describe() for u in top.uses}
    state = rigged([hand, "2D", "3D"], pile, preset="jokers-wild")
    assert Draw("discard", 1) in legal_actions(state)
    assert Draw("discard", 0) not in legal_actions(state)
    apply_action(state, Draw("discard", 1))
    run = LayDown(tuple(parse_cards("JK=QH KH AH")))
    assert run in legal_actions(state)
    apply_action(state, run)
    assert [c.text for c in state.table[-1].cards] == ["JK=QH", "KH", "AH"]


def test_a_nine_taken_for_a_set_with_two_jokers() -> None:
    # Modern (002): a joker "can represent any card the player chooses"; 9♠ with two
    # jokers is a set, so Bob, who has melded, may take the 9♠ (T2: into a new meld).
    rules = ruleset("modern")
    (choice,) = advise(rules, parse_cards("9S"), parse_cards("JK JK 4D 7C"), has_melded=True)
    assert choice.allowed
    state = rigged(["2D", "JK JK 4D 7C", "3D"], "9S", preset="modern", seat=1)
    state.opened[1] = True
    assert Draw("discard", 0) in legal_actions(state)
    apply_action(state, Draw("discard", 0))
    assert LayDown(tuple(parse_cards("9S JK=9H JK=9D"))) in legal_actions(state)
