# ruff: noqa: E501
"""The rules reference's words: each catalogue row (D1 to X2) in plain words, and short
quotes from the seed texts that state each choice.

The choices themselves, their labels, defaults and presets come from the engine
(:data:`scorekeeper.engine.OPTIONS`, :data:`~scorekeeper.engine.PRESETS`); this
module only adds words. Seeds (``shared/seeds``): ``000`` the classic encyclopedia
text with house rules, partnership and Persian; ``001`` and ``004`` the same card-maker
rules (quoted from 004, the cleaner copy); ``002`` the encyclopedia article with most
variants; ``003`` the card-maker text with jokers and the "Rummy!" call.

:data:`QUOTES` is ``{row id: {option name: {value as query text: [(seed, quote)]}}}``;
every quote is verbatim from its seed (tests check it). The quotes stay in English (the
pages mark them ``lang="en"``); the rows' titles and plain words, the groups and the texts'
names are message ids (:func:`~scorekeeper.engine.say`: English when printed, translated
where a page shows them).
"""

from __future__ import annotations

from typing import Final

from ..engine import say
from ..languages.reader import translate

GROUPS: Final = {
    "D": say("Pack, players and deal"),
    "M": say("Melds"),
    "T": say("The turn"),
    "L": say("Laying off"),
    "O": say("Going out and the end of a round"),
    "S": say("Card values and round scoring"),
    "G": say("The game"),
    "P": say("Partnership and Persian rummy"),
    "X": say("Further house rules"),
}

