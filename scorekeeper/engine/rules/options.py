"""What each option of the rule set means: its catalogue ids, title, choices with a label
each, the seeds that state each choice, and the type of its value.

Each field of :class:`.ruleset.RuleSet` has a ``Literal`` type for its choices (``AceInRun``,
``MinRun``, ...), so that a type checker refuses a misspelt choice wherever the engine
tests one; a test checks that each type lists exactly the choices of :data:`META`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, TypedDict

from ..messages import N_, listed, say


class RulesError(ValueError):
    """An unknown preset, an unknown option or an invalid value.

    ``problems`` lists ``(where, message)`` pairs, ``where`` being ``"preset"`` or the
    option's name; ``str(error)`` joins the messages.
    """

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__(listed([message for _, message in problems]))


OptionValue = str | int | bool
"""The value of one option: a choice's word, a number, or yes/no (``bool``)."""

X2_COMPANIONS: Final[dict[str, OptionValue]] = {"jokers": 2, "joker_use": "wild", "joker_points": 0}
"""What X2 brings with it unless told otherwise: 54 cards with two jokers (D2; 4 jokers,
56 cards, allowed), jokers wild when so nominated (M5) and worth 0 (S5: "The wild joker
is worth zero points"; "Jokers have a zero value if still in a players hand")."""

GAMBIT_OPTIONS: Final[dict[str, OptionValue]] = {"dealers_gambit": True} | X2_COMPANIONS
"""Dealer's gambit's options, as a house rule set names them."""


def with_gambit(changes: dict[str, object]) -> dict[str, object]:
    """Option changes with :data:`X2_COMPANIONS` filled in where ``dealers_gambit`` is
    turned on and they are not given: ``{"dealers_gambit": True}`` plays 54 cards with
    two wild jokers worth 0. :func:`.ruleset.ruleset` reads every change through it."""
    if changes.get("dealers_gambit") is True:
        return X2_COMPANIONS | changes
    return changes


@dataclass(frozen=True)
class OptionInfo:
    """What one option means: catalogue ``ids``, ``title``, ``choices`` (value -> label),
    or an integer range ``minimum``..``maximum``, and the seed ``sources`` per choice."""

    name: str
    ids: tuple[str, ...]
    title: str
    choices: Mapping[OptionValue, str]
    sources: Mapping[OptionValue, str]
    default: OptionValue
    minimum: int | None = None
    maximum: int | None = None

    @property
    def id(self) -> str:
        """The main catalogue id, e.g. ``"M4"``."""
        return self.ids[0]

    def label(self, value: object) -> str:
        """The plain-words label of ``value`` (for an integer range, the number itself)."""
        if isinstance(value, (str, int)) and value in self.choices:
            return self.choices[value]
        return str(value)

    def check(self, value: object) -> str | None:
        """None when ``value`` is allowed, else a message saying what is."""
        if self.minimum is not None:
            if isinstance(value, bool) or not isinstance(value, int):
                return say(
                    "%(option)s must be a whole number from %(least)s to %(most)s",
                    option=self.name,
                    least=self.minimum,
                    most=self.maximum,
                )
            if not self.minimum <= value <= (self.maximum or value):
                return say(
                    "%(option)s must be from %(least)s to %(most)s, not %(value)s",
                    option=self.name,
                    least=self.minimum,
                    most=self.maximum,
                    value=value,
                )
            return None
        if (
            not isinstance(value, (str, int))
            or isinstance(value, bool) != isinstance(self.default, bool)
            or value not in self.choices
        ):
            allowed = ", ".join(repr(c) for c in self.choices)
            return say(
                "%(option)s must be one of %(allowed)s, not %(value)s",
                option=self.name,
                allowed=allowed,
                value=repr(value),
            )
        return None


class OptionMeta(TypedDict):
    """What :data:`META` says of one option: the fields of :class:`OptionInfo` but its
    name and default (which :class:`.ruleset.RuleSet` declares)."""

    ids: tuple[str, ...]
    title: str
    choices: Mapping[OptionValue, str]
    sources: Mapping[OptionValue, str]
    minimum: int | None
    maximum: int | None


