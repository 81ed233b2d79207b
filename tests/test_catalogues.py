"""The translation catalogues (scorekeeper/translations/): every language complete, every
translation keeping its message's placeholders, the compiled .mo files those of the .po
files, the template current with the code (no string wrapped since the last extraction is
missing), and the glossary's words used for the game's terms (docs/glossary.md)."""

from __future__ import annotations

import re
import subprocess
import sys
from gettext import GNUTranslations
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from scorekeeper.languages import LANGUAGES, TRANSLATIONS

ROOT = Path(__file__).resolve().parent.parent
TRANSLATED = sorted(code for code in LANGUAGES if code != "en")
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdif]|%[sdif]")


def _catalog(code: str) -> Catalog:
    with (TRANSLATIONS / code / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f, locale=code)


def _messages(code: str) -> list[Message]:
    return [message for message in _catalog(code) if message.id]


def _strings(message: Message) -> tuple[str, ...]:
    string = message.string
    return tuple(string) if isinstance(string, (tuple, list)) else (string,)


def _ids(message: Message) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, (tuple, list)) else (message.id,)


def _template_ids() -> set[str]:
    with (TRANSLATIONS / "messages.pot").open("rb") as f:
        return {_ids(message)[0] for message in read_po(f) if message.id}


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_has_a_translation(code: str) -> None:
    missing = [
        _ids(message)[0]
        for message in _messages(code)
        if message.fuzzy or not all(_strings(message))
    ]
    assert not missing, f"{code}: {len(missing)} without a translation, e.g. {missing[:5]}"
    assert {_ids(message)[0] for message in _messages(code)} >= _template_ids()


@pytest.mark.parametrize("code", TRANSLATED)
def test_translations_keep_their_placeholders(code: str) -> None:
    wrong = []
    for message in _messages(code):
        wanted = set(PLACEHOLDER.findall(_ids(message)[-1])) | set(
            PLACEHOLDER.findall(_ids(message)[0])
        )
        for string in _strings(message):
            if string and not set(PLACEHOLDER.findall(string)) <= wanted:
                wrong.append((message.id, string))
            named = {name for name in PLACEHOLDER.findall(_ids(message)[0]) if name}
            if (
                string
                and message.pluralizable is False
                and named - set(PLACEHOLDER.findall(string))
            ):
                wrong.append((message.id, string))
    assert not wrong, f"{code}: {wrong[:5]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_compiled_catalogue_is_that_of_the_po_file(code: str) -> None:
    with (TRANSLATIONS / code / "LC_MESSAGES" / "messages.mo").open("rb") as f:
        compiled = GNUTranslations(f)
    for message in _messages(code):
        if isinstance(message.id, (tuple, list)):
            assert compiled.ngettext(message.id[0], message.id[1], 1) == message.string[0]
        else:
            assert compiled.gettext(message.id) == message.string, message.id


def test_the_template_holds_every_message_of_the_code(tmp_path: Path) -> None:
    fresh = tmp_path / "messages.pot"
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "languages"), "extract", str(fresh)],
        check=True,
        capture_output=True,
    )
    with fresh.open("rb") as f:
        in_code = {_ids(message)[0] for message in read_po(f) if message.id}
    missing = in_code - _template_ids()
    assert not missing, f"run scripts/languages update: {sorted(missing)[:5]}"


GLOSSARY_TERMS: dict[str, dict[str, tuple[str, ...]]] = {
    # an English term (a whole word, any case, or its plural) and the stems one of which each
    # translation shows wherever a message names it (docs/glossary.md; verbs conjugate)
    "discard pile": {
        "es": ("descartes",),
        "fr": ("défausse",),
        "de": ("ablagestapel",),
        "pt_BR": ("descarte",),
    },
    "house rule": {"es": ("regla",), "fr": ("règle",), "de": ("hausregel",), "pt_BR": ("regra",)},
    "deadwood": {"es": ("suelta",), "fr": ("isolée",), "de": ("restkarte",), "pt_BR": ("solta",)},
    "lay off": {
        "es": ("añad",),
        "fr": ("ajout",),
        "de": ("anleg", "anlag", "legt"),
        "pt_BR": ("encaix",),
    },
    "meld": {
        "es": ("combinaci", "baj"),
        "fr": ("combinaison", "pos"),
        "de": ("kombination", "ausleg", "auslag", "legt"),
        "pt_BR": ("combina", "baix"),
    },
    "stock": {"es": ("mazo",), "fr": ("pioche",), "de": ("talon",), "pt_BR": ("monte",)},
}


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_game_s_terms_are_the_glossary_s(code: str) -> None:
    wrong = []
    for message in _messages(code):
        # placeholders and quoted JSON keys ("meld": 0) are no words of the game
        english = re.sub(r'"\w+"', "", PLACEHOLDER.sub("", " ".join(_ids(message)))).lower()
        translated = " ".join(_strings(message)).lower()
        for term, stems in GLOSSARY_TERMS.items():
            if re.search(rf"\b{term}s?\b", english) and not any(
                stem in translated for stem in stems[code]
            ):
                wrong.append((term, _ids(message)[0], _strings(message)[0]))
    assert not wrong, f"{code}: {len(wrong)} messages stray from docs/glossary.md: {wrong[:5]}"
