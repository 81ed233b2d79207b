"""The expert bot: each draw, meld, lay-off and discard chosen by Monte Carlo over the cards
its seat cannot see.

Glossary:
- candidate: a move worth weighing, picked from the legal moves by the strong bot's
  figures (:mod:`strategy`): the stock and the best pile takes (never an idle take, T3),
  the best lay-downs and lay-offs, the discards that keep the most.
- sample: a deal of the unseen cards fitting everything the seat has seen
  (:func:`hidden.sample_state`: cards taken from the pile are in that hand, cards passed
  over make their partners less likely).
- rollout: from a sample, the candidate is made, then every seat plays on greedily
  (:mod:`rollout`, fast) for :attr:`ExpertBot.horizon` more turns or to the round's end.
- outcome: at a round's end the round's scores (S1 to S10, the scorekeeper's scoring);
  before, each seat's standing: points on the table plus melds in hand, less a share of
  its deadwood (S7). The side's outcome (P1 partnership: the side) less the average of
  the others'.
- expected difference: a candidate's outcome averaged over the samples; every candidate
  meets the same samples (common random numbers), so the comparison is fair.

The expert sees only its seat's view (:class:`state.Observation`): it builds whole states
from it (:mod:`hidden`) and never reads a real one. ``samples`` sets the work per decision:
:data:`SAMPLES` for a person's table, fewer to simulate many games.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..cards import Card
from ..game.actions import (
    Action,
    Block,
    Discard,
    Draw,
    DrawTwo,
    EndRound,
    LayDown,
    LayOff,
    Nominate,
    Pass,
    Split,
)
from ..game.hand_melds import remove_cards
from ..game.state import GameState, Observation, Phase, observation
from ..game.turns import apply_action, legal_actions
from ..scoring.score_round import card_points
from .gambit_bots import GambitSense, x2_choice
from .hidden import SampleError, sample_state
from .rollout import play_greedy
from .strategy import Context, StrongBot, best_melds, danger, hand_value, idle_take
from .why import explain, with_expectation

SAMPLES = 16
"""Sampled deals per decision at a person's table (under a second at 2 players)."""
TAKES, PLAYS, DISCARDS = 2, 2, 3
"""Candidates kept: pile takes, lay-downs or lay-offs, discards."""
MELD_SHARE = 0.9
"""A meld still in hand counts this share of its points (it is laid down next turn)."""
DEADWOOD_SHARE = 0.6
"""Deadwood counts this share of its points against the holder (it may yet be melded)."""
MAX_ROLLOUT_MOVES = 400
"""A rollout stops after this many moves whatever happens (a guard, never reached)."""


@dataclass
class Decision:
    """What the expert chose: ``action``, the ``reason`` in one sentence, each candidate's
    expected difference (``values``, points, in candidate order) and the number of
    ``samples`` behind them (0 when no sampling was needed)."""

    action: Action
    reason: str
    values: dict[Action, float] = field(default_factory=dict)
    samples: int = 0


