"""The words the pages' scripts say (``static/*.js``), handed to them translated through
``<html data-words>`` (the CSP forbids inline scripts): a JSON object from a key to the
sentence in the request's language, read by ``static/words.js`` (``words(key, figures)``).

Each entry is ``key: N_("English, with %(figure)s placeholders")``; a plural is a pair
``key: plural_words("one …", "… %(count)s …")`` (its singular and plural message ids, as
``ngettext`` takes them, so that the catalogue keeps them as one plural) handed over as
``{"zero", "one", "other"}`` forms, ``words`` choosing by its ``count`` figure. Keep one
section per area so that changes to different areas never touch the same lines.
"""

from __future__ import annotations

from flask_babel import gettext

from ..engine import N_
from .reader import plural_form

Entry = str | tuple[str, str]


def plural_words(one: str, many: str) -> tuple[str, str]:
    """Marks a plural script word (its singular and plural message ids) for the catalogue
    tools and returns the pair as it is."""
    return (one, many)


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
    "hint_rules": plural_words(
        "(rule %(rules)s)",
        "(rules %(rules)s)",
    ),
    "hint_weighed": plural_words(
        "weighed over %(count)s sampled deal",
        "weighed over %(count)s sampled deals",
    ),
    "hint_tried": plural_words(
        "(%(count)s deal tried)",
        "(%(count)s deals tried)",
    ),
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
    "replay_stock": plural_words(
        "(bottom first) · stock %(count)s card",
        "(bottom first) · stock %(count)s cards",
    ),
    "replay_total": N_("total %(total)s"),
    "replay_no_cards": N_("no cards"),
    "replay_round": N_("Round %(number)s"),
}


# -- the table's games (table.js, entry.js, dealgrid.js, cardpicker.js, night.js, tv.js,
#    result.js) ---------------------------------------------------------------------------
TABLE: dict[str, Entry] = {
    # table.js
    "table_updated": N_("Last updated %(time)s"),
    "table_updated_never": N_("Last updated: not yet"),
    "table_offline_updated": N_("Offline: reconnecting… · last updated %(time)s"),
    "table_offline_updated_never": N_("Offline: reconnecting… · last updated: not yet"),
    "table_player": N_("Player %(number)s"),
    "table_not_sent": N_(
        "Not sent: the server cannot be reached. Your figures are still here; try again."
    ),
    # entry.js
    "entry_undo": N_("Undo"),
    "entry_undo_offline": N_("Offline: undo from the history when back online."),
    "entry_net": N_("%(name)s %(points)s"),
    "entry_totals": N_("%(name)s %(shown)s shown, %(in_hand)s in hand"),
    "entry_stock_out": N_("stock ran out"),
    "entry_went_out": N_("%(name)s went out"),
    "entry_waiting": N_("Round %(number)s: %(round)s — waiting to sync"),
    "entry_two_versions": N_("Round %(number)s: two versions"),
    "entry_theirs_saved": N_(
        "Another phone saved round %(number)s meanwhile. Nothing was overwritten."
    ),
    "entry_game_changed": N_(
        "The game changed on another phone meanwhile. Nothing was overwritten."
    ),
    "entry_theirs": N_("Theirs (saved): %(scores)s"),
    "entry_yours": N_("Yours (on this phone): %(round)s"),
    "entry_save_mine": N_("Save mine as round %(number)s"),
    "entry_keep_theirs": N_("Keep theirs, drop mine"),
    "entry_kept": N_("Round %(number)s kept on this phone: waiting to sync"),
    # dealgrid.js
    "dealgrid_next_meld": N_("Next meld"),
    "dealgrid_all_four": N_("All four"),
    "dealgrid_all_four_rank": N_("All four %(rank)ss"),
    "dealgrid_rest_in_hand": N_("The rest is in hand"),
    "dealgrid_tap_cards": N_("Tap %(name)s's cards"),
    "dealgrid_no_row": N_("No meld row left: type the cards, or save and add rows."),
    "dealgrid_row": N_("%(name)s: %(row)s"),
    # cardpicker.js
    "picker_joker": N_("Joker"),
    "picker_jokers": N_("Joker ×%(count)s"),
    "picker_joker_hint": N_("Tap the card the joker stands for, or Joker again for a plain JK."),
    "picker_cards_label": N_("cards"),
    "picker_open": N_("Cards ▾"),
    "picker_close": N_("Cards ▴"),
    "picker_clear": N_("Clear"),
    "picker_clear_label": N_("Clear %(label)s"),
    "picker_tap_for": N_("Tap cards for %(label)s"),
    "picker_remove": N_("Remove %(card)s"),
    # tv.js
    "tv_full_screen": N_("Full screen"),
    "tv_leave_full_screen": N_("Leave full screen"),
    # result.js
    "result_selected": N_("Selected: copy it with your phone's menu."),
    "result_copied": N_("Copied: paste it into the group chat."),
}


# -- rules, checker, players and groups, shared parts (rules.js, check.js, houserules.js,
#    awake.js, share.js) -----------------------------------------------------------------
RULES_AND_PLAYERS: dict[str, Entry] = {
    # rules.js: the "Find a rule" box as you type
    "rules_rows_match": plural_words(
        "%(count)s of %(total)s rows matches.",
        "%(count)s of %(total)s rows match.",
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
                words[key] = {
                    "zero": plural_form(one, many, 0),
                    "one": plural_form(one, many, 1),
                    "other": plural_form(one, many, 2),
                }
            else:
                words[key] = gettext(entry)
    return words
