"""The ladder of bots on the web (issue 38, items 3 and 4): the picker of /play and
/play/table lists every level, weakest first, by its title with its rating and its
words; a phone's own estimate from its finished games against bots; "Match my level"
seats the level nearest it (the middle level before any finished game); the stand-in
for a person who went away plays the middle level; games stored with the levels' former
names keep playing after the data migration; an unknown level is refused in one line."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from flask_migrate import downgrade, upgrade
from sqlalchemy import update

from scorekeeper.engine import LEVELS, estimate_rating, ladder_ratings, middle_level
from scorekeeper.extensions import db
from scorekeeper.models import DigitalGame
from scorekeeper.play.tables import seating
from tests.play.test_pages import PlayActions, _play_to_the_end, text
from tests.play.test_shuffle import stored_app
from tests.play.test_table import TABLE

__all__ = ["stored_app"]  # the fixture: SQLite, then PostgreSQL

OPTION = re.compile(r"<option(?: selected)? value=\"([^\"]*)\"(?: selected)?>([^<]*)</option>")


@pytest.fixture
def play(app: Flask, client) -> PlayActions:
    return PlayActions(app, client)


def _options(page: str, field: str) -> list[tuple[str, str]]:
    """The ``(value, label)`` pairs of the select ``field`` of ``page``."""
    select = re.search(rf'<select[^>]*name="{field}"[^>]*>(.*?)</select>', page, re.S)
    assert select is not None, field
    return [(v, html.unescape(label)) for v, label in OPTION.findall(select.group(1))]


@pytest.mark.parametrize(("path", "field"), [("/play", "bot_0"), ("/play/table", "seat_2")])
def test_the_picker_lists_every_level_weakest_first_with_its_rating(client, path, field) -> None:
    page = text(client.get(path))
    ratings = ladder_ratings()
    options = _options(page, field)
    levels = [(v, label) for v, label in options if v not in ("", "person", "match")]
    assert levels == [(lv.name, f"{lv.title} · {ratings[lv.name]}") for lv in LEVELS]
    for lv in LEVELS:  # the legend: title, rating and words of each
        legend = f'<li data-level="{lv.name}"><b>{lv.title}</b> · <span class="rating">'
        assert legend + f"{ratings[lv.name]}</span>: {html.escape(lv.words)}" in page
    middle = middle_level().title
    assert ("match", f"Match my level: {middle}") in options
    if path == "/play":
        assert "Your level appears here after you finish a game against bots;" in page


def test_an_unknown_level_is_refused_in_one_line(play) -> None:
    for posted in ({"bot_0": "random"}, {"bot_0": "basic"}, {"bot_1": "grandmaster"}):
        data = {"preset": "quick", "bot_0": LEVELS[0].name} | posted
        refused = play.client.post("/play", data=data)
        assert refused.status_code == 422
        name = next(iter(posted.values()))
        assert f"there is no bot level &#39;{name}&#39;" in text(refused)
    table = play.client.post("/play/table", data=TABLE | {"seat_2": "random"})
    assert table.status_code == 422 and "there is no bot level" in text(table)


def test_match_my_level_before_any_game_seats_the_middle_level(play) -> None:
    slug = play.start(bot_0="match", bot_1=LEVELS[0].name)
    assert play.game(slug).bots == [None, middle_level().name, LEVELS[0].name]


def _finished_games(play: PlayActions, seeds: list[str]) -> list[str]:
    """Games of the quick preset, one against each end of the ladder, played to their end
    by the person's moves posted through the real routes."""
    slugs = []
    for seed in seeds:
        slug = play.start(preset="quick", bot_0=LEVELS[0].name, bot_1=LEVELS[-1].name, seed=seed)
        _play_to_the_end(play, slug)
        slugs.append(slug)
    return slugs


def _expected_results(play: PlayActions, slug: str) -> list[tuple[str, float]]:
    """The person's results in a finished game, from its final state: ahead of a bot
    when the person won, or the bot did not and the person's total is higher."""
    state, game = play.state(slug), play.game(slug)
    me = state.totals[0]
    found = []
    for seat, level in enumerate(game.bots):
        if level is None:
            continue
        if state.winner in (state.players[0], state.players[seat]):
            score = 1.0 if state.winner == state.players[0] else 0.0
        else:
            score = 0.5 if me == state.totals[seat] else float(me > state.totals[seat])
        found.append((level, score))
    return found