class ExpertBot:
    """Plays by Monte Carlo over the hidden cards: see the module docstring. ``samples``
    deals per decision; ``horizon`` turns played on after the move (default: one turn of
    each seat and one more of its own); ``budget`` seconds of CPU time per decision
    (``time.process_time``; None: none): past it the expert decides on the deals it has
    sampled (at least one), so no think is unbounded: a slower or busier machine weighs
    fewer deals, never waits longer. ``depth``: how many cards into the discard pile the
    players of its rollouts look for a take (1: the top card, as the greedy policy; deeper
    reads the pile as a strong player does, :func:`rollout.pile_take`)."""

    name = "expert"

    def __init__(
        self,
        samples: int = SAMPLES,
        horizon: int | None = None,
        budget: float | None = None,
        depth: int = 1,
    ) -> None:
        self.samples = max(1, samples)
        self.horizon = horizon
        self.budget = budget
        self.depth = max(1, depth)
        self.policy = GambitSense(StrongBot())

    def choose(self, view: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """The move of best expected difference among ``legal``."""
        return self.decide(view, legal, rng).action

    def decide(
        self,
        view: Observation,
        legal: Sequence[Action],
        rng: random.Random,
        also: Action | None = None,
    ) -> Decision:
        """The :class:`Decision` for ``view`` among ``legal``; ``also`` (a legal move, e.g.
        the one a person made) is weighed too, so its expected difference is known. The
        reason is said to ``view``'s seat itself (:func:`why.explain` ``own``: from its
        hand, with the expected differences): a hint or a review, never the table. The
        chosen move does not depend on ``also``: a gambit move (X2) is chosen unweighed,
        and every candidate meets the same sampled deals, so ``also`` beside them leaves
        their figures as they were."""
        if view.gambit is not None:
            chosen = x2_choice(view, view.gambit, legal)
            if chosen is not None:
                return Decision(chosen, explain(view, chosen, own=True))
        plain = [a for a in legal if not isinstance(a, Nominate | Split | Block)]
        weighed = view.phase in (Phase.DRAW, Phase.PLAY) and view.current == view.seat
        if not weighed or len(plain) < 2:
            action = self.policy.choose(view, legal, rng)
            return Decision(action, explain(view, action, own=True))
        found = candidates(view, plain)
        if also is not None and also in plain and also not in found:
            found.append(also)
        if len(found) == 1:
            return Decision(found[0], explain(view, found[0], own=True))
        return self._weigh(view, found, rng)

    def _weigh(self, view: Observation, found: list[Action], rng: random.Random) -> Decision:
        totals = [0.0] * len(found)
        done = 0
        stop = None if self.budget is None else time.process_time() + self.budget
        for _ in range(self.samples):
            if stop is not None and done and time.process_time() >= stop:
                break  # over its budget: decide on the deals sampled so far
            seed = rng.randrange(2**62)
            try:
                for i, action in enumerate(found):
                    state = sample_state(view, random.Random(seed))
                    totals[i] += self.rollout(state, action, view.seat, random.Random(seed + 1))
            except SampleError:
                break
            done += 1
        if not done:
            action = StrongBot().choose(view, found, rng)
            return Decision(action, explain(view, action, own=True))
        values = {a: t / done for a, t in zip(found, totals, strict=True)}
        ranked = sorted(range(len(found)), key=lambda i: -totals[i])
        best = found[ranked[0]]
        runner_up = values[found[ranked[1]]] if len(ranked) > 1 else None
        reason = with_expectation(explain(view, best, own=True), values[best], runner_up)
        return Decision(best, reason, values, done)

    def rollout(self, state: GameState, action: Action, me: int, rng: random.Random) -> float:
        """Make ``action`` in ``state`` then play on (see the glossary); the outcome for
        ``me``'s side (points)."""
        horizon = self.horizon if self.horizon is not None else state.n + 1
        scored, stop = len(state.scores), state.turns + horizon
        apply_action(state, action)
        for _ in range(MAX_ROLLOUT_MOVES):
            if len(state.scores) > scored or state.phase is Phase.GAME_OVER:
                break
            if state.turns >= stop:
                break
            play_greedy(state, self.depth)
        return outcome(state, me, scored)


def candidates(view: Observation, legal: Sequence[Action]) -> list[Action]:
    """The moves worth weighing (see the glossary), best first by the strong bot's
    figures; at least one."""
    ctx = Context(view)
    hand = list(view.hand)
    if view.phase is Phase.DRAW:
        takes = [a for a in legal if _is_take(a) and not idle_take(view, a)]
        takes.sort(key=lambda a: -_kept(hand + list(view.pile[_index(a) :]), ctx))
        plain = [a for a in legal if isinstance(a, DrawTwo | Pass | EndRound) or _is_stock(a)]
        return (plain + takes[:TAKES]) or list(legal[:1])
    plays = [a for a in legal if isinstance(a, LayDown | LayOff)]
    plays.sort(key=lambda a: -_after_play(a, hand, ctx))
    discards = [a for a in legal if isinstance(a, Discard)]
    discards.sort(key=lambda a: -_after_discard(a, hand, ctx))
    found: list[Action] = [*plays[:PLAYS], *discards[:DISCARDS]]
    return found or list(legal[:1])


def _is_take(action: Action) -> bool:
    return isinstance(action, Draw) and action.source == "discard"


def _is_stock(action: Action) -> bool:
    return isinstance(action, Draw) and action.source == "stock"


def _index(action: Action) -> int:
    return action.index or 0 if isinstance(action, Draw) else 0


def _kept(hand: list[Card], ctx: Context) -> float:
    """The value of ``hand`` with the cards taken (:func:`strategy.hand_value`)."""
    return hand_value(hand, ctx)


def _after_play(action: LayDown | LayOff, hand: list[Card], ctx: Context) -> float:
    cards = [c for m in action.melds for c in m] if isinstance(action, LayDown) else [action.card]
    rest = remove_cards(hand, cards) or []
    return sum(ctx.pts(c) for c in cards) + hand_value(rest, ctx)


def _after_discard(action: Discard, hand: list[Card], ctx: Context) -> float:
    rest = list(hand)
    rest.remove(action.card)
    return hand_value(rest, ctx) - danger(action.card, ctx)


def standing(state: GameState, seat: int) -> float:
    """``seat``'s standing in a round still in play (points): its cards on the table, its
    melds in hand (:data:`MELD_SHARE`), less its deadwood (:data:`DEADWOOD_SHARE`)."""
    rules = state.rules
    laid = [c for o, m in zip(state.owners, state.laid, strict=True) if o == seat for c in m]
    laid += [c for s, c, _ in state.layoffs if s == seat]
    melded, rest = best_melds(state.hands[seat], rules)
    table = sum(card_points(c, rules)[0] for c in laid)
    deadwood = sum(card_points(c, rules)[0] for c in rest)
    return table + MELD_SHARE * melded - DEADWOOD_SHARE * deadwood


def outcome(state: GameState, me: int, scored: int) -> float:
    """``me``'s side's figure less the average of the other sides' (points): the round's
    scores when it ended after ``scored`` rounds, else each seat's :func:`standing`."""
    units: dict[int, float] = {}
    ended = len(state.scores) > scored
    for seat, name in enumerate(state.players):
        figure = state.scores[scored].players[name].round if ended else standing(state, seat)
        unit = state.unit_of(seat)
        units[unit] = units.get(unit, 0.0) + figure
    mine = units.pop(state.unit_of(me))
    return mine - sum(units.values()) / max(1, len(units))


def advise(
    state: GameState,
    rng: random.Random,
    samples: int = SAMPLES,
    played: Action | None = None,
    budget: float | None = None,
) -> Decision:
    """What the expert would do for the current seat of ``state`` (from that seat's view
    only), without making it; ``played`` (a legal move) is weighed too, so
    ``decision.values`` says what it was expected to be worth."""
    view = observation(state, state.seat)
    bot = ExpertBot(samples, budget=budget)
    return bot.decide(view, legal_actions(state), rng, also=played)


def cost(decision: Decision, played: Action) -> float | None:
    """The expected points ``played`` gave up against the expert's move (0 when they are
    the same move; None when ``played`` was not weighed)."""
    if played == decision.action:
        return 0.0
    if played not in decision.values or decision.action not in decision.values:
        return None
    return decision.values[decision.action] - decision.values[played]
