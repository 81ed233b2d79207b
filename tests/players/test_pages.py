"""The group's pages through the test client: links and rights (view link, edit link,
share page with QR codes), players added once and named safely, the new-game form with
the group's players and usual rules, attaching earlier games (at the table and digital,
names matched and confirmed), and refusals that change nothing."""

from __future__ import annotations

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import Game, Group, Member
from scorekeeper.table import services as sheet
from tests.conftest import make_app
from tests.players.conftest import Night, figure, totals


def count(app, model) -> int:
    with app.app_context():
        return len(db.session.execute(db.select(model)).scalars().all())


def test_a_group_has_a_view_link_and_an_edit_link_with_qr_codes(night: Night):
    night.make_group("Friday", ("Ann",))
    share = night.page("/share")
    assert share.count("<svg") >= 2 and "/edit/" in share
    with night.app.app_context():
        group = db.session.execute(db.select(Group)).scalar_one()
        edit = f"/groups/{group.view_token}/edit/{group.edit_token}"
    other = night.app.test_client()
    view = other.get(night.url()).get_data(as_text=True)
    assert "Ann" in view and "New game" not in view and 'name="name"' not in view
    assert "/edit/" not in other.get(night.url("/share")).get_data(as_text=True)
    assert other.post(night.url("/players"), data={"name": "Bob"}).status_code == 403
    assert (
        other.get(f"/games/new?group={night.slug}").get_data(as_text=True).count('name="pick"') == 0
    )
    assert other.get(night.url("/edit/wrong-token")).status_code == 403
    assert other.get(edit).status_code == 302
    assert other.post(night.url("/players"), data={"name": "Bob"}).status_code == 303
    assert count(night.app, Member) == 2
    assert "Friday" in other.get("/groups/").get_data(as_text=True)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "This field is required."),
        ("\u200b", "a name needs at least one visible character"),
        ("x" * 41, "a name has at most 40 characters"),
        ("ann", "two players cannot have the same name"),
    ],
)
def test_a_bad_player_name_is_refused_and_changes_nothing(night: Night, name, message):
    night.make_group("Friday", ("Ann",))
    answer = night.client.post(night.url("/players"), data={"name": name}, follow_redirects=True)
    assert message in answer.get_data(as_text=True)
    assert count(night.app, Member) == 1


def test_html_in_a_name_is_shown_as_text(night: Night):
    night.make_group("<script>x</script>", ("<b>Ann</b>",))
    html = night.page("")
    assert "<script>x</script>" not in html and "&lt;script&gt;" in html
    assert "<b>Ann</b>" not in html and "&lt;b&gt;Ann&lt;/b&gt;" in html


def test_a_player_posted_twice_is_added_once(night: Night):
    night.make_group("Friday")
    for _ in range(2):
        night.client.post(night.url("/players"), data={"name": "Ann"})
    assert count(night.app, Member) == 1


def test_a_group_needs_a_visible_name_and_a_preset(night: Night):
    assert (
        night.client.post(
            "/groups/new", data={"name": " ", "preset": "standard", "nonce": "n-12345678"}
        ).status_code
        == 422
    )
    assert (
        night.client.post(
            "/groups/new", data={"name": "A", "preset": "nope", "nonce": "n-12345678"}
        ).status_code
        == 422
    )
    assert count(night.app, Group) == 0


def test_every_form_needs_its_csrf_token(tmp_path):
    app = make_app(str(tmp_path / "csrf.sqlite3"), WTF_CSRF_ENABLED=True)
    client = app.test_client()
    assert client.post("/groups/new", data={"name": "A", "preset": "standard"}).status_code == 400
    assert count(app, Group) == 0
    page = client.get("/groups/new").get_data(as_text=True)
    assert 'name="csrf_token"' in page


def test_the_new_game_form_offers_the_groups_players_and_usual_rules(night: Night):
    night.make_group("Friday", ("Ann", "Bob", "Cat"))
    night.start(("Ann", "Bob"), target="300", opt_min_run="4")
    form = night.client.get(f"/games/new?group={night.slug}").get_data(as_text=True)
    assert form.count('name="pick"') == 3 and form.count("checked") >= 3
    assert 'value="300"' in form
    assert 'value="4" selected' in form or 'selected value="4"' in form
    view = night.start(("Ann", "Cat"), guests=("Zed", "ann"))
    with night.app.app_context():
        game = night.game(view)
        assert [(p.name, p.member_id is not None) for p in game.players] == [
            ("Ann", True),
            ("Cat", True),
            ("Zed", False),
        ]


def test_a_new_game_with_one_player_is_refused_and_stores_nothing(night: Night):
    night.make_group("Friday", ("Ann", "Bob"))
    data = {"pick": [str(night.member("Ann"))], "preset": "standard", "first_dealer": "0"}
    answer = night.client.post(f"/games/new?group={night.slug}", data=data)
    assert answer.status_code == 422
    assert count(night.app, Game) == 0


def test_attach_a_table_game_matching_names_confirmed(night: Night):
    night.make_group("Friday", ("Ann", "Bob"))
    with night.app.app_context():
        game = sheet.start_game(["ann", "Bob", "Eve"], "standard", {"target": 100})
        sheet.record_round(
            game,
            "totals",
            totals("Eve", {"ann": 5, "Bob": 5, "Eve": 120}, {"ann": 5, "Bob": 5, "Eve": 0}),
            "a1",
            game.version,
        )
        link = f"http://phone.example/games/{game.view_token}/share"
    first = night.client.post(night.url("/attach"), data={"link": link})
    page = first.get_data(as_text=True)
    assert first.status_code == 200 and "is Ann of the group" in page and 'value="Eve"' in page
    assert count(night.app, Member) == 2
    with night.app.app_context():
        assert db.session.get(Game, game.id).group_id is None
    confirm = {"link": link, "confirm": "yes", "add": ["Eve"]}
    assert night.client.post(night.url("/attach"), data=confirm).status_code == 303
    eve = night.page(f"/players/{night.member('Eve')}")
    assert figure(eve, "Games won") == "1"
    again = night.client.post(night.url("/attach"), data=confirm, follow_redirects=True)
    assert "already in the group" in again.get_data(as_text=True)
    assert count(night.app, Member) == 3


def test_attach_refuses_an_unknown_link_and_a_bot(night: Night):
    night.make_group("Friday", ("Ann",))
    answer = night.client.post(night.url("/attach"), data={"link": "https://x/games/nothing-here"})
    assert answer.status_code == 422 and b"no game opens at that link" in answer.data
    assert night.client.post(night.url("/attach"), data={"link": "a" * 500}).status_code == 422


def test_unknown_group_player_and_game_are_404(night: Night):
    night.make_group("Friday", ("Ann",))
    assert night.client.get("/groups/nothing").status_code == 404
    assert night.client.get(night.url("/players/999")).status_code == 404
    assert night.client.get(night.url("/players/99999999999999999999")).status_code == 404
    assert (
        night.client.post(
            night.url("/games/table/999/archive"), data={"archived": "yes"}
        ).status_code
        == 404
    )
    assert night.client.get(night.url("/versus?a=1&b=1")).status_code == 200
    assert night.client.get(night.url("/versus?a=99999999999999999999&b=1")).status_code == 400


def test_a_new_group_posted_twice_is_made_once(night: Night):
    data = {"name": "Friday", "preset": "standard", "nonce": "same-form-1"}
    first = night.client.post("/groups/new", data=data)
    second = night.client.post("/groups/new", data=data)
    assert first.headers["Location"] == second.headers["Location"]
    assert count(night.app, Group) == 1
