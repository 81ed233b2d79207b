"""Dealer's gambit (X2, seed 002) told as scenes at the table: through the game, the
scoring contract and the game record. Each test quotes the seed sentence it plays out."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import score
from scorekeeper.engine import (
    BOTS,
    GameState,
    apply_action,
    legal_actions,
    make_bot,
    new_game,
    observation,
)
from scorekeeper.engine.bots.simulate import play_game
from scorekeeper.engine.cards import DOUBLE, JOKER, parse_card, parse_cards
from scorekeeper.engine.game.actions import (
    Block,
    Discard,
    Draw,
    LayDown,
    LayOff,
    Nominate,
    Split,
)
from scorekeeper.engine.game.plays import IllegalMove
from scorekeeper.engine.game.records import RecordError, replay
from scorekeeper.engine.game.state import Phase
from scorekeeper.engine.melds import IllegalMeld, check_meld, extend
from scorekeeper.engine.rules.ruleset import ruleset
from scorekeeper.engine.scoring.contract import ScoreRequestError
from scorekeeper.engine.scoring.outcome import deals_next

X2 = {"dealers_gambit": True}


def table(
    nomination: str, hands: dict[int, str], pile: str = "2C", stock: str = "10S 10D 10C 9S 9D"
) -> GameState:
    """Ann, Bob and Cat under X2, Cat dealing; the dealer nominates, then the hands, pile
    and stock are as given (seat 0 Ann, 1 Bob, 2 Cat), and it is Ann's turn to draw."""
    state = new_game(["Ann", "Bob", "Cat"], options=X2, seed=3)
    assert state.phase is Phase.NOMINATE
    state.dealer = state.seat = 2
    assert state.gambit is not None
    state.gambit.dealer = 2
    apply_action(state, Nominate(nomination))
    state.hands = [parse_cards(hands.get(s, "")) for s in range(3)]
    state.pile, state.stock = parse_cards(pile), parse_cards(stock)
    state.known = [[], [], []]
    state.seat = state.turn_seat = 0
    return state


def cats_turn(state: GameState, draw: Any = None) -> None:
    """Ann and Bob draw from the stock and discard their first card; Cat draws."""
    for seat in (0, 1):
        apply_action(state, Draw("stock"))
        apply_action(state, Discard(state.hands[seat][0]))
    apply_action(state, draw or Draw("stock"))


def test_the_deal_sets_the_dealers_joker_beside_the_pack_and_the_dealer_nominates_first() -> None:
    """002: "The pack is 54 cards ... At the beginning of each deal one joker is removed
    from the pack. After shuffling and dealing that joker is placed face-up at the side of
    the pack closest to the dealer." and "After dealing but before any of the players look
    at their cards the dealer must nominate the effect of the jokers for that hand"."""
    state = new_game(3, options=X2, seed=8)
    assert state.rules.jokers == 2 and state.rules.joker_points == 0
    cards = sum(map(len, state.hands)) + len(state.stock) + len(state.pile)
    assert cards == 53 and state.gambit is not None and state.gambit.beside is JOKER
    assert state.phase is Phase.NOMINATE and state.seat == state.dealer
    assert legal_actions(state) == [Nominate("wild"), Nominate("double"), Nominate("split")]
    with pytest.raises(IllegalMove, match="X2"):
        apply_action(state, Draw("stock"))
    apply_action(state, Nominate("split"))
    assert state.phase is Phase.DRAW and state.seat == (state.dealer + 1) % 3


def _dealt_again(state: GameState, rng: random.Random, with_set: bool) -> GameState:
    """``state`` with every hand and the stock dealt again from the same cards (the
    upcard stays: it lies face up); with ``with_set`` the dealer's new hand opens with
    three cards of one rank, where the cards hold one."""
    other = GameState.from_json(state.to_json())
    pool = [c for hand in other.hands for c in hand] + other.stock
    rng.shuffle(pool)
    if with_set:
        ranks = [c.rank for c in pool if c.rank]
        rank = next((r for r in ranks if ranks.count(r) >= 3), None)
        first = [i for i, c in enumerate(pool) if rank and c.rank == rank][:3]
        pool = [pool[i] for i in first] + [c for i, c in enumerate(pool) if i not in first]
    sizes = [len(hand) for hand in other.hands]
    dealer = other.dealer
    order = [dealer] + [s for s in range(other.n) if s != dealer]
    for seat in order:
        other.hands[seat], pool = pool[: sizes[seat]], pool[sizes[seat] :]
    other.stock = pool
    return other