def test_the_estimate_from_finished_games_and_match_my_level(play) -> None:
    slugs = _finished_games(play, ["3", "8"])
    unfinished = play.start(preset="quick", bot_0=LEVELS[-1].name, seed="4")  # never counts
    results = [r for slug in slugs for r in _expected_results(play, slug)]
    estimate = estimate_rating(results)
    assert estimate is not None and estimate.results == 4
    assert not play.game(unfinished).finished
    page = text(play.client.get("/play"))
    line = (
        f"Your level: about {estimate.level.title}, {estimate.rating:,} "
        f"(from 4 results in 2 games against bots)"
    )
    assert line in page
    label = f"Match my level: {estimate.level.title}"
    assert ("match", label) in _options(page, "bot_0")
    slug = play.start(bot_0="match", bot_1="match")
    assert play.game(slug).bots == [None, estimate.level.name, estimate.level.name]


def test_another_phone_has_no_estimate(app: Flask, play) -> None:
    _finished_games(play, ["3"])
    other = app.test_client()
    page = text(other.get("/play"))
    assert "Your level appears here after you finish a game against bots;" in page


def test_a_table_seat_takes_match_my_level_and_the_stand_in_is_the_middle_level(play) -> None:
    made = play.client.post("/play/table", data=TABLE | {"seat_2": "match"})
    assert made.status_code == 302
    slug = made.headers["Location"].split("/")[2]
    assert play.game(slug).bots[3] == middle_level().name
    assert seating.STANDIN == middle_level().name
    ratings = ladder_ratings()
    page = text(play.client.get(f"/play/{slug}/seats"))
    assert f"a {middle_level().title} bot plays for it until it is back" in page
    assert f"{middle_level().title} bot" in page  # seat 4's level, by its title
    seat_two = _options(page, "make")  # the first person's seat: a bot of any level
    assert seat_two == [(lv.name, f"{lv.title} · {ratings[lv.name]}") for lv in LEVELS]


def test_the_game_page_names_each_bot_by_its_level_title(play) -> None:
    slug = play.start(bot_0=LEVELS[0].name, bot_1=LEVELS[-1].name)
    page = text(play.client.get(f"/play/{slug}"))
    assert f"{LEVELS[0].title} bot" in page and f"{LEVELS[-1].title} bot" in page
    assert f">{LEVELS[0].name} bot" not in page


def test_games_stored_with_the_former_names_are_renamed_and_play_on(stored_app: Flask) -> None:
    app = stored_app
    play = PlayActions(app, app.test_client())
    first = LEVELS[0].name
    slug = play.start(preset="quick", bot_0=first, bot_1=first, bot_2=first, seed="6")
    with app.app_context():
        downgrade(revision="a4c7e9f2d613")  # the schema before the ladder's names
        stored = update(DigitalGame).where(DigitalGame.slug == slug)
        db.session.execute(stored.values(bots=[None, "random", "basic", "strong"]))
        db.session.commit()
        upgrade()
        db.session.remove()
    game = play.game(slug)
    assert game.bots == [None, "beginner", "casual", "strong"]
    page = text(play.client.get(f"/play/{slug}"))
    assert "Beginner bot" in page and "Casual bot" in page  # the names are the point
    assert {"draw", "play"} & _play_to_the_end(play, slug)
    assert play.game(slug).finished


@pytest.mark.parametrize("setting", [None, 1, 40])
def test_play_expert_samples_sets_every_expert_levels_samples(tmp_path, setting) -> None:
    from scorekeeper.engine.bots.expert import ExpertBot
    from scorekeeper.play.steps import expert_samples
    from tests.conftest import make_app

    app = make_app(str(tmp_path / "samples.sqlite3"), PLAY_EXPERT_SAMPLES=setting)
    with app.app_context():
        for lv in LEVELS:
            bot = lv.bot(samples=expert_samples())
            if isinstance(bot, ExpertBot):  # the heuristic levels sample nothing
                assert bot.samples == (setting or lv.samples)
