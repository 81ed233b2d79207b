"""The play pages in the reader's language: the moves in words keep their message ids so
each phone reads them in its own language, the scripts' plural words reach the page
unformatted, and the pieces of markup made once are kept apart per language."""

from __future__ import annotations

import json
import re

from flask import Flask

from scorekeeper.engine import Message, say, say_plural
from scorekeeper.languages.reader import translate
from scorekeeper.play import taps
from scorekeeper.play.steps import told
from tests.conftest import make_app


def _app(tmp_path) -> Flask:
    return make_app(str(tmp_path / "languages.sqlite3"), LANGUAGES_PSEUDO=True)


def test_a_plural_with_figures_besides_its_count_is_put_into_words(tmp_path) -> None:
    app = _app(tmp_path)
    said = say_plural(
        "takes %(card)s from the discard pile and the %(count)s card above it",
        "takes %(card)s from the discard pile and the %(count)s cards above it",
        2,
        card="7♠",
    )
    with app.test_request_context("/play"):
        assert translate(said) == "takes 7♠ from the discard pile and the 2 cards above it"


def test_a_step_kept_as_json_is_told_from_its_message_id(tmp_path) -> None:
    app = _app(tmp_path)
    kept = {"text": "discards 5♣", "text_said": say("discards %(card)s", card="5♣").to_json()}
    with app.test_request_context("/play"):
        assert told(kept) == "discards 5♣"
        assert told({"text": "an old step"}) == "an old step"  # kept before the ids
        assert told({"text": "x", "text_said": {"id": 3}}) == "x"  # a bad one: the words


def test_the_scripts_plural_words_reach_the_page_with_their_placeholders(tmp_path) -> None:
    app = _app(tmp_path)
    page = app.test_client().get("/play").get_data(as_text=True)
    found = re.search(r'data-words="([^"]*)"', page)
    assert found is not None
    words = json.loads(found.group(1).replace("&#34;", '"').replace("&amp;", "&"))
    assert words["hint_tried"] == {
        "zero": "(%(count)s deals tried)",
        "one": "(%(count)s deal tried)",
        "other": "(%(count)s deals tried)",
    }
    assert words["replay_stock"]["one"] == "(bottom first) · stock %(count)s card"


def test_pieces_made_once_are_kept_per_language(tmp_path) -> None:
    app = _app(tmp_path)
    taps.rendered_piece.cache_clear()
    step = {"who": "Ada", "kind": "move", "text": say("discards %(card)s", card="5♣")}
    step |= {"cards": ["5C"], "groups": []}
    with app.test_request_context("/play?lang=en"):
        english = taps.render_once("play/_step.html", s=step)
    with app.test_request_context("/play?lang=en_XA"):
        taps.render_once("play/_step.html", s=step)
    assert len(taps.rendered_piece.cache) == 2  # one piece per language
    assert "discards 5♣" in english and isinstance(step["text"], Message)
