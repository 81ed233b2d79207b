"""Every main page in every language: ``<html lang>`` set, and no English left.

The data is made through the real flow (a group and its players, a game at the table with
two rounds recorded through the round form, a digital game played to its end and one in
play, through /play's moves). Then each page is read:

- in the accented pseudo-language (``en_XA``), where every wrapped string comes out
  accented, any plain ASCII word of three letters or more that is not a name people typed
  (or bots' names, or the brand) is a string left out of the catalogues;
- in Spanish, French, German and Brazilian Portuguese, no text (or ``title``,
  ``aria-label``, ``placeholder``, ``alt``) reads as an English sentence: none is an
  English message id whose translation differs, and none holds two English function words.

Quotations of the rule texts (``lang="en"``), anything marked ``translate="no"`` and what
scripts and styles hold are left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.languages import LANGUAGES, TRANSLATIONS
from tests.conftest import make_app
from tests.players.conftest import Night

NAMES = {"Ann", "Bob", "Cat", "Dee", "Sam", "Friday", "Rum"} | {
    "Ada", "Bea", "Dot", "Eli", "Fay", "Gus",
}  # fmt: skip
"""Words people typed (players, the group) and bots' names: never translated."""
FORMATTED = {"and", "UTC", "AM", "PM"} | {
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
}  # fmt: skip
"""Words the pseudo-language's formatting gives: it formats lists, dates and times as
English (Babel's ``en``), whose words are Babel's, not the catalogues'."""
SKIPPED = {"script", "style", "template", "svg"}
ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
ENGLISH_WORDS = {
    "the", "and", "of", "is", "your", "this", "with", "you", "are", "that", "which",
    "from", "has", "have", "been", "their", "there", "when", "each", "yet", "its",
}  # fmt: skip
"""Words of English sentences that none of the other languages uses as a word."""


