"""Helpers for the group tests: a game night driven through the test client (a group,
its players, games started from the group's new-game form) with rounds recorded by the
table's services, so every figure has a known answer; a digital game played to its end
through /play's moves."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.engine import bot_move, legal_actions, make_bot
from scorekeeper.extensions import db
from scorekeeper.models import Game, Member
from scorekeeper.play import services as digital
from scorekeeper.table import services as sheet


def totals(went_out: str | None, shown: dict[str, int], in_hand: dict[str, int]) -> dict[str, Any]:
    """A round by totals: each player's points shown and left in hand."""
    return {"went_out": went_out, "shown": shown, "in_hand": in_hand, "adjust": {}}


@dataclass
class Night:
    """A group on one phone (the test client, which made it and may add to it)."""

    app: Flask
    client: FlaskClient
    slug: str = ""

    def make_group(self, name: str = "Friday", players: tuple[str, ...] = ()) -> str:
        form = {"name": name, "preset": "standard", "nonce": f"nonce-{name}"}
        answer = self.client.post("/groups/new", data=form)
        assert answer.status_code == 303, answer.data
        self.slug = answer.headers["Location"].rsplit("/", 1)[-1]
        for player in players:
            assert self.client.post(self.url("/players"), data={"name": player}).status_code == 303
        return self.slug

    def url(self, path: str = "") -> str:
        return f"/groups/{self.slug}{path}"

    def member(self, name: str) -> int:
        with self.app.app_context():
            query = db.select(Member.id).where(Member.name == name)
            return int(db.session.execute(query).scalar_one())

    def start(self, picks: tuple[str, ...], guests: tuple[str, ...] = (), **form: str) -> str:
        """A game from the group's new-game form; returns its view token."""
        data: dict[str, Any] = {"pick": [str(self.member(p)) for p in picks]}
        data |= {f"player_{i}": g for i, g in enumerate(guests)}
        data |= {"preset": "standard", "target": "100", "first_dealer": "0"} | form
        answer = self.client.post(f"/games/new?group={self.slug}", data=data)
        assert answer.status_code == 302, answer.data
        return answer.headers["Location"].rsplit("/", 1)[-1]

    def table_game(
        self, names: tuple[str, ...], phone: FlaskClient | None = None
    ) -> tuple[str, str]:
        """A game at the table of ``names`` started from the new-game form on another
        ``phone`` (a new one unless given), in no group: its view token, and its edit link
        as its share page shows it on that phone."""
        phone = phone or self.app.test_client()
        data = {f"player_{i}": name for i, name in enumerate(names)}
        data |= {"preset": "standard", "target": "100", "first_dealer": "0"}
        answer = phone.post("/games/new", data=data)
        assert answer.status_code == 302, answer.data
        view = answer.headers["Location"].rsplit("/", 1)[-1]
        return view, Night(self.app, phone).edit_link(view)

    def edit_link(self, view: str) -> str:
        """The edit link of the game at ``view`` as its share page shows it on this
        phone (which keeps the score)."""
        share = self.client.get(f"/games/{view}/share").get_data(as_text=True)
        edit = re.search(rf'[^"\s<>]*/games/{view}/edit/[A-Za-z0-9_-]+', share)
        assert edit, "no edit link on the share page"
        return edit.group(0)

    def attach(self, link: str, *add: str) -> Any:
        """Attach the game at ``link`` to the group, adding the seats ``add`` as players
        (the confirmed step of the attach form); the response, redirects followed."""
        data = {"link": link, "confirm": "yes", "add": list(add)}
        return self.client.post(self.url("/attach"), data=data, follow_redirects=True)

    def play(self, view: str, *rounds: dict[str, Any]) -> None:
        """Record ``rounds`` (by totals) in the game at ``view``."""
        with self.app.app_context():
            for n, data in enumerate(rounds):
                game = sheet.get_game(view)
                assert game is not None
                sheet.record_round(
                    game, "totals", data, f"{view}-{n}-{len(game.rounds)}", game.version
                )

    def game(self, view: str) -> Game:
        game = sheet.get_game(view)
        assert game is not None
        return game

    def play_digital(self, name: str, seed: int = 3, target: int = 150) -> str:
        """A digital game of ``name`` against one basic bot (standard rules, ``target``),
        started from /play's form; the person's moves are a basic bot's choices, posted
        as /play's JSON moves (and "Next round" at each round's end) until the game is
        over. Returns its slug."""
        form = {"name": name, "preset": "standard", "opt_target": str(target)}
        answer = self.client.post("/play", data=form | {"bot_0": "casual", "seed": str(seed)})
        assert answer.status_code == 302, answer.data
        slug = answer.headers["Location"].split("?")[0].rsplit("/", 1)[-1]
        rng, bot = random.Random(seed), make_bot("basic")
        for _ in range(3000):
            with self.app.app_context():
                game = digital.get_game(slug)
                assert game is not None
                if game.finished:
                    return slug
                body: dict[str, Any] = {"version": game.version, "do": "next_round"}
                if not game.paused:
                    state = digital.load_state(game)
                    action = bot_move(state, bot, rng, legal_actions(state))
                    body = {"version": game.version, "action": action.to_json()}
            moved = self.client.post(f"/play/{slug}/move.json", json=body)
            assert moved.status_code == 200, moved.get_json()
        raise AssertionError("the digital game did not end")

    def page(self, path: str) -> str:
        answer = self.client.get(self.url(path))
        assert answer.status_code == 200, answer.data
        return answer.get_data(as_text=True)


def figure(html: str, label: str, section: str = "table") -> str:
    """The value shown beside ``label`` in a profile's ``section`` ("table" or "digital")."""
    part = html.split(f'id="h-{section}"', 1)[1].split("</section>", 1)[0]
    found = re.search(rf"<dt>{re.escape(label)}</dt><dd>(.*?)</dd>", part, re.S)
    assert found, f"{label} not on the page"
    return re.sub(r"<[^>]+>", "", found.group(1)).strip()


@pytest.fixture
def night(app: Flask, client: FlaskClient) -> Night:
    return Night(app, client)