def _meta(
    ids: str,
    title: str,
    choices: Mapping[OptionValue, str] | None = None,
    sources: Mapping[OptionValue, str] | None = None,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
) -> OptionMeta:
    return {
        "ids": tuple(ids.split(",")),
        "title": say(title),
        "choices": {value: say(label) for value, label in (choices or {}).items()},
        "sources": sources or {},
        "minimum": minimum,
        "maximum": maximum,
    }


_YES_NO: Final[Mapping[OptionValue, str]] = {False: N_("no"), True: N_("yes")}


META: Final[dict[str, OptionMeta]] = {
    "max_players": _meta("D1", N_("Most players at one table"), minimum=2, maximum=8),
    "jokers": _meta(
        "D2,P2",
        N_("Jokers in each pack"),
        {
            0: N_("none (52 cards)"),
            1: N_("one (53 cards)"),
            2: N_("two (54 cards)"),
            4: N_("four (56 cards)"),
        },
        {0: "001, 004", 1: "002", 2: "002, 003", 4: "000, 002 (Persian)"},
    ),
    "two_packs": _meta(
        "D2",
        N_("When two packs are used"),
        {
            "five-or-more": N_("with five or more players"),
            "never": N_("never"),
            "always": N_("always"),
        },
        {"five-or-more": "000, 002, 003"},
    ),
    "cards_dealt": _meta(
        "D3",
        N_("Cards dealt to each player"),
        {"13-for-two": N_("13 each with two players, else 7"), "7-always": N_("7 always")},
        {"13-for-two": "001, 002, 004", "7-always": "000, 003"},
    ),
    "first_discard": _meta(
        "D4",
        N_("How the discard pile starts"),
        {
            "upcard": N_("the top card of the stock is turned up"),
            "extra-card-to-left": N_(
                "the player left of the dealer gets an extra card and chooses the first discard"
            ),
        },
        {"upcard": "all", "extra-card-to-left": "002"},
    ),
    "next_dealer": _meta(
        "D5",
        N_("Who deals the next round"),
        {"left": N_("the player to the left"), "round-winner": N_("the winner of the round")},
        {"left": "000, 002", "round-winner": "002"},
    ),
    "first_dealer": _meta(
        "D6",
        N_("Deal for the first game"),
        {"low-card": N_("draw for deal, low deals, ace lowest")},
        {"low-card": "000, 002"},
    ),
    "set_size": _meta(
        "M1", N_("Size of a set"), {"3-or-4": N_("3 or 4 cards of one rank")}, {"3-or-4": "all"}
    ),
    "same_suit_in_set": _meta(
        "M2",
        N_("Two cards of one suit in a set (two packs)"),
        {
            "forbidden": N_("not allowed: 5♣ 5♣ 5♥ is no set"),
            "allowed": N_("allowed"),
        },
        {"forbidden": "003"},
    ),
    "min_run": _meta(
        "M3",
        N_("Shortest run"),
        {3: N_("3 or more cards in sequence"), 4: N_("4 or more cards in sequence")},
        {3: "001, 002, 003, 004", 4: "000, 002 variation"},
    ),
    "ace_in_run": _meta(
        "M4",
        N_("The ace in a run"),
        {
            "high-or-low": N_("high (Q-K-A) or low (A-2-3), never round the corner (K-A-2)"),
            "round-the-corner": N_("round the corner allowed (K-A-2)"),
        },
        {"high-or-low": "all", "round-the-corner": "002"},
    ),
    "joker_use": _meta(
        "M5,P2",
        N_("What jokers do"),
        {
            "none": N_("no jokers"),
            "wild": N_("wild: named when melded, fixed after, may duplicate a card on the table"),
            "sets-of-jokers": N_("never wild: only in sets of three or four jokers (Persian)"),
        },
        {"none": "001, 004", "wild": "002, 003", "sets-of-jokers": "000, 002"},
    ),
    "first_meld_minimum": _meta(
        "M6", N_("Points a player's first melds must reach"), minimum=0, maximum=100
    ),
    "first_meld_applies": _meta(
        "M6",
        N_("When the first-meld minimum applies"),
        {
            "every-round": N_("every round: each player's first melds of the round"),
            "once-per-game": N_("once per game: each player's first melds of the game"),
        },
        {"once-per-game": "002"},
    ),
    "rearranging_melds": _meta(
        "M7",
        N_("Moving cards between melds"),
        {"never": N_("never: a card laid down stays in its meld")},
        {"never": "003"},
    ),
    "discard_draw": _meta(
        "T1",
        N_("Drawing from the discard pile"),
        {"any-card": N_("any card of the pile, taking every card above it")},
        {"any-card": "all"},
    ),
    "discard_use": _meta(
        "T2",
        N_("Using the card taken from the discard pile"),
        {
            "meld-or-lay-off": N_("at once, in a new meld or a lay-off"),
            "new-meld-only": N_("at once, only in a new meld of 3 or more (no picking up to hit)"),
        },
        {"meld-or-lay-off": "000, 001, 003, 004", "new-meld-only": "002"},
    ),
    "top_discard": _meta(
        "T3",
        N_("Taking just the top discard"),
        {
            "must-use": N_("same as any discard: it must be used at once"),
            "may-keep": N_("the top card alone may be kept without using it"),
        },
        {"must-use": "all", "may-keep": "000, 002 variation"},
    ),
    "laying_down": _meta(
        "T4",
        N_("After drawing"),
        {"any-order": N_("lay down melds and lay off cards in any order; never compulsory")},
        {"any-order": "all"},
    ),
    "end_of_turn": _meta(
        "T5", N_("End of a turn"), {"discard-one": N_("discard one card")}, {"discard-one": "all"}
    ),
    "draw_two_from_stock": _meta(
        "T6", N_("Draw two from the stock (Boathouse Rum)"), _YES_NO, {True: "002"}
    ),
    "out_of_turn_melding": _meta(
        "T7", N_("Melding on other players' turns"), _YES_NO, {True: "002"}
    ),
    "lay_off_onto": _meta(
        "L1",
        N_("Laying off onto"),
        {"any-meld": N_("any meld on the table, one's own or an opponent's")},
        {"any-meld": "all"},
    ),
    "laid_off_cards": _meta(
        "L2",
        N_("Where laid-off cards stay"),
        {"stay-with-player": N_("in front of the player who laid them off, who scores them")},
        {"stay-with-player": "all"},
    ),
    "declare_layoff": _meta(
        "L3",
        N_("Declaring a lay-off"),
        {"name-the-meld": N_("the player names the meld a card extends")},
        {"name-the-meld": "000, 003"},
    ),
    "partners_lay_off": _meta(
        "L4", N_("Partners lay off on each other's melds"), _YES_NO, {True: "000, 002"}
    ),
    "going_out": _meta(
        "O1",
        N_("Going out"),
        {"last-card": N_("by melding, laying off or discarding the last card; the round ends")},
        {"last-card": "all"},
    ),
    "discard_to_go_out": _meta(
        "O2", N_("A final discard is needed to go out (Boathouse)"), _YES_NO, {True: "000, 002"}
    ),
    "stock_exhausted": _meta(
        "O3",
        N_("When the stock runs out"),
        {
            "hands-count": N_("the round ends; every hand counts against its holder"),
            "draw-from-discard": N_(
                "players may go on drawing from the discard pile while able "
                "and willing, then the round ends"
            ),
            "reshuffle": N_("the discard pile is reshuffled into a new stock"),
            "play-on": N_("play on, discarding each turn, until someone goes out"),
            "nobody-deducts": N_("the round ends and nobody deducts their hand"),
        },
        {
            "hands-count": "000, 002, 003",
            "draw-from-discard": "000, 002",
            "reshuffle": "000, 002",
            "play-on": "002",
            "nobody-deducts": "002",
        },
    ),
    "deadwood_after_out": _meta(
        "O4",
        N_("After a player goes out (two players), the other lays off deadwood first"),
        _YES_NO,
        {True: "002"},
    ),
    "ace_points": _meta(
        "S1",
        N_("An ace counts"),
        {
            "15-low-1": N_("15, but 1 when played low in a run (A-2-3)"),
            "15": N_("15 always"),
            "25": N_("25 always"),
            "15-high-else-5": N_("15 played high (top of a run, a set of aces), 5 otherwise"),
        },
        {"15-low-1": "000, 003", "15": "000, 002", "25": "000, 002", "15-high-else-5": "000, 002"},
    ),
    "face_points": _meta("S2", N_("K, Q, J count"), {10: "10"}, {10: "all"}),
    "ten_points": _meta("S3", N_("A 10 counts"), {10: "10"}, {10: "all"}),
    "low_card_points": _meta(
        "S4",
        N_("2 to 9 count"),
        {"pip": N_("their pip value"), "5": N_("5 each")},
        {"pip": "000, 003", "5": "000, 002"},
    ),
    "joker_points": _meta(
        "S5",
        N_("A joker counts"),
        {15: "15", 20: N_("20 (Persian)"), 0: N_("0 (dealer's gambit wild)")},
        {15: "002, 003", 20: "000", 0: "002"},
    ),
    "four_aces_100": _meta("S6", N_("Four aces melded at once count 100"), _YES_NO, {True: "002"}),
    "round_score": _meta(
        "S7,S11",
        N_("A round scores"),
        {"shown-minus-hand": N_("cards shown on the table minus cards left in hand")},
        {"shown-minus-hand": "all"},
    ),
    "add_opponents_hand": _meta(
        "S8",
        N_("Add opponents' hands: the player who went out adds every other hand"),
        _YES_NO,
        {True: "000, 002"},
    ),
    "divide_by_five": _meta("S9", N_("Every value divided by five"), _YES_NO, {True: "000, 002"}),
    "seven_card_straight": _meta(
        "S10",
        N_("A seven-card run laid down, then the last card discarded, scores 500"),
        _YES_NO,
        {True: "002"},
    ),
    "target": _meta("G1", N_("Points to win the game"), minimum=50, maximum=10000),
    "tie_break": _meta(
        "G2",
        N_("Two or more reach the target on the same round"),
        {"highest": N_("the highest score wins"), "went-out": N_("the player who went out wins")},
        {"highest": "000, 003, 004", "went-out": "002"},
    ),
    "settlement": _meta(
        "G3",
        N_("Settlement"),
        {"difference": N_("the winner collects from each opponent the difference in scores")},
        {"difference": "001, 004"},
    ),
    "partnership_winner": _meta(
        "G4",
        N_("Partnership winner"),
        {
            "first-to-target": N_("the first side to the target"),
            "highest-over-target": N_(
                "the side with the highest score over the target, even if the other side went out"
            ),
        },
        {"first-to-target": "000", "highest-over-target": "002"},
    ),
    "partnership": _meta(
        "P1", N_("Partnership: 4 players, 2 sides, partners opposite"), _YES_NO, {True: "000, 002"}
    ),
    "meld_of_four_doubles": _meta(
        "P3", N_("A meld of four laid down at once counts double"), _YES_NO, {True: "000, 002"}
    ),
    "going_out_bonus": _meta(
        "P4", N_("Bonus to the side that goes out"), {0: N_("none"), 25: "25"}, {25: "000, 002"}
    ),
    "two_deal_game": _meta(
        "P5",
        N_("The game ends after two deals; the better side gets 50"),
        _YES_NO,
        {True: "000, 002"},
    ),
    "rummy_call": _meta(
        "X1",
        N_('"Rummy!" call'),
        {
            "off": N_("off"),
            "lay-off-only": N_("the caller takes the card and only lays it off"),
            "play-then-turn": N_("the caller plays the cards, then takes a normal turn"),
        },
        {"lay-off-only": "002", "play-then-turn": "003"},
    ),
    "dealers_gambit": _meta(
        "X2", N_("Dealer's gambit (dealer's joker wild, double or split)"), _YES_NO, {True: "002"}
    ),
}
"""Each option's catalogue ids, title, choices (value -> label; titles and labels are
:class:`Message` s, put into words where shown), seed sources and range, by name, in
catalogue order (:class:`.ruleset.RuleSet` declares the same names)."""

PRESET_TITLES: Final[dict[str, str]] = {
    "standard": say("Standard"),
    "classic": say("Classic"),
    "modern": say("Modern (jokers wild, 30 to start)"),
    "jokers-wild": say('Jokers wild with "Rummy!"'),
    "add-opponents-hand": say("Add opponents' hands"),
    "partnership": say("Partnership (two sides of two)"),
    "persian": say("Persian"),
    "quick": say("Quick (divide by five, game to 100)"),
}
"""Each preset of :data:`.ruleset.PRESETS` in words (a :class:`Message` each)."""