@settings(max_examples=30, deadline=None)
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 2**31 - 1),
    deal=st.integers(0, 2**31 - 1),
    with_set=st.booleans(),
    level=st.sampled_from(sorted(BOTS)),
)
def test_a_bots_nomination_is_the_same_whatever_hand_it_was_dealt(
    players: int, seed: int, deal: int, with_set: bool, level: str
) -> None:
    """002: "After dealing but before any of the players look at their cards the dealer
    must nominate the effect of the jokers for that hand". No seat sees its hand then,
    only how many cards each holds, so a bot dealer nominates the same for any deal
    (issue 23: the bots nominated "double" for a hand holding three of a rank, else
    "wild")."""
    state = new_game(players, options=X2, seed=seed)
    other = _dealt_again(state, random.Random(deal), with_set)
    dealer = state.dealer
    assert state.phase is Phase.NOMINATE and state.seat == dealer
    for seat in range(players):
        view = observation(state, seat)
        assert view.hand == () and view.hand_sizes == tuple(map(len, state.hands))
        assert view.to_json() == observation(other, seat).to_json()
    chosen = [
        make_bot(level, samples=2).choose(
            observation(s, dealer), legal_actions(s), random.Random(seed)
        )
        for s in (state, other)
    ]
    assert chosen[0] == chosen[1]


def test_the_deal_passes_anti_clockwise() -> None:
    """002: "Unlike ordinary rummy, dealing is always rotated anti-clockwise": the next
    dealer sits on the dealer's right (seat - 1); play still passes left."""
    rules = ruleset("standard", X2)
    assert deals_next(rules, 4, 2, None) == 1
    assert deals_next(rules, 4, 0, 3) == 3
    assert deals_next(ruleset("standard"), 4, 2, None) == 3


def test_a_wild_dealers_joker_melds_for_the_dealer_and_counts_zero() -> None:
    """002: "1. Wild card. The joker may be used as a wild card in any set or sequence. The
    wild joker is worth zero points." and it "may be used at any time in the game by the
    dealer"."""
    state = table("wild", {0: "3C 4C 5H", 1: "6C 8H 9H", 2: "KS KH 2D 7D"})
    down = LayDown(tuple(parse_cards("KS KH JK=KD")), dealers_joker=True)
    cats_turn(state)
    assert down in legal_actions(state)
    apply_action(state, down)
    assert state.gambit is not None and state.gambit.beside is None
    assert state.hands[2] == parse_cards("2D 7D 10C")
    with pytest.raises(IllegalMove, match="already used"):
        apply_action(state, LayOff(parse_card("JK=KC"), 0, dealers_joker=True))


def test_only_the_dealer_uses_the_dealers_joker() -> None:
    """002: the dealer's joker "may be used at any time in the game by the dealer"."""
    state = table("wild", {0: "KS KH 3C 4C", 1: "6C 8H 9H", 2: "2D 7D 8D"})
    apply_action(state, Draw("stock"))
    assert not any(getattr(a, "dealers_joker", False) for a in legal_actions(state))
    with pytest.raises(IllegalMove, match="only the dealer"):
        apply_action(state, LayDown(tuple(parse_cards("KS KH JK=KD")), dealers_joker=True))


def test_a_double_joker_doubles_a_set_and_seals_it() -> None:
    """002: "2. Double. The joker doubles the value of any set. The joker is placed face up
    over any meld, whilst it is being melded. Once the joker has been added to the meld,
    that set is 'sealed' and no further cards can laid off onto it." """
    state = table("double", {0: "QS 3C 5H", 1: "6C 8H 9H", 2: "QH QD QC 2D"})
    cats_turn(state)
    down = LayDown(tuple(parse_cards("QH QD QC JK=double")), dealers_joker=True)
    assert down in legal_actions(state)
    apply_action(state, down)
    rules = state.rules
    meld = check_meld(parse_cards("QH QD QC JK=double"), rules)
    with pytest.raises(IllegalMeld, match="sealed"):
        extend(meld, parse_card("QS"), rules)
    assert not any(isinstance(a, LayOff) for a in legal_actions(state))


def test_a_doubled_set_scores_twice_through_the_contract() -> None:
    """002: "The joker doubles the value of any set"; score-contract.md: "`JK=double`
    inside a set ... the set's points are doubled and the joker itself counts 0"."""
    request = {
        "rules": {"preset": "standard", "options": {"dealers_gambit": True}},
        "players": ["Ann", "Bob"],
        "went_out": "Ann",
        "melds": [{"owner": "Ann", "cards": ["KH", "KS", "KD", "JK=double"]}],
        "layoffs": [],
        "hands": {"Ann": [], "Bob": ["5C", "JK"]},
    }
    answer = score(request)
    assert answer["players"]["Ann"]["shown"] == 60
    assert answer["players"]["Bob"]["in_hand"] == 5
    joker = [c for c in answer["cards"] if c["card"] == "JK=double"]
    assert joker[0]["points"] == 0 and joker[0]["rule"] == "X2, S5"


