"""A whole group as one JSON file (issue 25, item 5): downloaded by the group's edit
link, imported elsewhere as a new group with the same players, games and figures; a file
with any problem (bad JSON, another format, a name the group's rules refuse, a round the
engine refuses) is refused whole and nothing is written."""

from __future__ import annotations

import copy
import io
import json

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import Game, Group
from tests.conftest import make_app
from tests.players.conftest import Night, totals


@pytest.fixture
def exported(tmp_path) -> dict:
    """A group of three with two finished-or-not games, as its edit link downloads it."""
    night = Night(make_app(str(tmp_path / "home.db")), None)  # type: ignore[arg-type]
    night.client = night.app.test_client()
    night.make_group("Friday family", ("Ann", "Bob", "Cat"))
    first = night.start(("Ann", "Bob"), guests=("Dee",))
    night.play(first, totals("Ann", {"Ann": 60, "Bob": 20, "Dee": 5}, {"Bob": 10, "Dee": 30}))
    second = night.start(("Bob", "Cat"))
    night.play(second, totals("Cat", {"Bob": 40, "Cat": 70}, {"Bob": 15}))
    answer = night.client.get(night.url("/export.json"))
    assert answer.status_code == 200
    assert "attachment" in answer.headers["Content-Disposition"]
    document = json.loads(answer.data)
    document["_season"] = night.client.get(night.url("/season.csv")).data.decode()
    return document


@pytest.fixture
def elsewhere(tmp_path) -> Night:
    night = Night(make_app(str(tmp_path / "elsewhere.db")), None)  # type: ignore[arg-type]
    night.client = night.app.test_client()
    return night


def _post(night: Night, document: object) -> object:
    raw = document if isinstance(document, bytes) else json.dumps(document).encode()
    upload = {"file": (io.BytesIO(raw), "group.json")}
    return night.client.post("/groups/import", data=upload, content_type="multipart/form-data")


def _stored(night: Night) -> tuple[int, int]:
    with night.app.app_context():
        groups = db.session.scalar(db.select(db.func.count(Group.id)))
        games = db.session.scalar(db.select(db.func.count(Game.id)))
    return groups, games


def test_a_group_round_trips_with_its_players_games_and_figures(exported, elsewhere):
    season = exported.pop("_season")
    assert exported["format"] == "500rum-group/1" and exported["name"] == "Friday family"
    assert exported["players"] == ["Ann", "Bob", "Cat"] and len(exported["games"]) == 2
    answer = _post(elsewhere, exported)
    assert answer.status_code == 303
    elsewhere.slug = answer.headers["Location"].rsplit("/", 1)[-1]
    again = json.loads(elsewhere.client.get(elsewhere.url("/export.json")).data)
    assert _figures(again) == _figures(exported)
    assert elsewhere.client.get(elsewhere.url("/season.csv")).data.decode() == season
    page = elsewhere.client.get(elsewhere.url()).get_data(as_text=True)
    assert "Download the whole group" in page


def test_only_the_edit_link_downloads_the_whole_group(exported, elsewhere):
    answer = _post(elsewhere, exported | {"_season": None})
    assert answer.status_code == 303
    group_slug = answer.headers["Location"].rsplit("/", 1)[-1]
    assert elsewhere.client.get(f"/groups/{group_slug}/export.json").status_code == 200
    viewer = elsewhere.app.test_client()
    assert viewer.get(f"/groups/{group_slug}/export.json").status_code == 403
    assert viewer.get("/groups/nosuchgroup/export.json").status_code == 404


def _figures(document: dict) -> dict:
    """The document with each round as its mode and figures (the scoring contract's
    response): a round's input comes back as its form gives it (zeros filled in)."""
    games = [
        {"archived": g["archived"]}
        | g["game"]
        | {"rounds": [(r["mode"], r["response"]) for r in g["game"]["rounds"]]}
        for g in document["games"]
    ]
    return document | {"games": games}


def _broken(exported: dict, how: str) -> object:
    document = copy.deepcopy(exported)
    if how == "bad json":
        return b'{"format": "500rum-group/1", "name": '
    if how == "wrong version":
        document["format"] = "500rum-group/2"
    elif how == "duplicate player":
        document["players"] = ["Ann", "Bob", "ann"]
    elif how == "invisible name":
        document["players"][2] = "\u200b"
    elif how == "bad group name":
        document["name"] = "x" * 500
    elif how == "refused round":
        document["games"][1]["game"]["rounds"][0]["input"]["shown"] = {"Bob": -40, "Cat": 70}
    return document


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ("bad json", "JSON"),
        ("wrong version", "500rum-group/1"),
        ("duplicate player", "player"),
        ("invisible name", "player"),
        ("bad group name", "the group"),
        ("refused round", "game 2"),
    ],
)
def test_a_file_with_a_problem_is_refused_whole(exported, elsewhere, how, message):
    exported.pop("_season")
    before = _stored(elsewhere)
    answer = _post(elsewhere, _broken(exported, how))
    assert answer.status_code == 422
    assert message in answer.get_data(as_text=True)
    assert _stored(elsewhere) == before
