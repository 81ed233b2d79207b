"""The checker (/check): house rules from the query, and its four questions, each
answer naming and linking the rules it used; bad input is shown next to its field."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

CORNER = {"preset": "modern", "opt_ace_in_run": "round-the-corner"}


def get(client, path, **params):
    response = client.get(f"{path}?{urlencode(params)}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def answer_of(html):
    match = re.search(
        r'<section class="panel answer (yes|no)" id="answer".*?</section>', html, re.S
    )
    assert match, "no answer on the page"
    return match.group(1), match.group(0)


def test_landing_shows_house_rules_and_keeps_them_in_links(client):
    html = get(client, "/check", **CORNER)
    assert "Modern (jokers wild, 30 to start)" in html
    assert "round the corner allowed (K-A-2)" in html
    assert "/check/meld?preset=modern&amp;opt_ace_in_run=round-the-corner" in html


def test_bad_house_rules_are_reported_not_fatal(client):
    html = get(client, "/check", preset="nope", opt_min_run="x")
    assert "House rule not loaded (preset)" in html and "House rule not loaded (min_run)" in html
    assert "<strong>Standard</strong>" in html


def test_json_rules_parameter_loads_house_rules(client):
    html = get(client, "/check", rules='{"preset": "classic", "options": {"min_run": 3}}')
    assert "<strong>Classic</strong>" in html and "3 or more cards in sequence" in html


@pytest.mark.parametrize(
    ("params", "verdict", "text", "rule"),
    [
        (CORNER | {"cards": "KS AS 2S"}, "yes", "Legal: a run of K♠ A♠ 2♠", "M4"),
        ({"cards": "KS AS 2S"}, "no", "goes round the corner", "M4"),
        ({"cards": "7h 7s 7d"}, "yes", "Legal: a set of 7♥ 7♠ 7♦", "M1"),
        ({"preset": "classic", "cards": "5H 6H 7H"}, "no", "at least 4 cards", "M3"),
        ({"preset": "jokers-wild", "cards": "7H JK=8H 9H"}, "yes", "run of 7♥ JK(8♥) 9♥", "M5"),
        ({"preset": "jokers-wild", "cards": "7H JK 9H"}, "no", "must name the card", "M5"),
    ],
)
def test_meld_question(client, params, verdict, text, rule):
    found, answer = answer_of(get(client, "/check/meld", **params))
    assert found == verdict
    assert text in answer
    assert re.search(rf'<a class="rule-id" href="/rules[^"]*#{rule}">{rule}</a>', answer)


def test_meld_answer_links_keep_house_rules(client):
    _, answer = answer_of(get(client, "/check/meld", **CORNER, cards="KS AS 2S"))
    assert 'href="/rules?preset=modern&amp;opt_ace_in_run=round-the-corner#M4"' in answer


def test_meld_question_bad_card_is_shown_at_the_field(client):
    html = get(client, "/check/meld", cards="KS ZZ 2S")
    assert "&#39;ZZ&#39; is not a card" in html
    assert 'aria-invalid="true"' in html
    assert 'id="answer"' not in html


def test_meld_question_form_is_blank_at_first(client):
    html = get(client, "/check/meld")
    assert 'id="answer"' not in html and 'name="cards"' in html and "data-open" in html


@pytest.mark.parametrize(
    ("params", "verdict", "text"),
    [
        ({"meld": "9D 10D JD", "cards": "QD"}, "yes", "run of 9♦ 10♦ J♦ Q♦"),
        ({"meld": "5C 6C 7C", "cards": "9C 8C"}, "yes", "5♣ 6♣ 7♣ 8♣ 9♣"),
        ({"meld": "QS KS AS", "cards": "2S"}, "no", "round the corner"),
        ({"meld": "7H 7S 7D", "cards": "8H"}, "no", "only cards of its rank"),
    ],
)
def test_layoff_question(client, params, verdict, text):
    found, answer = answer_of(get(client, "/check/layoff", **params))
    assert found == verdict and text in answer
    if verdict == "yes":
        assert ">L1</a>" in answer and ">L3</a>" in answer


def test_layoff_question_errors(client):
    html = get(client, "/check/layoff", meld="2C 7H 9S", cards="8H")
    assert "that is not a legal meld on the table" in html
    html = get(client, "/check/layoff", meld="5C 6C 7C", cards="8C 9C 10C")
    assert "enter at most 2 cards here" in html


def pile_items(html):
    return re.findall(
        r'<li class="(yes|no)">\s*<p><span class="cards"><span class="card[^"]*">([^<]+)', html
    )


def test_discard_question_lists_the_pile_top_first(client):
    html = get(client, "/check/discard", pile="9D KC 8C 4H", hand="9S 9H 2D QS", t1="5C 6C 7C")
    assert pile_items(html) == [("no", "4♥"), ("yes", "8♣"), ("no", "K♣"), ("yes", "9♦")]
    assert "You may take: 8♣, 9♦." in html
    assert "Lay off" in html and "onto table meld 1" in html
    assert ">T1</a>" in html and ">T2</a>" in html


def test_discard_question_new_meld_only_and_m6(client):
    html = get(client, "/check/discard", preset="modern", pile="8C", hand="2D 9S", t1="5C 6C 7C")
    assert pile_items(html) == [("no", "8♣")]
    assert "never only to lay it off" in html
    html = get(client, "/check/discard", preset="modern", pile="2S", hand="2H 2D 9C")
    assert "first melds must reach 30 points" in html and ">M6</a>" in html
    assert 'name="melded"' in html
    html = get(client, "/check/discard", preset="modern", pile="2S", hand="2H 2D 9C", melded="yes")
    assert pile_items(html) == [("yes", "2♠")]


def test_discard_question_boathouse_and_keep_top(client):
    html = get(client, "/check/discard", opt_discard_to_go_out="true", pile="3H", hand="3D 3S")
    assert pile_items(html) == [("no", "3♥")] and ">O2</a>" in html
    html = get(client, "/check/discard", preset="classic", pile="3H KS", hand="2D")
    assert pile_items(html) == [("yes", "K♠"), ("no", "3♥")]
    assert "kept without using it" in html and ">T3</a>" in html


def test_discard_question_errors(client):
    html = get(client, "/check/discard", pile="9D", hand="", t1="2C 7H 9S")
    assert "enter at least 1 card here" in html
    assert "not a legal meld" in html


ROUND = {
    "go": "1",
    "p1": "Ann",
    "p2": "Bob",
    "p3": "Cat",
    "out": "1",
    "m1": "7H 7S 7D",
    "mo1": "1",
    "m2": "",
    "m3": "3C 4C 5C",
    "mo3": "2",
    "l1": "6C",
    "lo1": "3",
    "lm1": "3",
    "h1": "",
    "h2": "KD",
    "h3": "2S 9H",
    "t1": "120",
    "t2": "35",
    "t3": "-10",
}


def test_score_question_is_the_contract_card_by_card(client):
    html = get(client, "/check/score", **ROUND)
    verdict, answer = answer_of(html)
    assert verdict == "yes"
    rows = re.findall(
        r"<tr><th scope=\"row\">(\w+)[^<]*</th>"
        + r"<td class=\"num\">(-?\d+)</td>" * 2
        + r"<td class=\"num\">-?\d+</td><td class=\"num\"><strong>(-?\d+)</strong></td>"
        + r"<td class=\"num\">(-?\d+)</td>",
        answer,
    )
    assert rows == [
        ("Ann", "21", "0", "21", "141"),
        ("Bob", "12", "10", "2", "37"),
        ("Cat", "6", "11", "-5", "-15"),
    ]
    assert "lay-off 1 onto meld 3" in answer and "meld 1</td>" in answer
    assert ">S4</a>" in answer and ">S7</a>" in answer


def test_score_question_problems_go_to_their_fields(client):
    bad = ROUND | {"m1": "KS AS 2S", "h3": "2S ZZ"}
    html = get(client, "/check/score", **bad)
    assert "cannot be scored yet" in html
    meld_row = html[html.index('id="mo1"') : html.index('id="mo2"')]
    assert "round the corner" in meld_row
    hand = html[html.index('id="cp-h3"') : html.index('id="t3"')]
    assert "&#39;ZZ&#39; is not a card" in hand


def test_score_question_layoff_onto_empty_meld(client):
    html = get(client, "/check/score", **(ROUND | {"lm1": "2"}))
    assert "meld 2 is empty" in html


def test_score_form_adds_rows_without_scoring(client):
    html = get(client, "/check/score", n="3", m="4", l="2", add="meld", p1="Ann")
    assert 'id="mo5"' in html and 'id="answer"' not in html
    assert '<option value="1" selected>Ann</option>' in html
    html = get(client, "/check/score", n="8", add="player")
    assert 'id="p8"' in html and 'id="p9"' not in html


def test_score_question_partnership_sides(client):
    params = {
        "go": "1",
        "preset": "partnership",
        "n": "4",
        "out": "1",
        "p1": "Ann",
        "p2": "Bob",
        "p3": "Cat",
        "p4": "Dee",
        "m1": "7H 7S 7D",
        "mo1": "1",
        "h2": "KD",
    }
    _, answer = answer_of(get(client, "/check/score", **params))
    assert "Ann &amp; Cat" in answer and "Bob &amp; Dee" in answer


def test_discard_question_refuses_more_cards_than_the_pack_holds(client):
    html = get(client, "/check/discard", preset="modern", pile="JK JK JK 7H", hand="JK JK 2D")
    assert "at most 4 jokers in all" in html and 'id="answer"' not in html
    html = get(client, "/check/discard", pile="7H 7H", hand="7H 2D")
    assert "more times than the packs hold (2)" in html


def test_dealers_gambit_a_doubled_set_counts_twice_and_takes_no_lay_off(client):
    """002: "The joker doubles the value of any set ... Once the joker has been added to
    the meld, that set is 'sealed' and no further cards can laid off onto it." """
    x2 = {"preset": "standard", "opt_dealers_gambit": "true"}
    found, answer = answer_of(get(client, "/check/meld", **x2, cards="KS KH KD JK=double"))
    assert found == "yes" and "60" in answer and "X2" in answer
    found, answer = answer_of(
        get(client, "/check/layoff", **x2, meld="KS KH KD JK=double", cards="KC")
    )
    assert found == "no" and "sealed" in answer
    found, answer = answer_of(get(client, "/check/meld", **x2, cards="9H JK=10H JH"))
    assert found == "yes" and "19" in answer


