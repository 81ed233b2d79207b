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

from typing import Any, Literal

from .card_rows import (
    MELD_PLACES,
    Template,
    hand_row,
    hand_takers,
    hand_words,
    layoff_row,
    meld_rows,
    place,
)
from .cards import Card, known_cards, parse_card
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


def score_plain(
    request: dict[str, Any], rules: RuleSet, players: list[str]
) -> dict[str, Any] | None:
    """The contract's answer to ``request`` (shared/score-contract.md) when it is plain,
    else None. ``rules`` (without X2) and ``players`` (names sound) are already read
    from it by :mod:`.contract`."""
    teams = _teams(request.get("teams"), players)
    figures = {p: Figures() for p in players}
    rows: list[dict[str, Any]] = []
    if teams is False:
        return None
    melds = _melds(request.get("melds"), rules, players, figures, rows)
    if melds is None:
        return None
    plays, laid, entries = melds
    table = laid.copy()
    layoffs = _layoffs(request.get("layoffs"), rules, players, plays, table, teams)
    hands = _hands(request.get("hands"), players)
    if layoffs is None or hands is None:
        return None
    play = _play(request, players, plays, layoffs, hands, teams)
    totals = _totals(request.get("totals_before"), players)
    if play is None or totals is None or not _sound(rules, play, entries):
        return None
    if table != laid:
        _regrown(rules, play, laid, table, entries, figures, rows)
    _layoff_json(rules, play, table, figures, rows)
    notes: list[Note] = []
    rows += _hand_json(rules, play, figures, notes)
    add_bonuses(rules, play, laid, notes)
    answer = close_round(rules, play, figures, notes, totals, []).to_json()
    answer["cards"] = rows
    return answer


def _sound(rules: RuleSet, play: RoundPlay, entries: list[Entry]) -> bool:
    """True when ``play`` breaks no rule of the pack (D2, M5), the players and sides (D1,
    P1), the hands and going out (O1, O3, S10), as the plain path checks them."""
    everything: list[Card] = []
    for entry in entries:
        everything += entry[0]
    for layoff in play.layoffs:
        everything.append(layoff[1])
    for hand in play.hands.values():
        everything += hand
    if not pack_holds(rules, play, everything) and check_cards(rules, play):
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
    value: Any,
    rules: RuleSet,
    players: list[str],
    figures: dict[str, Figures],
    rows: list[dict[str, Any]],
) -> tuple[list[MeldPlay], list[Meld], list[Entry]] | None:
    """The melds as played, as laid and as read (:data:`Entry`), each counted as laid
    into ``figures`` and ``rows``; None at the first doubt."""
    if value is None:
        return [], [], []
    if value.__class__ is not list:
        return None
    memo = rules.memo("meld texts")  # _entry's own memo, looked up once a round
    plays: list[MeldPlay] = []
    laid: list[Meld] = []
    entries: list[Entry] = []
    append = rows.append
    for i, item in enumerate(value):
        if item.__class__ is not dict:
            return None
        owner, texts, final = item.get("owner"), item.get("cards"), item.get("final_turn", False)
        if owner not in players or texts.__class__ is not list or final.__class__ is not bool:
            return None
        try:
            entry = memo.get(tuple(texts)) or _entry(texts, rules)
        except TypeError:  # a text that is not even hashable
            return None
        if entry is None:
            return None
        plays.append(_row(MeldPlay, (owner, entry[0], final)))
        laid.append(entry[1])
        entries.append(entry)
        where = MELD_PLACES[i] if i < 64 else place(i, None)
        for template in entry[3]:
            row = template.copy()
            row["owner"] = owner
            row["where"] = where
            append(row)
        figures[owner].shown += entry[2]
    return plays, laid, entries


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
) -> tuple[LayoffPlay, ...] | None:
    """The lay-offs, each extending ``table`` in order (L1, L3; L4 between partners);
    None at the first doubt."""
    if value is None:
        return ()
    if value.__class__ is not list:
        return None
    grown = rules.memo("extend")  # extend's own memo, looked up once a round
    sides = RoundPlay(tuple(players), teams=teams) if teams else None
    unit = unit_of(sides) if sides else {}
    layoffs: list[LayoffPlay] = []
    for item in value:
        if item.__class__ is not dict:
            return None
        owner, index = item.get("owner"), item.get("meld")
        if owner not in players or index.__class__ is not int or not 0 <= index < len(table):
            return None
        try:
            card = parse_card(item.get("card"))
            if sides and partner_refusal(rules, sides, unit, plays[index][0], owner):
                return None
            target = table[index]
            table[index] = grown.get((target, card)) or extend(target, card, rules)
        except ValueError:  # CardError, IllegalMeld
            return None
        layoffs.append(_row(LayoffPlay, (owner, card, index)))
    return tuple(layoffs)


