"""The pseudo-languages, made from the English message ids (``scripts/languages compile``):

- ``en_XA``: every letter accented and the sentence 40% longer, in brackets
  (``[Ŝåvé ŕöûñð ·····]``), so a string left out of the catalogues shows as plain English
  and a layout that does not stretch overflows at 360 px;
- ``ar_XB``: the same text written right to left (inside U+202E … U+202C), so a layout
  that does not mirror shows.

Placeholders (``%(name)s``, ``%s``), HTML tags and entities are kept as they are.
"""

from __future__ import annotations

import re
from collections.abc import Callable

ACCENTS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
)
KEPT = re.compile(r"%\(\w+\)[sdif]|%[sdif%]|<[^>]*>|&\w+;|&#\d+;")
LONGER = 0.4


def _accent(text: str) -> str:
    pieces: list[str] = []
    last = 0
    for kept in KEPT.finditer(text):
        pieces.append(text[last : kept.start()].translate(ACCENTS))
        pieces.append(kept.group())
        last = kept.end()
    pieces.append(text[last:].translate(ACCENTS))
    return "".join(pieces)


def accented(text: str) -> str:
    """``text`` accented and 40% longer, in brackets (the ``en_XA`` pseudo-language)."""
    if not text.strip():
        return text
    visible = len(KEPT.sub("", text))
    padding = "·" * max(1, round(visible * LONGER))
    return f"[{_accent(text)} {padding}]"


def right_to_left(text: str) -> str:
    """``text`` as :func:`accented`, forced right to left (the ``ar_XB`` pseudo-language)."""
    if not text.strip():
        return text
    return "\u202e" + accented(text) + "\u202c"


PSEUDO_MAKERS: dict[str, Callable[[str], str]] = {"en_XA": accented, "ar_XB": right_to_left}
"""A pseudo-language's code to the function making its sentences."""
