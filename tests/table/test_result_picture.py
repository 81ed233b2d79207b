"""The shared picture's text fits its 600-unit width (issue 37, item 7): long titles and
winner lines wrap between words (a "·" kept at the end of its line), a word too long
for a line is cut, and a name beside its total is shortened with "…"."""

from __future__ import annotations

from scorekeeper.table.result import MARGIN, WIDTH, Result, fit, picture, text_width, wrap

ROOM = WIDTH - 2 * MARGIN


def test_a_long_title_wraps_within_the_width_and_keeps_every_word():
    names = " · ".join(f"Player {i} Longname" for i in range(1, 9))
    lines = wrap(f"500 Rum · Standard · {names}", 18)
    assert len(lines) > 1
    assert all(text_width(line, 18) <= ROOM for line in lines)
    assert " ".join(lines) == f"500 Rum · Standard · {names}"
    assert not any(line.startswith("·") for line in lines)


def test_a_word_longer_than_a_line_is_cut_and_a_name_shortened():
    lines = wrap("W" * 80, 30)
    assert len(lines) > 1 and "".join(lines) == "W" * 80
    assert all(text_width(line, 30) <= ROOM for line in lines)
    short = fit("Bartholomew-Maximilian " * 4, 22, 300)
    assert short.endswith("…") and text_width(short, 22) <= 300
    assert fit("Ann", 22, 300) == "Ann"


def test_the_picture_of_eight_has_a_title_of_several_lines_and_the_settlement():
    names = [f"Player {i} Longname" for i in range(1, 9)]
    result = Result(
        title=" · ".join(names),
        winner_line="Player 1 Longname wins",
        totals=[(n, 500 - 10 * i) for i, n in enumerate(names)],
        rounds=9,
        deals=False,
        day="2026-11-29",
        rules="Standard",
        settlement=tuple(f"{n} pays Player 1 Longname {10 * i}" for i, n in enumerate(names)),
    )
    svg = picture(result)
    assert svg.count('class="t"') > 1
    assert "Player 8 Longname pays Player 1 Longname 70</text>" in svg
