"""The API's human messages: English by default (other programs read them), in the
language ``?lang=`` asks for; field names and machine values never change."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from scorekeeper.languages.pseudo import accented
from tests.conftest import make_app

NOT_AN_OBJECT = "the body must be a JSON object"


@pytest.fixture
def pseudo_app(tmp_path) -> Iterator[Flask]:
    """The app with the pseudo-languages offered."""
    yield make_app(str(tmp_path / "api.sqlite"), LANGUAGES_PSEUDO=True)


def test_an_api_error_is_english_without_lang(pseudo_app: Flask):
    client = pseudo_app.test_client()
    answer = client.post("/api/v1/meld-check", json=[], headers={"Accept-Language": "fr"})
    assert answer.status_code == 422
    assert answer.get_json() == {"errors": [{"where": "request", "message": NOT_AN_OBJECT}]}


def test_an_api_error_is_in_the_language_lang_asks(pseudo_app: Flask):
    client = pseudo_app.test_client()
    answer = client.post("/api/v1/meld-check?lang=en_XA", json=[])
    assert answer.status_code == 422
    body = answer.get_json()
    assert body == {"errors": [{"where": "request", "message": accented(NOT_AN_OBJECT)}]}
    assert body["errors"][0]["message"] != NOT_AN_OBJECT


def test_a_bad_card_keeps_its_fields_in_any_language(pseudo_app: Flask):
    client = pseudo_app.test_client()
    body = {"cards": ["7H"] * 30}
    english = client.post("/api/v1/meld-check", json=body).get_json()
    pseudo = client.post("/api/v1/meld-check?lang=en_XA", json=body).get_json()
    assert [e["where"] for e in english["errors"]] == [e["where"] for e in pseudo["errors"]]
    assert english["errors"][0]["message"].startswith("a list of 1 to 26 cards")
    assert pseudo["errors"][0]["message"].startswith("[")
    assert "26" in pseudo["errors"][0]["message"]
