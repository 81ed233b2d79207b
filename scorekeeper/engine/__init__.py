"""The 500 Rum rules engine: plain Python, no Flask, SQLAlchemy or WTForms; this module is
its one public face (everything a feature package, the API and the command line use).

The rooms, each importing only the rooms above it in this list (tests/test_layout.py):

- ``cards``: cards, the notation (7H, 10♦, JK=7C), packs, seeded shuffles; ``messages``
  (beside it): the engine's sentences as message ids with figures (:class:`Message`, ``say``),
  put into words at the edge.
- ``rules/``: ``ruleset`` (:class:`RuleSet`, :func:`ruleset`, the presets), ``options``
  (what each option of the catalogue, D1 to X2, means) and ``dealers_joker`` (the dealer's
  joker of one deal and the round's rules once nominated, X2).
- ``melds``, ``values``, ``wild``: sets, runs, jokers and lay-offs (legal or not, and which
  rule says no); each card's points in its place (S1 to S5, S9); what a wild joker may
  stand for.
- ``scoring/``: ``checks`` (a round as the table states it, and whether the rules allow
  it), ``outcome`` (figures, sides, the winner, the settlement), ``score_round`` (a round
  scored and explained card by card), ``tally`` (a round scored from the figures a table
  counts), ``notation`` (a round written in the card notation read into a ``RoundPlay``,
  every problem located; a score sheet's round scored) and ``contract`` (the scoring
  contract's JSON, shared/score-contract.md: :func:`score`).
- ``game/``: the digital game: ``actions`` (moves), ``state`` (state and seat views),
  ``hand_melds`` (the melds a hand holds), ``taking``, ``plays``, ``draws``, ``windows``,
  ``gambit``, ``turns`` (legal moves and making them), ``deal`` (dealing and ending
  rounds), ``records`` (game records, shared/game-record.md; ``turn_shape`` a record's
  turns, both ways).
- ``checker/``: ``candidates`` (every legal meld holding one card), ``filling`` (the row a
  tapped card makes with a meld being written, the cards completing a set), ``advice`` and
  ``explain`` (the checker's answers: which discards may be taken; why a meld or lay-off
  is legal).
- ``bots/``: ``bots`` (the players), ``levels`` (the ladder a person picks from),
  ``strategy``, ``expert``, ``hidden``, ``rollout``, ``why`` (a bot's reasons),
  ``gambit_bots`` (the dealer's nomination), ``simulate`` (many games from the command
  line) and ``ladder`` (the levels' matches and how they are played, ratings and a person's
  estimate).
- ``replay``: a finished game's record stepped move by move for people
  (:func:`replay.replay_steps`: every step's hands, melds, pile and scores, each move in
  words with the rules that allowed it).

Modules inside the engine import concrete modules, never this face.

The digital game from this one import, a game in six calls::

    from scorekeeper.engine import (
        new_game, legal_actions, apply_action, observation, current_player, is_terminal,
        GameState, IllegalMove, make_bot, bot_move, action_from_json,
    )

    state = new_game(["Ann", "Bot 1", "Bot 2"], preset="standard", options={}, seed=42)
    while not is_terminal(state):
        seat = current_player(state)              # whose decision (0-based seat)
        view = observation(state, seat)           # what that seat may see (.to_json())
        legal = legal_actions(state)              # every legal move of that seat
        move = legal[0]                           # or a person's choice, or a bot's:
        move = bot_move(state, make_bot("basic"), rng, legal)
        move, why = bot_move_why(state, make_bot("expert"), rng, legal)  # and why
        move = rng.choice(legal)                  # or one uniformly random legal move
        apply_action(state, move)                 # IllegalMove(message, rule) if not legal
    saved = state.to_json()                       # JSON-able dict: store it
    state = GameState.from_json(saved)            # and restore it, equal
    hint = advise(state, rng)                     # the expert's move and why, not made

Moves are the frozen values of :mod:`.game.actions` (``Draw("stock")``, ``Draw("discard", 3)``,
``LayDown(cards)``, ``LayOff(card, meld)``, ``Discard(card)``, ``Pass()``, ``EndRound()``,
``DrawTwo()``, ``RummyCall(index, meld)``); ``action.to_json()`` and
:func:`action_from_json` convert them for a form or an API. ``state.phase`` says what the
current seat must do (:class:`Phase`); ``state.rounds`` holds every finished round with
its scores (the scoring contract's figures, scored by the scorekeeper's own code);
``state.totals`` the running points per seat; ``state.winner`` the winner's name (or side,
"Ann & Cat") once the game is over. :func:`.game.records.game_record` writes a game record
(shared/game-record.md); :func:`.game.records.replay` reads one back.
"""

from __future__ import annotations

