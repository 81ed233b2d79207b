"""The group's pages through the test client: links and rights (view link, edit link,
share page with QR codes), players added once and named safely, the new-game form with
the group's players and usual rules, attaching earlier games (only with the game's edit
rights; names matched and confirmed, under the group's name rules), detaching them, and
refusals that change nothing. A digital game attached and counted: test_figures."""

from __future__ import annotations

import re

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import DigitalGame, Game, Group, Member
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


def dealer_choices(page: str) -> list[tuple[str, str]]:
    """The first dealer's choices of a new-game page: ``(value, label)`` in order."""
    select = page.split('name="first_dealer"', 1)[1].split("</select>", 1)[0]
    return re.findall(r'<option[^>]*value="(\d+)"[^>]*>([^<]*)</option>', select)


def test_the_first_dealer_is_one_of_the_seated_players_only(night: Night):
    """Issue 37, item 7: the group's new-game form offers as first dealer the ticked
    players (then the guests), never "Player 4".."Player 8" after them."""
    night.make_group("Friday", ("Ann", "Bob", "Cat"))
    form = night.client.get(f"/games/new?group={night.slug}").get_data(as_text=True)
    assert dealer_choices(form) == [("0", "Ann"), ("1", "Bob"), ("2", "Cat")]
    picks = [str(night.member("Ann")), str(night.member("Cat"))]
    data = {"pick": picks, "player_0": "Zed", "preset": "standard", "first_dealer": "3"}
    refused = night.client.post(f"/games/new?group={night.slug}", data=data)
    assert refused.status_code == 422 and count(night.app, Game) == 0
    page = refused.get_data(as_text=True)
    assert "the first dealer must be one of the players" in page
    assert dealer_choices(page) == [("0", "Ann"), ("1", "Cat"), ("2", "Zed")]
    assert "Player " not in page.split('name="first_dealer"', 1)[1].split("</select>", 1)[0]
    view = night.start(("Ann", "Cat"), guests=("Zed",), first_dealer="2")
    with night.app.app_context():
        assert night.game(view).first_dealer == 2


def test_a_new_game_with_one_player_is_refused_and_stores_nothing(night: Night):
    night.make_group("Friday", ("Ann", "Bob"))
    data = {"pick": [str(night.member("Ann"))], "preset": "standard", "first_dealer": "0"}
    answer = night.client.post(f"/games/new?group={night.slug}", data=data)
    assert answer.status_code == 422
    assert count(night.app, Game) == 0


def game_in_group(app, view: str) -> int | None:
    """The group of the game at the table whose view token is ``view`` (None: in none)."""
    with app.app_context():
        query = db.select(Game.group_id).where(Game.view_token == view)
        return db.session.execute(query).scalar_one()


def test_attach_a_table_game_matching_names_confirmed(night: Night):
    night.make_group("Friday", ("Ann", "Bob"))
    view, edit = night.table_game(("ann", "Bob", "Eve"))
    night.play(
        view, totals("Eve", {"ann": 5, "Bob": 5, "Eve": 120}, {"ann": 5, "Bob": 5, "Eve": 0})
    )
    first = night.client.post(night.url("/attach"), data={"link": edit})
    page = first.get_data(as_text=True)
    assert first.status_code == 200 and "is Ann of the group" in page and 'value="Eve"' in page
    assert count(night.app, Member) == 2 and game_in_group(night.app, view) is None
    assert "Game attached" in night.attach(edit, "Eve").get_data(as_text=True)
    eve = night.page(f"/players/{night.member('Eve')}")
    assert figure(eve, "Games won") == "1"
    assert "already in the group" in night.attach(edit, "Eve").get_data(as_text=True)
    assert count(night.app, Member) == 3


def test_attach_refuses_an_unknown_link(night: Night):
    night.make_group("Friday", ("Ann",))
    answer = night.client.post(night.url("/attach"), data={"link": "https://x/games/nothing-here"})
    assert answer.status_code == 422 and b"no game opens at that link" in answer.data
    assert night.client.post(night.url("/attach"), data={"link": "a" * 500}).status_code == 422


def test_a_view_link_cannot_attach_a_game_and_its_edit_link_can(night: Night):
    """The view link is shown as a QR code at the table: it claims nothing (issue 23)."""
    night.make_group("Friday", ("Ann",))
    owner = night.app.test_client()
    view, edit = night.table_game(("Ann", "Eve"), owner)
    for link in (f"http://192.0.2.2/games/{view}", f"http://192.0.2.2/games/{view}/share"):
        found = night.client.post(night.url("/attach"), data={"link": link})
        assert found.status_code == 422 and "that is the game&#39;s view link" in found.get_data(
            as_text=True
        )
        forged = night.client.post(
            night.url("/attach"), data={"link": link, "confirm": "yes", "add": ["Eve"]}
        )
        assert forged.status_code == 422
    wrong = night.client.post(night.url("/attach"), data={"link": f"/games/{view}/edit/not-it"})
    assert wrong.status_code == 422 and b"no longer the game" in wrong.data
    assert game_in_group(night.app, view) is None and count(night.app, Member) == 1
    renewed = owner.post(f"/games/{view}/share/new-edit-link", data={"version": "0"})
    assert renewed.status_code == 303
    assert night.client.post(night.url("/attach"), data={"link": edit}).status_code == 422
    current = Night(night.app, owner).edit_link(view)
    assert "Game attached" in night.attach(current, "Eve").get_data(as_text=True)
    assert game_in_group(night.app, view) is not None and count(night.app, Member) == 2


