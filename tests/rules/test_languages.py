"""The rules pages in the reader's language: quotations stay in English and say so, the
checker's answers are message ids with figures, and the scripts' plural words reach the
page (issue 39)."""

from __future__ import annotations

import html
import json
import re

from scorekeeper.engine import Message, ruleset
from scorekeeper.rules.checker import check_discard_question, check_layoff_question


def test_quotations_are_marked_english_with_a_label(client):
    page = client.get("/rules/M4").get_data(as_text=True)
    quotes = re.findall(r"<q[^>]*>.*?</q>\s*<span[^>]*>([^<]*)</span>", page, flags=re.S)
    assert quotes and all(label == "(original English)" for label in quotes)
    assert all('lang="en"' in q for q in re.findall(r"<q[^>]*>", page))


def test_checker_answers_are_messages_a_catalogue_translates():
    answer = check_layoff_question(ruleset("standard"), "7H 8H 9H", "10H JH QH")
    (error,) = answer.errors["cards"]
    assert isinstance(error, Message) and error == "enter at most 2 cards here"
    catalogue = {"enter at most %(count)s cards here": "au plus %(count)s cartes ici"}
    said = error.render(lambda s: catalogue.get(s, s), lambda s, p, n: catalogue.get(p, p))
    assert said == "au plus 2 cartes ici"
    took = check_discard_question(
        ruleset("standard"), {"pile": "4H 8C", "hand": "8D 8H"}, has_melded=False
    )
    assert isinstance(took.message, Message) and took.message.template in (
        "You may take: %(cards)s.",
        "No card may be taken.",
    )


def test_the_scripts_plural_words_reach_the_page(client):
    page = client.get("/rules").get_data(as_text=True)
    words = json.loads(html.unescape(re.search(r'data-words="([^"]*)"', page).group(1)))
    assert words["rules_rows_match"]["other"] == "%(count)s of %(total)s rows match."
    assert words["house_as_preset_value"] == "as the preset: %(value)s"