def test_four_aces_under_a_double_joker_count_200() -> None:
    """002: "Aces played high are worth 15 except in the case where a single player plays
    a 4-of-a-kind Ace meld, in which case the meld is worth 100 points (25/ea.)" (S6) and
    "The joker doubles the value of any set" (X2): the hundred is doubled, the joker 0."""
    request = {
        "rules": {"preset": "standard", "options": {"dealers_gambit": True, "four_aces_100": True}},
        "players": ["Ann", "Bob"],
        "went_out": "Ann",
        "melds": [{"owner": "Ann", "cards": ["AH", "AS", "AD", "AC", "JK=double"]}],
        "layoffs": [],
        "hands": {"Ann": [], "Bob": ["5C"]},
    }
    answer = score(request)
    assert answer["players"]["Ann"]["shown"] == 200
    aces = [c for c in answer["cards"] if c["card"].startswith("A")]
    assert [c["points"] for c in aces] == [50] * 4
    assert all(c["rule"] == "S6, X2" for c in aces)


def test_a_first_meld_is_measured_with_its_doubling() -> None:
    """002: "In order to begin scoring all players must lay no less than 30 points for their
    first score" (M6) and "The joker doubles the value of any set" (X2): 5-5-5 is 15
    points, doubled 30, so it opens under a 30-point minimum; undoubled it does not."""
    state = new_game(["Ann", "Bob", "Cat"], options={**X2, "first_meld_minimum": 30}, seed=3)
    state.dealer = state.seat = 2
    assert state.gambit is not None
    state.gambit.dealer = 2
    apply_action(state, Nominate("double"))
    state.hands = [parse_cards("QS 3C 4H"), parse_cards("6C 8H 9H"), parse_cards("5H 5D 5C 2D")]
    state.pile, state.stock = parse_cards("2C"), parse_cards("10S 10D 10C 9S 9D")
    state.known = [[], [], []]
    state.seat = state.turn_seat = 0
    cats_turn(state)
    plain = LayDown(tuple(parse_cards("5H 5D 5C")))
    doubled = LayDown(tuple(parse_cards("5H 5D 5C JK=double")), dealers_joker=True)
    actions = legal_actions(state)
    assert doubled in actions and plain not in actions
    with pytest.raises(IllegalMove, match="30 points; this is 15"):
        apply_action(state, plain)
    apply_action(state, doubled)
    assert state.opened[2]


def test_a_wild_joker_counts_zero_and_the_nomination_must_match_the_melds() -> None:
    """002: "The wild joker is worth zero points" and "Jokers have a zero value if still in
    a players hand"; a set under a doubling joker is no wild meld."""
    request: dict[str, Any] = {
        "rules": {
            "preset": "standard",
            "options": {"dealers_gambit": True, "dealers_joker": "wild"},
        },
        "players": ["Ann", "Bob"],
        "went_out": "Ann",
        "melds": [{"owner": "Ann", "cards": ["9H", "JK=10H", "JH"]}],
        "layoffs": [],
        "hands": {"Ann": [], "Bob": ["JK"]},
    }
    answer = score(request)
    assert answer["players"]["Ann"]["shown"] == 19
    assert answer["players"]["Bob"]["in_hand"] == 0
    request["rules"]["options"]["dealers_joker"] = "double"
    with pytest.raises(ScoreRequestError, match="dealers_joker"):
        score(request)
    request["rules"]["options"] = {"dealers_joker": "wild"}
    with pytest.raises(ScoreRequestError, match="X2"):
        score(request)


