"""Cards and packs: the contract's notation (score-contract.md), packs of D2."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.engine.cards import (
    JOKER,
    CardError,
    declare,
    format_cards,
    make_pack,
    natural_card,
    parse_card,
    parse_card_texts,
    parse_cards,
    shuffled,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("AS", "AS"),
        ("10H", "10H"),
        ("TD", "10D"),
        ("qc", "QC"),
        ("10♦", "10D"),
        ("k♠", "KS"),
        ("JK", "JK"),
        ("jk=7c", "JK=7C"),
        ("JK=T♥", "JK=10H"),
        (" 7h ", "7H"),
    ],
)
def test_notation_is_parsed_case_insensitively(text, expected):
    assert parse_card(text).text == expected


@pytest.mark.parametrize("text", ["", "1X", "11H", "ZZ", "JK=JK", "JK=", "7", "H7", "10"])
def test_text_that_is_no_card_is_refused_with_a_message(text):
    with pytest.raises(CardError, match="is not a card"):
        parse_card(text)


def test_non_text_is_refused():
    with pytest.raises(CardError):
        parse_card(7)  # type: ignore[arg-type]


def test_display_uses_suit_symbols_and_names_read_as_words():
    seven = parse_card("7H")
    assert seven.display == "7♥"
    assert seven.name == "7 of hearts"
    assert parse_card("JK=QS").display == "JK(Q♠)"
    assert parse_card("JK=QS").name == "joker as queen of spades"
    assert format_cards(parse_cards("7H 7S 7D")) == "7♥ 7♠ 7♦"
    assert format_cards(parse_cards("7H,7S"), symbols=False) == "7H 7S"


def test_declared_joker_plays_as_its_card_and_is_a_joker_in_the_pack():
    joker = declare(JOKER, natural_card(7, "C"))
    assert joker.is_joker and joker.natural == parse_card("7C")
    assert joker.physical is JOKER
    with pytest.raises(CardError):
        declare(parse_card("7C"), parse_card("8C"))


@pytest.mark.parametrize(
    ("jokers", "packs", "size"),
    [(0, 1, 52), (1, 1, 53), (2, 1, 54), (4, 1, 56), (0, 2, 104), (2, 2, 108)],
)
def test_packs_of_d2(jokers, packs, size):
    pack = make_pack(jokers, packs)
    assert len(pack) == size
    assert pack.count(JOKER) == jokers * packs
    assert len(set(pack)) == 52 + (1 if jokers else 0)


def test_shuffle_is_seeded():
    pack = make_pack(2)
    assert shuffled(pack, 7) == shuffled(pack, 7)
    assert shuffled(pack, 7) != shuffled(pack, 8)
    assert sorted(shuffled(pack, 7), key=str) == sorted(pack, key=str)


every_card = st.sampled_from(make_pack(1)) | st.builds(
    declare, st.just(JOKER), st.sampled_from(make_pack(0))
)


@given(every_card)
def test_printing_and_parsing_round_trip(card):
    assert parse_card(card.text) is card
    assert parse_card(card.text.lower()) is card
    symbols = card.display.replace("JK(", "JK=").rstrip(")")
    assert parse_card(symbols) is card


@given(every_card, st.data())
def test_every_casing_and_padding_of_a_card_is_that_one_card(card, data):
    cased = "".join(data.draw(st.sampled_from([c.upper(), c.lower()]), label=c) for c in card.text)
    padding = data.draw(st.sampled_from(["", " ", "\t", "  "]))
    assert parse_card(cased) is card
    assert parse_card(padding + cased + padding) is card


@pytest.mark.parametrize("value", [["7H"], {"card": "7H"}, None, 7.0, b"7H"])
def test_values_that_are_not_text_are_refused_with_a_message(value):
    with pytest.raises(CardError, match="write cards as text"):
        parse_card(value)


@given(st.lists(every_card.map(lambda c: c.text.lower())))
def test_a_list_of_texts_reads_as_each_text_does(texts):
    assert parse_card_texts(texts) == tuple(parse_card(t) for t in texts)
    assert parse_card_texts([" 7h ", *texts]) == (parse_card("7H"), *map(parse_card, texts))
    with pytest.raises(CardError, match="'7X' is not a card"):
        parse_card_texts([*texts, "7X"])
