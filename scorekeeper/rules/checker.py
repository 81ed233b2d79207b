"""The checker's services: read the card fields of a question, ask the engine, return an
answer the page shows. Questions: is this meld legal, can this card be laid off, which
discards may I take, what does this round score.

Nothing here decides a rule: :mod:`scorekeeper.engine.melds`,
:mod:`scorekeeper.engine.checker.advice` and
the scoring contract (:mod:`scorekeeper.engine.scoring.contract`) do.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..engine import (
    JOKER,
    NOMINATION_MEANINGS,
    Card,
    CardError,
    IllegalMeld,
    Meld,
    Message,
    PileChoice,
    RuleSet,
    ScoreRequestError,
    advise_pile,
    check_meld,
    extend_with,
    layoff_reasons,
    meld_points,
    meld_reasons,
    parse_cards,
    round_rules_stated,
    say,
    say_plural,
    score,
)
from ..inputs import BadNumber, parse_int
from ..languages.reader import translate

TOTAL_MAX = 1_000_000
"""A running total typed into the checker, in points, either sign, at most."""

MAX_PILE = 60
"""Most cards read from the discard pile field (two packs: 108 cards in all)."""
MAX_HAND = 30
"""Most cards read from a hand field."""
TABLE_MELDS = 4
"""Table meld fields on the discard question."""


def nomination_choices() -> list[tuple[str, str]]:
    """The checker's choices for the dealer's nomination this hand (X2, seed 002), as
    ``(value, words)``: "" for "as the cards show", then each nomination the engine knows
    with its meaning (:data:`~scorekeeper.engine.rules.dealers_joker.NOMINATION_MEANINGS`)."""
    shown = ("", say("as the cards show (JK=7C wild, JK=double double)"))
    return [
        shown,
        *(
            (name, say("%(nomination)s: %(meaning)s", nomination=name, meaning=words))
            for name, words in NOMINATION_MEANINGS.items()
        ),
    ]


@dataclass
class Answer:
    """What the page shows for one question: ``ok`` (legal / fits / scored), a
    ``message``, ``reasons`` [(rule id, why)], the resulting ``meld`` and its ``points``,
    ``errors`` {field: [messages]} for what could not be read, and ``extra`` (per
    question: the pile choices, the scored round). Sentences are kept as the engine's
    messages (English when printed), so the page says them in the reader's language."""

    ok: bool = False
    message: str = ""
    reasons: list[tuple[str, str]] = field(default_factory=list)
    meld: Meld | None = None
    points: int | None = None
    errors: dict[str, list[str]] = field(default_factory=dict)
    extra: object = None

    def error(self, where: str, message: str) -> None:
        """Note a problem with field ``where``."""
        self.errors.setdefault(where, []).append(message)


def read_cards(
    text: str, where: str, answer: Answer, *, most: int, least: int = 0
) -> list[Card] | None:
    """The cards of one field, or None with the problem noted on ``answer``."""
    try:
        cards = parse_cards(text or "")
    except CardError as error:
        answer.error(where, said(error))
        return None
    if len(cards) < least:
        answer.error(
            where,
            say_plural(
                "enter at least %(count)s card here", "enter at least %(count)s cards here", least
            ),
        )
        return None
    if len(cards) > most:
        answer.error(
            where,
            say_plural(
                "enter at most %(count)s card here", "enter at most %(count)s cards here", most
            ),
        )
        return None
    return cards


def said(error: BaseException) -> str:
    """What ``error`` says: the engine's message it was raised with (translated where a
    page prints it), else its text."""
    first = error.args[0] if error.args else None
    return first if isinstance(first, Message) else str(error)


def round_rules(
    rules: RuleSet, nomination: str | None, melds: list[list[Card]], answer: Answer
) -> RuleSet | None:
    """The rules of this round under dealer's gambit (X2, seed 002: "the dealer must
    nominate the effect of the jokers for that hand"): the ``nomination`` the person chose
    ("wild", "double", "split"; None or "" for "as the cards show": ``JK=7C`` wild,
    ``JK=double`` double), or None with the problem noted on ``answer`` (field
    ``jokers``) when the nomination is unknown or the cards contradict it."""
    stated = nomination or None
    found, problems = round_rules_stated(rules, stated, melds)
    for _, message in problems:
        answer.error("jokers", message)
    return None if problems else found