def _hands(value: Any, players: list[str]) -> dict[str, tuple[Card, ...]] | None:
    """Every player's hand left, in the request's order; None at the first doubt."""
    if value.__class__ is not dict or len(value) != len(players):
        return None
    hands: dict[str, tuple[Card, ...]] = {}
    for name, texts in value.items():
        if name not in players or texts.__class__ is not list:
            return None
        cards = known_cards(texts)
        if cards is None:
            try:
                cards = tuple(parse_card(text) for text in texts)
            except ValueError:  # CardError
                return None
        hands[name] = cards
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
    for name, total in value.items():
        if name not in players or total.__class__ is not int or abs(total) > MAX_TOTAL:
            return None
    return value


def _regrown(
    rules: RuleSet,
    play: RoundPlay,
    laid: list[Meld],
    table: list[Meld],
    entries: list[Entry],
    figures: dict[str, Figures],
    rows: list[dict[str, Any]],
) -> None:
    """Count again, in ``rows`` and ``figures``, each meld that lay-offs grew: its cards
    in their places in the meld as it ends the round (:func:`.card_rows.meld_rows`)."""
    memo = rules.memo("meld points")  # meld_rows's own memo
    start = 0
    for i, (owner, cards, _) in enumerate(play.melds):
        as_laid, final = laid[i], table[i]
        if final is not as_laid:
            found = memo.get((cards, as_laid, final)) or meld_rows(cards, as_laid, final, rules)
            where = MELD_PLACES[i] if i < 64 else place(i, None)
            for j, template in enumerate(found[2], start):
                row = template.copy()
                row["owner"] = owner
                row["where"] = where
                rows[j] = row
            figures[owner].shown += found[1] - entries[i][2]
        start += len(cards)


def _layoff_json(
    rules: RuleSet,
    play: RoundPlay,
    table: list[Meld],
    figures: dict[str, Figures],
    rows: list[dict[str, Any]],
) -> None:
    """Each lay-off's row in ``rows``, counted in the meld as it ends the round, its
    points added to its owner's ``shown`` (:func:`.card_rows.layoff_row`)."""
    placed = rules.memo("layoff rows")  # layoff_row's own memo
    append = rows.append
    for i, (owner, card, index) in enumerate(play.layoffs):
        final = table[index]
        _, points, json = placed.get((card, final)) or layoff_row(card, final, rules)
        row = json[0].copy()
        row["owner"] = owner
        row["where"] = place(i, index)
        append(row)
        figures[owner].shown += points


def _hand_json(
    rules: RuleSet, play: RoundPlay, figures: dict[str, Figures], notes: list[Note]
) -> list[dict[str, Any]]:
    """The rows of the cards left in hands as the contract's JSON, counted as
    :func:`.scoring.score_round` counts them (:func:`.outcome.hand_rule`,
    :func:`.card_rows.hand_row`, :func:`.outcome.count_hands`)."""
    rule = hand_rule(rules, play.went_out)
    takers = hand_takers(play) if rule == "S8" else {}
    memo = rules.memo("hand rows")  # hand_row's own memo
    out: list[dict[str, Any]] = []
    append = out.append
    left: dict[str, int] = {}
    hands = play.hands
    for player in play.players:
        hand = hands.get(player)
        if not hand:
            continue
        words = hand_words(rule, player, takers.get(player))
        points = 0
        for card in hand:
            key = (card, rule, words, player)
            found = memo.get(key) or hand_row(card, rule, words, player, rules)
            append(found[2].copy())
            points += found[1]
        left[player] = points
    notes += count_hands(rules, play, left, figures)
    return out
