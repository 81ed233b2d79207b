"""The TV / big-screen view of a table game (issue 26, item 1): reached with the view link
only, showing the standings toward the target, the next dealer (Persian's "Deal 1 of 2",
P5), the last round and a QR code of the view link, and the winner once the last round
is saved through the real form."""

from __future__ import annotations

import re

import pytest

from tests.table.test_pages import GameActions


@pytest.fixture
def games(client, app) -> GameActions:
    return GameActions(client, app)


def _tv(client, slug: str) -> str:
    response = client.get(f"/games/{slug}/tv")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_tv_needs_the_view_link_and_never_offers_a_change(games, client, app):
    slug = games.start(("Ann", "Bob", "Cat"))
    assert client.get("/games/no-such-game/tv").status_code == 404
    assert client.get("/games/no-such-game/tv/live").status_code == 404
    watcher = app.test_client()  # a TV that only opened the view link
    page = _tv(watcher, slug)
    assert "/rounds/new" not in page and "/edit/" not in page and "Edit" not in page
    assert f"/games/{slug}" in page.split('class="tv-url">', 1)[1]  # the QR code's link
    assert "<svg" in page.split('class="qr"', 1)[1]


def test_tv_shows_standings_progress_next_dealer_and_the_last_round(games, client):
    slug = games.start(("Ann", "Bob", "Cat"), target="300")
    page = _tv(client, slug)
    assert "Next deal: <strong>Ann</strong> · round 1" in page
    assert "No round yet" in page
    assert games.totals(0, [120, 40, 10], [0, 15, 35]).status_code == 303
    page = _tv(client, slug)
    assert "Next deal: <strong>Bob</strong> · round 2" in page
    assert re.search(r'aria-valuetext="120 of 300"', page)  # Ann's progress toward 300
    assert "180 to go" in page
    last = page.split('class="tv-last"', 1)[1]
    assert "Round 1" in last and "+120" in last and "+25" in last and "-25" in last


def test_tv_of_a_persian_game_says_which_of_the_two_deals_is_next(games, client):
    slug = games.start(("Ann", "Bob", "Cat", "Dee"), preset="persian")
    assert "Deal 1 of 2" in _tv(client, slug)
    games.totals(0, [40, 10, 20, 5], [0, 10, 5, 20])
    page = _tv(client, slug)
    assert "Deal 2 of 2" in page and "Ann &amp; Cat" in page and "Bob &amp; Dee" in page


def test_tv_shows_the_winner_after_the_last_round_saved_through_the_form(games, client):
    slug = games.start(("Ann", "Bob"), target="100")
    before = client.get(f"/games/{slug}/tv/live")
    assert "tv-winner" not in before.get_data(as_text=True)
    assert games.totals(0, [150, 10], [0, 5]).status_code == 303
    live = client.get(f"/games/{slug}/tv/live", headers={"If-None-Match": before.headers["ETag"]})
    assert live.status_code == 200  # the version moved: a new fragment
    fragment = live.get_data(as_text=True)
    assert 'class="tv-winner"' in fragment and "Ann wins!" in fragment
    banner = fragment.split('class="tv-winner"', 1)[1].split("</section>", 1)[0]
    assert banner.count("Ann") == 1 and "<p>Reached the target</p>" in banner  # named once
    assert "Next deal" not in fragment
    again = client.get(f"/games/{slug}/tv/live", headers={"If-None-Match": live.headers["ETag"]})
    assert again.status_code == 304


def test_the_persian_winner_banner_names_the_side_once(games, client):
    slug = games.start(("Ann", "Bob", "Cat", "Dee"), preset="persian")
    games.totals(0, [40, 10, 20, 5], [0, 10, 5, 20])
    games.totals(1, [40, 60, 20, 5], [10, 0, 5, 20])
    fragment = client.get(f"/games/{slug}/tv/live").get_data(as_text=True)
    banner = fragment.split('class="tv-winner"', 1)[1].split("</section>", 1)[0]
    assert "Ann &amp; Cat win!" in banner and "<p>After two deals</p>" in banner
    assert banner.count("Ann") == 1


def test_tv_is_reached_from_the_share_page_and_the_game_page(games, client, app):
    slug = games.start(("Ann", "Bob"))
    watcher = app.test_client()
    for path in (f"/games/{slug}", f"/games/{slug}/share"):
        assert f'href="/games/{slug}/tv"' in watcher.get(path).get_data(as_text=True)


# Issue 37, item 7: the Persian TV counts the +50 of the better side (P5) in the last deal's
# rise and says who pays whom; so do the shared text and the picture.


def _persian_won(games) -> str:
    slug = games.start(("Ann", "Bob", "Cat", "Dee"), preset="persian")
    games.totals(0, [40, 10, 20, 5], [0, 10, 5, 20])
    games.totals(0, [200, 10, 130, 5], [0, 5, 10, 0])
    return slug


def _totals(games) -> dict[str, int]:
    now = games.totals_now()
    return {"Ann & Cat": now["Ann"] + now["Cat"], "Bob & Dee": now["Bob"] + now["Dee"]}


def test_the_persian_tv_shows_the_full_rise_with_the_bonus_and_the_settlement(games, client):
    slug = _persian_won(games)
    before = games.rounds()[0]["response"]["players"]
    totals = _totals(games)
    rise = totals["Ann & Cat"] - before["Ann"]["total"] - before["Cat"]["total"]
    fragment = client.get(f"/games/{slug}/tv/live").get_data(as_text=True)
    last = fragment.split('class="tv-last"', 1)[1]
    assert "Deal 2" in last and f"+{rise}" in last  # the 50 counted in
    assert "+50</span> Ann &amp; Cat: the better score after two deals" in last
    pays = totals["Ann & Cat"] - totals["Bob & Dee"]
    assert f"pay Ann &amp; Cat {pays}" in fragment
    assert f"collects {pays}" in fragment


def test_the_shared_text_and_picture_of_a_persian_game_say_the_bonus_and_who_pays(games, client):
    slug = _persian_won(games)
    totals = _totals(games)
    pays = totals["Ann & Cat"] - totals["Bob & Dee"]
    page = client.get(f"/games/{slug}").get_data(as_text=True)
    text = page.split('class="result-text"', 1)[1].split("</textarea>", 1)[0]
    assert "Deal 2: Ann &amp; Cat +" in text
    said = "(Ann &amp; Cat +25: going out (P4); Ann &amp; Cat +50: the better score after two deals"
    assert f"{said} (P5))" in text
    assert text.endswith(f"Bob &amp; Dee pay Ann &amp; Cat {pays}")
    svg = client.get(f"/games/{slug}/result.svg").get_data(as_text=True)
    assert f"Bob &amp; Dee pay Ann &amp; Cat {pays}</text>" in svg
    assert "the better score after two deals" in svg


def test_tv_of_a_standard_game_names_no_bonus_and_no_settlement_before_the_end(games, client):
    slug = games.start(("Ann", "Bob", "Cat"), target="300")
    games.totals(0, [120, 40, 10], [0, 15, 35])
    fragment = client.get(f"/games/{slug}/tv/live").get_data(as_text=True)
    assert "tv-bonus" not in fragment and " pays " not in fragment and "collects" not in fragment