def check_meld_question(rules: RuleSet, cards_text: str, nomination: str | None = None) -> Answer:
    """Is ``cards_text`` a legal meld under ``rules`` (and, under X2, the jokers'
    ``nomination`` this hand: see :func:`round_rules`), and which rules say so or no."""
    answer = Answer()
    cards = read_cards(cards_text, "cards", answer, most=26, least=1)
    if cards is None:
        return answer
    round_set = round_rules(rules, nomination, [cards], answer)
    if round_set is None:
        return answer
    rules = round_set
    try:
        meld = check_meld(cards, rules)
    except IllegalMeld as problem:
        answer.message = problem.message
        answer.reasons = [(rule, problem.message) for rule in problem.rules]
        return answer
    answer.ok, answer.meld, answer.points = True, meld, meld_points(meld, rules)
    answer.message = say("Legal: a %(meld)s.", meld=meld.describe())
    answer.reasons = meld_reasons(meld, rules)
    return answer


def check_layoff_question(
    rules: RuleSet, meld_text: str, cards_text: str, nomination: str | None = None
) -> Answer:
    """Can ``cards_text`` (one card or a pair) be laid off onto the meld ``meld_text``
    (under X2, with the jokers' ``nomination`` this hand: see :func:`round_rules`)."""
    answer = Answer()
    meld_cards = read_cards(meld_text, "meld", answer, most=26, least=3)
    laid = read_cards(cards_text, "cards", answer, most=2, least=1)
    if meld_cards is None or laid is None:
        return answer
    round_set = round_rules(rules, nomination, [meld_cards, laid], answer)
    if round_set is None:
        return answer
    rules = round_set
    try:
        meld = check_meld(meld_cards, rules)
    except IllegalMeld as problem:
        answer.error(
            "meld", say("that is not a legal meld on the table: %(why)s", why=problem.message)
        )
        answer.reasons = [(rule, problem.message) for rule in problem.rules]
        return answer
    try:
        grown = extend_with(meld, laid, rules)
    except IllegalMeld as problem:
        answer.message = problem.message
        answer.reasons = [(rule, problem.message) for rule in problem.rules]
        return answer
    answer.ok, answer.meld = True, grown
    answer.points = meld_points(grown, rules, laid)
    answer.message = say("Yes: it makes a %(meld)s.", meld=grown.describe())
    answer.reasons = layoff_reasons(grown, laid, rules)
    return answer


def too_many_copies(cards: list[Card], rules: RuleSet) -> str | None:
    """A message when ``cards`` hold more jokers or more copies of a card than the
    biggest pack these rules use has (D2), else None."""
    packs = rules.packs_for(rules.max_players)
    counts = Counter(c.physical for c in cards)
    jokers = counts.pop(JOKER, 0)
    if jokers > rules.jokers * packs:
        return say(
            "these rules play with at most %(count)s jokers in all (D2)",
            count=rules.jokers * packs,
        )
    extra = [c for c, n in counts.items() if n > packs]
    if extra:
        return say(
            "%(card)s is there more times than the packs hold (%(packs)s) (D2)",
            card=extra[0].display,
            packs=packs,
        )
    return None


def check_discard_question(rules: RuleSet, args: Mapping[str, str], *, has_melded: bool) -> Answer:
    """Which cards of the pile ``args["pile"]`` (bottom first) the hand ``args["hand"]``
    may take, with the table melds ``args["t1"]`` .. ``t4``; ``extra`` is the list of
    :class:`~scorekeeper.engine.checker.advice.PileChoice`, top card first."""
    answer = Answer()
    pile = read_cards(args.get("pile", ""), "pile", answer, most=MAX_PILE, least=1)
    hand = read_cards(args.get("hand", ""), "hand", answer, most=MAX_HAND, least=1)
    table = _table_melds(rules, args, answer)
    if pile is None or hand is None or answer.errors:
        return answer
    everything = pile + hand + [c for meld in table for c in meld.cards]
    copies = too_many_copies(everything, rules)
    if copies:
        answer.error("pile", copies)
        return answer
    choices: list[PileChoice] = advise_pile(rules, pile, hand, table, has_melded=has_melded)
    return _pile_verdict(answer, choices)


