"""Each rule decided in one function, its fast paths equal to it over every combination.

M3 and M4 (the shortest run, the ace in a run) are decided by :func:`melds.run_refusal`
through :func:`melds.check_meld`; the digital game's rank bitmasks (draws), the hand's
melds (moves), the checker's run windows (advice) and lay-offs onto a run (extend) must
give its answers for every set of ranks in a suit, under every setting of ``min_run``
and ``ace_in_run``. The draw's one pass down the pile must equal the slow answer, card
by card, in random games; and the check of a draw made (``can_take``) must give the
answer of the list of draws offered, index by index.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from scorekeeper.engine import Draw, apply_action, legal_actions, new_game
from scorekeeper.engine.cards import natural_card
from scorekeeper.engine.checker.candidates import candidate_melds
from scorekeeper.engine.game.draws import _may_keep_top, _takeable, can_take, run_through
from scorekeeper.engine.game.hand_melds import accepts, hand_melds, meld_accepts
from scorekeeper.engine.game.plays import use_options
from scorekeeper.engine.game.state import Phase
from scorekeeper.engine.game.taking import NEIGHBOURS, meld_pairs, partner_in
from scorekeeper.engine.melds import IllegalMeld, check_meld, extend, run_shape
from scorekeeper.engine.rules.ruleset import RuleSet, ruleset

SETTINGS = [(min_run, ace) for min_run in (3, 4) for ace in ("high-or-low", "round-the-corner")]
ABC = ("Ann", "Bob", "Cat")
EVERY = range(1 << 13)  # every set of ranks in a suit: bit r - 1 for rank r


def _ranks(subset: int) -> list[int]:
    return [r for r in range(1, 14) if subset >> (r - 1) & 1]


def _bits(subset: int) -> int:
    """The same set as the draw's rank bits (bit r for rank r)."""
    return subset << 1


@cache
def _rules(min_run: int, ace: str) -> RuleSet:
    return ruleset("standard", min_run=min_run, ace_in_run=ace)


@cache
def _legal_runs(min_run: int, ace: str) -> frozenset[int]:
    """Every set of ranks of one suit that check_meld accepts as a meld (all runs)."""
    rules = _rules(min_run, ace)
    legal = set()
    for subset in EVERY:
        ranks = _ranks(subset)
        if len(ranks) < 3:
            continue
        try:
            check_meld([natural_card(r, "H") for r in ranks], rules)
        except IllegalMeld:
            continue
        legal.add(subset)
    return frozenset(legal)


def _covered(legal: frozenset[int]) -> list[int]:
    """For every set of ranks, the union of the legal runs inside it (subset sums)."""
    covered = [0] * len(EVERY)
    for subset in legal:
        covered[subset] = subset
    for bit in range(13):
        for subset in EVERY:
            if subset >> bit & 1:
                covered[subset] |= covered[subset ^ (1 << bit)]
    return covered


@pytest.mark.parametrize(("min_run", "ace"), SETTINGS)
def test_run_bitmasks_equal_check_meld_for_every_set_of_ranks(min_run, ace):
    rules = _rules(min_run, ace)
    shape = run_shape(rules)
    covered = _covered(_legal_runs(min_run, ace))
    for subset in EVERY:
        for rank in range(1, 14):
            with_it = subset | 1 << (rank - 1)
            expected = bool(covered[with_it] >> (rank - 1) & 1)
            assert run_through(_bits(subset), rank, shape) is expected, (_ranks(subset), rank)


@pytest.mark.parametrize(("min_run", "ace"), SETTINGS)
def test_hand_runs_are_every_run_check_meld_accepts(min_run, ace):
    rules = _rules(min_run, ace)
    legal = sorted(_legal_runs(min_run, ace))
    for subset in EVERY:
        hand = [natural_card(r, "S") for r in _ranks(subset)]
        found = {sum(1 << (c.rank - 1) for c in meld) for meld in hand_melds(hand, rules)}
        assert found == {m for m in legal if m & subset == m}, _ranks(subset)


