"""The game page's round entry in Chromium at a phone's size: a 4-player round in a few
taps with no page load, the toast's Undo, a save made offline and sent once when the
connection returns, and two phones saving the same round (the conflict shown, nothing
lost). Screenshots at 390 and 360 px wide."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from tests.browser.conftest import PHONE, phone, shot
from tests.conftest import make_app
from tests.table.test_costs import _long_game

NAMES = ["Ann", "Bob", "Cat", "Dee"]
COUNT_TAPS = """() => {
  window.marker = "same page";
  window.taps = 0;
  document.addEventListener("pointerdown", () => { window.taps += 1; }, true);
}"""


def _start(page, names=NAMES):
    page.goto("/games/new")
    for i, name in enumerate(names):
        page.fill(f"#player_{i}", name)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector("#entry")


def _type(page, label: str, digits: str) -> None:
    page.get_by_label(label, exact=True).click()
    page.keyboard.type(digits)


def _totals(page) -> list[int]:
    """Each player's total, in seat order (the standings list the leader first)."""
    names = page.locator(".standing .name").all_inner_texts()
    totals = page.locator(".standing .total").all_inner_texts()
    by_name = dict(zip(names, totals, strict=True))
    return [int(by_name[n]) for n in NAMES if n in by_name]


def _rounds(page) -> list[dict]:
    slug = page.url.rstrip("/").rsplit("/", 1)[-1]
    text = page.context.request.get(f"/games/{slug}/export.json").text()
    return json.loads(text)["rounds"]


def test_net_round_in_six_taps_without_a_page_load(page):
    _start(page)
    page.evaluate(COUNT_TAPS)
    shot(page, "entry-01-empty-390")
    for name, digits in zip(NAMES, ["85", "20", "35", "5"], strict=True):
        _type(page, f"{name}, round score", digits)
    page.locator("label.out", has_text="Ann").click()
    page.wait_for_selector(".preview-list")
    assert "+85" in page.inner_text("#entry-preview")
    shot(page, "entry-02-net-typed-390")
    page.get_by_role("button", name="Save round").click()
    page.wait_for_selector(".toast:has-text('Round 1 saved')")
    assert page.evaluate("window.taps") == 6
    assert page.evaluate("window.marker") == "same page"
    assert _totals(page) == [85, 20, 35, 5]
    assert page.input_value("#net-0") == "" and "round 2" in page.inner_text(".dealer")
    assert page.inner_text("[data-round-number]") == "2"
    shot(page, "entry-03-saved-toast-390")

    # a negative figure costs one more tap (±); the toast's Undo takes the round back
    page.evaluate("window.taps = 0")
    _type(page, "Ann, round score", "15")
    page.locator("#net-0 ~ button[data-sign]").click()
    _type(page, "Bob, round score", "60")
    page.locator("label.out", has_text="Bob").click()
    page.get_by_role("button", name="Save round").click()
    page.wait_for_selector(".toast:has-text('Round 2 saved')")
    assert page.evaluate("window.taps") == 5 and _totals(page) == [70, 80, 35, 5]
    page.locator(".toast").get_by_role("button", name="Undo").click()
    page.wait_for_selector(".toast:has-text('Undone')")
    assert _totals(page) == [85, 20, 35, 5]
    assert page.evaluate("window.marker") == "same page"
    assert len(_rounds(page)) == 1


def test_shown_in_hand_infers_who_went_out(page):
    _start(page)
    page.evaluate(COUNT_TAPS)
    page.locator(".modes label", has_text="Shown / in hand").click()
    for name, shown, hand in zip(NAMES, ["40", "10", "", "20"], ["", "15", "5", "10"], strict=True):
        if shown:
            _type(page, f"{name}, shown", shown)
        if hand:
            _type(page, f"{name}, in hand", hand)
    page.wait_for_selector(".preview-list")
    page.wait_for_selector("input[name=went_out][value='0']:checked", state="attached")
    shot(page, "entry-04-shown-in-hand-390")
    page.get_by_role("button", name="Save round").click()
    page.wait_for_selector(".toast:has-text('Round 1 saved')")
    assert page.evaluate("window.taps") == 8  # mode, 6 fields, save
    assert _totals(page) == [40, -5, -5, 10]
    assert page.evaluate("window.marker") == "same page"


def test_at_360_px_wide(browser, live_server):
    context, page = phone(browser, live_server, width=360)
    _start(page, ["Annabelle", "Bob", "Catherine", "Dee"])
    _type(page, "Annabelle, round score", "125")
    page.locator("label.out", has_text="Catherine").click()
    shot(page, "entry-05-net-360")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360
    page.locator(".modes label", has_text="Shown / in hand").click()
    shot(page, "entry-06-shown-in-hand-360")
    context.close()


