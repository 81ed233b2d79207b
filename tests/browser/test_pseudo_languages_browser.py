"""The main pages in the two pseudo-languages at 360 px (issue 39, point 5): ``en_XA``
(every wrapped string accented and 40% longer) finds layouts that do not stretch and
strings that escaped wrapping; ``ar_XB`` (the same, right to left) shows that the layout
mirrors. The data is made once through the real flow, in English: a game with two rounds,
a group with a game and a profile, a digital game against a bot with melds on the table.
Then each page is opened in each pseudo-language (the switch's ``lang`` cookie) and:

- nothing overflows sideways (the document, and every visible element's box, except
  inside a box that scrolls or clips on purpose);
- in ``ar_XB``, ``<html dir="rtl">`` and the layout mirrored: the header's brand at the
  right, the standings' names to the right of their totals, the hand's first card to the
  right of its second, a meld's cards in reading order right to left;
- in ``en_XA``, the text still in plain English is listed (printed, and written to
  ``screenshots/pseudo-en_XA-plain-english.txt``): strings not wrapped yet.

Screenshots: ``tests/browser/screenshots/pseudo-<code>-<page>-360.png``. The pseudo
catalogues are compiled first when missing (``scripts/languages extract``/``compile``).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from scorekeeper.languages import LANGUAGES, PSEUDO, TRANSLATIONS
from tests.browser.conftest import SCREENSHOTS, make_group, save_net, serving, shot
from tests.browser.conftest import phone as new_phone
from tests.browser.test_play_browser import _play_melds, _round_over, _tap
from tests.conftest import make_app

NARROW = {"width": 360, "height": 780}
NAMES = ["Ann", "Bob", "Cat"]
SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "languages"
PAGES = [
    "home",
    "new-game",
    "game",
    "history",
    "round",
    "tv",
    "play",
    "digital-game",
    "rules",
    "checker",
    "group",
    "profile",
]
MAX_TURNS = 30

OVERFLOWING = """(slack) => {
  const width = document.documentElement.clientWidth;
  const scrolls = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const x = getComputedStyle(p).overflowX;
      if (x === "auto" || x === "scroll" || x === "hidden" || x === "clip") return true;
    }
    return false;
  };
  const found = [];
  for (const el of document.body.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (r.width <= 1 || r.height <= 1 || style.visibility === "hidden") continue;
    if (r.right <= width + slack && r.left >= -slack) continue;
    if (scrolls(el)) continue;
    const name = el.tagName.toLowerCase() + (el.className && typeof el.className === "string"
      ? "." + el.className.trim().split(/\\s+/).join(".") : "");
    found.push(`${name} [${Math.round(r.left)}, ${Math.round(r.right)}]: `
      + (el.innerText || "").trim().slice(0, 40));
  }
  return found;
}"""

PLAIN_ENGLISH = """() => {
  const skip = "script, style, code, .card, .pcard, .cards, .rule-id, [lang=en], .brand,"
    + " .who, .name, .owner-name, .chip, .sr, .visually-hidden, [hidden], noscript, svg,"
    + " option, time";
  const names = /^(Ann|Bob|Cat|Sam|Ada|Friday family|500 Rum)$/;
  const found = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.replace(/\\s+/g, " ").trim();
    if (!/[A-Za-z]{3,}/.test(text) || /^\\[|\\u202e/.test(text) || names.test(text)) continue;
    const el = node.parentElement;
    if (!el || el.closest(skip) || !el.getClientRects().length) continue;
    found.add(text.slice(0, 80));
  }
  for (const el of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
    for (const a of ["aria-label", "title", "placeholder"]) {
      const v = (el.getAttribute(a) || "").trim();
      const plain = /[A-Za-z]{3,}/.test(v) && !/^\\[|\\u202e/.test(v);
      if (plain && !names.test(v)) found.add(`${a}="${v.slice(0, 60)}"`);
    }
  }
  return [...found];
}"""


@pytest.fixture(scope="module", autouse=True)
def catalogues() -> None:
    """The pseudo-languages' compiled catalogues, made from the package's strings when
    missing (a fresh checkout after the translations folder was regenerated)."""
    missing = [c for c in PSEUDO if not (TRANSLATIONS / c / "LC_MESSAGES" / "messages.mo").exists()]
    if missing:
        for step in ("extract", "compile"):
            subprocess.run([sys.executable, str(SCRIPT), step], check=True, capture_output=True)


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[str]:
    """The app with the pseudo-languages offered, served from a thread: its base URL."""
    folder = tmp_path_factory.mktemp("pseudo")
    app = make_app(str(folder / "pseudo.sqlite3"), WTF_CSRF_ENABLED=True, LANGUAGES_PSEUDO=True)
    with serving(app) as base:
        yield base


@pytest.fixture(scope="module")
def phone(browser, served) -> Iterator[tuple[object, dict[str, str]]]:
    """One phone at 360 px that made the data in English (its games are on its home page):
    ``(page, paths)``, the path of each of :data:`PAGES`."""
    context, page = new_phone(browser, served, **NARROW)
    violations: list[str] = []
    page.on(
        "console",
        lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None,
    )
    (SCREENSHOTS / "pseudo-en_XA-plain-english.txt").unlink(missing_ok=True)
    paths = _scoresheet(page) | _group(page) | _digital(page)
    paths |= {"home": "/", "new-game": "/games/new", "play": "/play", "rules": "/rules"}
    paths["checker"] = "/check/meld?cards=7%E2%99%A5+8%E2%99%A5+9%E2%99%A5"
    yield page, paths
    context.close()
    assert violations == [], f"a page broke its Content-Security-Policy: {violations}"


def _scoresheet(page) -> dict[str, str]:
    """A game of three with two rounds recorded: its pages."""
    page.goto("/games/new")
    for i, name in enumerate(NAMES):
        page.fill(f"#player_{i}", name)
    page.get_by_role("button", name="Start the game").click()
    save_net(page, NAMES, ["85", "20", "35"], "Ann", 1)
    save_net(page, NAMES, ["15", "120", "40"], "Bob", 2)
    game = urlsplit(page.url).path
    return {
        "game": game,
        "history": f"{game}/history",
        "round": f"{game}/rounds/new",
        "tv": f"{game}/tv",
    }


def _group(page) -> dict[str, str]:
    """A group of three with one game played from its page: the group and a profile."""
    group = make_group(page, "Friday family", NAMES)
    page.get_by_role("link", name="New game").click()
    page.select_option("#preset", "quick")
    page.get_by_role("button", name="Start the game").click()
    save_net(page, NAMES, ["110", "20", "5"], "Ann", 1)
    page.goto(group)
    profile = page.get_by_role("link", name="Ann", exact=True).get_attribute("href")
    assert profile
    return {"group": urlsplit(group).path, "profile": profile}


def _digital(page) -> dict[str, str]:
    """A game against one bot, played by taps until a meld is on the table."""
    page.goto("/play")
    page.fill("#name", "Sam")
    page.select_option("#bot_0", "casual")
    page.fill("#seed", "1")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector(".hand .hcard")
    for _turn in range(MAX_TURNS):
        if page.locator(".public .meld .pcard").count():
            break
        if _round_over(page):
            _tap(page, page.get_by_role("button", name="Next round"))
            continue
        _tap(page, page.get_by_role("button", name="Draw", exact=True))
        _play_melds(page)
        if _round_over(page) or page.locator(".public .meld .pcard").count():
            continue
        page.locator(".hand label").last.click()
        _tap(page, page.locator(".playbar button[value=discard]"))
    assert page.locator(".public .meld .pcard").count(), "no meld on the table"
    return {"digital-game": urlsplit(page.url).path}


def _open(page, served: str, paths: dict[str, str], name: str, code: str) -> None:
    """The page ``name`` in the language ``code`` (the switch's cookie; the TV, which keeps
    its game's language, by ``?lang=`` in its address), loaded."""
    page.context.add_cookies([{"name": "lang", "value": code, "url": served}])
    page.goto(paths[name] + (f"?lang={code}" if name == "tv" else ""))
    page.wait_for_load_state("load")
    if name == "digital-game":
        page.wait_for_selector(".hand .hcard")


def _left(page, selector: str, nth: int = 0) -> float:
    box = page.locator(selector).nth(nth).bounding_box()
    assert box is not None, f"{selector} is not on the page"
    return float(box["x"])


def _fits(page, name: str, code: str) -> None:
    wide = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    outside = page.evaluate(OVERFLOWING, 1)
    for link in page.locator(".top nav a").all():  # the nav may scroll, but none is cut
        box = link.bounding_box()
        if box is not None and not 0 <= box["x"] <= box["x"] + box["width"] <= wide[1] + 1:
            outside.append(f"nav a [{box['x']:.0f}, {box['x'] + box['width']:.0f}]")
    assert wide[0] <= wide[1] + 1 and outside == [], (
        f"{name} in {code} overflows sideways at 360 px: {wide}, {outside}"
    )


def _mirrored(page, name: str) -> None:
    """ar_XB: right to left, and the page's rows in mirrored order."""
    assert page.get_attribute("html", "dir") == "rtl"
    if name != "tv":  # the TV has no header
        assert _left(page, ".top .brand") > _left(page, ".top nav"), "the brand is not at the right"
    if name in ("game", "tv"):
        assert _left(page, ".standing .name") > _left(page, ".standing .total")
    if name == "digital-game":
        first, second = _left(page, ".hand .hcard", 0), _left(page, ".hand .hcard", 1)
        assert first > second, "the hand's first card is not to the right of its second"
        meld = page.locator(".public .meld").first.locator(".pcard")
        assert meld.count() >= 3
        lefts = [meld.nth(i).bounding_box()["x"] for i in range(meld.count())]
        assert lefts == sorted(lefts, reverse=True), "a meld's cards do not read right to left"


@pytest.mark.parametrize("name", PAGES)
@pytest.mark.parametrize("code", list(PSEUDO))
def test_the_page_stretches_and_mirrors_in_the_pseudo_language(phone, served, code, name):
    page, paths = phone
    _open(page, served, paths, name, code)
    shot(page, f"pseudo-{code}-{name}-360")
    if name == "digital-game":  # the board, which the docked hand covers in a full page shot
        page.evaluate("document.querySelector('.dock').style.position = 'static'")
        shot(page, f"pseudo-{code}-board-360")
        page.evaluate("document.querySelector('.dock').style.position = ''")
    if code == "ar_XB":
        _mirrored(page, name)
    else:
        assert page.get_attribute("html", "dir") == "ltr"
        assert name == "tv" or _left(page, ".top .brand") < _left(page, ".top nav")
        plain = page.evaluate(PLAIN_ENGLISH)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        with (SCREENSHOTS / f"pseudo-{code}-plain-english.txt").open("a") as f:
            f.writelines(f"{name}: {text}\n" for text in plain)
        print(f"{name}: still plain English: {plain}")
    _fits(page, name, code)


@pytest.mark.parametrize("name", PAGES)
@pytest.mark.parametrize("code", [code for code in LANGUAGES if code != "en"])
def test_the_page_fits_in_each_language(phone, served, code, name):
    """Each real language at 360 px: its ``<html lang>``, left to right, and nothing
    overflowing sideways."""
    page, paths = phone
    _open(page, served, paths, name, code)
    shot(page, f"language-{code}-{name}-360")
    assert page.get_attribute("html", "lang") == code.replace("_", "-")
    assert page.get_attribute("html", "dir") == "ltr"
    _fits(page, name, code)
