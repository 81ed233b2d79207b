"""A move's board rendered once per version (issue 27, item 3): the stock, discard pile
and melds that every seat without a move on them sees are rendered once per version in
a process and shared; each seat's hand and buttons are its own, so a phone's board
(``board.json``, the same after an event or a poll) never holds another seat's cards."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from flask import template_rendered

from scorekeeper.engine import current_player, legal_actions
from tests.conftest import make_app
from tests.play.test_table import Table, _hidden_from

EVERYONE = {"seat_2": "person", "who_2": "Kim"}
"""Four people at the table (the host and three), no bot: nothing moves unless a test
moves."""


def _hand(board: str) -> list[str]:
    """The cards of the hand in a board's HTML (the ``hcard`` slots), as texts."""
    return re.findall(r'<span class="hcard" data-card="([^"]+)"', board)


def test_each_phone_gets_its_own_hand_and_the_shared_table_once_per_version(tmp_path) -> None:
    app = make_app(str(tmp_path / "p.sqlite3"))
    table = Table(app, **EVERYONE)
    for seat in (1, 2, 3):
        table.join(seat)
    rendered: Counter[str] = Counter()

    def count(sender: Any, template: Any, context: dict[str, Any], **extra: Any) -> None:
        rendered[template.name] += 1

    template_rendered.connect(count, app)
    for _ in range(4):  # four moves, each a new version seen by all four phones
        state = table.state()
        for seat, phone in table.phones.items():
            for _asked in range(2):  # after the event, and again by the polling fallback
                answer = phone.get(f"/play/{table.slug}/board.json").get_json()
                assert sorted(_hand(answer["board"])) == sorted(c.text for c in state.hands[seat])
                assert not any(word in answer["board"] for word in _hidden_from(state, seat))
        turn = current_player(state)
        assert turn is not None
        assert table.act(turn, legal_actions(state)[0].to_json()).status_code == 200
    template_rendered.disconnect(count, app)
    # 32 boards (four versions, four phones, two asks each): the shared table rendered at
    # most once for each of the five versions (the first and the four moves')
    assert rendered["play/_board.html"] >= 4 * 4 * 2
    assert 1 <= rendered["play/_pile_table.html"] <= 5, rendered
