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
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Final


class RulesError(ValueError):
    """An unknown preset, an unknown option or an invalid value.

    ``problems`` lists ``(where, message)`` pairs, ``where`` being ``"preset"`` or the
    option's name; ``str(error)`` joins the messages.
    """

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(message for _, message in problems))


@dataclass(frozen=True)
class OptionInfo:
    """What one option means: catalogue ``ids``, ``title``, ``choices`` (value -> label),
    or an integer range ``minimum``..``maximum``, and the seed ``sources`` per choice."""

    name: str
    ids: tuple[str, ...]
    title: str
    choices: Mapping[Any, str]
    sources: Mapping[Any, str]
    default: Any
    minimum: int | None = None
    maximum: int | None = None

    @property
    def id(self) -> str:
        """The main catalogue id, e.g. ``"M4"``."""
        return self.ids[0]

    def label(self, value: Any) -> str:
        """The plain-words label of ``value`` (for an integer range, the number itself)."""
        if isinstance(value, (str, int)) and value in self.choices:
            return self.choices[value]
        return str(value)

    def check(self, value: Any) -> str | None:
        """None when ``value`` is allowed, else a message saying what is."""
        if self.minimum is not None:
            if isinstance(value, bool) or not isinstance(value, int):
                return f"{self.name} must be a whole number from {self.minimum} to {self.maximum}"
            if not self.minimum <= value <= (self.maximum or value):
                return f"{self.name} must be from {self.minimum} to {self.maximum}, not {value}"
            return None
        if (
            not isinstance(value, (str, int))
            or isinstance(value, bool) != isinstance(self.default, bool)
            or value not in self.choices
        ):
            allowed = ", ".join(repr(c) for c in self.choices)
            return f"{self.name} must be one of {allowed}, not {value!r}"
        return None


def _opt(
    default: Any,
    ids: str,
    title: str,
    choices: Mapping[Any, str] | None = None,
    sources: Mapping[Any, str] | None = None,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
) -> Any:
    meta = {
        "ids": tuple(ids.split(",")),
        "title": title,
        "choices": choices or {},
        "sources": sources or {},
        "minimum": minimum,
        "maximum": maximum,
    }
    return field(default=default, metadata=meta)