@pytest.mark.parametrize(("min_run", "ace"), SETTINGS)
def test_checker_candidates_are_the_runs_check_meld_accepts(min_run, ace):
    rules = _rules(min_run, ace)
    legal = _legal_runs(min_run, ace)
    suit = [natural_card(r, "C") for r in range(1, 14)]
    for anchor in suit:
        others = [c for c in suit if c is not anchor]
        found = {
            sum(1 << (c.rank - 1) for c in meld.cards)
            for meld in candidate_melds(anchor, others, rules)
        }
        assert found == {m for m in legal if m >> (anchor.rank - 1) & 1}


@pytest.mark.parametrize(("min_run", "ace"), SETTINGS)
def test_laying_off_on_a_run_is_legal_exactly_when_the_grown_run_is(min_run, ace):
    rules = _rules(min_run, ace)
    legal = _legal_runs(min_run, ace)
    for subset in legal:
        meld = check_meld([natural_card(r, "D") for r in _ranks(subset)], rules)
        for rank in range(1, 14):
            if subset >> (rank - 1) & 1:
                continue
            try:
                extend(meld, natural_card(rank, "D"), rules)
                fits = True
            except IllegalMeld:
                fits = False
            assert fits is (subset | 1 << (rank - 1) in legal), (_ranks(subset), rank)


@pytest.mark.parametrize(("min_run", "ace"), SETTINGS)
def test_every_pair_partner_is_a_neighbour_the_meld_takes(min_run, ace):
    """Seed 002's pair: the partner :func:`taking.meld_pairs` finds for a card is always one
    of the card's :data:`taking.NEIGHBOURS` and taken by the meld alone, which is what lets
    the draw listing and :func:`plays.pair_layoffs` skip the pair table otherwise
    (:func:`taking.partner_in`)."""
    rules = _rules(min_run, ace)
    melds = [
        check_meld([natural_card(r, "H") for r in _ranks(s)], rules)
        for s in _legal_runs(min_run, ace)
    ]
    melds += [check_meld([natural_card(rank, s) for s in "SHD"], rules) for rank in range(1, 14)]
    found = 0
    for meld in melds:
        for partner, card in meld_pairs(meld, rules):
            assert partner in [near for near, _ in NEIGHBOURS[card]], (meld.cards, partner, card)
            assert partner in meld_accepts(meld, rules)
            assert partner_in(card, [partner], accepts([meld], rules))
            found += 1
    assert found > 50


def test_run_shape_follows_the_options():
    assert run_shape(_rules(3, "high-or-low")).shortest == 3
    assert run_shape(_rules(4, "high-or-low")).shortest == 4
    assert not run_shape(_rules(3, "high-or-low")).corner
    assert run_shape(_rules(3, "round-the-corner")).corner


PRESETS = [
    ("standard", {}),
    ("classic", {}),
    ("standard", {"ace_in_run": "round-the-corner", "same_suit_in_set": "allowed"}),
    ("classic", {"ace_in_run": "round-the-corner", "top_discard": "must-use"}),
    ("modern", {}),
    ("partnership", {}),
    ("add-opponents-hand", {"discard_use": "new-meld-only"}),
]


def _slow_takeable(state, seat):
    """T1 to T3 card by card, the slow way: keep the top, or a use of the card."""
    pile = state.pile
    return [
        i
        for i in range(len(pile))
        if _may_keep_top(state, i)
        or use_options(state, seat, pile[i], state.hands[seat] + pile[i:], first=True)
    ]