class _Texts(HTMLParser):
    """The texts a person reads in a page: text nodes and a few attributes, outside
    scripts, styles, anything marked as written in a language of its own (``lang``: the
    rule texts' quotations, each language's own name in the switch) and anything marked
    ``translate="no"`` (room codes, file formats)."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
            "source", "track", "wbr"}  # fmt: skip

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []
        self.texts: list[str] = []
        self.lang = ""

    def _hidden(self) -> bool:
        return any(skipped for _tag, skipped in self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "html":
            self.lang = values.get("lang") or ""
        skipped = (
            tag in SKIPPED
            or (tag != "html" and bool(values.get("lang")))
            or values.get("translate") == "no"
        )
        if not self._hidden() and not skipped:
            self.texts.extend(values[name] or "" for name in ATTRIBUTES if values.get(name))
        if tag not in self.VOID:
            self.stack.append((tag, skipped))

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                break

    def handle_data(self, data: str) -> None:
        if data.strip() and not self._hidden():
            self.texts.append(" ".join(data.split()))


def texts_of(page: str) -> tuple[str, list[str]]:
    """``(the <html lang>, the texts a person reads)`` of ``page``."""
    parser = _Texts()
    parser.feed(page)
    return parser.lang, parser.texts


@dataclass
class Site:
    """The app with its data made through the real flow, and the paths of its main pages."""

    app: Flask
    client: FlaskClient
    paths: dict[str, str] = field(default_factory=dict)


def _round(client: FlaskClient, game: str, went_out: int, shown: list[int], held: list[int]):
    path = f"/games/{game}/rounds/new"
    data = {"mode": "totals", "action": "save", "went_out": str(went_out)}
    page = client.get(path).get_data(as_text=True)
    data |= dict(re.findall(r'<input id="(\w+)" name="\w+" type="hidden" value="([^"]*)"', page))
    for seat, (s, h) in enumerate(zip(shown, held, strict=True)):
        data |= {f"shown-{seat}": str(s), f"in_hand-{seat}": str(h), f"adjust-{seat}": ""}
    answer = client.post(path, data=data)
    assert answer.status_code in (302, 303), answer.get_data(as_text=True)[:500]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    app = make_app(str(tmp_path_factory.mktemp("pages") / "db.sqlite3"), LANGUAGES_PSEUDO=True)
    client = app.test_client()
    night = Night(app, client)
    group = night.make_group("Friday", ("Ann", "Bob", "Cat"))
    game = night.start(("Ann", "Bob", "Cat"))
    _round(client, game, 0, [60, 25, 10], [0, 15, 30])
    _round(client, game, 1, [20, 75, 5], [10, 0, 45])
    finished = night.play_digital("Dee", seed=3, target=100)
    playing = client.post("/play", data={"name": "Sam", "preset": "standard", "bot_0": "casual"})
    assert playing.status_code == 302
    slug = playing.headers["Location"].split("?")[0].rsplit("/", 1)[-1]
    member = night.member("Ann")
    client.get("/")  # the flashes of the posts above (said in English) are shown once
    site = Site(app, client)
    site.paths = {
        "home": "/",
        "new game": "/games/new",
        "game": f"/games/{game}",
        "round form": f"/games/{game}/rounds/new",
        "history": f"/games/{game}/history",
        "share": f"/games/{game}/share",
        "tv": f"/games/{game}/tv",
        "import": "/games/import",
        "play": "/play",
        "digital game": f"/play/{slug}",
        "digital rounds": f"/play/{finished}/rounds",
        "finished game": f"/play/{finished}",
        "replay": f"/play/{finished}/replay",
        "new table": "/play/table",
        "rules": "/rules",
        "a rule": "/rules/M4",
        "checker": "/check",
        "meld check": "/check/meld?cards=7H+8H+9H",
        "lay-off check": "/check/layoff?meld=5C+6C+7C&cards=8C+9C+10C",
        "discard check": "/check/discard?preset=jokers-wild&pile=3C+KH&hand=AH+JK+4S+8D",
        "score check": "/check/score?" + "&".join(f"{k}={v}" for k, v in SCORED.items()),
        "groups": "/groups/",
        "new group": "/groups/new",
        "group": f"/groups/{group}",
        "profile": f"/groups/{group}/players/{member}",
        "season": f"/groups/{group}/season",
        "versus": f"/groups/{group}/versus",
        "group share": f"/groups/{group}/share",
    }
    yield site


SCORED = {
    "go": "1", "p1": "Ann", "p2": "Bob", "p3": "Cat", "out": "1", "m1": "7H+7S+7D",
    "mo1": "1", "m2": "", "m3": "3C+4C+5C", "mo3": "2", "l1": "6C", "lo1": "3", "lm1": "3",
    "h1": "", "h2": "KD", "h3": "2S+9H", "t1": "120", "t2": "35", "t3": "-10",
}  # fmt: skip
"""A round scored by the checker (tests/rules/test_checker.py's example)."""

PAGES = [
    "home", "new game", "game", "round form", "history", "share", "tv", "import", "play",
    "digital game", "digital rounds", "finished game", "replay", "new table", "rules",
    "a rule", "checker", "meld check", "lay-off check", "discard check", "score check",
    "groups", "new group", "group", "profile", "season", "versus", "group share",
]  # fmt: skip


def _read(site: Site, page: str, language: str) -> tuple[str, list[str]]:
    path = site.paths[page]
    joiner = "&" if "?" in path else "?"
    answer = site.client.get(f"{path}{joiner}lang={language}")
    assert answer.status_code == 200, (page, answer.status_code)
    return texts_of(answer.get_data(as_text=True))


def _unwrapped(text: str) -> list[str]:
    """The plain ASCII words of ``text`` that a wrapped string cannot hold: URLs and
    paths, names and words of under three letters aside."""
    text = re.sub(r"\S*(://|/)\S*", " ", text)
    words = re.findall(r"[A-Za-z\u00c0-\u024f\u1e00-\u1eff]{3,}", text)
    return [word for word in words if word.isascii() and word not in NAMES | FORMATTED]


@pytest.mark.parametrize("page", PAGES)
def test_no_string_is_left_out_of_the_catalogues(site: Site, page: str) -> None:
    lang, texts = _read(site, page, "en_XA")
    assert lang == "en-XA"
    left = [text for text in texts if _unwrapped(text)]
    assert not left, f"{page}: plain English, not wrapped: {left[:8]}"


def _english_ids(code: str) -> set[str]:
    """The English message ids whose translation in ``code`` differs from them."""
    with (TRANSLATIONS / code / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f, locale=code)
    ids = set()
    for message in catalog:
        if message.id and not isinstance(message.id, (tuple, list)):
            if message.string and message.string != message.id and " " in message.id:
                ids.add(" ".join(message.id.split()))
    return ids


@pytest.mark.parametrize("code", sorted(code for code in LANGUAGES if code != "en"))
def test_every_main_page_reads_in_the_language(site: Site, code: str) -> None:
    english = _english_ids(code)
    found = []
    for page in PAGES:
        lang, texts = _read(site, page, code)
        assert lang == code.replace("_", "-"), page
        for text in texts:
            words = set(re.findall(r"[a-z]+", text.lower()))
            if text in english or len(words & ENGLISH_WORDS) >= 2:
                found.append((page, text))
    assert not found, f"{code}: English left: {found[:8]}"