def test_dealers_gambit_the_nomination_is_chosen_on_the_page(client):
    """002: "the dealer must nominate the effect of the jokers for that hand": a table
    asks with the hand's nomination chosen, so a plain JK reads as that hand's joker; the
    meld's cards must agree with it, and four aces doubled count 200 (S6 with X2)."""
    x2 = {"preset": "standard", "opt_dealers_gambit": "true"}
    html = get(client, "/check/meld", **x2)
    assert 'name="jokers"' in html and "as the cards show" in html
    offered = re.findall(
        r'<option value="(\w*)"', html.split('name="jokers"', 1)[1].split("</select>")[0]
    )
    assert offered == ["", "wild", "double", "split"]
    assert 'name="jokers"' not in get(client, "/check/meld", preset="standard")
    found, answer = answer_of(get(client, "/check/meld", **x2, jokers="wild", cards="9H JK=10H JH"))
    assert found == "yes"
    html = get(client, "/check/meld", **x2, jokers="split", cards="9H JK=10H JH")
    assert "nominated split, yet a meld holds a joker wild" in html
    assert 'aria-invalid="true"' in html
    html = get(client, "/check/meld", **x2, jokers="bogus", cards="9H 10H JH")
    assert "the dealer nominates" in html
    s6 = {**x2, "opt_four_aces_100": "true"}
    found, answer = answer_of(
        get(client, "/check/meld", **s6, jokers="double", cards="AH AS AD AC JK=double")
    )
    assert found == "yes" and "200" in answer
    found, answer = answer_of(
        get(client, "/check/layoff", **x2, jokers="wild", meld="9H 10H JH", cards="JK=QH")
    )
    assert found == "yes"


def test_discard_question_wild_joker_as_the_queen_of_an_ace_high_run(client):
    # Seed 003: "Jokers are wild and may represent any card for the purpose of melding."
    # The game takes the same card (tests/engine/test_wild.py).
    html = get(client, "/check/discard", preset="jokers-wild", pile="3C KH", hand="AH JK 4S 8D")
    assert pile_items(html) == [("yes", "K♥"), ("no", "3♣")]
    assert '>JK(Q♥)</span><span class="card red">K♥</span><span class="card red">A♥<' in html