_YES_NO = {False: "no", True: "yes"}


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
    - M6 ``first_meld_minimum`` = 0 points; 30 in 002.
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
    - X2 ``dealers_gambit`` = False; True: the dealer's joker is wild, double or split
      each deal (002).
    """

    # D: pack, players, deal
    max_players: int = _opt(8, "D1", "Most players at one table", minimum=2, maximum=8)
    jokers: int = _opt(
        0,
        "D2,P2",
        "Jokers in each pack",
        {0: "none (52 cards)", 1: "one (53 cards)", 2: "two (54 cards)", 4: "four (56 cards)"},
        {0: "001, 004", 1: "002", 2: "002, 003", 4: "000, 002 (Persian)"},
    )
    two_packs: str = _opt(
        "five-or-more",
        "D2",
        "When two packs are used",
        {
            "five-or-more": "with five or more players",
            "never": "never",
            "always": "always",
        },
        {"five-or-more": "000, 002, 003"},
    )
    cards_dealt: str = _opt(
        "13-for-two",
        "D3",
        "Cards dealt to each player",
        {"13-for-two": "13 each with two players, else 7", "7-always": "7 always"},
        {"13-for-two": "001, 002, 004", "7-always": "000, 003"},
    )
    first_discard: str = _opt(
        "upcard",
        "D4",
        "How the discard pile starts",
        {
            "upcard": "the top card of the stock is turned up",
            "extra-card-to-left": "the player left of the dealer gets an extra card and "
            "chooses the first discard",
        },
        {"upcard": "all", "extra-card-to-left": "002"},
    )
    next_dealer: str = _opt(
        "left",
        "D5",
        "Who deals the next round",
        {"left": "the player to the left", "round-winner": "the winner of the round"},
        {"left": "000, 002", "round-winner": "002"},
    )
    first_dealer: str = _opt(
        "low-card",
        "D6",
        "Deal for the first game",
        {"low-card": "draw for deal, low deals, ace lowest"},
        {"low-card": "000, 002"},
    )
    # M: melds
    set_size: str = _opt(
        "3-or-4", "M1", "Size of a set", {"3-or-4": "3 or 4 cards of one rank"}, {"3-or-4": "all"}
    )
    same_suit_in_set: str = _opt(
        "forbidden",
        "M2",
        "Two cards of one suit in a set (two packs)",
        {
            "forbidden": "not allowed: 5♣ 5♣ 5♥ is no set",
            "allowed": "allowed",
        },
        {"forbidden": "003"},
    )
    min_run: int = _opt(
        3,
        "M3",
        "Shortest run",
        {3: "3 or more cards in sequence", 4: "4 or more cards in sequence"},
        {3: "001, 002, 003, 004", 4: "000, 002 variation"},
    )
    ace_in_run: str = _opt(
        "high-or-low",
        "M4",
        "The ace in a run",
        {
            "high-or-low": "high (Q-K-A) or low (A-2-3), never round the corner (K-A-2)",
            "round-the-corner": "round the corner allowed (K-A-2)",
        },
        {"high-or-low": "all", "round-the-corner": "002"},
    )
    joker_use: str = _opt(
        "none",
        "M5,P2",
        "What jokers do",
        {
            "none": "no jokers",
            "wild": "wild: named when melded, fixed after, may duplicate a card on the table",
            "sets-of-jokers": "never wild: only in sets of three or four jokers (Persian)",
        },
        {"none": "001, 004", "wild": "002, 003", "sets-of-jokers": "000, 002"},
    )
    first_meld_minimum: int = _opt(
        0, "M6", "Points a player's first melds must reach", minimum=0, maximum=100
    )
    rearranging_melds: str = _opt(
        "never",
        "M7",
        "Moving cards between melds",
        {"never": "never: a card laid down stays in its meld"},
        {"never": "003"},
    )
    # T: the turn
    discard_draw: str = _opt(
        "any-card",
        "T1",
        "Drawing from the discard pile",
        {"any-card": "any card of the pile, taking every card above it"},
        {"any-card": "all"},
    )
    discard_use: str = _opt(
        "meld-or-lay-off",
        "T2",
        "Using the card taken from the discard pile",
        {
            "meld-or-lay-off": "at once, in a new meld or a lay-off",
            "new-meld-only": "at once, only in a new meld of 3 or more (no picking up to hit)",
        },
        {"meld-or-lay-off": "000, 001, 003, 004", "new-meld-only": "002"},
    )
    top_discard: str = _opt(
        "must-use",
        "T3",
        "Taking just the top discard",
        {
            "must-use": "same as any discard: it must be used at once",
            "may-keep": "the top card alone may be kept without using it",
        },
        {"must-use": "all", "may-keep": "000, 002 variation"},
    )
    laying_down: str = _opt(
        "any-order",
        "T4",
        "After drawing",
        {"any-order": "lay down melds and lay off cards in any order; never compulsory"},
        {"any-order": "all"},
    )
    end_of_turn: str = _opt(
        "discard-one",
        "T5",
        "End of a turn",
        {"discard-one": "discard one card"},
        {"discard-one": "all"},
    )
    draw_two_from_stock: bool = _opt(
        False, "T6", "Draw two from the stock (Boathouse Rum)", _YES_NO, {True: "002"}
    )
    out_of_turn_melding: bool = _opt(
        False, "T7", "Melding on other players' turns", _YES_NO, {True: "002"}
    )
    # L: laying off
    lay_off_onto: str = _opt(
        "any-meld",
        "L1",
        "Laying off onto",
        {"any-meld": "any meld on the table, one's own or an opponent's"},
        {"any-meld": "all"},
    )
    laid_off_cards: str = _opt(
        "stay-with-player",
        "L2",
        "Where laid-off cards stay",
        {"stay-with-player": "in front of the player who laid them off, who scores them"},
        {"stay-with-player": "all"},
    )
    declare_layoff: str = _opt(
        "name-the-meld",
        "L3",
        "Declaring a lay-off",
        {"name-the-meld": "the player names the meld a card extends"},
        {"name-the-meld": "000, 003"},
    )
    partners_lay_off: bool = _opt(
        False, "L4", "Partners lay off on each other's melds", _YES_NO, {True: "000, 002"}
    )
    # O: going out and the end of a round
    going_out: str = _opt(
        "last-card",
        "O1",
        "Going out",
        {"last-card": "by melding, laying off or discarding the last card; the round ends"},
        {"last-card": "all"},
    )
    discard_to_go_out: bool = _opt(
        False,
        "O2",
        "A final discard is needed to go out (Boathouse)",
        _YES_NO,
        {True: "000, 002"},
    )
    stock_exhausted: str = _opt(
        "hands-count",
        "O3",
        "When the stock runs out",
        {
            "hands-count": "the round ends; every hand counts against its holder",
            "draw-from-discard": "players may go on drawing from the discard pile while able "
            "and willing, then the round ends",
            "reshuffle": "the discard pile is reshuffled into a new stock",
            "play-on": "play on, discarding each turn, until someone goes out",
            "nobody-deducts": "the round ends and nobody deducts their hand",
        },
        {
            "hands-count": "000, 002, 003",
            "draw-from-discard": "000, 002",
            "reshuffle": "000, 002",
            "play-on": "002",
            "nobody-deducts": "002",
        },
    )
    deadwood_after_out: bool = _opt(
        False,
        "O4",
        "After a player goes out (two players), the other lays off deadwood first",
        _YES_NO,
        {True: "002"},
    )
    # S: card values and round scoring
    ace_points: str = _opt(
        "15-low-1",
        "S1",
        "An ace counts",
        {
            "15-low-1": "15, but 1 when played low in a run (A-2-3)",
            "15": "15 always",
            "25": "25 always",
            "15-high-else-5": "15 played high in a run, 5 otherwise",
        },
        {"15-low-1": "000, 003", "15": "000, 002", "25": "000, 002", "15-high-else-5": "000, 002"},
    )
    face_points: int = _opt(10, "S2", "K, Q, J count", {10: "10"}, {10: "all"})
    ten_points: int = _opt(10, "S3", "A 10 counts", {10: "10"}, {10: "all"})
    low_card_points: str = _opt(
        "pip",
        "S4",
        "2 to 9 count",
        {"pip": "their pip value", "5": "5 each"},
        {"pip": "000, 003", "5": "000, 002"},
    )
    joker_points: int = _opt(
        15,
        "S5",
        "A joker counts",
        {15: "15", 20: "20 (Persian)", 0: "0 (dealer's gambit wild)"},
        {15: "002, 003", 20: "000", 0: "002"},
    )
    four_aces_100: bool = _opt(
        False, "S6", "Four aces melded at once count 100", _YES_NO, {True: "002"}
    )
    round_score: str = _opt(
        "shown-minus-hand",
        "S7,S11",
        "A round scores",
        {"shown-minus-hand": "cards shown on the table minus cards left in hand"},
        {"shown-minus-hand": "all"},
    )
    add_opponents_hand: bool = _opt(
        False,
        "S8",
        "Add opponents' hands: the player who went out adds every other hand",
        _YES_NO,
        {True: "000, 002"},
    )
    divide_by_five: bool = _opt(
        False, "S9", "Every value divided by five", _YES_NO, {True: "000, 002"}
    )
    seven_card_straight: bool = _opt(
        False,
        "S10",
        "A seven-card run laid down, then the last card discarded, scores 500",
        _YES_NO,
        {True: "002"},
    )
    # G: the game
    target: int = _opt(500, "G1", "Points to win the game", minimum=50, maximum=10000)
    tie_break: str = _opt(
        "highest",
        "G2",
        "Two or more reach the target on the same round",
        {"highest": "the highest score wins", "went-out": "the player who went out wins"},
        {"highest": "000, 003, 004", "went-out": "002"},
    )
    settlement: str = _opt(
        "difference",
        "G3",
        "Settlement",
        {"difference": "the winner collects from each opponent the difference in scores"},
        {"difference": "001, 004"},
    )
    partnership_winner: str = _opt(
        "first-to-target",
        "G4",
        "Partnership winner",
        {
            "first-to-target": "the first side to the target",
            "highest-over-target": "the side with the highest score over the target, even "
            "if the other side went out",
        },
        {"first-to-target": "000", "highest-over-target": "002"},
    )
    # P: partnership and Persian
    partnership: bool = _opt(
        False,
        "P1",
        "Partnership: 4 players, 2 sides, partners opposite",
        _YES_NO,
        {True: "000, 002"},
    )
    meld_of_four_doubles: bool = _opt(
        False,
        "P3",
        "A meld of four laid down at once counts double",
        _YES_NO,
        {True: "000, 002"},
    )
    going_out_bonus: int = _opt(
        0, "P4", "Bonus to the side that goes out", {0: "none", 25: "25"}, {25: "000, 002"}
    )
    two_deal_game: bool = _opt(
        False,
        "P5",
        "The game ends after two deals; the better side gets 50",
        _YES_NO,
        {True: "000, 002"},
    )
    # X: further house rules
    rummy_call: str = _opt(
        "off",
        "X1",
        '"Rummy!" call',
        {
            "off": "off",
            "lay-off-only": "the caller takes the card and only lays it off",
            "play-then-turn": "the caller plays the cards, then takes a normal turn",
        },
        {"lay-off-only": "002", "play-then-turn": "003"},
    )
    dealers_gambit: bool = _opt(
        False,
        "X2",
        "Dealer's gambit (dealer's joker wild, double or split)",
        _YES_NO,
        {True: "002"},
    )

    # ---- derived values -------------------------------------------------------------

    def __hash__(self) -> int:
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(tuple(self.__dict__[name] for name in OPTIONS))
            object.__setattr__(self, "_hash", cached)
        return cached

    def __getstate__(self) -> dict[str, Any]:
        """Pickle the options only: caches and the cached hash stay in their process."""
        return {name: getattr(self, name) for name in OPTIONS}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)

    def memo(self, name: str) -> dict[Any, Any]:
        """A dict kept with this rule set for caching what depends only on it and on
        cards (meld checks, lay-offs, card values), so that hot lookups hash the cards
        alone. Emptied when it grows past 8,192 entries."""
        memos: dict[str, dict[Any, Any]] | None = self.__dict__.get("_memos")
        if memos is None:
            memos = {}
            object.__setattr__(self, "_memos", memos)
        found = memos.get(name)
        if found is None or len(found) > 8192:
            found = memos[name] = {}
        return found

    def options(self) -> dict[str, Any]:
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

    def differences(self, preset: str) -> list[tuple[str, Any, Any]]:
        """The options that differ from ``preset``: ``[(name, preset value, this value)]``.

        Raises :class:`RulesError` for an unknown preset.
        """
        base = ruleset(preset)
        return [
            (name, getattr(base, name), getattr(self, name))
            for name in OPTIONS
            if getattr(base, name) != getattr(self, name)
        ]

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with options changed by name, validated (raises :class:`RulesError`)."""
        return _build(self, changes)


