"""A finished digital game's replay through HTTP (/play/<slug>/replay) and a record file
opened from the phone (/play/replay): the steps the page carries show the record's
scores at every round's end; an unfinished game, a false record or no record is refused
in one sentence, never a 500."""

from __future__ import annotations

import html
import io
import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.engine import replay_steps
from tests.play.test_pages import PlayActions, _play_to_the_end, text


@pytest.fixture
def play(app: Flask, client: FlaskClient) -> PlayActions:
    return PlayActions(app, client)


def steps_of(page: str) -> list[dict[str, Any]]:
    """The steps a replay page carries (its ``data-steps``), unpacked as static/replay.js
    unpacks them (each packed step says only what changed)."""
    found = re.search(r"data-steps='([^']*)'", page)
    assert found, "the page carries no steps"
    data = json.loads(html.unescape(found.group(1)))
    steps: list[dict[str, Any]] = []
    prev: dict[str, Any] = {"hands": {}, "melds": [], "pile": [], "stock": 0, "totals": {}}
    for d in data["steps"]:
        hands = prev["hands"] | {p: h.split() for p, h in d.get("hands", {}).items()}
        melds = list(d["melds_all"]) if "melds_all" in d else list(prev["melds"])
        for i, meld in d.get("melds", {}).items():
            melds[int(i) : int(i) + 1] = [meld]
        kept, added = d.get("pile", [len(prev["pile"]), []])
        step = {k: d[k] for k in ("kind", "round", "player", "text")} | {
            "rules": [dict(zip(("id", "why"), data["why"][i], strict=True)) for i in d["rules"]],
            "hands": hands,
            "melds": melds,
            "pile": prev["pile"][:kept] + added,
            "stock": d.get("stock", prev["stock"]),
            "totals": d.get("totals", prev["totals"]),
            "scores": d.get("scores"),
        }
        steps.append(step)
        prev = step
    return steps


def alert(page: str) -> str:
    found = re.search(r'role="alert"[^>]*>([^<]*)<', page)
    assert found, "the page says nothing"
    return html.unescape(found.group(1))


def check_against(steps: list[dict[str, Any]], record: dict[str, Any]) -> None:
    ends = [s for s in steps if s["kind"] == "end"]
    assert [s["scores"] for s in ends] == [r["scores"] for r in record["rounds"]]
    assert steps[-1]["totals"] == record["final"]["totals"]


@pytest.fixture
def finished(play: PlayActions) -> tuple[str, dict[str, Any]]:
    """A quick game played to its end: its slug and its downloaded record."""
    slug = play.start(preset="quick", bot_1="beginner", seed="11")
    _play_to_the_end(play, slug)
    record = json.loads(text(play.client.get(f"/play/{slug}/record")))
    return slug, record


def test_the_end_screen_links_to_the_replay_which_shows_the_records_figures(
    play: PlayActions, finished: tuple[str, dict[str, Any]]
) -> None:
    slug, record = finished
    assert f'href="/play/{slug}/replay"' in text(play.client.get(f"/play/{slug}"))
    page = play.client.get(f"/play/{slug}/replay")
    assert page.status_code == 200
    steps = steps_of(text(page))
    assert steps == json.loads(json.dumps(replay_steps(record)))  # nothing lost in packing
    check_against(steps, record)
    first = record["rounds"][0]
    assert steps[0]["hands"] == {p: sorted(h, key=_suit_order) for p, h in first["hands"].items()}
    assert 'src="/static/replay.js?v=' in text(page)


def _suit_order(card: str) -> tuple[int, int]:
    if card.startswith("JK"):
        return (9, 0)
    rank = {"A": 1, "J": 11, "Q": 12, "K": 13}.get(card[:-1]) or int(card[:-1])
    return ("SHCD".index(card[-1]), rank)


def test_a_record_file_opened_from_the_phone_replays_and_nothing_is_kept(
    app: Flask, finished: tuple[str, dict[str, Any]]
) -> None:
    _, record = finished
    fresh = app.test_client()  # another phone: no session, no seat
    assert 'type="file"' in text(fresh.get("/play/replay"))
    body = json.dumps(record).encode()
    upload = {"record": (io.BytesIO(body), "game.json")}
    page = fresh.post(
        "/play/replay", data=upload, content_type="multipart/form-data", follow_redirects=True
    )
    assert page.status_code == 200
    check_against(steps_of(text(page)), record)


def test_an_unfinished_games_replay_is_refused(play: PlayActions) -> None:
    slug = play.start(preset="quick")
    play.move(slug, "stock")
    page = play.client.get(f"/play/{slug}/replay")
    assert page.status_code == 409
    assert alert(text(page)).startswith("Only a finished game can be replayed")
    assert "data-steps" not in text(page)


def test_an_unfinished_games_record_file_is_refused(play: PlayActions) -> None:
    slug = play.start(preset="quick")
    record = text(play.client.get(f"/play/{slug}/record"))
    upload = {"record": (io.BytesIO(record.encode()), "game.json")}
    page = play.client.post(
        "/play/replay", data=upload, content_type="multipart/form-data", follow_redirects=True
    )
    assert page.status_code == 400 and "data-steps" not in text(page)
    assert alert(text(page)).startswith("Only a finished game can be replayed")


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"{not json", "That is not valid JSON"),
        (b"[1, 2]", "This is not a game record"),
        (b'{"format": "500rum-record/1", "final": {"winner": "Ann"}}', "Only a finished game"),
        (None, "Choose a game record file"),
    ],
)
def test_a_file_that_is_no_finished_record_is_refused_in_one_sentence(
    client: FlaskClient, body: bytes | None, words: str
) -> None:
    upload = {"record": (io.BytesIO(body), "game.json")} if body is not None else {}
    page = client.post(
        "/play/replay", data=upload, content_type="multipart/form-data", follow_redirects=True
    )
    assert page.status_code == 400
    assert alert(text(page)).startswith(words) and "Traceback" not in text(page)


def test_a_record_whose_scores_were_changed_is_refused_saying_where(
    client: FlaskClient, finished: tuple[str, dict[str, Any]]
) -> None:
    _, record = finished
    record["rounds"][0]["scores"][record["players"][0]]["total"] += 5
    page = client.post("/play/replay", json=record, follow_redirects=True)
    assert page.status_code == 400
    assert alert(text(page)).startswith("The record cannot be replayed: round 1: the scores")


def test_an_unknown_games_replay_is_not_found(client: FlaskClient) -> None:
    assert client.get("/play/nosuchgame/replay").status_code == 404