def test_a_split_removes_the_inner_cards_and_gives_the_outer_ones() -> None:
    """002: "3. The joker is used to 'split' the discard pile from either side of the card
    selected. Those cards on the inside of the split are then removed from the game for
    the remainder of that hand. Those cards on the outside of the split are added to the
    players hand. As per normal the selected card must be used immediately"."""
    state = table(
        "split",
        {0: "3C 4C 5H", 1: "6C 8H 9H", 2: "8S 8D 2D"},
        pile="AS 4D 8C KH 5S",
        stock="10S 10D 9C 9S",
    )
    apply_action(state, Draw("stock"))
    apply_action(state, Discard(parse_card("5H")))
    apply_action(state, Draw("stock"))
    apply_action(state, Discard(parse_card("9H")))
    split = Split(2, dealers_joker=True)
    assert split in legal_actions(state)
    assert Split(1, dealers_joker=True) not in legal_actions(state)
    apply_action(state, split)
    g = state.gambit
    assert g is not None and g.aside == parse_cards("JK AS 4D")
    assert state.pile == [] and state.phase is Phase.MUST_USE
    assert state.must_use == parse_card("8C")
    assert parse_cards("8C KH 5S 5H 9H") == state.hands[2][3:]
    with pytest.raises(IllegalMove, match="T2"):
        apply_action(state, Discard(parse_card("KH")))
    apply_action(state, LayDown(tuple(parse_cards("8S 8D 8C"))))


def test_a_block_stops_the_dealer_using_the_dealers_joker() -> None:
    """002: "The dealer's joker can be 'blocked' at any time in the game by placing another
    joker face down over it. If the dealer's joker is so blocked it may not be used by the
    dealer for the remainder of that hand." """
    state = table("wild", {0: "JK 3C 5H", 1: "6C 8H 9H", 2: "KS KH 2D 7D"})
    apply_action(state, Draw("stock"))
    assert Block() in legal_actions(state)
    apply_action(state, Block())
    g = state.gambit
    assert g is not None and g.beside is None and g.blocked_by == 0
    assert g.aside == [JOKER, JOKER] and JOKER not in state.hands[0]
    apply_action(state, Discard(parse_card("5H")))
    apply_action(state, Draw("stock"))
    apply_action(state, Discard(parse_card("6C")))
    apply_action(state, Draw("stock"))
    with pytest.raises(IllegalMove, match="Ann blocked"):
        apply_action(state, LayDown(tuple(parse_cards("KS KH JK=KD")), dealers_joker=True))


def test_a_dealt_joker_follows_the_nomination_for_its_holder() -> None:
    """002: "The second joker is shuffled and dealt with the rest of the cards", and the
    dealer nominates "the effect of the jokers for that hand": under "double" a joker
    held doubles its holder's set; it is never wild that hand."""
    state = table("double", {0: "JK 7H 7S 7D 2C", 1: "6C 8H 9H", 2: "KS 2D 7C"})
    apply_action(state, Draw("stock"))
    legal = legal_actions(state)
    assert LayDown(tuple(parse_cards("7H 7S 7D JK=double"))) in legal
    with pytest.raises(IllegalMove, match="M5"):
        apply_action(state, LayDown(tuple(parse_cards("7H 7S JK=7C"))))
    apply_action(state, LayDown((*parse_cards("7H 7S 7D"), DOUBLE)))
    assert state.laid[-1][-1] is DOUBLE


def test_x2_games_replay_from_their_records_and_a_reader_names_unknown_fields() -> None:
    """game-record.md: "A house rule that adds a move (a "Rummy!" call, dealer's gambit)
    adds a field to the turn that makes it; a reader that does not know the field says so
    rather than guessing"."""
    found: set[str] = set()
    for seed in range(6):
        result = play_game(
            3, ["basic", "strong", "random"], options=X2, seed=seed, keep_record=True
        )
        record = json.loads(json.dumps(result.record))
        assert replay(record).totals == result.totals
        for stored in record["rounds"]:
            assert stored["dealers_joker"] == "JK"
            assert stored["end"]["reason"] in ("went out", "stock exhausted")
            found.update(
                k for t in stored["turns"] for k in ("nominate", "split", "block") if k in t
            )
    assert "nominate" in found
    record["rounds"][0]["turns"][0]["gambit_extra"] = 1
    with pytest.raises(RecordError, match="gambit_extra"):
        replay(record)
    record["rounds"][0]["turns"][0].pop("gambit_extra")
    record["rounds"][0]["joker_pile"] = []
    with pytest.raises(RecordError, match="joker_pile"):
        replay(record)


def test_a_game_state_with_the_dealers_joker_saves_and_restores() -> None:
    """The web game stores its state after every move: the dealer's joker and the round's
    rules (jokers not wild under "double") come back."""
    state = table("double", {0: "JK 7H 7S 7D 2C", 1: "6C 8H 9H", 2: "KS 2D 7C"})
    saved = json.loads(json.dumps(state.to_json()))
    restored = GameState.from_json(saved)
    assert restored.gambit == state.gambit
    assert restored.rules.joker_use == "none"
    assert legal_actions(restored) == legal_actions(state)