ROWS: Final[dict[str, tuple[str, str]]] = {
    "D1": (say("Players"), say("Two to eight can play; three to five is best.")),
    "D2": (say("The pack"), say("52 cards, with 0, 1, 2 or 4 jokers; two packs for big tables.")),
    "D3": (say("Cards dealt"), say("How many cards each player gets.")),
    "D4": (say("The first discard"), say("How the discard pile is started.")),
    "D5": (say("The next dealer"), say("Who deals the following round.")),
    "D6": (say("Deal for the first game"), say("Who deals first.")),
    "M1": (say("Sets"), say("Three or four cards of one rank make a set.")),
    "M2": (say("Sets from two packs"), say("Whether a set may hold two cards of the same suit.")),
    "M3": (say("Runs"), say("Cards of one suit in sequence; how many are needed.")),
    "M4": (say("The ace in a run"), say("High (Q-K-A) or low (A-2-3); whether K-A-2 is allowed.")),
    "M5": (say("Jokers"), say("Whether jokers are used, and how.")),
    "M6": (say("First meld minimum"), say("Points a player's first melds must reach.")),
    "M7": (say("Rearranging melds"), say("Cards never move from one meld to another.")),
    "T1": (
        say("Drawing from the discard pile"),
        say("Any card may be taken, with every card above."),
    ),
    "T2": (say("The card taken from the pile"), say("How that card must be used, at once.")),
    "T3": (
        say("Taking only the top discard"),
        say("Whether the top card alone may be kept unused."),
    ),
    "T4": (
        say("After drawing"),
        say("Lay down melds and lay off cards, in any order, if you wish."),
    ),
    "T5": (say("End of a turn"), say("Discard one card.")),
    "T6": (say("Drawing two from the stock"), say("The Boathouse Rum variation.")),
    "T7": (say("Melding on others' turns"), say("Whether a player may meld out of turn.")),
    "L1": (
        say("Laying off onto"),
        say(
            "Any meld on the table: one's own or an opponent's; one card, or a pair in sequence on "
            "a run (002), also a card just taken from the pile where T2 lets it be laid off: its "
            "partner goes first, then the card."
        ),
    ),
    "L2": (say("Where laid-off cards stay"), say("In front of the player who laid them off.")),
    "L3": (say("Naming the meld"), say("The player says which meld a laid-off card extends.")),
    "L4": (say("Partners"), say("In partnership play, partners lay off on each other's melds.")),
    "O1": (say("Going out"), say("By melding, laying off or discarding the last card.")),
    "O2": (say("A final discard to go out"), say("The Boathouse rule.")),
    "O3": (
        say("When the stock runs out"),
        say(
            "What happens when no cards are left to draw. Where the round ends then (every hand "
            'counts, or nobody deducts), it ends with the turn that took the last card: no "Rummy!" '
            "call on its discard and no further melding; where play goes on (drawing from the "
            "discard pile, a reshuffle, or play on), a call is still allowed."
        ),
    ),
    "O4": (say("Deadwood after going out"), say("With two players, laying off deadwood first.")),
    "S1": (say("The ace's value"), say("What an ace counts.")),
    "S2": (say("K, Q, J"), say("Face cards count 10.")),
    "S3": (say("The 10"), say("Tens count 10.")),
    "S4": (say("2 to 9"), say("Pip value or 5 each.")),
    "S5": (say("The joker's value"), say("What a joker counts.")),
    "S6": (say("Four aces at once"), say("Whether four aces melded at once count 100.")),
    "S7": (say("A round's score"), say("Cards shown on the table minus cards left in hand.")),
    "S8": (say("Adding opponents' hands"), say("The player who went out takes the other hands.")),
    "S9": (say("Divide by five"), say("Every value divided by five; game to 100.")),
    "S10": (say("Seven-card straight"), say('The "Rummy Master\'s Hand" scores 500.')),
    "S11": (say("The worked example"), say("Shown 87, hand 90: 3 points come off the total (S7).")),
    "G1": (say("Target"), say("The score that wins the game.")),
    "G2": (
        say("Two reach the target together"),
        say("Who wins when several pass it in one round."),
    ),
    "G3": (say("Settlement"), say("What the winner collects.")),
    "G4": (say("Partnership winner"), say("Which side wins in partnership play.")),
    "P1": (say("Partnership"), say("Four players in two sides of two, partners opposite.")),
    "P2": (say("The Persian pack"), say("56 cards; jokers count 20, only in sets of jokers.")),
    "P3": (say("Persian doubling"), say("A meld of four laid down at once counts double.")),
    "P4": (say("Persian going out"), say("The side that goes out scores 25.")),
    "P5": (say("The Persian game"), say("Two deals; the better side gets 50 and the difference.")),
    "X1": (
        say('"Rummy!" call'),
        say(
            "Taking a discard that plays onto the table out of turn; not on the discard of the "
            "turn that took the last stock card where the round then ends (O3)."
        ),
    ),
    "X2": (
        say("Dealer's gambit"),
        say(
            "The dealer's joker: wild, double or split, each deal. How this app reads it: the "
            "dealer nominates first, before any other move, and the nomination holds for every "
            "joker of that hand (a dealt joker works for whoever holds it). The dealer uses the "
            "dealer's joker only in their own turn. Double goes over a set as it is laid down: "
            "the set counts twice, the joker 0, and nothing more is laid off on it. Split is "
            "taken instead of a draw: the chosen card and every card above it go to the player, "
            "who uses the chosen card at once; the cards below it leave the hand. Another player "
            "blocks in their own turn, after drawing, with a joker from their hand. The deal "
            "passes to the dealer's right; play still goes to the left. Jokers left in a hand "
            "count 0; a game to 250 is a choice of the target."
        ),
    ),
}
"""Every catalogue row: ``id -> (title, plain words)``, in the catalogue's order."""

