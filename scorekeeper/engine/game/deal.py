"""Starting a game, dealing each round, and ending a round with the scorekeeper's scoring.

Glossary:
- deal: the round's shuffled pack, dealt one card at a time clockwise from the dealer's
  left (seeds 000, 002): D2 pack, D3 hand size, D4 the first discard.
- round play: the round as the scoring contract states it (:class:`score_round.RoundPlay`):
  scored by :func:`score_round.score_checked`, the same code the scorekeeper uses.

Shuffles are seeded: the game's ``seed`` and the deal number give each deal's order, so the
same seed always deals the same game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import lru_cache

from ..cards import JOKER, Card, make_pack
from ..melds import check_meld
from ..messages import say
from ..rules.dealers_joker import DealersJoker, gambit_problems, round_rules
from ..rules.ruleset import RuleSet, ruleset
from ..scoring.outcome import deals_next
from ..scoring.score_round import LayoffPlay, MeldPlay, RoundPlay, RoundScore, score_checked
from .actions import Discard, Draw, DrawTwo, EndRound, LayDown, Pass, RummyCall
from .state import GameSetupError, GameState, Phase, laid_down_in, logged_json

SIMULATION_LIMIT = "simulation limit"
"""``end.reason`` of a round the simulator's guard stopped (:func:`stop_game`): the game
ends unfinished, with no winner; never a rules ending."""

MAX_RESHUFFLES = 3
"""Under O3 "reshuffle" the pile is turned into a new stock at most three times a round;
after that play goes on as under O3 "play on" until someone goes out."""


def new_game(
    players: Sequence[str] | int,
    *,
    preset: str = "standard",
    options: Mapping[str, object] | None = None,
    seed: int = 0,
    rules: RuleSet | None = None,
) -> GameState:
    """A new game, first round dealt: ``players`` names (or a count: "P1", "P2", ...).

    ``preset``/``options`` as in :func:`ruleset.ruleset` (or a ready ``rules``, described
    against ``preset``). Under partnership rules (P1) seats 0 and 2 play 1 and 3.
    Raises :class:`GameSetupError` (players outside 2 to ``max_players``, partnership
    without 4, more cards to deal than the pack holds, dealer's gambit X2 without its
    jokers, :func:`dealers_joker.gambit_problems`) or :class:`ruleset.RulesError`.
    """
    names = (
        tuple(f"P{i + 1}" for i in range(players)) if isinstance(players, int) else tuple(players)
    )
    spec: dict[str, object]
    if rules is None:
        rules = ruleset(preset, options)
        spec = {"preset": preset, "options": dict(options or {})}
    else:
        spec = {"preset": preset, "options": {n: v for n, _, v in rules.differences(preset)}}
    _check_setup(rules, names)
    teams = ((0, 2), (1, 3)) if rules.partnership else None
    state = GameState(rules, spec, names, int(seed), teams=teams, totals=[0] * len(names))
    state.dealer = first_dealer(len(names), int(seed))
    deal_round(state)
    return state


def _check_setup(rules: RuleSet, names: tuple[str, ...]) -> None:
    n = len(names)
    _check_players(rules, names)
    if rules.partnership and n != 4:
        raise GameSetupError(say("partnership play is for 4 players in two sides (P1)"))
    gambit = gambit_problems(rules)
    if gambit:
        raise GameSetupError("; ".join(message for _, message in gambit))
    _check_pack_holds(rules, n)


def _check_players(rules: RuleSet, names: tuple[str, ...]) -> None:
    """D1: 2 to ``max_players`` players, each with a different, non-empty name."""
    n = len(names)
    if not 2 <= n <= rules.max_players:
        raise GameSetupError(
            say(
                "a game has 2 to %(most)s players, not %(players)s (D1)",
                most=rules.max_players,
                players=n,
            )
        )
    if len(set(names)) != n or not all(isinstance(x, str) and x.strip() for x in names):
        raise GameSetupError(say("each player needs a different, non-empty name"))


def _check_pack_holds(rules: RuleSet, n: int) -> None:
    """D2, D3: the pack holds every hand of ``n`` players, the upcard and D4's extra card."""
    extra = 1 if rules.first_discard == "extra-card-to-left" else 0
    if rules.hand_size(n) * n + 1 + extra > rules.pack_size(n):
        raise GameSetupError(
            say(
                "%(players)s players need %(hand)s cards each, more than the %(pack)s-card pack "
                "holds (D2, D3): use two packs",
                players=n,
                hand=rules.hand_size(n),
                pack=rules.pack_size(n),
            )
        )