def _table_melds(rules: RuleSet, args: Mapping[str, str], answer: Answer) -> list[Meld]:
    """The melds on the table, ``args["t1"]`` .. ``t4`` (empty ones skipped); a field
    that is not a legal meld (M1 to M5) is noted on ``answer`` and left out."""
    table: list[Meld] = []
    for i in range(1, TABLE_MELDS + 1):
        text = args.get(f"t{i}", "")
        cards = read_cards(text, f"t{i}", answer, most=26) if text.strip() else []
        if cards:
            try:
                table.append(check_meld(cards, rules))
            except IllegalMeld as problem:
                answer.error(f"t{i}", say("not a legal meld: %(why)s", why=problem.message))
    return table


def _pile_verdict(answer: Answer, choices: list[PileChoice]) -> Answer:
    """``answer`` told the pile's ``choices`` (bottom first): ok when any card may be
    taken, the choices top card first, the rules they cite and the takeable cards in
    words."""
    answer.ok = any(c.allowed for c in choices)
    answer.extra = list(reversed(choices))
    answer.reasons = [(rule, "") for rule in sorted({r for c in choices for r in c.rules})]
    takeable = [c.card.display for c in choices if c.allowed]
    answer.message = (
        say("You may take: %(cards)s.", cards=", ".join(reversed(takeable)))
        if takeable
        else say("No card may be taken.")
    )
    return answer


_WHERE = re.compile(r"^(players|melds|layoffs)\[(\d+)\]|^(hands|totals_before)\.([^\[.]+)")


def _count(args: Mapping[str, str], key: str, default: int, low: int, high: int) -> int:
    try:
        return max(low, min(high, parse_int(args.get(key, default), -(10**9), 10**9)))
    except BadNumber:
        return default


def _player(seat: int) -> str:
    """The name of a seat left blank (``Player 2``), in the request's language: it is the
    player's name in the scored request and on the page."""
    return str(translate(say("Player %(seat)s", seat=seat)))


@dataclass
class ScoreForm:
    """The score question's rows: ``players`` (2-8), ``melds`` and ``layoffs`` row counts,
    the player ``names`` (blank names become "Player N") and, once read, the contract
    ``request`` with ``meld_rows`` / ``layoff_rows`` (request index -> form row number)."""

    players: int
    melds: int
    layoffs: int
    names: list[str]
    request: dict[str, object] = field(default_factory=dict)
    meld_rows: list[int] = field(default_factory=list)
    layoff_rows: list[int] = field(default_factory=list)

    @classmethod
    def from_args(cls, args: Mapping[str, str]) -> ScoreForm:
        """Row counts from ``n``, ``m``, ``l`` (an ``add`` of ``player``, ``meld`` or
        ``layoff`` adds a row) and names from ``p1`` .. ``pN``."""
        add = args.get("add", "")
        n = _count(args, "n", 3, 2, 8) + (add == "player")
        m = _count(args, "m", 4, 1, 30) + (add == "meld")
        lay = _count(args, "l", 2, 0, 30) + (add == "layoff")
        n = min(n, 8)
        names = [(args.get(f"p{i}") or "").strip()[:40] or _player(i) for i in range(1, n + 1)]
        return cls(n, min(m, 30), min(lay, 30), names)

    def owner(self, args: Mapping[str, str], key: str) -> str:
        """The player named by the seat number in ``args[key]`` (default seat 1)."""
        seat = _count(args, key, 1, 1, self.players)
        return self.names[seat - 1]


