"""A plain scoring request scored in one pass: the scoring contract's fast path.

Glossary:
- plain request: a request (shared/score-contract.md) whose notation is sound and whose
  round breaks no rule, under rules without dealer's gambit (X2): what a table sends
  round after round.
- one pass: each meld is read, checked and counted by one look-up of the memo "meld
  texts" (per rule set, keyed by the meld's card texts: its cards, the meld as laid, its
  total and its rows' JSON templates), each lay-off through :func:`.melds.extend`'s memo,
  each card in hand through :func:`.card_rows.hand_row`'s; the answer's rows are built
  once, straight as the contract's JSON.

:func:`score_plain` decides no rule of its own. It asks the functions the plain path asks
(:func:`.melds.check_meld`, :func:`.melds.extend`, :func:`.checks.partner_refusal`,
:func:`.checks.pack_holds`, :func:`.checks.check_cards`, :func:`.checks.check_players`,
:func:`.checks.check_hands`; :func:`.card_rows.meld_rows`, :func:`.card_rows.layoff_row`,
:func:`.card_rows.hand_row`; :func:`.scoring.close_round`) and gives up, returning None, at
the first doubt: the plain path (:func:`.contract.parse_request`,
:func:`.scoring.score_round`) then reads the request again and lists every problem.
tests/engine/test_quick_score.py holds both paths to the same answers, byte for byte.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, Literal

from .card_rows import (
    LAYOFF_PLACES,
    MELD_PLACES,
    Template,
    hand_row,
    hand_rows,
    hand_takers,
    layoff_places,
    layoff_row,
    meld_rows,
)
from .cards import TEXT_CARDS, Card, known_cards, parse_card
from .checks import (
    LayoffPlay,
    MeldPlay,
    RoundPlay,
    check_cards,
    check_hands,
    check_players,
    pack_holds,
    partner_refusal,
    unit_of,
)
from .melds import Meld, check_meld, extend
from .outcome import Figures, Note, count_hands, hand_rule
from .reading import MAX_TOTAL
from .rules import RuleSet
from .scoring import add_bonuses, close_round

Entry = tuple[tuple[Card, ...], Meld, int, tuple[Template, ...]]
"""A meld read once: its cards, the meld as laid, its total (points) and its rows' JSON
templates when nothing is laid off onto it (:func:`.card_rows.meld_rows`)."""

Teams = tuple[tuple[str, ...], ...]

_row = tuple.__new__  # builds a NamedTuple without its Python-level constructor
_AS_LAID = itemgetter(1)  # an Entry's meld as laid


def score_plain(
    request: dict[str, Any], rules: RuleSet, players: list[str]
) -> dict[str, Any] | None:
    """The contract's answer to ``request`` (shared/score-contract.md) when it is plain,
    else None. ``rules`` (without X2) and ``players`` (names sound) are already read
    from it by :mod:`.contract`."""
    teams = _teams(request.get("teams"), players)
    if teams is False:
        return None
    cards: list[Card] = []  # every card of the round, as read, for the pack (D2, M5)
    melds = _melds(request.get("melds"), rules, players, cards)
    if melds is None:
        return None
    plays, entries = melds
    laid = list(map(_AS_LAID, entries))
    table = laid.copy()
    layoffs = _layoffs(request.get("layoffs"), rules, players, plays, table, teams, cards)
    hands = _hands(request.get("hands"), players, cards)
    if layoffs is None or hands is None:
        return None
    play = _play(request, players, plays, layoffs, hands, teams)
    totals = _totals(request.get("totals_before"), players)
    if play is None or totals is None or not _sound(rules, play, cards):
        return None
    figures = {p: Figures() for p in players}
    rows = _meld_json(rules, plays, entries, table, figures)
    _layoff_json(rules, layoffs, table, figures, rows)
    notes: list[Note] = []
    _hand_json(rules, play, figures, notes, rows)
    add_bonuses(rules, play, laid, notes)
    answer = close_round(rules, play, figures, notes, totals, []).to_json()
    answer["cards"] = rows
    return answer


def _sound(rules: RuleSet, play: RoundPlay, cards: list[Card]) -> bool:
    """True when ``play`` (whose every card is in ``cards``) breaks no rule of the pack
    (D2, M5), the players and sides (D1, P1), the hands and going out (O1, O3, S10), as
    the plain path checks them."""
    if not pack_holds(rules, play, cards) and check_cards(rules, play):
        return False
    return not check_players(rules, play) and not check_hands(rules, play)


def _teams(value: Any, players: list[str]) -> Teams | None | Literal[False]:
    """The sides (P1) as tuples of names, None when there are none, False at a doubt."""
    if value is None:
        return None
    if value.__class__ is not list or not value:
        return False
    if not all(t.__class__ is list and all(p in players for p in t) for t in value):
        return False
    return tuple(tuple(t) for t in value)


def _melds(
    value: Any, rules: RuleSet, players: list[str], cards: list[Card]
) -> tuple[list[MeldPlay], list[Entry]] | None:
    """The melds as played and as read (:data:`Entry`), their cards added to ``cards``;
    None at the first doubt."""
    if value is None:
        return [], []
    if value.__class__ is not list or len(value) > len(MELD_PLACES):
        return None
    memo = rules.memo("meld texts")  # _entry's own memo, looked up once a round
    plays: list[MeldPlay] = []
    entries: list[Entry] = []
    try:
        for item in value:
            if item.__class__ is not dict:
                return None
            owner, texts, final = item["owner"], item["cards"], item.get("final_turn", False)
            if owner not in players or texts.__class__ is not list or final.__class__ is not bool:
                return None
            entry = memo.get(tuple(texts)) or _entry(texts, rules)
            if entry is None:
                return None
            plays.append(_row(MeldPlay, (owner, entry[0], final)))
            entries.append(entry)
            cards += entry[0]
    except (KeyError, TypeError):  # no owner or no cards; a text that is not even hashable
        return None
    return plays, entries


def _entry(texts: list[Any], rules: RuleSet) -> Entry | None:
    """The meld ``texts`` name, read, checked (:func:`.melds.check_meld`) and counted as
    laid (:func:`.card_rows.meld_rows`), memoised by the texts; None when they are not
    cards or make no legal meld."""
    cards = known_cards(texts)
    try:
        if cards is None:
            cards = tuple(parse_card(text) for text in texts)
        meld = check_meld(cards, rules)
    except ValueError:  # CardError, IllegalMeld
        return None
    _, total, json = meld_rows(cards, meld, meld, rules)
    entry = rules.memo("meld texts")[tuple(texts)] = (cards, meld, total, json)
    return entry


def _layoffs(
    value: Any,
    rules: RuleSet,
    players: list[str],
    plays: list[MeldPlay],
    table: list[Meld],
    teams: Teams | None,
    cards: list[Card],
) -> tuple[LayoffPlay, ...] | None:
    """The lay-offs, each extending ``table`` in order (L1, L3; L4 between partners),
    their cards added to ``cards``; None at the first doubt."""
    if value is None:
        return ()
    if value.__class__ is not list or len(value) > 64:
        return None
    grown = rules.memo("extend")  # extend's own memo, looked up once a round
    known = TEXT_CARDS
    sides = RoundPlay(tuple(players), teams=teams) if teams else None
    unit = unit_of(sides) if sides else {}
    layoffs: list[LayoffPlay] = []
    count = len(table)
    try:
        for item in value:
            if item.__class__ is not dict:
                return None
            owner, index, text = item["owner"], item["meld"], item["card"]
            if owner not in players or index.__class__ is not int or not 0 <= index < count:
                return None
            card = known.get(text) or parse_card(text)
            if sides and partner_refusal(rules, sides, unit, plays[index][0], owner):
                return None
            target = table[index]
            table[index] = grown.get((target, card)) or extend(target, card, rules)
            layoffs.append(_row(LayoffPlay, (owner, card, index)))
            cards.append(card)
    except (KeyError, TypeError, ValueError):  # a field missing; a text not even hashable,
        return None  # not a card (CardError) or not fitting (IllegalMeld)
    return tuple(layoffs)


def _hands(value: Any, players: list[str], cards: list[Card]) -> dict[str, tuple[Card, ...]] | None:
    """Every player's hand left, in the request's order, its cards added to ``cards``;
    None at the first doubt."""
    if value.__class__ is not dict or len(value) != len(players):
        return None
    hands: dict[str, tuple[Card, ...]] = {}
    card_of = TEXT_CARDS.__getitem__  # known_cards's look-up, without a call per hand
    for name, texts in value.items():
        if name not in players or texts.__class__ is not list:
            return None
        try:
            hand = tuple(map(card_of, texts))
        except (KeyError, TypeError):  # a text not parsed yet; one not even hashable
            try:
                hand = tuple(parse_card(text) for text in texts)
            except ValueError:  # CardError
                return None
        hands[name] = hand
        cards += hand
    return hands


def _play(
    request: dict[str, Any],
    players: list[str],
    melds: list[MeldPlay],
    layoffs: tuple[LayoffPlay, ...],
    hands: dict[str, tuple[Card, ...]],
    teams: Teams | None,
) -> RoundPlay | None:
    """The round as :class:`.checks.RoundPlay`; None when who went out or the deal's
    number cannot be read."""
    went_out, deal = request.get("went_out"), request.get("deal_number", 1)
    if went_out is not None and went_out not in players:
        return None
    if deal.__class__ is not int or not 1 <= deal <= 1000:
        return None
    went_out_by = request.get("went_out_by") or "discard"
    return RoundPlay(
        tuple(players), tuple(melds), layoffs, hands, went_out, teams, deal, went_out_by
    )


def _totals(value: Any, players: list[str]) -> dict[str, int] | None:
    """The running totals before the round; None at the first doubt."""
    if value is None:
        return {}
    if value.__class__ is not dict:
        return None
    top = MAX_TOTAL
    for name, total in value.items():
        if name not in players or total.__class__ is not int or not -top <= total <= top:
            return None
    return value


def _meld_json(
    rules: RuleSet,
    plays: list[MeldPlay],
    entries: list[Entry],
    table: list[Meld],
    figures: dict[str, Figures],
) -> list[dict[str, Any]]:
    """The rows of each meld's cards as the contract's JSON, counted in their places in the
    meld as it ends the round (:func:`.card_rows.meld_rows`: as laid when nothing was laid
    off onto it), their points added to their owner's ``shown``."""
    memo = rules.memo("meld points")  # meld_rows's own memo, looked up once a round
    rows: list[dict[str, Any]] = []
    append = rows.append
    places = MELD_PLACES  # longer than ``plays`` (_melds gives up beyond its length)
    for meld, entry, final, where in zip(plays, entries, table, places, strict=False):
        owner, as_laid = meld[0], entry[1]
        if final is as_laid:
            points, json = entry[2], entry[3]
        else:
            cards = meld[1]
            found = memo.get((cards, as_laid, final)) or meld_rows(cards, as_laid, final, rules)
            points, json = found[1], found[2]
        for template in json:
            row = template.copy()
            row["owner"] = owner
            row["where"] = where
            append(row)
        figures[owner].shown += points
    return rows


