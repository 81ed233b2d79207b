"""The reader's language: which one a request is answered in, the catalogues that give the
words, and the edge where the engine's sentences (:class:`~scorekeeper.engine.messages.Message`)
are put into words.

Languages (:data:`LANGUAGES`): English, Spanish, French, German, Brazilian Portuguese, each a
gettext catalogue under ``scorekeeper/translations/<code>/LC_MESSAGES/messages.po`` (compiled
to ``messages.mo``, which ships in the wheel; ``scripts/languages`` extracts, updates and
compiles them, and makes the pseudo-languages). The two pseudo-languages
(:data:`PSEUDO`: accented and 40% longer, and the same right to left) are for finding
strings left out of the catalogues and layouts that do not stretch or mirror; they are
offered only when ``LANGUAGES_PSEUDO`` is set (tests, a translator's checkout).

A request's language (:func:`chosen_language`), first found of:

1. ``?lang=`` in the address (a shared link or a TV's address may carry it: the most
   explicit choice);
2. the page's own (a game's or a group's language for its TV and shared result,
   :func:`use_language`);
3. the phone's switch, the ``lang`` cookie (set by ``POST /language``);
4. the browser's ``Accept-Language`` (its best match; any Portuguese is pt_BR);
5. English.

The request's language lives in :mod:`.reader` (with Flask-Babel); this module holds
only what every part shares (the languages, the catalogues' place), so the command line's
:mod:`.terminal` reads the catalogues without importing Flask.

The JSON API (``/api/``) answers in English unless the caller asks with ``?lang=``:
other programs read it (``docs/score-contract.md``).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"
"""Where the catalogues live (inside the package, so the wheel carries them)."""
DOMAIN = "messages"
DEFAULT = "en"

LANGUAGES: dict[str, str] = {
    "en": "English",
    "es": "Español",
    "fr": "Français",
    "de": "Deutsch",
    "pt_BR": "Português (Brasil)",
}
"""The languages offered: code (a gettext catalogue's name) to its own name."""

PSEUDO: dict[str, tuple[str, str]] = {
    "en_XA": ("Ƥşéûđö [en-XA]", "en"),
    "ar_XB": ("Pseudo RTL [ar-XB]", "ar"),
}
"""The pseudo-languages: code to (its name, the real locale that formats its numbers and
dates and gives its direction)."""

COOKIE = "lang"
COOKIE_AGE = 400 * 24 * 3600
"""The switch's cookie lives as long as browsers keep one (400 days)."""


def match_code(tag: str, codes: Iterable[str]) -> str | None:
    """The code among ``codes`` that the language ``tag`` names: the same code in any case
    and with ``-`` or ``_`` (``pt-br`` is ``pt_BR``), else the first real language of the
    same primary language (``fr-CA`` is ``fr``, ``pt`` is ``pt_BR``); None for no match. The
    request's languages (:func:`.reader.known`) and the terminal's (:mod:`.terminal`) are
    matched here."""
    wanted = tag.replace("-", "_").lower()
    offers = list(codes)
    for offer in offers:
        if offer.lower() == wanted:
            return offer
    primary = wanted.split("_")[0]
    for offer in offers:
        if offer not in PSEUDO and offer.lower().split("_")[0] == primary:
            return offer
    return None