def _read_rounds(form: ScoreForm, args: Mapping[str, str], answer: Answer) -> None:
    melds: list[dict[str, object]] = []
    layoffs: list[dict[str, object]] = []
    index_of: dict[int, int] = {}
    for j in range(1, form.melds + 1):
        cards = args.get(f"m{j}", "").split()
        if cards:
            index_of[j] = len(melds)
            form.meld_rows.append(j)
            melds.append({"owner": form.owner(args, f"mo{j}"), "cards": cards})
    for k in range(1, form.layoffs + 1):
        text = args.get(f"l{k}", "").strip()
        if not text:
            continue
        onto = _count(args, f"lm{k}", 1, 1, form.melds)
        if onto not in index_of:
            answer.error(
                f"l{k}",
                say("meld %(number)s is empty: lay off onto a meld entered above", number=onto),
            )
            continue
        form.layoff_rows.append(k)
        layoffs.append({"owner": form.owner(args, f"lo{k}"), "card": text, "meld": index_of[onto]})
    form.request |= {"melds": melds, "layoffs": layoffs}


def _read_players(form: ScoreForm, args: Mapping[str, str], rules: RuleSet, answer: Answer) -> None:
    totals: dict[str, int] = {}
    for i, name in enumerate(form.names, start=1):
        text = args.get(f"t{i}", "").strip()
        if text:
            try:
                totals[name] = parse_int(text, -TOTAL_MAX, TOTAL_MAX)
            except BadNumber:
                answer.error(f"t{i}", say("a running total is a whole number of points"))
    out = _count(args, "out", 0, 0, form.players)
    form.request |= {
        "players": list(form.names),
        "hands": {n: args.get(f"h{i}", "").split() for i, n in enumerate(form.names, 1)},
        "totals_before": totals,
        "went_out": form.names[out - 1] if out else None,
        "teams": [form.names[0::2], form.names[1::2]] if rules.partnership else None,
        "deal_number": _count(args, "deal", 1, 1, 2),
    }


def _field_of(where: str, form: ScoreForm) -> str:
    match = _WHERE.match(where)
    if not match:
        return "out" if where == "went_out" else "form"
    kind, number, mapping, name = match.groups()
    if kind == "players":
        return f"p{int(number) + 1}"
    if kind in ("melds", "layoffs"):
        rows = form.meld_rows if kind == "melds" else form.layoff_rows
        i = int(number)
        return f"{kind[0]}{rows[i]}" if i < len(rows) else "form"
    seat = form.names.index(name) + 1 if name in form.names else 0
    return f"{'h' if mapping == 'hands' else 't'}{seat}" if seat else "form"


def check_score_question(
    rules: RuleSet, contract_rules: Mapping[str, object], args: Mapping[str, str]
) -> tuple[ScoreForm, Answer]:
    """Score the round entered in the form ``args`` with the scoring contract; ``extra``
    is the contract's response (players, cards with points and why, notes, winner)."""
    form, answer = ScoreForm.from_args(args), Answer()
    form.request["rules"] = contract_rules
    _read_players(form, args, rules, answer)
    _read_rounds(form, args, answer)
    if answer.errors:
        return form, answer
    try:
        answer.extra = score(form.request)
    except ScoreRequestError as error:
        for problem in error.errors:
            answer.error(_field_of(problem["where"], form), problem["message"])
        return form, answer
    answer.ok = True
    answer.message = answer.extra["outcome"]
    answer.reasons = [("S7", say("cards shown minus cards in hand"))]
    for row in answer.extra["cards"]:
        row["where"] = _form_where(row["where"], form)
    return form, answer


_PLACE = re.compile(r"^(?:meld (\d+)|layoff (\d+) onto meld (\d+))$")


def _form_where(where: str, form: ScoreForm) -> str:
    """The contract's ``"meld 2"`` or ``"layoff 0 onto meld 1"`` in the form's numbering,
    from 1, as a message: ``"meld 3"``, ``"lay-off 1 onto meld 3"`` (blank form rows are
    not in the request); ``"hand"`` and anything else as it is."""
    match = _PLACE.match(where)
    if match is None:
        return say("hand") if where == "hand" else where
    meld, layoff, onto = match.groups()

    def row(rows: list[int], index: str) -> int:
        i = int(index)
        return rows[i] if i < len(rows) else i + 1

    if meld is not None:
        return say("meld %(meld)s", meld=row(form.meld_rows, meld))
    return say(
        "lay-off %(layoff)s onto meld %(meld)s",
        layoff=row(form.layoff_rows, layoff),
        meld=row(form.meld_rows, onto),
    )
