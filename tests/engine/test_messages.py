"""The engine's sentences are message ids with their figures (issue 39, point 1): each
is its English sentence, renders in a catalogue's language with its figures (nested
messages too), survives JSON, and every id the engine produces has only ``%(name)s``
placeholders that its figures fill."""

from __future__ import annotations

import copy
import itertools
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine import (
    IllegalMove,
    Message,
    apply_action,
    bot_move,
    is_terminal,
    legal_actions,
    make_bot,
    new_game,
    observation,
    replay_steps,
    say,
    say_plural,
)
from scorekeeper.engine.bots.why import PERSON_FORMS, explain, to_person, with_expectation
from scorekeeper.engine.cards import CardError, parse_card, parse_cards
from scorekeeper.engine.checker.advice import advise
from scorekeeper.engine.checker.explain import layoff_reasons, meld_reasons
from scorekeeper.engine.game.actions import Discard
from scorekeeper.engine.game.records import game_record
from scorekeeper.engine.melds import IllegalMeld, check_meld, extend
from scorekeeper.engine.rules.ruleset import OPTIONS, PRESET_TITLES, RulesError, ruleset
from scorekeeper.engine.scoring.contract import ScoreRequestError, score
from scorekeeper.languages.pseudo import accented

from .helpers import CONTRACT_EXAMPLE

PLACEHOLDER = re.compile(r"%\((\w+)\)s")
OTHER_FORMAT = re.compile(r"%(?!\(\w+\)s|%)")


def identity(text: str) -> str:
    return text


def identity_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


def pseudo_plural(singular: str, plural: str, count: int) -> str:
    return accented(identity_plural(singular, plural, count))


class Catalogue:
    """A dict-backed gettext/ngettext pair, as a translation's catalogue looks them up."""

    def __init__(self, words: dict[str, str], plurals: dict[str, tuple[str, str]]) -> None:
        self.words, self.plurals = words, plurals

    def gettext(self, text: str) -> str:
        return self.words.get(text, text)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        one, many = self.plurals.get(singular, (singular, plural))
        return one if count == 1 else many


def test_a_message_is_its_english_sentence() -> None:
    said = say("a set: %(count)s cards of one rank (3 or 4 allowed)", count=3)
    assert said == "a set: 3 cards of one rank (3 or 4 allowed)"
    assert isinstance(said, str)
    assert said.template == "a set: %(count)s cards of one rank (3 or 4 allowed)"
    assert dict(said.figures) == {"count": 3}


def test_a_catalogue_translates_the_sentence_with_its_figures_and_nested_messages() -> None:
    french = Catalogue(
        {
            "%(card)s does not fit %(meld)s": "%(card)s ne va pas sur %(meld)s",
            "run of %(cards)s": "suite de %(cards)s",
            "%(misfit)s: a run takes only cards of its suit": (
                "%(misfit)s : une suite ne prend que des cartes de sa couleur"
            ),
        },
        {},
    )
    run = check_meld(parse_cards("5S 6S 7S"), ruleset("standard"))
    with pytest.raises(IllegalMeld) as refused:
        extend(run, parse_card("8H"), ruleset("standard"))
    message = refused.value.args[0]
    assert message == "8♥ does not fit run of 5♠ 6♠ 7♠: a run takes only cards of its suit"
    assert message.render(french.gettext, french.ngettext) == (
        "8♥ ne va pas sur suite de 5♠ 6♠ 7♠ : une suite ne prend que des cartes de sa couleur"
    )


def test_a_plural_message_takes_the_catalogues_form_for_its_count() -> None:
    german = Catalogue(
        {}, {"%(count)s other %(rank)s in sight": ("%(count)s weitere", "%(count)s weitere!")}
    )
    one = say_plural(
        "%(count)s other %(rank)s in sight",
        "%(count)s other %(ranks)s in sight",
        1,
        rank="king",
        ranks="kings",
    )
    two = say_plural(
        "%(count)s other %(rank)s in sight",
        "%(count)s other %(ranks)s in sight",
        2,
        rank="king",
        ranks="kings",
    )
    assert (one, two) == ("1 other king in sight", "2 other kings in sight")
    assert one.render(german.gettext, german.ngettext) == "1 weitere"
    assert two.render(german.gettext, german.ngettext) == "2 weitere!"


figures = st.dictionaries(
    st.from_regex(r"f_[a-z]{1,6}", fullmatch=True),
    st.one_of(st.integers(-10_000, 10_000), st.text(max_size=12)),
    max_size=4,
)


@given(figures, st.integers(0, 5), st.booleans())
@settings(max_examples=60, deadline=None)
def test_json_brings_a_message_back_equal_and_translatable(
    values: dict[str, Any], count: int, plural: bool
) -> None:
    template = " ".join(f"%({name})s" for name in values) or "no figures"
    nested = say("inner %(x)s", x=7)
    if plural:
        made = say_plural(
            "one: " + template + " %(n)s", "many: " + template + " %(n)s", count, n=nested, **values
        )
    else:
        made = say(template + " %(n)s", n=nested, **values)
    back = Message.from_json(json.loads(json.dumps(made.to_json())))
    assert back == made
    assert back.to_json() == made.to_json()
    assert back.render(accented, pseudo_plural) == made.render(accented, pseudo_plural)


