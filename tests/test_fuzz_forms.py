"""A stateful fuzz of the HTML forms (hypothesis): new games, rounds recorded, corrected,
deleted and undone, imports, and moves of the digital game, with random and hostile
values, in any order. No request may answer with a server error (5xx)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, initialize, invariant, rule

from scorekeeper.extensions import db
from scorekeeper.models import Change, Game, Round
from tests.conftest import make_app

HOSTILE = st.sampled_from(
    [
        "",
        " ",
        "²",
        "٣",
        "-1",
        "0",
        "1",
        "2",
        "7",
        str(10**30),
        "1e9",
        "NaN",
        "Infinity",
        "\x00",
        "\u200b",
        "[" * 2000,
        "{}",
        "A" * 500,
        "Ann",
        "ann",
        "=1+2",
        "\t=1",
        "é",
    ]
)
VALUE = st.one_of(HOSTILE, st.text(max_size=30), st.integers(-5, 500).map(str))
NAMES = st.lists(st.one_of(st.sampled_from(["Ann", "Bob", "Cat", "Dee"]), VALUE), max_size=5)

_APP = None


def _app():
    global _APP
    if _APP is None:
        _APP = make_app(str(Path(tempfile.mkdtemp()) / "fuzz.sqlite3"))
    return _APP


class Forms(RuleBasedStateMachine):
    """Every rule posts one form; :meth:`no_server_error` checks every answer."""

    games = Bundle("games")
    plays = Bundle("plays")

    @initialize()
    def open_client(self) -> None:
        self.app = _app()
        self.client = self.app.test_client()
        self.statuses: list[int] = []

    def post(self, path: str, **kwargs):
        response = self.client.post(path, **kwargs)
        self.statuses.append(response.status_code)
        assert response.status_code < 500, (path, kwargs, response.data[:400])
        return response

    def _ids(self, slug: str, model, column: str = "game_id") -> list[int]:
        with self.app.app_context():
            game = db.session.execute(db.select(Game).filter_by(view_token=slug)).scalar_one()
            rows = db.session.execute(db.select(model.id).filter_by(game_id=game.id))
            return list(rows.scalars()) or [1]

    @rule(
        target=games,
        names=NAMES,
        stake=VALUE,
        dealer=VALUE,
        preset=st.sampled_from(["standard", "partnership", "persian", "x"]),
        title=VALUE,
    )
    def new_game(self, names, stake, dealer, preset, title):
        data = {f"player_{i}": n for i, n in enumerate(names)}
        data |= {"stake": stake, "first_dealer": dealer, "preset": preset, "title": title}
        response = self.post("/games/new", data=data)
        if response.status_code != 302:
            data = {"player_0": "Ann", "player_1": "Bob", "preset": "standard"}
            response = self.post("/games/new", data=data | {"first_dealer": "0"})
        return response.location.rsplit("/", 1)[-1]

    @rule(
        slug=games,
        figures=st.lists(VALUE, min_size=6, max_size=6),
        went_out=VALUE,
        version=VALUE,
        mode=st.sampled_from(["totals", "cards", "x"]),
        action=VALUE,
    )
    def record_round(self, slug, figures, went_out, version, mode, action):
        data = {"mode": mode, "went_out": went_out, "version": version, "nonce": "n" * 10}
        data |= {"action": action if action != "" else "save", "meld_slots": figures[5]}
        for i in range(3):
            data[f"shown-{i}"], data[f"in_hand-{i}"] = figures[i], figures[i + 1]
            data[f"meld-{i}-0"], data[f"hand-{i}"] = figures[i + 2], figures[i]
        self.post(f"/games/{slug}/rounds/new", data=data)

    @rule(slug=games, figure=VALUE, version=VALUE, pick=st.integers(0, 5))
    def correct_round(self, slug, figure, version, pick):
        ids = self._ids(slug, Round)
        path = f"/games/{slug}/rounds/{ids[pick % len(ids)]}/edit"
        data = {"mode": "totals", "action": "save", "version": "1", "round_version": version}
        self.post(path, data=data | {"shown-0": figure, "went_out": "0"})

    @rule(slug=games, version=VALUE, pick=st.integers(0, 5), round_id=VALUE)
    def delete_round(self, slug, version, pick, round_id):
        ids = self._ids(slug, Round)
        self.post(f"/games/{slug}/rounds/{ids[pick % len(ids)]}/delete", data={"version": version})
        self.client.post(f"/games/{slug}/rounds/{round_id}/delete", data={"version": "1"})

    @rule(slug=games, version=VALUE, pick=st.integers(0, 5))
    def undo(self, slug, version, pick):
        ids = self._ids(slug, Change)
        self.post(f"/games/{slug}/history/{ids[pick % len(ids)]}/undo", data={"version": version})

    @rule(
        slug=games,
        field=st.sampled_from(
            ["players", "stake", "title", "rounds", "teams", "first_dealer", "rules"]
        ),
        value=st.one_of(VALUE, NAMES, st.none(), st.floats()),
    )
    def import_changed_export(self, slug, field, value):
        doc = self.client.get(f"/games/{slug}/export.json").get_json()
        doc[field] = value
        self.post("/games/import", data={"text": json.dumps(doc)})

    @rule(text=VALUE)
    def import_text(self, text):
        self.post("/games/import", data={"text": text})

    @rule(target=plays, seed=VALUE, name=VALUE, bot=st.sampled_from(["casual", "beginner", "x"]))
    def new_play(self, seed, name, bot):
        response = self.post("/play", data={"name": name, "seed": seed, "bot_0": bot})
        if response.status_code != 302:
            response = self.post("/play", data={"bot_0": "beginner", "seed": "3"})
        return response.location.split("?")[0].rsplit("/", 1)[-1]

    @rule(
        slug=plays,
        do=st.one_of(VALUE, st.sampled_from(["stock", "take:0", "discard", "lay_down", "take:99"])),
        version=VALUE,
        cards=st.lists(VALUE, max_size=3),
    )
    def play_move(self, slug, do, version, cards):
        self.post(f"/play/{slug}/move", data={"do": do, "version": version, "cards": cards})

    @rule(
        slug=plays,
        body=st.one_of(
            VALUE,
            st.recursive(
                st.none() | st.integers() | st.text(max_size=5),
                lambda inner: (
                    st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=5), inner, max_size=3)
                ),
                max_leaves=8,
            ),
        ),
    )
    def play_json(self, slug, body):
        raw = body if isinstance(body, str) else json.dumps({"version": 1, "action": body})
        self.post(f"/play/{slug}/move.json", data=raw, content_type="application/json")

    @invariant()
    def no_server_error(self):
        assert all(status < 500 for status in getattr(self, "statuses", []))


Forms.TestCase.settings = settings(
    max_examples=25,
    stateful_step_count=12,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
test_forms_never_answer_with_a_server_error = Forms.TestCase