def test_offline_save_is_kept_and_sent_once(page):
    _start(page)
    page.evaluate(COUNT_TAPS)
    page.context.set_offline(True)
    page.wait_for_selector("#netstate.offline")
    _type(page, "Ann, round score", "50")
    _type(page, "Bob, round score", "10")
    page.locator("label.out", has_text="Ann").click()
    page.get_by_role("button", name="Save round").click()
    page.wait_for_selector("#pending:has-text('waiting to sync')")
    assert "Round 1" in page.inner_text("#pending")
    shot(page, "entry-07-offline-queued-390")
    page.context.set_offline(False)
    page.wait_for_selector(".toast:has-text('Round 1 saved')")
    assert page.is_hidden("#pending") and not page.locator("#netstate.offline").count()
    assert _totals(page) == [50, 10, 0, 0]
    poll = page.locator("#live").get_attribute("data-poll") or ""
    for _ in range(2):  # two polls later (each may send the queue again): still one round
        with page.expect_response(lambda answer: answer.url.endswith(poll)):
            pass
    assert len(_rounds(page)) == 1
    assert page.evaluate("window.marker") == "same page"


def test_typed_figures_survive_a_reload(page):
    _start(page)
    _type(page, "Cat, round score", "42")
    page.locator("label.out", has_text="Cat").click()
    page.reload()
    assert page.input_value("#net-2") == "42"
    assert page.is_checked("input[name=went_out][value='2']")


def test_two_phones_save_the_same_round_and_the_conflict_is_shown(page, browser, live_server):
    _start(page)
    share = page.url
    edit_link = page.context.request.get(share.replace("/games/", "/games/") + "/share").text()
    path = edit_link.split("/edit/", 1)[1].split('"', 1)[0]
    other_context, other = phone(browser, live_server)
    other.goto(share + "/edit/" + path)
    other.wait_for_selector("#entry")

    page.context.set_offline(True)
    page.wait_for_selector("#netstate.offline")
    _type(page, "Ann, round score", "30")
    page.locator("label.out", has_text="Ann").click()
    page.get_by_role("button", name="Save round").click()
    page.wait_for_selector("#pending:has-text('waiting to sync')")

    _type(other, "Bob, round score", "90")
    other.locator("label.out", has_text="Bob").click()
    other.get_by_role("button", name="Save round").click()
    other.wait_for_selector(".toast:has-text('Round 1 saved')")

    page.context.set_offline(False)
    page.wait_for_selector("#conflict:has-text('two versions')")
    text = page.inner_text("#conflict")
    assert "Theirs (saved): Ann 0 · Bob 90 · Cat 0 · Dee 0" in text
    assert "Yours (on this phone): Ann 30 · Bob 0 · Cat 0 · Dee 0 · Ann went out" in text
    assert len(_rounds(page)) == 1
    shot(page, "entry-08-conflict-390")
    page.get_by_role("button", name="Save mine as round 2").click()
    page.wait_for_selector(".toast:has-text('Round 2 saved')")
    assert [r["input"]["went_out"] for r in _rounds(page)] == ["Bob", "Ann"]
    assert _totals(page) == [30, 90, 0, 0]
    other_context.close()


def test_back_after_a_save_on_a_rounds_own_page_lands_on_the_game_page(page):
    _start(page)
    game = page.url
    page.get_by_role("link", name="By cards").click()
    page.get_by_role("link", name="Shown / in hand").click()
    page.select_option("#went_out", label="Cat")
    page.fill("#shown-2", "60")
    page.fill("#in_hand-0", "15")
    page.get_by_role("button", name="Preview").click()
    page.wait_for_selector("#preview")
    assert "/rounds/new" in page.url
    page.get_by_role("button", name="Save round").click()
    page.wait_for_selector(".flash-success:has-text('Round saved')")
    assert page.url == game and _totals(page) == [-15, 0, 60, 0]
    page.go_back()
    page.wait_for_selector(".standings")
    assert page.url == game and len(_rounds(page)) == 1


def test_where_jokers_are_not_wild_the_joker_is_a_plain_jk(page):
    page.goto("/games/new")
    for i, name in enumerate(NAMES):
        page.fill(f"#player_{i}", name)
    page.select_option("#preset", value="persian")
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="By cards").click()
    grid = page.locator("fieldset[data-deal]").first.locator(".deal")  # Ann's
    grid.get_by_role("button", name="Joker").click()
    expect(page.locator("#meld-0-0")).to_have_value("JK")


def test_without_javascript_the_entry_is_a_plain_form(browser, live_server):
    context = browser.new_context(
        viewport=PHONE, java_script_enabled=False, base_url=live_server, is_mobile=True
    )
    page = context.new_page()
    _start(page)
    game = page.url
    page.get_by_label("Ann, round score", exact=True).fill("-15")
    page.get_by_label("Bob, round score", exact=True).fill("60")
    page.locator("label.out", has_text="Bob").click()
    page.get_by_role("button", name="Save round").click()
    page.wait_for_selector(".flash-success")
    assert page.url == game and _totals(page) == [-15, 60, 0, 0]
    page.get_by_label("Ann, round score", exact=True).fill("abc")
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("main")).to_contain_text("Not a valid integer value")
    assert page.get_by_label("Ann, round score", exact=True).input_value() == "abc"
    context.close()