def test_a_digital_table_of_several_phones_cannot_be_attached(night: Night):
    night.make_group("Friday", ("Hana",))
    fields = {"name": "Hana", "preset": "standard", "seat_0": "person", "seat_1": "person"}
    host = night.app.test_client()
    made = host.post("/play/table", data=fields | {"who_1": "Jun", "seat_2": "casual"})
    assert made.status_code == 302, made.data[:300]
    slug = made.headers["Location"].split("/")[2]
    answer = night.client.post(night.url("/attach"), data={"link": f"/play/{slug}"})
    assert answer.status_code == 422 and b"a digital table of several phones" in answer.data


def test_the_groups_edit_link_detaches_a_game_which_can_then_join_another(night: Night):
    night.make_group("Friday", ("Ann",))
    view, edit = night.table_game(("Ann", "Eve"))
    night.play(view, totals("Ann", {"Ann": 120, "Eve": 5}, {"Ann": 0, "Eve": 10}))
    night.attach(edit)
    ann = night.member("Ann")
    with night.app.app_context():
        game_id = night.game(view).id
    detach = night.url(f"/games/table/{game_id}/detach")
    other = Night(night.app, night.app.test_client())
    other.make_group("Club", ("Ann",))
    refused = other.attach(edit).get_data(as_text=True)
    assert "belongs to another group: that group&#39;s edit link can detach it" in refused
    assert other.client.post(detach).status_code == 403
    assert "Detach from the group" not in other.client.get(night.url()).get_data(as_text=True)
    assert figure(night.page(f"/players/{ann}"), "Games won") == "1"

    assert "Detach from the group" in night.page("")
    done = night.client.post(detach, follow_redirects=True).get_data(as_text=True)
    assert "Game detached" in done and "No games yet." in done
    assert "No games at the table yet." in night.page(f"/players/{ann}")
    assert night.client.post(detach).status_code == 404
    assert "Game attached" in other.attach(edit).get_data(as_text=True)
    with night.app.app_context():
        club = db.session.execute(
            db.select(Group).where(Group.view_token == other.slug)
        ).scalar_one()
        assert night.game(view).group_id == club.id
        assert [p.member_id is not None for p in night.game(view).players] == [True, False]


def csrf_token(client) -> str:
    """The CSRF token of ``client``'s session (one for every form), read from a form."""
    page = client.get("/groups/new").get_data(as_text=True)
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert found
    return found.group(1)


def test_detaching_needs_the_forms_csrf_token(csrf_app):
    phone, owner = csrf_app.test_client(), csrf_app.test_client()
    token = {"csrf_token": csrf_token(phone)}
    made = phone.post(
        "/groups/new", data={"name": "F", "preset": "standard", "nonce": "n-1234567"} | token
    )
    slug = made.headers["Location"].rsplit("/", 1)[-1]
    started = owner.post(
        "/games/new",
        data={"player_0": "Ann", "player_1": "Eve", "preset": "standard", "target": "100"}
        | {"first_dealer": "0", "csrf_token": csrf_token(owner)},
    )
    view = started.headers["Location"].rsplit("/", 1)[-1]
    edit = Night(csrf_app, owner).edit_link(view)
    attached = phone.post(f"/groups/{slug}/attach", data={"link": edit, "confirm": "yes"} | token)
    assert attached.status_code == 303 and game_in_group(csrf_app, view) is not None
    with csrf_app.app_context():
        game_id = db.session.execute(db.select(Game.id).where(Game.view_token == view)).scalar_one()
    detach = f"/groups/{slug}/games/table/{game_id}/detach"
    assert phone.post(detach).status_code == 400
    assert game_in_group(csrf_app, view) is not None
    assert phone.post(detach, data=token).status_code == 303
    assert game_in_group(csrf_app, view) is None


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("\u200b", "a name needs at least one visible character"),
        ("\u0958" * 40, "a name has at most 40 characters"),
    ],
    ids=["invisible only", "too long once normalised"],
)
def test_a_name_from_an_attached_game_passes_the_groups_name_rules(night: Night, name, message):
    """A digital game's person is named as typed (/play keeps an invisible-only name, and
    a name that normalising makes longer): joining the group, the name rules of the
    group's own form hold, and a refusal changes nothing."""
    night.make_group("Friday", ("Ann",))
    answer = night.client.post(
        "/play", data={"name": name, "preset": "standard", "bot_0": "casual"}
    )
    assert answer.status_code == 302, answer.data
    link = answer.headers["Location"].split("?")[0]
    found = night.client.post(night.url("/attach"), data={"link": link}).get_data(as_text=True)
    assert f"cannot join the group ({message}); kept as a guest" in found
    assert 'name="add"' not in found
    refused = night.attach(link, name).get_data(as_text=True)
    assert f"cannot join the group: {message}; leave it unticked to keep it a guest" in refused
    assert count(night.app, Member) == 1
    with night.app.app_context():
        assert db.session.execute(db.select(DigitalGame.group_id)).scalar_one() is None


def test_html_in_a_name_from_an_attached_game_is_kept_as_text(night: Night):
    night.make_group("Friday", ("Ann",))
    view, edit = night.table_game(("Ann", "<b>Eve</b>"))
    assert "Game attached" in night.attach(edit, "<b>Eve</b>").get_data(as_text=True)
    page = night.page("")
    assert "<b>Eve</b>" not in page and "&lt;b&gt;Eve&lt;/b&gt;" in page
    assert count(night.app, Member) == 2


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