from .bots.bots import Bot, bot_move, bot_move_why
from .bots.expert import SAMPLES, Decision, advise, cost
from .bots.ladder import (
    Estimate,
    Match,
    estimate_rating,
    fair_step,
    fit_ratings,
    ladder_ratings,
    match_line,
    nearest_level,
    play_ladder,
    play_match,
    results_against,
    wilson,
)
from .bots.levels import BOTS, FORMER_NAMES, LEVELS, RANDOM, Level, make_bot, middle_level
from .bots.simulate import parse_option, progress_bar, simulate
from .bots.why import to_person
from .cards import JOKER, Card, CardError, parse_card, parse_cards, quoted, sort_key
from .checker.advice import PileChoice
from .checker.advice import advise as advise_pile
from .checker.explain import layoff_reasons, meld_points, meld_reasons
from .checker.filling import row_after_tap, set_completion, smallest_meld
from .game.actions import (
    Action,
    ActionError,
    Block,
    Discard,
    Draw,
    DrawTwo,
    EndRound,
    Gambit,
    LayDown,
    LayOff,
    Nominate,
    Pass,
    RummyCall,
    Split,
    action_from_json,
)
from .game.deal import new_game, round_play
from .game.hand_melds import joker_namings
from .game.plays import IllegalMove
from .game.records import seat_record
from .game.state import GameSetupError, GameState, Observation, Phase, laid_down_in, observation
from .game.turns import apply_action, current_player, is_terminal, legal_actions
from .melds import IllegalMeld, Meld, check_meld, extend_with
from .messages import N_, Message, say, say_plural
from .replay import ReplayRefused, Step, replay_steps
from .rules.dealers_joker import NOMINATION_MEANINGS, round_rules_stated
from .rules.options import OptionInfo, OptionValue
from .rules.ruleset import OPTIONS, PRESET_TITLES, PRESETS, RulesError, RuleSet, ruleset
from .scoring.checks import RoundError, went_out_by_hand
from .scoring.contract import ScoreRequestError, rules_from_request, score
from .scoring.notation import score_sheet
from .scoring.outcome import SIDE_BONUSES, TABLE_COUNT, settle, wins
from .scoring.score_round import RoundScore
from .scoring.tally import TableCount, next_dealer, tally_net, tally_round

__all__ = [
    # cards, melds and the checker's answers (cards, melds, checker/)
    "JOKER",
    "Card",
    "CardError",
    "parse_card",
    "parse_cards",
    "quoted",
    "sort_key",
    "IllegalMeld",
    "Message",
    "N_",
    "say",
    "say_plural",
    "Meld",
    "check_meld",
    "extend_with",
    "layoff_reasons",
    "meld_points",
    "meld_reasons",
    "PileChoice",
    "advise_pile",
    "row_after_tap",
    "set_completion",
    "smallest_meld",
    "NOMINATION_MEANINGS",
    "round_rules_stated",
    "joker_namings",
    # scoring a round and a game (scoring/)
    "RoundError",
    "RoundScore",
    "SIDE_BONUSES",
    "TABLE_COUNT",
    "TableCount",
    "next_dealer",
    "score_sheet",
    "settle",
    "tally_net",
    "tally_round",
    "went_out_by_hand",
    "wins",
    # the digital game's records (game/)
    "laid_down_in",
    "seat_record",
    # a finished game's record stepped for people (replay)
    "ReplayRefused",
    "Step",
    "replay_steps",
    # many games from the command line (bots/simulate)
    "parse_option",
    "progress_bar",
    "simulate",
    # rules, the contract, the game and the bots
    "SAMPLES",
    "OPTIONS",
    "PRESETS",
    "PRESET_TITLES",
    "OptionInfo",
    "OptionValue",
    "RuleSet",
    "RulesError",
    "ScoreRequestError",
    "rules_from_request",
    "ruleset",
    "score",
    "BOTS",
    "LEVELS",
    "Estimate",
    "estimate_rating",
    "results_against",
    "ladder_ratings",
    "nearest_level",
    "wilson",
    "FORMER_NAMES",
    "RANDOM",
    "Match",
    "fair_step",
    "fit_ratings",
    "match_line",
    "play_ladder",
    "play_match",
    "Level",
    "middle_level",
    "Action",
    "ActionError",
    "Bot",
    "Discard",
    "Draw",
    "DrawTwo",
    "EndRound",
    "GameSetupError",
    "GameState",
    "IllegalMove",
    "LayDown",
    "LayOff",
    "Observation",
    "Pass",
    "Phase",
    "RummyCall",
    "Block",
    "Decision",
    "advise",
    "cost",
    "Gambit",
    "Nominate",
    "Split",
    "action_from_json",
    "apply_action",
    "bot_move",
    "bot_move_why",
    "current_player",
    "is_terminal",
    "legal_actions",
    "make_bot",
    "new_game",
    "observation",
    "round_play",
    "to_person",
]