def first_dealer(players: int, seed: int) -> int:
    """D6: each seat draws a card, the lowest deals (ace lowest); ties and jokers draw
    again. Seeded by the game's seed."""
    rng = random.Random(seed * 2 + 1)
    seats = list(range(players))
    while len(seats) > 1:
        pack = [c for c in make_pack() if c.rank]
        rng.shuffle(pack)
        drawn = {seat: pack[i].rank for i, seat in enumerate(seats)}
        low = min(drawn.values())
        seats = [s for s in seats if drawn[s] == low]
    return seats[0]


def shuffled_pack(state: GameState) -> list[Card]:
    """This deal's pack in dealing order (D2), seeded by the game's seed and deal number."""
    rules = state.rules
    pack = list(_ordered_pack(rules.jokers, rules.packs_for(state.n)))
    random.Random(state.seed * 1009 + state.deal_number + 1).shuffle(pack)
    return pack


@lru_cache(maxsize=16)
def _ordered_pack(jokers: int, packs: int) -> tuple[Card, ...]:
    """:func:`cards.make_pack` kept as a tuple (each deal shuffles a copy)."""
    return tuple(make_pack(jokers, packs))


def deal_round(state: GameState, pack: list[Card] | None = None) -> None:
    """Deal the next round (D3, D4) from ``pack`` (default: the seeded shuffle); the
    first card of ``pack`` is dealt first. Sets every round field and the phase."""
    state.deal_number += 1
    n, rules = state.n, state.rules
    cards = list(pack) if pack is not None else shuffled_pack(state)
    if rules.dealers_gambit:
        cards.remove(JOKER)  # X2: the dealer's joker, set beside the pack
    cards.reverse()
    size = rules.hand_size(n)
    hands: list[list[Card]] = [[] for _ in range(n)]
    for i in range(size * n):
        hands[(state.dealer + 1 + i) % n].append(cards.pop())
    left = (state.dealer + 1) % n
    extra = rules.first_discard == "extra-card-to-left"
    if extra:
        hands[left].append(cards.pop())
    _reset_round(state, hands, cards)
    state.deal = {
        "dealer": state.players[state.dealer],
        "hands": {state.players[s]: [c.text for c in h] for s, h in enumerate(hands)},
    }
    if extra:
        state.phase = Phase.START_PILE
    else:
        state.pile.append(state.stock.pop())
        state.deal["upcard"] = state.pile[0].text
        state.phase = Phase.DRAW
    state.deal["stock"] = [c.text for c in reversed(state.stock)]
    state.seat = state.turn_seat = left
    if rules.dealers_gambit:
        _set_beside(state)


def _set_beside(state: GameState) -> None:
    """X2 (seed 002): "After shuffling and dealing that joker is placed face-up at the side
    of the pack closest to the dealer", and the dealer "must nominate the effect of the
    jokers for that hand" before anyone looks at their cards: the NOMINATE phase."""
    state.gambit = DealersJoker(state.dealer, beside=JOKER)
    state.rules = round_rules(state.rules, None)
    state.deal["dealers_joker"] = JOKER.text
    state.phase = Phase.NOMINATE
    state.seat = state.dealer


def opened_before(state: GameState, seat: int) -> bool:
    """M6: True when ``seat`` starts a round free of the first-meld minimum: there is none,
    or it applies once per game ("once-per-game", 002: "In order to begin scoring all
    players must lay no less than 30 points for their first score") and the seat laid
    down a meld in an earlier round; under "every-round" it applies each round."""
    rules = state.rules
    if not rules.first_meld_minimum:
        return True
    if rules.first_meld_applies != "once-per-game":
        return False
    return seat in state.opened_game


def _reset_round(state: GameState, hands: list[list[Card]], stock: list[Card]) -> None:
    n = state.n
    state.hands, state.stock, state.pile = hands, stock, []
    state.owners, state.laid, state.table, state.layoffs = [], [], [], []
    state.opened = [opened_before(state, seat) for seat in range(n)]
    state.known = [[] for _ in range(n)]
    state.log = []
    state.must_use = state.no_discard = None
    state.rummy = False
    state.window = []
    state.turns = state.reshuffles = 0
    state.went_out = None