OPTIONS: Final[dict[str, OptionInfo]] = {
    f.name: OptionInfo(
        name=f.name,
        ids=f.metadata["ids"],
        title=f.metadata["title"],
        choices=f.metadata["choices"],
        sources=f.metadata["sources"],
        default=f.default,
        minimum=f.metadata["minimum"],
        maximum=f.metadata["maximum"],
    )
    for f in dataclasses.fields(RuleSet)
}
"""Every option by name, with its catalogue ids, choices, labels and sources."""

PRESETS: Final[dict[str, dict[str, Any]]] = {
    "standard": {},
    "classic": {"cards_dealt": "7-always", "min_run": 4, "top_discard": "may-keep"},
    "modern": {
        "jokers": 2,
        "joker_use": "wild",
        "joker_points": 15,
        "ace_points": "15-high-else-5",
        "low_card_points": "5",
        "first_meld_minimum": 30,
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

PRESET_TITLES: Final = {
    "standard": "Standard",
    "classic": "Classic",
    "modern": "Modern (jokers wild, 30 to start)",
    "jokers-wild": 'Jokers wild with "Rummy!"',
    "add-opponents-hand": "Add opponents' hands",
    "partnership": "Partnership (two sides of two)",
    "persian": "Persian",
    "quick": "Quick (divide by five, game to 100)",
}


def _consistency(rules: RuleSet) -> list[tuple[str, str]]:
    problems: list[tuple[str, str]] = []
    if rules.jokers and rules.joker_use == "none":
        problems.append(
            ("joker_use", "a pack with jokers needs a joker rule (M5): wild or sets of jokers")
        )
    if not rules.jokers and rules.joker_use != "none":
        problems.append(("jokers", "jokers are used (M5) but the pack has none (D2)"))
    if rules.divide_by_five:
        if rules.low_card_points == "pip":
            problems.append(
                (
                    "divide_by_five",
                    "dividing by five (S9) needs 2 to 9 at 5 each "
                    "(S4): pip values do not divide by five",
                )
            )
        if rules.ace_points == "15-low-1":
            problems.append(
                (
                    "divide_by_five",
                    "dividing by five (S9) cannot count an ace 1 (S1): choose another ace value",
                )
            )
    return problems


def _build(base: RuleSet, changes: Mapping[str, Any]) -> RuleSet:
    problems: list[tuple[str, str]] = []
    clean: dict[str, Any] = {}
    for name, value in changes.items():
        info = OPTIONS.get(name)
        if info is None:
            problems.append((name, f"there is no house rule called {name!r}"))
            continue
        message = info.check(value)
        if message:
            problems.append((name, message))
        else:
            clean[name] = value
    if problems:
        raise RulesError(problems)
    rules = dataclasses.replace(base, **clean)
    problems = _consistency(rules)
    if problems:
        raise RulesError(problems)
    return rules


@lru_cache(maxsize=512)
def _cached(preset: str, changes: tuple[tuple[str, str, Any], ...]) -> RuleSet:
    if preset not in PRESETS:
        names = ", ".join(PRESETS)
        raise RulesError([("preset", f"there is no preset called {preset!r}: choose {names}")])
    base = _build(RuleSet(), PRESETS[preset])
    return _build(base, {name: value for name, _, value in changes}) if changes else base


def ruleset(
    preset: str = "standard", options: Mapping[str, Any] | None = None, **overrides: Any
) -> RuleSet:
    """The rule set of ``preset`` with ``options`` / ``overrides`` changed by name.

    ``ruleset("standard")``, ``ruleset("modern", {"first_meld_minimum": 0})``,
    ``ruleset("classic", min_run=3)``. Raises :class:`RulesError` listing every unknown
    preset, unknown option or invalid value, and every combination that cannot be played
    (jokers in the pack with no joker rule, dividing pip values by five, ...).
    """
    changes = dict(options or {}) | overrides
    bad = [
        (name, f"{name} must be a plain value, not {type(value).__name__}")
        for name, value in changes.items()
        if not isinstance(value, (str, int))
    ]
    if bad:
        raise RulesError(bad)
    # the type is part of the key: 0 and False, 1 and True are different answers
    key = tuple(sorted((name, type(value).__name__, value) for name, value in changes.items()))
    return _cached(preset, key)
