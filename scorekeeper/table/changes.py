"""A change in a game's history in the reader's words. The history stores each change's
summary in English, as data (``"round 3 entered (totals)"``, ``"round 3 deleted"``,
``"undo: round 3 corrected (net)"``: :mod:`.services`, :mod:`.games`); the page says it
in the request's language (the template filter ``change_words``)."""

from __future__ import annotations

import re

from flask import Blueprint
from flask_babel import gettext as _

from ..engine import N_

SAID = re.compile(r"round (\d+) (entered|corrected|imported|deleted)(?: \((net|totals|cards)\))?")
"""A stored summary: the round's number, what was done, and by which entry mode."""

DONE = {
    ("entered", "net"): N_("round %(number)s entered (net)"),
    ("entered", "totals"): N_("round %(number)s entered (totals)"),
    ("entered", "cards"): N_("round %(number)s entered (cards)"),
    ("corrected", "net"): N_("round %(number)s corrected (net)"),
    ("corrected", "totals"): N_("round %(number)s corrected (totals)"),
    ("corrected", "cards"): N_("round %(number)s corrected (cards)"),
    ("imported", "net"): N_("round %(number)s imported (net)"),
    ("imported", "totals"): N_("round %(number)s imported (totals)"),
    ("imported", "cards"): N_("round %(number)s imported (cards)"),
    ("deleted", ""): N_("round %(number)s deleted"),
}
"""Each stored summary's sentence, whole (a language orders its words its own way)."""


def change_words(summary: str) -> str:
    """A stored change ``summary`` in the request's language: ``"undo: round 3 deleted"``
    gives "undo: round 3 deleted" in English; a summary of another form is given as it
    is (never an error)."""
    if summary.startswith("undo: "):
        return str(_("undo: %(change)s", change=change_words(summary.removeprefix("undo: "))))
    found = SAID.fullmatch(summary)
    sentence = DONE.get((found.group(2), found.group(3) or "")) if found else None
    if found is None or sentence is None:
        return summary
    return str(_(sentence, number=int(found.group(1))))


def register(bp: Blueprint) -> None:
    """Offer :func:`change_words` to the templates as the filter ``change_words``."""
    bp.add_app_template_filter(change_words, "change_words")