@pytest.mark.parametrize(("preset", "options"), PRESETS)
def test_the_draws_one_pass_equals_the_slow_answer_in_random_games(preset, options):
    checked = 0
    for seed in range(6):
        players = 4 if preset == "partnership" else 3
        state = new_game(players, preset=preset, options=options, seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if state.phase is Phase.GAME_OVER:
                break
            if state.phase is Phase.DRAW and state.pile:
                assert _takeable(state, state.seat) == _slow_takeable(state, state.seat)
                checked += 1
            legal = legal_actions(state)
            takes = [a for a in legal if isinstance(a, Draw) and a.source == "discard"]
            apply_action(state, rng.choice(takes if takes and rng.random() < 0.5 else legal))
    assert checked > 100


@pytest.mark.parametrize("dealer_rule", ["left", "round-winner"])
def test_the_digital_game_deals_as_the_scoresheet_counts_the_deal(dealer_rule):
    from scorekeeper.engine.scoring.tally import next_dealer

    rules_options = {"next_dealer": dealer_rule, "target": 1000}
    state = new_game(["Ann", "Bob", "Cat"], options=rules_options, seed=4)
    first = state.dealer
    rng = random.Random(4)
    dealt = 0
    while state.phase is not Phase.GAME_OVER:
        rounds = len(state.rounds)
        apply_action(state, rng.choice(legal_actions(state)))
        if len(state.rounds) > rounds and state.phase is not Phase.GAME_OVER:
            goers = [r["end"]["went_out"] for r in state.rounds]
            assert state.dealer == next_dealer(state.rules, state.players, first, goers)
            dealt += 1
    assert dealt >= 3


@pytest.mark.parametrize("seven", [True, False])
def test_going_out_bonuses_are_the_same_card_by_card_and_by_the_table_count(seven):
    from scorekeeper.engine.cards import parse_cards
    from scorekeeper.engine.scoring.score_round import MeldPlay, RoundPlay, score_round
    from scorekeeper.engine.scoring.tally import TableCount, tally_round

    rules = ruleset("quick", seven_card_straight=True, going_out_bonus=25)
    run = "3H 4H 5H 6H 7H 8H 9H" if seven else "3H 4H 5H 6H"
    play = RoundPlay(
        players=ABC,
        melds=(
            MeldPlay("Ann", tuple(parse_cards(run)), final_turn=True),
            MeldPlay("Bob", tuple(parse_cards("KS KD KC"))),
        ),
        hands={"Ann": (), "Bob": parse_cards("2C"), "Cat": parse_cards("AS QD")},
        went_out="Ann",
    )
    by_cards = score_round(rules, play)
    shown = {p: f.shown for p, f in by_cards.players.items()}
    in_hand = {p: f.in_hand for p, f in by_cards.players.items()}
    count = TableCount(ABC, shown, in_hand, "Ann", seven_card_run="Ann" if seven else None)
    by_table = tally_round(rules, count)
    assert by_table.players == by_cards.players
    assert by_table.notes == by_cards.notes
    assert [n.rule for n in by_cards.notes] == (["P4", "S10"] if seven else ["P4"])
    assert by_cards.players["Ann"].bonus == 5 + (100 if seven else 0)


@pytest.mark.parametrize(("preset", "options"), PRESETS)
def test_a_draw_from_the_pile_is_allowed_exactly_where_it_is_offered(preset, options):
    """T1 to T3: ``apply_action`` checks a pile draw with :func:`can_take`, which answers
    as the list of draws offered does (under plain rules, the one pass down the pile)."""
    checked = 0
    for seed in range(4):
        players = 4 if preset == "partnership" else 3
        state = new_game(players, preset=preset, options=options, seed=seed)
        rng = random.Random(seed)
        for _ in range(300):
            if state.phase is Phase.GAME_OVER:
                break
            if state.phase is Phase.DRAW and state.pile:
                seat = state.seat
                allowed = [i for i in range(len(state.pile)) if can_take(state, seat, i)]
                assert allowed == _takeable(state, seat)
                checked += 1
            legal = legal_actions(state)
            takes = [a for a in legal if isinstance(a, Draw) and a.source == "discard"]
            apply_action(state, rng.choice(takes if takes and rng.random() < 0.5 else legal))
    assert checked > 50
