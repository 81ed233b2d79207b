"""The command line's words in the terminal's language, without Flask.

The language is the first one the environment names that has a catalogue, read as
gettext reads it: ``LANGUAGE`` (a colon-separated list, ``fr:de``), then ``LC_ALL``,
``LC_MESSAGES`` and ``LANG`` (``fr_FR.UTF-8``: its encoding and modifier are dropped,
``fr_FR`` is ``fr``, any Portuguese is ``pt_BR``); ``C`` or ``POSIX`` where a locale is
expected means English, and so does nothing known. The pseudo-languages (``en_XA``,
``ar_XB``, see :mod:`scorekeeper.languages.pseudo`) count only when the environment sets
``SCOREKEEPER_LANGUAGES_PSEUDO=1``, as the web app offers them only with
``LANGUAGES_PSEUDO``.

The catalogues are the web app's (``scorekeeper/translations``), read with
``babel.support.Translations.load``. This module imports no Flask (nor does its package's
``__init__``: the web's choice lives in :mod:`.reader`), so ``score`` and ``simulate``
stay free of the web framework.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cache

from babel.support import NullTranslations, Translations

from ..engine import Message
from . import DEFAULT, DOMAIN, LANGUAGES, PSEUDO, TRANSLATIONS, match_code

ENGLISH = DEFAULT
PSEUDO_SWITCH = "SCOREKEEPER_LANGUAGES_PSEUDO"
"""The environment variable that lets the terminal use a pseudo-language."""
VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""Where the terminal's language is looked for, first found first."""


def _catalogues(pseudo: bool) -> list[str]:
    """The codes with a compiled catalogue (``fr``, ``pt_BR``), pseudo ones when allowed."""
    codes = [*LANGUAGES, *(PSEUDO if pseudo else ())]
    return sorted(
        code for code in codes if (TRANSLATIONS / code / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file()
    )


def _match(tag: str, codes: list[str]) -> str | None:
    """The catalogue ``tag`` (``fr_FR.UTF-8@euro``, ``pt-br``, ``en``) names, or None
    (:func:`scorekeeper.languages.match_code`, its encoding and modifier dropped)."""
    wanted = tag.split(".")[0].split("@")[0]
    if wanted.lower() in ("", "c", "posix"):
        return None
    return match_code(wanted, [ENGLISH, *codes])


def terminal_language(environ: Mapping[str, str] | None = None) -> str:
    """The code of the terminal's language (see the module), ``en`` when none is known.
    ``environ`` defaults to the process's environment."""
    env = os.environ if environ is None else environ
    codes = _catalogues(env.get(PSEUDO_SWITCH) == "1")
    for variable in VARIABLES:
        value = env.get(variable, "")
        if variable != "LANGUAGE" and value.split(".")[0].upper() in ("C", "POSIX"):
            return ENGLISH
        for tag in value.split(":") if variable == "LANGUAGE" else [value]:
            found = _match(tag, codes)
            if found is not None:
                return found
    return ENGLISH


@cache
def _translations(language: str) -> NullTranslations:
    """The catalogue of ``language`` (English: none, the message ids are English)."""
    if language == ENGLISH:
        return NullTranslations()
    return Translations.load(str(TRANSLATIONS), [language], DOMAIN)


def gettext(message: str, /, **figures: object) -> str:
    """``message`` in the terminal's language, its ``%(name)s`` placeholders filled from
    ``figures`` (as Flask-Babel's ``gettext`` does)."""
    said = _translations(terminal_language()).gettext(message)
    return said % figures if figures else said


def ngettext(singular: str, plural: str, num: int, /, **figures: object) -> str:
    """The singular or plural of a message for ``num`` in the terminal's language, with
    ``%(num)s`` and ``figures`` filled in (as Flask-Babel's ``ngettext`` does)."""
    said = _translations(terminal_language()).ngettext(singular, plural, num)
    return said % {"num": num, **figures}


def said(error: BaseException) -> str:
    """What ``error`` says in the terminal's language: its first argument rendered when it
    is an engine sentence (:class:`scorekeeper.engine.Message`), else ``str(error)``."""
    first = error.args[0] if error.args else None
    return sentence(first) if isinstance(first, Message) else str(error)


def sentence(text: object) -> str:
    """An engine sentence (:class:`scorekeeper.engine.Message`) in the terminal's
    language; any other ``text`` as ``str(text)``."""
    if isinstance(text, Message):
        catalogue = _translations(terminal_language())
        return text.render(catalogue.gettext, catalogue.ngettext)
    return str(text)