# ---- every sentence the engine produces ---------------------------------------------------


def _messages(value: object) -> Iterator[Message]:
    """Every Message inside ``value`` (a message's nested figures included)."""
    if isinstance(value, Message):
        yield value
        for figure in value.figures.values():
            yield from _messages(figure)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _messages(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _messages(item)


def _check_message(message: Message) -> None:
    """Only ``%(name)s`` placeholders, each filled by a figure; English with an identity
    catalogue; the pseudo-language renders it (no KeyError, and not English)."""
    for template in filter(None, (message.template, message.plural_template)):
        assert not OTHER_FORMAT.search(template), template
        assert set(PLACEHOLDER.findall(template)) <= set(message.figures), template
    assert message.render(identity, identity_plural) == str(message)
    pseudo = message.render(accented, pseudo_plural)
    assert pseudo != str(message) or not message.template.strip()


def _game_sentences(preset: str, seed: int, players: int) -> list[object]:
    """Bots' reasons (to the table, to the seat, to the person), a refused move, the
    checker's advice and the replay's steps of one seeded bots' game."""
    names = ["Ann", "Bob", "Cat", "Dee"][:players]
    state = new_game(names, preset=preset, options={}, seed=seed)
    bot, rng = make_bot("basic"), random.Random(seed)
    said: list[object] = []
    for turn in itertools.count():
        if is_terminal(state):
            break
        legal = legal_actions(state)
        if turn % 3 == 0:
            view = observation(state, state.seat)
            for action in legal[:6]:
                own = explain(view, action, own=True)
                said += [explain(view, action), own, to_person(own)]
                said.append(to_person(with_expectation(own, 3.0, -2.0)))
                assert to_person(own).template in PERSON_FORMS, own.template
            try:
                apply_action(copy.deepcopy(state), Discard(parse_card("JK=7C")))
            except IllegalMove as refused:
                said.append(refused.args[0])
            hand = state.hands[state.seat]
            said.append(advise(state.rules, state.pile, hand, state.table))
        apply_action(state, bot_move(state, bot, rng, legal))
    said.append(replay_steps(json.loads(json.dumps(game_record(state)))))
    return said


@pytest.mark.parametrize(
    ("preset", "seed", "players"),
    [("standard", 3, 3), ("persian", 5, 4), ("jokers-wild", 8, 2), ("partnership", 2, 4)],
)
def test_every_sentence_of_a_game_renders_with_its_figures(
    preset: str, seed: int, players: int
) -> None:
    found = list(_messages(_game_sentences(preset, seed, players)))
    assert len(found) > 100
    for message in found:
        _check_message(message)


def test_a_persons_hint_is_a_message_id_of_its_own() -> None:
    state = new_game(["Ann", "Bob"], preset="standard", options={}, seed=4)
    view = observation(state, state.seat)
    for action in legal_actions(state):
        person = to_person(explain(view, action, own=True))
        assert isinstance(person, Message)
        assert person.template in PERSON_FORMS
        _check_message(person)


MELDS = [
    "7H 7S 7D",
    "KS AS 2S",
    "QS KS AS",
    "5C 5C 5H",
    "JK JK JK",
    "7H 8H 10H",
    "7H 7S",
    "JK=7C 7H 7S",
    "AS 2S 3S",
    "9D 10D JD QD",
]


@pytest.mark.parametrize("preset", ["standard", "persian", "jokers-wild", "classic"])
def test_meld_reasons_and_refusals_render_with_their_figures(preset: str) -> None:
    rules = ruleset(preset)
    for text in MELDS:
        try:
            meld = check_meld(parse_cards(text), rules)
        except IllegalMeld as refused:
            _check_message(refused.args[0])
            continue
        for _, why in meld_reasons(meld, rules):
            assert isinstance(why, Message)
            _check_message(why)
        for card in parse_cards("8H 6H 7C 4S JK KD"):
            try:
                grown = extend(meld, card, rules)
            except IllegalMeld as refused:
                _check_message(refused.args[0])
            else:
                for _, why in layoff_reasons(grown, [card], rules):
                    _check_message(why)


def test_refusals_of_cards_rules_and_the_contract_are_messages() -> None:
    for text in ["1X", "JK=JK", 7]:
        with pytest.raises(CardError) as refused:
            parse_card(text)
        _check_message(refused.value.args[0])
    with pytest.raises(RulesError) as bad:
        ruleset("standard", {"target": "x", "nope": 1})
    _check_message(bad.value.args[0])
    request = copy.deepcopy(CONTRACT_EXAMPLE)
    request["hands"] = {"Ann": ["ZZ"], "Bob": ["KD"]}
    with pytest.raises(ScoreRequestError) as refused_request:
        score(request)
    _check_message(refused_request.value.args[0])


def test_the_score_explains_each_card_in_messages() -> None:
    answer = score(copy.deepcopy(CONTRACT_EXAMPLE))
    found = list(_messages(answer))
    assert found
    for message in found:
        _check_message(message)
    assert json.loads(json.dumps(answer)) == answer


def test_option_titles_labels_and_presets_are_messages() -> None:
    for info in OPTIONS.values():
        assert isinstance(info.title, Message)
        _check_message(info.title)
        for label in info.choices.values():
            _check_message(label)
    for title in PRESET_TITLES.values():
        _check_message(title)
