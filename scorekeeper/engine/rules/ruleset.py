"""The rule set: one choice for every rule and house rule of 500 Rum.

Every field of :class:`RuleSet` is an option named in plain words and carries the id of
the row of ``shared/rules-catalogue.md`` it expresses (D1 to X2), its choices with a label
each, and the seed texts that state it. Where the seeds disagree, each reading is a
choice. Seeds: 000 classic encyclopedia text with house rules, partnership and Persian;
001 and 004 the card-maker rules; 002 the encyclopedia article with most variants; 003
the card-maker text with jokers and the "Rummy!" call.

Presets (:data:`PRESETS`) are the catalogue's eight, by its names. A house starts from a
preset and changes any option by name: ``ruleset("standard", min_run=4)``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from ..messages import N_, say
from .options import META, OptionInfo, OptionValue, with_gambit
from .options import PRESET_TITLES as PRESET_TITLES
from .options import RulesError as RulesError

Jokers = Literal[0, 1, 2, 4]
TwoPacks = Literal["five-or-more", "never", "always"]
CardsDealt = Literal["13-for-two", "7-always"]
FirstDiscard = Literal["upcard", "extra-card-to-left"]
NextDealer = Literal["left", "round-winner"]
FirstDealer = Literal["low-card"]
SetSize = Literal["3-or-4"]
SameSuitInSet = Literal["forbidden", "allowed"]
MinRun = Literal[3, 4]
AceInRun = Literal["high-or-low", "round-the-corner"]
JokerUse = Literal["none", "wild", "sets-of-jokers"]
FirstMeldApplies = Literal["every-round", "once-per-game"]
RearrangingMelds = Literal["never"]
DiscardDraw = Literal["any-card"]
DiscardUse = Literal["meld-or-lay-off", "new-meld-only"]
TopDiscard = Literal["must-use", "may-keep"]
LayingDown = Literal["any-order"]
EndOfTurn = Literal["discard-one"]
LayOffOnto = Literal["any-meld"]
LaidOffCards = Literal["stay-with-player"]
DeclareLayoff = Literal["name-the-meld"]
GoingOut = Literal["last-card"]
StockExhausted = Literal[
    "hands-count", "draw-from-discard", "reshuffle", "play-on", "nobody-deducts"
]
AcePoints = Literal["15-low-1", "15", "25", "15-high-else-5"]
FacePoints = Literal[10]
TenPoints = Literal[10]
LowCardPoints = Literal["pip", "5"]
JokerPoints = Literal[15, 20, 0]
RoundScoreChoice = Literal["shown-minus-hand"]
TieBreak = Literal["highest", "went-out"]
Settlement = Literal["difference"]
PartnershipWinner = Literal["first-to-target", "highest-over-target"]
GoingOutBonus = Literal[0, 25]
RummyCallChoice = Literal["off", "lay-off-only", "play-then-turn"]


@dataclass(frozen=True)
class RuleSet:
    """One choice for every catalogue row. Immutable; build with :func:`ruleset`.

    Fields (catalogue id: option = default; seeds):

    - D1 ``max_players`` = 8: 2 to 8 players (all seeds).
    - D2 ``jokers`` = 0: jokers in a pack: 0 (52), 1 (53), 2 (54), 4 (56, Persian)
      (000, 002, 003); ``two_packs`` = "five-or-more": when two packs are shuffled
      together (000 "more than 4", 002 and 003 "five or more"), or "never", "always".
    - D3 ``cards_dealt`` = "13-for-two": 13 each with two players, else 7 (001, 002, 004);
      or "7-always" (000, 003).
    - D4 ``first_discard`` = "upcard": top of stock turned up (all); or
      "extra-card-to-left" (002).
    - D5 ``next_dealer`` = "left" (000, 002); or "round-winner" (002).
    - D6 ``first_dealer`` = "low-card": draw for deal, low deals, ace lowest (000, 002).
    - M1 ``set_size`` = "3-or-4": a set is 3 or 4 cards of one rank (all).
    - M2 ``same_suit_in_set`` = "forbidden": with two packs 5♣ 5♣ 5♥ is no set (003);
      or "allowed".
    - M3 ``min_run`` = 3: runs of 3 or more (001, 002, 003, 004); or 4 (000, 002).
    - M4 ``ace_in_run`` = "high-or-low": Q-K-A or A-2-3, never K-A-2 (all); or
      "round-the-corner" (002).
    - M5 ``joker_use`` = "none" (001, 004); "wild": names its card when melded, fixed after,
      may duplicate a card on the table (002, 003); "sets-of-jokers": never wild, only in
      sets of three or four jokers (000, 002; Persian, P2).
    - M6 ``first_meld_minimum`` = 0 points; 30 in 002. ``first_meld_applies`` =
      "every-round" (a player's first melds of each round); "once-per-game" (only their
      first melds of the game: 002, "In order to begin scoring all players must lay no
      less than 30 points for their first score").
    - M7 ``rearranging_melds`` = "never": no card moves between melds (003).
    - T1 ``discard_draw`` = "any-card": any card of the pile, taking every card above (all).
    - T2 ``discard_use`` = "meld-or-lay-off": the selected card used at once, in a meld or
      a lay-off (000, 001, 003, 004); or "new-meld-only": no picking up to hit (002).
    - T3 ``top_discard`` = "must-use" (all); or "may-keep": the top card alone may be kept
      (000, 002 variation).
    - T4 ``laying_down`` = "any-order": melds and lay-offs in any order, never compulsory.
    - T5 ``end_of_turn`` = "discard-one": a turn ends with one discard (all).
    - T6 ``draw_two_from_stock`` = False; True is "Boathouse Rum" (002).
    - T7 ``out_of_turn_melding`` = False; True lets a player meld on others' turns (002).
    - L1 ``lay_off_onto`` = "any-meld": one's own or an opponent's (all).
    - L2 ``laid_off_cards`` = "stay-with-player": kept and scored by whoever laid them off.
    - L3 ``declare_layoff`` = "name-the-meld": the player names the meld a card extends,
      and an extended run can be extended further (000, 003).
    - L4 ``partners_lay_off`` = False; True in partnership play (000, 002).
    - O1 ``going_out`` = "last-card": by melding, laying off or discarding the last card.
    - O2 ``discard_to_go_out`` = False; True: a final discard is needed, and not the card
      just taken from the discard pile ("Boathouse", 000, 002).
    - O3 ``stock_exhausted`` = "hands-count" (000, 002, 003); "draw-from-discard" (000,
      002); "reshuffle" (000, 002); "play-on" (002); "nobody-deducts" (002).
    - O4 ``deadwood_after_out`` = False; True: with two players the other may lay off
      deadwood onto the goer's melds first (002).
    - S1 ``ace_points`` = "15-low-1" (000, 003); "15" (000, 002); "25" (000, 002);
      "15-high-else-5" (000, 002).
    - S2 ``face_points`` = 10 and S3 ``ten_points`` = 10 (all).
    - S4 ``low_card_points`` = "pip" (000, 003); or "5" (000, 002).
    - S5 ``joker_points`` = 15 (002, 003); 20 (Persian, 000); 0 (dealer's gambit, 002).
    - S6 ``four_aces_100`` = False; True: four aces melded at once count 100 (002).
    - S7 ``round_score`` = "shown-minus-hand" (all; the worked example S11: shown 87,
      hand 90, 3 points off).
    - S8 ``add_opponents_hand`` = False; True: the player who went out adds every other
      hand (000, 002).
    - S9 ``divide_by_five`` = False; True: every value divided by 5 (000, 002).
    - S10 ``seven_card_straight`` = False; True: a seven-card run laid down and the last
      card discarded scores 500 (002).
    - G1 ``target`` = 500 points; 100 with divide-by-five; 250 with dealer's gambit.
    - G2 ``tie_break`` = "highest" (000, 003, 004); or "went-out" (002).
    - G3 ``settlement`` = "difference": the winner collects the difference (001, 004).
    - G4 ``partnership_winner`` = "first-to-target" (000); or "highest-over-target" (002).
    - P1 ``partnership`` = False; True: 4 players in 2 sides (000, 002).
    - P2 is the Persian pack: ``jokers`` 4, ``joker_use`` "sets-of-jokers",
      ``joker_points`` 20 (000, 002).
    - P3 ``meld_of_four_doubles`` = False; True: a meld of four laid down at once counts
      double (000, 002).
    - P4 ``going_out_bonus`` = 0; 25 in Persian (000, 002).
    - P5 ``two_deal_game`` = False; True: the game ends after two deals and the better side
      gets 50 (000, 002).
    - X1 ``rummy_call`` = "off"; "lay-off-only" (002); "play-then-turn" (003).
    - X2 ``dealers_gambit`` = False; True: the dealer's joker is wild, double or split each
      deal (002), with 2 jokers worth 0 unless given (:func:`.options.with_gambit`).
    """

    # D: pack, players, deal
    max_players: int = 8
    jokers: Jokers = 0
    two_packs: TwoPacks = "five-or-more"
    cards_dealt: CardsDealt = "13-for-two"
    first_discard: FirstDiscard = "upcard"
    next_dealer: NextDealer = "left"
    first_dealer: FirstDealer = "low-card"
    # M: melds
    set_size: SetSize = "3-or-4"
    same_suit_in_set: SameSuitInSet = "forbidden"
    min_run: MinRun = 3
    ace_in_run: AceInRun = "high-or-low"
    joker_use: JokerUse = "none"
    first_meld_minimum: int = 0
    first_meld_applies: FirstMeldApplies = "every-round"
    rearranging_melds: RearrangingMelds = "never"
    # T: the turn
    discard_draw: DiscardDraw = "any-card"
    discard_use: DiscardUse = "meld-or-lay-off"
    top_discard: TopDiscard = "must-use"
    laying_down: LayingDown = "any-order"
    end_of_turn: EndOfTurn = "discard-one"
    draw_two_from_stock: bool = False
    out_of_turn_melding: bool = False
    # L: laying off
    lay_off_onto: LayOffOnto = "any-meld"
    laid_off_cards: LaidOffCards = "stay-with-player"
    declare_layoff: DeclareLayoff = "name-the-meld"
    partners_lay_off: bool = False
    # O: going out and the end of a round
    going_out: GoingOut = "last-card"
    discard_to_go_out: bool = False
    stock_exhausted: StockExhausted = "hands-count"
    deadwood_after_out: bool = False
    # S: card values and round scoring
    ace_points: AcePoints = "15-low-1"
    face_points: FacePoints = 10
    ten_points: TenPoints = 10
    low_card_points: LowCardPoints = "pip"
    joker_points: JokerPoints = 15
    four_aces_100: bool = False
    round_score: RoundScoreChoice = "shown-minus-hand"
    add_opponents_hand: bool = False
    divide_by_five: bool = False
    seven_card_straight: bool = False
    # G: the game
    target: int = 500
    tie_break: TieBreak = "highest"
    settlement: Settlement = "difference"
    partnership_winner: PartnershipWinner = "first-to-target"
    # P: partnership and Persian
    partnership: bool = False
    meld_of_four_doubles: bool = False
    going_out_bonus: GoingOutBonus = 0
    two_deal_game: bool = False
    # X: further house rules
    rummy_call: RummyCallChoice = "off"
    dealers_gambit: bool = False

    # ---- derived values -------------------------------------------------------------

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash(dataclasses.astuple(self)))

    def __hash__(self) -> int:
        """The options' hash, worked out once (rule sets key the engine's caches, so this
        runs on every cached lookup: a plain attribute read)."""
        found: int = self._hash  # type: ignore[attr-defined]  # set by __post_init__
        return found

    def __getstate__(self) -> dict[str, OptionValue]:
        """Pickle the options only: caches and the cached hash stay in their process."""
        return {name: getattr(self, name) for name in OPTIONS}

    def __setstate__(self, state: dict[str, OptionValue]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)
        self.__post_init__()

    def options(self) -> dict[str, OptionValue]:
        """Every option as ``{name: value}``, in catalogue order."""
        return {name: getattr(self, name) for name in OPTIONS}

    def packs_for(self, players: int) -> int:
        """How many 52-card packs a table of ``players`` uses (D2)."""
        if self.two_packs == "always" or (self.two_packs == "five-or-more" and players >= 5):
            return 2
        return 1

    def pack_size(self, players: int) -> int:
        """Cards in the whole pack for ``players`` (D2): 52, 53, 54, 56, 104 to 112."""
        return self.packs_for(players) * (52 + self.jokers)

    def hand_size(self, players: int) -> int:
        """Cards dealt to each player (D3)."""
        return 13 if self.cards_dealt == "13-for-two" and players == 2 else 7

    def differences(self, preset: str) -> list[tuple[str, OptionValue, OptionValue]]:
        """The options that differ from ``preset``: ``[(name, preset value, this value)]``.

        Raises :class:`RulesError` for an unknown preset.
        """
        base = ruleset(preset)
        return [
            (name, getattr(base, name), getattr(self, name))
            for name in OPTIONS
            if getattr(base, name) != getattr(self, name)
        ]

    def replace(self, **changes: object) -> RuleSet:
        """A copy with options changed by name, validated (raises :class:`RulesError`)."""
        return _build(self, changes)


_DEFAULT: Final = RuleSet()
OPTIONS: Final[dict[str, OptionInfo]] = {
    f.name: OptionInfo(name=f.name, default=getattr(_DEFAULT, f.name), **META[f.name])
    for f in dataclasses.fields(RuleSet)
}
"""Every option by name, with its catalogue ids, choices, labels and sources."""

PRESETS: Final[dict[str, dict[str, OptionValue]]] = {
    "standard": {},
    "classic": {"cards_dealt": "7-always", "min_run": 4, "top_discard": "may-keep"},
    "modern": {
        "jokers": 2,
        "joker_use": "wild",
        "joker_points": 15,
        "ace_points": "15-high-else-5",
        "low_card_points": "5",
        "first_meld_minimum": 30,
        "first_meld_applies": "once-per-game",
        "discard_use": "new-meld-only",
        "stock_exhausted": "nobody-deducts",
        "tie_break": "went-out",
    },
    "jokers-wild": {
        "jokers": 2,
        "cards_dealt": "7-always",
        "joker_use": "wild",
        "joker_points": 15,
        "ace_points": "15-low-1",
        "same_suit_in_set": "forbidden",
        "rummy_call": "play-then-turn",
    },
    "add-opponents-hand": {"add_opponents_hand": True},
    "partnership": {"partnership": True, "partners_lay_off": True},
    "persian": {
        "partnership": True,
        "partners_lay_off": True,
        "jokers": 4,
        "joker_use": "sets-of-jokers",
        "joker_points": 20,
        "meld_of_four_doubles": True,
        "going_out_bonus": 25,
        "two_deal_game": True,
    },
    "quick": {
        "ace_points": "15",
        "low_card_points": "5",
        "divide_by_five": True,
        "target": 100,
    },
}
"""The catalogue's presets: the options each changes from the defaults."""


def _consistency(rules: RuleSet) -> list[tuple[str, str]]:
    problems: list[tuple[str, str]] = []
    if rules.jokers and rules.joker_use == "none":
        problems.append(
            (
                "joker_use",
                say("a pack with jokers needs a joker rule (M5): wild or sets of jokers"),
            )
        )
    if not rules.jokers and rules.joker_use != "none":
        problems.append(("jokers", say("jokers are used (M5) but the pack has none (D2)")))
    if rules.divide_by_five and rules.low_card_points == "pip":
        problems.append(("divide_by_five", say(_NOT_BY_FIVE["pip"])))
    if rules.divide_by_five and rules.ace_points == "15-low-1":
        problems.append(("divide_by_five", say(_NOT_BY_FIVE["ace"])))
    return problems


_NOT_BY_FIVE = {
    "pip": N_(
        "dividing by five (S9) needs 2 to 9 at 5 each (S4): pip values do not divide by five"
    ),
    "ace": N_("dividing by five (S9) cannot count an ace 1 (S1): choose another ace value"),
}


def _checked(changes: Mapping[str, object]) -> dict[str, OptionValue]:
    """``changes`` when each names an option with an allowed value, else
    :class:`RulesError` listing every unknown name and bad value."""
    problems: list[tuple[str, str]] = []
    clean: dict[str, OptionValue] = {}
    for name, value in changes.items():
        info = OPTIONS.get(name)
        if info is None:
            problems.append(
                (name, say("there is no house rule called %(option)s", option=repr(name)))
            )
            continue
        message = info.check(value)
        if message:
            problems.append((name, message))
        elif isinstance(value, (str, int)):  # always, once checked
            clean[name] = value
    if problems:
        raise RulesError(problems)
    return clean


def _build(base: RuleSet, changes: Mapping[str, object]) -> RuleSet:
    rules = RuleSet.__new__(RuleSet)
    rules.__setstate__(base.__getstate__() | _checked(changes))
    problems = _consistency(rules)
    if problems:
        raise RulesError(problems)
    return rules


@lru_cache(maxsize=512)
def _cached(preset: str, changes: tuple[tuple[str, str, OptionValue], ...]) -> RuleSet:
    if preset not in PRESETS:
        names = ", ".join(PRESETS)
        raise RulesError(
            [
                (
                    "preset",
                    say(
                        "there is no preset called %(preset)s: choose %(presets)s",
                        preset=repr(preset),
                        presets=names,
                    ),
                )
            ]
        )
    base = _build(RuleSet(), PRESETS[preset])
    return _build(base, {name: value for name, _, value in changes}) if changes else base


def _plain(changes: Mapping[str, object]) -> dict[str, OptionValue]:
    """``changes`` when every value is plain (text, a number, true or false), else
    :class:`RulesError` naming each that is not (a list, an object, null)."""
    plain = {name: value for name, value in changes.items() if isinstance(value, (str, int))}
    bad: list[tuple[str, str]] = [
        (
            name,
            say(
                "%(option)s must be a plain value, not %(kind)s",
                option=name,
                kind=type(value).__name__,
            ),
        )
        for name, value in changes.items()
        if name not in plain
    ]
    if bad:
        raise RulesError(bad)
    return plain


def ruleset(
    preset: str = "standard", options: Mapping[str, object] | None = None, **overrides: object
) -> RuleSet:
    """The rule set of ``preset`` with ``options`` / ``overrides`` changed by name.

    ``ruleset("standard")``, ``ruleset("modern", {"first_meld_minimum": 0})``,
    ``ruleset("classic", min_run=3)``. Raises :class:`RulesError` listing every unknown
    preset, unknown option or invalid value, and every combination that cannot be played
    (jokers in the pack with no joker rule, dividing pip values by five, ...).
    """
    if not options and not overrides:  # the preset as it is
        return _cached(preset, ())
    changes = with_gambit(dict(options or {}) | overrides)
    if not changes:
        return _cached(preset, ())
    plain = _plain(changes)
    # the type is part of the key: 0 and False, 1 and True are different answers
    key = tuple(sorted((name, type(value).__name__, value) for name, value in plain.items()))
    return _cached(preset, key)