def _layoff_json(
    rules: RuleSet,
    layoffs: tuple[LayoffPlay, ...],
    table: list[Meld],
    figures: dict[str, Figures],
    rows: list[dict[str, Any]],
) -> None:
    """Each lay-off's row in ``rows``, counted in the meld as it ends the round, its
    points added to its owner's ``shown`` (:func:`.card_rows.layoff_row`)."""
    placed = rules.memo("layoff rows")  # layoff_row's own memo
    places = LAYOFF_PLACES  # indexes below 64: _layoffs gives up beyond
    append = rows.append
    for i, layoff in enumerate(layoffs):
        owner, card, index = layoff[0], layoff[1], layoff[2]
        final = table[index]
        found = placed.get((card, final)) or layoff_row(card, final, rules)
        row = found[2][0].copy()
        row["owner"] = owner
        row["where"] = (places[index] or layoff_places(index))[i]
        append(row)
        figures[owner].shown += found[1]


def _hand_json(
    rules: RuleSet,
    play: RoundPlay,
    figures: dict[str, Figures],
    notes: list[Note],
    rows: list[dict[str, Any]],
) -> None:
    """The rows of the cards left in hands as the contract's JSON, added to ``rows``,
    counted as :func:`.scoring.score_round` counts them (:func:`.outcome.hand_rule`,
    :func:`.card_rows.hand_row`, :func:`.outcome.count_hands`)."""
    rule = hand_rule(rules, play.went_out)
    takers = hand_takers(play) if rule == "S8" else {}
    memo = rules.memo("hand rows")  # hand_rows's own memo, looked up once a round
    append = rows.append
    left: dict[str, int] = {}
    hands = play.hands
    for player in play.players:
        hand = hands[player]
        if not hand:
            continue
        taker = takers.get(player)
        made = memo.get((rule, taker, player)) or hand_rows(rule, taker, player, rules)
        points = 0
        for card in hand:
            found = made.get(card) or hand_row(card, rule, taker, player, rules)
            append(found[2].copy())
            points += found[1]
        left[player] = points
    notes += count_hands(rules, play, left, figures)