_SOURCE: Final = """
D1 max_players 8
  000: 500 Rum may be played by anywhere from 2 to 8 people, but it is best played with 3 to 5 players.
  002: It may be played by 2 to 8 players, but it is best for 3 to 5.
D2 jokers 0
  000: 500 Rum is played using a standard 52-card pack.
D2 jokers 1
  002: can use 52 cards, or 53–54 cards including one or two jokers.
D2 jokers 2
  003: 500 Rummy uses a 54-card deck, a standard 52-card deck plus two jokers.
D2 jokers 4
  000: The pack is 56 cards: the standard 52 cards plus four jokers.
D2 two_packs five-or-more
  000: When playing with more than 4 players, a double pack should be substituted.
  002: When playing with 5 or more players, two decks of cards should be used with a total of 104–108 cards.
  003: If you are playing with five or more players, shuffle in a second 54-card deck
D3 cards_dealt 13-for-two
  004: Deal seven cards to each player (except in the two player game, in which each player receives 13 cards).
D3 cards_dealt 7-always
  000: The dealer completes the cut and deals seven cards to each player.
  003: Shuffle and deal seven cards to each player.
D4 first_discard upcard
  004: The top card is turned face up and is placed beside the stock as the up card to start the discard pile.
D4 first_discard extra-card-to-left
  002: the discard pile is started by dealing one extra card face down to the player on the dealer's left, who can then choose any card from their hand
D5 next_dealer left
  000: The player to the left of the dealer becomes the dealer in the next game.
D5 next_dealer round-winner
  002: The player that wins the round then becomes the dealer in the next round.
D6 first_dealer low-card
  000: The players draw for deal, low dealing first. Ace is the lowest card in the draw.
M1 set_size 3-or-4
  004: in matched sets of three or four
  003: Valid melds include three or four of a kind
M2 same_suit_in_set forbidden
  003: with no duplication in suits if the 108-card deck is being used; 5♣-5♠-5♥ is a valid meld, but 5♣-5♣-5♥ is not
M3 min_run 3
  004: in sequences of three or more cards of the same suit.
M3 min_run 4
  000: in sequences of four or more cards of the same suit.
  002: One variation of the game requires that laying down a run can only be done starting with four or more cards of the same suit
M4 ace_in_run high-or-low
  004: Sequences may not "go round the corner"; thus, A, K, Q or A, 2, 3 may be melded, but not K, A, 2.
  003: a sequence cannot progress from one to the other (K-A-2 is not a valid meld).
M4 ace_in_run round-the-corner
  002: Aces can be allowed to "go-around" in order to speed up games; thus allowing a meld of K-A-2.
M5 joker_use none
  002: 52–54 for 2–4 players (optional jokers)
M5 joker_use wild
  003: At the time that it is melded, the player must declare the card the joker stands for, and this cannot be changed later
  002: If jokers are used in the game, they are treated as wild cards and can represent any card the player chooses even if that card is already used in another meld.
M5 joker_use sets-of-jokers
  000: jokers may not be used in sequences or as wild cards, but only in groups of three or four jokers.
M6 first_meld_minimum 30
  002: In order to begin scoring all players must lay no less than 30 points for their first score.
M6 first_meld_applies once-per-game
  002: In order to begin scoring all players must lay no less than 30 points for their first score.
M7 rearranging_melds never
  003: A player cannot move cards from one meld to another to facilitate laying off.
T1 discard_draw any-card
  004: 1) the player must take all the cards above the selected card
  003: the player must take all of the cards on top of it (i.e. that have been discarded more recently) into their hand as well.
T2 discard_use meld-or-lay-off
  004: 2) the drawn card must immediately be used, either by laying it down in a set or by laying it off on a set already on the table.
T2 discard_use new-meld-only
  002: You may only pick up from the discard pile if you were to put down a meld consisting of 3 or more cards including the card that was picked up.
T3 top_discard must-use
  003: when drawing from the discard pile, the player must be able to immediately use the card drawn in a meld.
T3 top_discard may-keep
  000: If you draw only one card from the discard pile, you do not have to use it immediately.
  002: a player may pick up only the top card from the discard pile and keep it in their hand without immediately playing it.
T4 laying_down any-order
  004: Each player in turn, after drawing but before discarding, may lay down any matched set or may lay off any card that matches a set already on the table.
  003: Melding is not compulsory
T5 end_of_turn discard-one
  000: The player ends his turn by discarding a single card from his hand.
T6 draw_two_from_stock true
  002: Some variations require that the player must draw two cards from the stock pile. This variation is played as "Boathouse Rum"
T7 out_of_turn_melding false
  002: Players are usually only permitted to lay down cards when it is their turn
T7 out_of_turn_melding true
  002: In a variation, players may put down melds or matching cards on other people's turns.
L1 lay_off_onto any-meld
  003: This is extending a meld already on the table, either yours or an opponent’s, by playing a legal card that would extend it.
L2 laid_off_cards stay-with-player
  004: Cards that are laid off are kept on the table in front of the player.
  003: Cards that have been laid off are kept in front of the player that laid them off
L3 declare_layoff name-the-meld
  000: must state to what showing combination it is being added.
  003: the player must designate the meld that it belongs to
L4 partners_lay_off true
  000: the partners may play off on each other's matched sets and sequences in an effort to go out as quickly as possible.
O1 going_out last-card
  000: When any player discards the last card in his hand, the play immediately ends.
  002: The round is over when one player has no cards in his or her hand, either by melding or laying off all cards
O2 discard_to_go_out true
  000: Some rummy players play that you must discard on the turn in which you go out.
  002: the last card in a set picked up from the discard pile cannot be used as the discard in that round.
O3 stock_exhausted hands-count
  000: the hand is finished with all cards in each player's hand counting against him.
O3 stock_exhausted draw-from-discard
  000: if the stock is finished then players may continue to draw from the pile only so long as they are able and willing to do so.
O3 stock_exhausted reshuffle
  000: some play the alternative that the cards should be reshuffled, and play should continue.
O3 stock_exhausted play-on
  002: Another alternative with a depleted stock is for play to continue, with players discarding after each turn until one of the players goes out.
O3 stock_exhausted nobody-deducts
  002: If the drawing pile runs out of cards and nobody is able to make a play, then the hand ends and nobody deducts the score from their hand.
O4 deadwood_after_out true
  002: when one player plays his last card, the other player reserves the chance to add any of his deadwood cards to his opponent's melds.
S1 ace_points 15-low-1
  000: An ace counts as 15 points, except in the sequence 3, 2, A, when it counts as 1.
S1 ace_points 15
  000: Aces count 15 whether high or low.
  002: Aces count 15 no exceptions or variations.
S1 ace_points 25
  000: Some may play with aces worth 25.
S1 ace_points 15-high-else-5
  002: A-9 are 5 points, unless the Ace is used high, when it is 15.
S2 face_points 10
  000: Face cards count as 10 points each.
S3 ten_points 10
  002: Face cards count as 10 as does the 10 card.
S4 low_card_points pip
  000: Other cards count their pip value.
S4 low_card_points 5
  000: All other cards are worth 5 points.
S5 joker_points 15
  002: Jokers count as 15 points.
S5 joker_points 20
  000: Each joker counts as 20 points
S5 joker_points 0
  002: The wild joker is worth zero points.
S6 four_aces_100 true
  002: a single player plays a 4-of-a-kind Ace meld, in which case the meld is worth 100 points (25/ea.).
S7 round_score shown-minus-hand
  004: The player is credited with the point value of all cards that the player has showing on the table. From this figure is subtracted the point value of all cards remaining in his hand.
S8 add_opponents_hand true
  000: Instead of players subtracting their remaining totals when play is finished, they add the values in their hands to the player who went out's total.
S9 divide_by_five true
  000: If preferred, all of these scores may be divided by five and the game played to 100.
S10 seven_card_straight true
  002: If a player lays down a 7-card straight and then discards his last card, he is awarded 500 points. This is known as the "Rummy Master's Hand".
S11 round_score shown-minus-hand
  000: If the cards he has shown total 87 points, and the cards left in his hand total 90 points, 3 points are subtracted from his previous net score.
G1 target 500
  004: The first player whose score reaches +500 wins the game
G1 target 100
  000: divided by five and the game played to 100.
G1 target 250
  002: some people only play to a smaller score of 250 points.
G2 tie_break highest
  004: If two or more players reach 500 on the same hand, the one with the highest score is the winner.
G2 tie_break went-out
  002: If two or more players reach 500 on the same hand, the one who goes out is the winner.
G3 settlement difference
  004: collects from each opponent the difference between their final scores.
G4 partnership_winner first-to-target
  000: The game is over when either side reaches +500.
G4 partnership_winner highest-over-target
  002: The team with the highest score over 500 wins, even if a team goes out first.
P1 partnership true
  000: Four players are organized into two teams of two players each, with partners facing each other across the table.
P2 jokers 4
  000: The pack is 56 cards: the standard 52 cards plus four jokers.
P2 joker_use sets-of-jokers
  000: Each joker counts as 20 points, and jokers may not be used in sequences or as wild cards
P3 meld_of_four_doubles true
  000: Any meld of four, laid down all at once, counts double its face value. Thus, four jokers laid down together count 160
P4 going_out_bonus 25
  000: If a player gets rid of all his cards, his side scores a bonus of 25.
P5 two_deal_game true
  000: A game ends after two deals. The side with the best score receives a bonus of 50 points and wins the difference between its final score and the opponents' score.
X1 rummy_call lay-off-only
  002: The first player to call "Rum" may only take the discarded card and must lay-off it on the table in front of them
  000: You may only take the card that plays for the rum.
X1 rummy_call play-then-turn
  003: That player is then entitled to draw the relevant cards from the discard pile (and any cards on top of them, as usual) and play them. They then take their turn as normal
X2 dealers_gambit true
  002: After dealing but before any of the players look at their cards the dealer must nominate the effect of the jokers for that hand.
  002: Once the joker has been added to the meld, that set is 'sealed' and no further cards can laid off onto it.
  002: The dealer's joker can be 'blocked' at any time in the game by placing another joker face down over it.
  002: Unlike ordinary rummy, dealing is always rotated anti-clockwise.
  002: some people only play to a smaller score of 250 points.
"""
"""Quotes as text: a line ``ROW OPTION VALUE``, then one indented ``SEED: quote`` per quote."""