def round_play(state: GameState) -> RoundPlay:
    """The round so far as the scoring contract states it (names, melds as laid, lay-offs,
    hands, who went out, sides, deal number)."""
    names = state.players
    final, went_out_by = _going_out(state)
    return RoundPlay(
        players=names,
        melds=tuple(
            MeldPlay(names[o], m, i in final)
            for i, (o, m) in enumerate(zip(state.owners, state.laid, strict=True))
        ),
        layoffs=tuple(LayoffPlay(names[s], c, m) for s, c, m in state.layoffs),
        hands={names[s]: tuple(h) for s, h in enumerate(state.hands)},
        went_out=names[state.went_out] if state.went_out is not None else None,
        teams=tuple(tuple(names[s] for s in t) for t in state.teams) if state.teams else None,
        deal_number=state.deal_number,
        went_out_by=went_out_by,
    )


def _going_out(state: GameState) -> tuple[set[int], str]:
    """S10: the table indexes of the melds the player who went out laid in the turn they
    went out (their moves since their last draw or "Rummy!" call, or since another
    player's move), and ``"discard"`` or ``"play"`` for how they went out (their last
    move a discard or not)."""
    goer = state.went_out
    final: set[int] = set()
    if goer is None:
        return final, "discard"
    last = None
    index, mover = 0, -1
    for seat, action in state.log:
        if seat < 0:
            continue
        if seat == goer and (mover != goer or isinstance(action, _TURN_STARTS)):
            final.clear()
        if isinstance(action, LayDown):
            if seat == goer:
                final.update(range(index, index + len(action.melds)))
            index += len(action.melds)
        if seat == goer:
            last = action
        mover = seat
    return final, "play" if goer is not None and not isinstance(last, Discard) else "discard"


_TURN_STARTS = (Draw, DrawTwo, Pass, RummyCall, EndRound)


def end_round(state: GameState, reason: str) -> RoundScore:
    """Score the round, record it, then deal the next round (D5) or end the game (G1, G2,
    G4, P5). ``reason`` is the record's ``end.reason``. The scoring is
    :func:`score_round.score_round`'s after its check (:func:`score_round.score_checked`):
    every move was checked as it was made, and the state holds the melds as they stand."""
    names = state.players
    rules = state.rules
    result = score_checked(
        rules,
        round_play(state),
        [check_meld(cards, rules) for cards in state.laid],
        list(state.table),
        dict(zip(names, state.totals, strict=True)),
    )
    state.scores.append(result)
    for s, name in enumerate(names):
        state.totals[s] = result.players[name].total
    record = _round_record(state, reason)
    record["scores"] = {p: f.as_dict() for p, f in result.players.items()}
    _keep(state, record)
    if result.game_over:
        state.winner = result.winner
        state.phase = Phase.GAME_OVER
        state.window = []
        return result
    state.dealer = deals_next(state.rules, state.n, state.dealer, state.went_out)
    deal_round(state)
    return result


def _keep(state: GameState, record: dict[str, object]) -> None:
    """Add the finished round's ``record`` to the state's rounds, and its seats that laid
    down a meld to those opened in the game (M6, :func:`state.laid_down_in`)."""
    state.rounds.append(record)
    state.opened_game |= laid_down_in([record])


def _round_record(state: GameState, reason: str) -> dict[str, object]:
    """The round's deal, moves and ``end`` (``reason``, who went out, the hands left)."""
    names = state.players
    record: dict[str, object] = dict(state.deal)
    record["log"] = [[s, logged_json(a)] for s, a in state.log]
    record["end"] = {
        "went_out": names[state.went_out] if state.went_out is not None else None,
        "reason": reason,
        "hands_left": {names[s]: [c.text for c in h] for s, h in enumerate(state.hands)},
    }
    return record


def stop_game(state: GameState, reason: str) -> None:
    """End the game unfinished, with no winner and no rules ending: the round in play is
    recorded unscored (``scores`` None, totals unchanged) with ``end.reason`` ``reason``,
    e.g. :data:`simulate.SIMULATION_LIMIT` when the simulator's guard stops a bot game."""
    record = _round_record(state, reason)
    record["scores"] = None
    _keep(state, record)
    state.winner = None
    state.phase = Phase.GAME_OVER
    state.window = []
