"""What a request may carry: the web helpers every feature shares (features never import
each other, so the checks any of them needs live here).

- :func:`parse_int`: every whole number read from a request (a form's version, a seed, a
  round id typed into a URL), within bounds; a Unicode digit such as "²" (which
  ``str.isdigit`` accepts and ``int`` refuses) or 10**30 is refused, never a 500.
- :func:`load_json`: JSON from a request, refused by size and nesting depth before it is
  parsed (a body of 50,000 "[" would otherwise exhaust Python's recursion limit).
- :func:`clean_name` and :func:`name_problems`: a person's name as stored (NFC, no
  invisible or control characters), and the duplicates a table would confuse.
- :func:`client_key`: who is asking (a session's key and a network address), for the
  job queue's fair shares and the live streams' caps.
"""

from __future__ import annotations

import json
import re
import secrets
import unicodedata
from collections.abc import Sequence
from typing import Any

from flask import has_request_context, request, session
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge
from werkzeug.routing import BaseConverter, ValidationError

from .engine import say

MAX_VERSION = 2**31 - 1
"""The largest version number a form may carry (versions count changes to one game)."""
JSON_MAX_DEPTH = 32
"""Nesting levels of arrays and objects a JSON body may have (a game export needs 6)."""
JSON_MAX_BYTES = 256 * 1024
"""Bytes of a JSON body on the API and the /play move routes (an import may be larger,
up to the app's ``MAX_CONTENT_LENGTH``)."""
NAME_MAX = 40
"""Characters of a player's name at most (the new-game form's field and the database)."""

_ASCII_DIGITS = re.compile(r"[+-]?[0-9]{1,18}")
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


class BadNumber(BadRequest):
    """A whole number from a request that is not one, or out of bounds (400)."""


def parse_int(value: object, low: int = 0, high: int = MAX_VERSION, what: str = "number") -> int:
    """``value`` (text or int from a request) as an int in ``low..high``.

    Only ASCII digits with an optional sign count (at most 18 of them); raises
    :class:`BadNumber` (a 400) naming ``what`` otherwise (its description a sentence,
    :class:`~scorekeeper.engine.Message`; ``what`` may be one too, to be translated).
    """
    if isinstance(value, bool):
        raise BadNumber(say("the %(what)s must be a whole number", what=what))
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and _ASCII_DIGITS.fullmatch(value.strip()):
        number = int(value.strip())
    else:
        raise BadNumber(say("the %(what)s must be a whole number", what=what))
    if not low <= number <= high:
        raise BadNumber(
            say("the %(what)s must be from %(low)s to %(high)s", what=what, low=low, high=high)
        )
    return number


def is_int(value: object, low: int = 0, high: int = MAX_VERSION) -> bool:
    """True when :func:`parse_int` accepts ``value`` with these bounds."""
    try:
        parse_int(value, low, high)
    except BadNumber:
        return False
    return True


class BadJson(BadRequest):
    """A JSON body that is malformed or nested too deeply (400)."""


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON ``text`` (strings skipped), read
    in one pass without parsing."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub('""', text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def load_json(
    data: str | bytes, max_bytes: int = JSON_MAX_BYTES, max_depth: int = JSON_MAX_DEPTH
) -> Any:
    """Parse JSON from a request. Raises ``RequestEntityTooLarge`` (413) past ``max_bytes``
    and :class:`BadJson` (400) when malformed, not UTF-8 or nested deeper than
    ``max_depth``."""
    if len(data) > max_bytes:
        raise RequestEntityTooLarge(
            say("the JSON must be at most %(size)s KiB", size=max_bytes // 1024)
        )
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        raise BadJson(say("the JSON must be UTF-8 text")) from None
    if json_depth(text) > max_depth:
        raise BadJson(say("the JSON is nested more than %(levels)s levels deep", levels=max_depth))
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:
        raise BadJson(say("that is not valid JSON: %(error)s", error=str(error))) from None


def clean_name(text: str) -> str:
    """A name as stored: NFC-normalised, without control, format (zero-width) or other
    invisible characters, spaces collapsed and trimmed. Empty when nothing visible is
    left."""
    text = unicodedata.normalize("NFC", text)
    kept = (" " if ch.isspace() else ch for ch in text if not _invisible(ch) or ch.isspace())
    return " ".join("".join(kept).split())


def _invisible(ch: str) -> bool:
    return unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


def name_key(name: str) -> str:
    """What two names must differ in: case and invisible characters do not count."""
    return clean_name(name).casefold()


def name_problems(raw: str, others: Sequence[str] = ()) -> list[str]:
    """Why ``raw`` cannot be a player's name beside ``others`` (names already taken): empty
    once invisible characters are removed, longer than :data:`NAME_MAX`, or the same as
    another but for case or invisible characters. Empty list when it can. Each reason is
    a sentence (:class:`~scorekeeper.engine.Message`, English as text), translated where
    shown (``scorekeeper.languages.translate``)."""
    name = clean_name(raw)
    if not name:
        return [say("a name needs at least one visible character")]
    problems: list[str] = []
    if len(name) > NAME_MAX:
        problems.append(say("a name has at most %(count)s characters", count=NAME_MAX))
    if sum(name_key(o) == name_key(name) for o in others) > 0:
        problems.append(say("two players cannot have the same name"))
    return problems


class IdConverter(BaseConverter):
    """``<id:name>`` in a route: a row id (ASCII digits, 1 to 2**31 - 1) read through
    :func:`parse_int`; anything else is a 404, never a 500."""

    regex = r"[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        """The id as an int (``ValidationError``, so the route does not match, when out
        of bounds)."""
        if not is_int(value, 1, MAX_VERSION):
            raise ValidationError()
        return int(value)

    def to_url(self, value: int) -> str:
        """The id as URL text."""
        return str(int(value))


def client_key() -> tuple[str, str]:
    """``(client, address)`` of the request being served: a random key kept in the
    signed session (made on first use) and the network address (after ProxyFix, when
    ``TRUSTED_PROXIES`` is set); ``("", "")`` outside a request (a job asking for the
    next one keeps its own job's client)."""
    if not has_request_context():
        return "", ""
    key = session.get("client")
    if not isinstance(key, str) or not key:
        key = session["client"] = secrets.token_urlsafe(12)
    return key, str(request.remote_addr or "")[:64]
