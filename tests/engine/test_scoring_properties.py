"""Property tests: random legal rounds under every preset, scored through the contract."""

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import score
from scorekeeper.engine.cards import declare, make_pack, natural_card, shuffled
from scorekeeper.engine.melds import IllegalMeld, check_meld, extend
from scorekeeper.engine.rules.ruleset import PRESETS, ruleset

NAMES = ["Ann", "Bob", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]


def _take(pool, wanted):
    """Remove ``wanted`` cards from ``pool`` if all are there; return them or None."""
    left = list(pool)
    for card in wanted:
        if card not in left:
            return None
        left.remove(card)
    pool[:] = left
    return list(wanted)


def _random_meld(rng, pool, rules):
    jokers = [c for c in pool if c.is_joker]
    if rules.joker_use == "sets-of-jokers" and len(jokers) >= 3 and rng.random() < 0.3:
        return _take(pool, jokers[: rng.choice([3, 4])])
    if rng.random() < 0.5:
        rank = rng.randint(1, 13)
        suits = rng.sample("SHDC", rng.choice([3, 4]))
        cards = _take(pool, [natural_card(rank, s) for s in suits])
    else:
        suit, length = rng.choice("SHDC"), rng.randint(max(3, rules.min_run), 6)
        start = rng.randint(1, 14 - length + 1)
        ranks = [(start + i - 1) % 13 + 1 for i in range(length)]
        cards = _take(pool, [natural_card(r, suit) for r in ranks])
    if cards and rules.joker_use == "wild" and rng.random() < 0.3:
        joker = next((c for c in pool if c.is_joker), None)
        if joker is not None:
            pool.remove(joker)
            stand_in = cards.pop(rng.randrange(len(cards)))
            pool.append(stand_in)
            cards.append(declare(joker, stand_in))
    return cards


def random_round(seed, preset):
    rng = random.Random(seed)
    rules = ruleset(preset)
    n = 4 if rules.partnership else rng.randint(2, 6)
    players = NAMES[:n]
    pool = shuffled(make_pack(rules.jokers, rules.packs_for(n)), rng)
    melds, table = [], []
    for _ in range(rng.randint(0, 8)):
        cards = _random_meld(rng, pool, rules)
        if cards:
            meld = check_meld(cards, rules)
            melds.append({"owner": rng.choice(players), "cards": [c.text for c in cards]})
            table.append(meld)
    layoffs = []
    for card in list(pool[:40]):
        if card.is_joker and rules.joker_use == "wild":
            continue
        for index, meld in enumerate(table):
            try:
                table[index] = extend(meld, card, rules)
            except IllegalMeld:
                continue
            pool.remove(card)
            layoffs.append({"owner": rng.choice(players), "card": card.text, "meld": index})
            break
    went_out = rng.choice(players + [None])
    if went_out is None and rules.stock_exhausted in ("reshuffle", "play-on"):
        went_out = players[0]
    hands = {p: [] if p == went_out else [c.text for c in pool[:0]] for p in players}
    for p in players:
        if p != went_out:
            k = rng.randint(0, 5)
            hands[p], pool = [c.text for c in pool[:k]], pool[k:]
    teams = [[players[0], players[2]], [players[1], players[3]]] if rules.partnership else None
    totals = {p: rng.randint(-200, 480) for p in players}
    return {
        "rules": {"preset": preset},
        "players": players,
        "teams": teams,
        "went_out": went_out,
        "melds": melds,
        "layoffs": layoffs,
        "hands": hands,
        "totals_before": totals,
        "deal_number": rng.randint(1, 2),
    }


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(list(PRESETS)))
def test_a_round_is_what_the_rules_derive_and_no_card_counts_twice(seed, preset):
    request = random_round(seed, preset)
    result = score(request)
    for name, fig in result["players"].items():
        assert fig["round"] == fig["shown"] - fig["in_hand"] + fig["bonus"]
        assert fig["total"] == request["totals_before"][name] + fig["round"]
        shown_rows = [c for c in result["cards"] if c["owner"] == name and c["where"] != "hand"]
        assert fig["shown"] == sum(c["points"] for c in shown_rows)
        notes = sum(n["points"] for n in result["notes"] if n["owner"] == name)
        assert fig["bonus"] == notes
    # every card of the request is explained exactly once
    asked = Counter(c for m in request["melds"] for c in m["cards"])
    asked += Counter(lay["card"] for lay in request["layoffs"])
    asked += Counter(c for hand in request["hands"].values() for c in hand)
    assert Counter(c["card"] for c in result["cards"]) == asked
    if result["sides"]:
        for side, fig in result["sides"].items():
            members = side.split(" & ")
            for field in ("shown", "in_hand", "bonus", "round", "total"):
                assert fig[field] == sum(result["players"][m][field] for m in members)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_in_hand_is_the_hands_points_under_standard_rules(seed):
    request = random_round(seed, "standard")
    result = score(request)
    for name, fig in result["players"].items():
        rows = [c for c in result["cards"] if c["owner"] == name and c["where"] == "hand"]
        assert fig["in_hand"] == sum(c["points"] for c in rows)
        assert all(c["points"] > 0 for c in rows)