def _parse(source: str) -> dict[str, dict[str, dict[str, list[tuple[str, str]]]]]:
    quotes: dict[str, dict[str, dict[str, list[tuple[str, str]]]]] = {}
    current: list[tuple[str, str]] = []
    for line in source.strip().splitlines():
        if line.startswith("  "):
            seed, _, text = line.strip().partition(": ")
            current.append((seed, text))
        else:
            row, option, value = line.split()
            current = quotes.setdefault(row, {}).setdefault(option, {}).setdefault(value, [])
    return quotes


QUOTES: Final = _parse(_SOURCE)
"""``{row id: {option name: {value as query text: [(seed, quote)]}}}``."""


def quotes_for(row: str, option: str, value_key: str) -> list[tuple[str, str]]:
    """The seed quotes stating ``value_key`` (query text, e.g. ``"true"``, ``"30"``) of
    ``option`` in catalogue row ``row``: ``[(seed, quote)]``, maybe empty."""
    return QUOTES.get(row, {}).get(option, {}).get(value_key, [])


SOURCE_NAMES: Final = {
    "000": say("the classic text"),
    "001": say("card-maker rules A"),
    "002": say("the encyclopedia article"),
    "003": say("the jokers text"),
    "004": say("card-maker rules B"),
    "002 (Persian)": say("the encyclopedia article (Persian)"),
    "002 variation": say("the encyclopedia article, as a variation"),
    "all": say("all"),
}
"""The five rule texts (shared/seeds/) by the names the pages give them: players never see
a seed's number or file name."""


def source_names(seeds: str) -> str:
    """Seed ids as written in the catalogue (``"000, 002"``) in words: ``"the classic
    text, the encyclopedia article"``, in the request's language; an unknown id is left
    as it is."""
    ids = [part.strip() for part in seeds.replace("/", ",").split(",") if part.strip()]
    return ", ".join(str(translate(SOURCE_NAMES.get(i, i))) for i in ids)
