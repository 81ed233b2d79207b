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
PLAY: dict[str, Entry] = {
    # play.js: a move refused, several moves a tap may mean
    "play_not_allowed": N_("Not allowed:"),
    "play_rule": N_("rule %(rule)s"),
    "play_reload": N_("Reload"),
    "play_which": N_("Which do you mean?"),
    "play_not_made": N_("that move was not made."),
    "play_unreached": N_("the move did not reach the server: check the connection and tap again."),
    # seats.js: the turn line and the live updates
    "play_your_turn_title": N_("Your turn · %(title)s"),
    "play_checking": N_("checking every few seconds"),
    "play_live": N_("live"),
    # hint.js: the expert's hint
    "hint_lead": N_("The expert's move:"),
    "hint_rules": (N_("(rule %(rules)s)"), N_("(rules %(rules)s)")),
    "hint_weighed": (
        N_("weighed over %(count)s sampled deal"),
        N_("weighed over %(count)s sampled deals"),
    ),
    "hint_tried": (N_("(%(count)s deal tried)"), N_("(%(count)s deals tried)")),
    "hint_thinking": N_("The expert is thinking…"),
    "hint_still": N_("The expert is still thinking: tap Hint again in a moment."),
    "hint_unreached": N_("No hint: the server could not be reached."),
    # replay.js: a finished game step by step
    "replay_spades": N_("%(rank)s of spades"),
    "replay_hearts": N_("%(rank)s of hearts"),
    "replay_clubs": N_("%(rank)s of clubs"),
    "replay_diamonds": N_("%(rank)s of diamonds"),
    "replay_joker": N_("joker"),
    "replay_joker_as": N_("joker as %(card)s"),
    "replay_meld_of": N_("%(name)s's meld %(number)s"),
    "replay_laid_off": N_("laid off: %(cards)s"),
    "replay_laid_off_by": N_("%(card)s by %(name)s"),
    "replay_no_meld": N_("No meld on the table yet."),
    "replay_stock": (
        N_("(bottom first) · stock %(count)s card"),
        N_("(bottom first) · stock %(count)s cards"),
    ),
    "replay_total": N_("total %(total)s"),
    "replay_no_cards": N_("no cards"),
    "replay_round": N_("Round %(number)s"),
}


# -- the table's games (table.js, entry.js, dealgrid.js, cardpicker.js, night.js, tv.js,
#    result.js) ---------------------------------------------------------------------------
TABLE: dict[str, Entry] = {}


# -- rules, checker, players and groups, shared parts (rules.js, check.js, houserules.js,
#    awake.js, share.js) -----------------------------------------------------------------
RULES_AND_PLAYERS: dict[str, Entry] = {}


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
                    "zero": forms.ungettext(one, many, 0),
                    "one": forms.ungettext(one, many, 1),
                    "other": forms.ungettext(one, many, 2),
                }
            else:
                words[key] = gettext(entry)
    return words
