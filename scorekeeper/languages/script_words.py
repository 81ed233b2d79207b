"""The words the pages' scripts say (``static/*.js``), handed to them translated through
``<html data-words>`` (the CSP forbids inline scripts): a JSON object from a key to the
sentence in the request's language, read by ``static/words.js`` (``words(key, figures)``).

Each entry is ``key: N_("English, with %(figure)s placeholders")``; a plural is a pair
``key: (N_("one …"), N_("… %(count)s …"))`` handed over as ``{"zero", "one", "other"}``
forms, ``words`` choosing by its ``count`` figure. Keep one section per area so that
changes to different areas never touch the same lines.
"""

from __future__ import annotations

from flask_babel import get_translations, gettext

from ..engine import N_

Entry = str | tuple[str, str]


# -- every page (base.html, theme.js, localtime.js, words.js, the service worker) -------
EVERY_PAGE: dict[str, Entry] = {
    "offline_unopened": N_("Offline, and this page was not opened here before."),
}


# -- the digital game (play.js, seats.js, hint.js, replay.js) --------------------------------
PLAY: dict[str, Entry] = {}


# -- the table's games (table.js, entry.js, dealgrid.js, cardpicker.js, night.js, tv.js,
#    result.js) ---------------------------------------------------------------------------
TABLE: dict[str, Entry] = {}


# -- rules, checker, players and groups, shared parts (rules.js, check.js, houserules.js,
#    awake.js, share.js) -----------------------------------------------------------------
RULES_AND_PLAYERS: dict[str, Entry] = {
    # rules.js: the "Find a rule" box as you type
    "rules_rows_match": (
        N_("%(count)s of %(total)s rows matches."),
        N_("%(count)s of %(total)s rows match."),
    ),
    # houserules.js: the empty choice of a house-rule field, under the chosen preset
    "house_as_preset": N_("as the preset"),
    "house_as_preset_value": N_("as the preset: %(value)s"),
    # share.js: after the Copy button
    "share_copied": N_("Copied: paste it into a message."),
    "share_selected": N_("Selected: copy it with your phone's menu."),
}


SECTIONS = (EVERY_PAGE, PLAY, TABLE, RULES_AND_PLAYERS)


def script_words() -> dict[str, object]:
    """Every script sentence in the request's language: key to text, or to its plural
    forms ``{"zero", "one", "other"}`` (the catalogue's forms for 0, 1 and 2)."""
    words: dict[str, object] = {}
    for section in SECTIONS:
        for key, entry in section.items():
            if isinstance(entry, tuple):
                one, many = entry
                forms = get_translations()  # unformatted: the script fills the figures
                words[key] = {
                    "zero": forms.ngettext(one, many, 0),
                    "one": forms.ngettext(one, many, 1),
                    "other": forms.ngettext(one, many, 2),
                }
            else:
                words[key] = gettext(entry)
    return words