def test_watchers_see_last_updated_and_reconnecting(browser, live_server, page):
    _start(page)
    context, watcher = phone(browser, live_server)
    watcher.goto(page.url)
    assert watcher.locator("#entry").count() == 0
    assert "Last updated" in watcher.inner_text("#netstate")
    context.set_offline(True)
    watcher.wait_for_selector("#netstate.offline")
    assert "reconnecting" in watcher.inner_text("#netstate")
    shot(watcher, "entry-09-watcher-offline-390")
    context.set_offline(False)
    watcher.wait_for_selector("#netstate:not(.offline)")
    context.close()


def test_service_worker_keeps_an_opened_game_for_reading_offline(page):
    _start(page)
    game = page.url
    page.wait_for_function(
        "navigator.serviceWorker && navigator.serviceWorker.controller !== null"
        " || (location.reload(), false)",
        polling=1000,
    )
    page.goto(game)
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    page.goto(game)
    assert page.locator(".standings").count() == 1 and page.locator("#entry").count() == 1
    page.context.set_offline(False)


def test_a_field_tapped_again_is_retyped_not_appended_to(page):
    _start(page)
    _type(page, "Ann, round score", "5")
    _type(page, "Bob, round score", "7")
    _type(page, "Ann, round score", "85")
    assert page.input_value("#net-0") == "85"
    assert page.get_attribute("#net-0", "inputmode") == "numeric"
    assert page.get_attribute("#net-0", "placeholder") == "0"


LIVE_TREE = """() => {
  const walk = (n) => {
    if (n.nodeType === 3) {
      const t = n.textContent.replace(/\\s+/g, " ").trim();
      return t ? JSON.stringify(t) : "";
    }
    if (n.nodeType !== 1) return "";
    const attrs = Array.from(n.attributes).map((a) => a.name + "=" + a.value);
    const inside = Array.from(n.childNodes).map(walk).join("");
    return "<" + n.tagName + " " + attrs.sort().join(" ") + ">" + inside + "</>";
  };
  return walk(document.getElementById("live"));
}"""


QUIET = """() => {
  document.querySelectorAll("#toast, .flash").forEach((e) => e.remove());
  if (document.activeElement) document.activeElement.blur();
}"""
LIVE_PARTS = (".standings", ".dealer", "table.rounds", ".chart")


def _swapped_in_as_served(page, name: str) -> None:
    """The game's changing part, once the script put a save's answer in place (the parts
    the server rendered for the new round), is the one the server sends on a reload: the
    same elements, attributes and words, and the same pixels (each part of it at the same
    place: nothing focused, no toast, no flashed message)."""
    page.evaluate(QUIET)
    swapped = page.evaluate(LIVE_TREE)
    pixels = [page.locator(f"#live {part}").screenshot() for part in LIVE_PARTS]
    shot(page, name)
    page.reload()
    page.wait_for_selector("#live .standings")
    page.evaluate(QUIET)
    assert page.evaluate(LIVE_TREE) == swapped
    for part, before in zip(LIVE_PARTS, pixels, strict=True):
        again = page.locator(f"#live {part}").screenshot()
        assert again == before, part


def _save_net(page, figures, out: str, number: int) -> None:
    for name, digits in zip(NAMES, figures, strict=True):
        page.get_by_label(f"{name}, round score", exact=True).fill(digits)
    page.locator("label.out", has_text=out).click()
    page.get_by_role("button", name="Save round").click()
    page.wait_for_selector(f".toast:has-text('Round {number} saved')")


def test_a_saved_round_is_swapped_in_as_the_page_shows_it_after_a_reload(page, tmp_path):
    _start(page)
    _save_net(page, ["85", "-20", "35", "0"], "Ann", 1)
    _save_net(page, ["-15", "60", "0", "5"], "Bob", 2)
    assert _totals(page) == [70, 40, 35, 5]
    _swapped_in_as_served(page, "entry-10-second-round-saved-390")


def test_a_save_past_the_rounds_shown_is_swapped_in_as_after_a_reload(page, tmp_path):
    slug, edit = _long_game(make_app(str(tmp_path / "browser.sqlite3")), 20)
    page.goto(f"/games/{slug}/edit/{edit}")
    page.wait_for_selector("#entry")
    _save_net(page, ["30", "0", "-25", "10"], "Ann", 21)
    rows = page.locator("table.rounds tbody tr td:first-child")
    assert rows.first.inner_text().strip() == "2" and rows.count() == 20
    assert "Rounds 2 to 21 of 21" in page.inner_text(".older")
    _swapped_in_as_served(page, "entry-11-round-21-saved-390")
