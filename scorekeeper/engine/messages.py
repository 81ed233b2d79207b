"""Sentences the engine says, kept as a message id with its figures, so that the words
are chosen at the edge (the web app in the reader's language, the score contract and the
command line in English) and the engine stays free of any web or translation code.

A :class:`Message` *is* its English sentence (a ``str``), so code that only prints or
compares engine sentences keeps working; the edge translates one with
:meth:`Message.render`, given ``gettext``/``ngettext`` callables. Message ids use
``%(name)s`` placeholders, as the web app's own messages do, so translators see one style.
The catalogue tools find them by their names: ``Message`` and ``Message.plural`` (marked
``say``/``say_plural`` for pybabel, see ``scripts/languages``).

Compose sentences from messages (a figure may itself be a :class:`Message`), never with
``+``: a sum is plain English text that no edge can translate.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]


class Message(str):
    """An English sentence with its message id (``template``) and figures.

    ``Message("a set: %(n)s cards of one rank", n=3)`` equals the English text
    ``"a set: 3 cards of one rank"``; ``template`` and ``figures`` keep what a translation
    needs. Figures are numbers (points, counts), card notations (language-neutral) or
    nested messages. Raises ``KeyError`` when the template names a figure not given.
    """

    template: str
    plural_template: str | None
    number: int | None
    figures: Mapping[str, Any]

    def __new__(cls, template: str, /, **figures: Any) -> Message:
        text = template % figures if figures else template
        made = super().__new__(cls, text)
        made.template = template
        made.plural_template = None
        made.number = None
        made.figures = figures
        return made

    @classmethod
    def plural(cls, singular: str, plural: str, count: int, /, **figures: Any) -> Message:
        """A message with a singular and a plural id, chosen by ``count`` (given to the
        templates as ``%(count)s`` too): English picks ``singular`` for 1."""
        figures = {"count": count, **figures}
        chosen = singular if count == 1 else plural
        made = cls(chosen, **figures)
        made.template = singular
        made.plural_template = plural
        made.number = count
        return made

    def render(self, gettext: Gettext, ngettext: Ngettext) -> str:
        """This sentence in the language of ``gettext``/``ngettext`` (a catalogue's
        lookups; nested messages are translated the same way). A translation that names a
        figure the message lacks falls back to English rather than raising."""
        figures = {
            key: value.render(gettext, ngettext) if isinstance(value, Message) else value
            for key, value in self.figures.items()
        }
        if self.plural_template is not None and self.number is not None:
            pattern = ngettext(self.template, self.plural_template, self.number)
        else:
            pattern = gettext(self.template)
        try:
            return pattern % figures if figures else pattern
        except (KeyError, ValueError, TypeError):
            return str(self)

    def to_json(self) -> dict[str, Any]:
        """The message as JSON: ``{"id", "plural"?, "count"?, "figures"}`` (nested
        messages as JSON too), so a saved sentence can be translated when read back
        (:meth:`from_json`)."""
        data: dict[str, Any] = {
            "id": self.template,
            "figures": {
                key: value.to_json() if isinstance(value, Message) else value
                for key, value in self.figures.items()
            },
        }
        if self.plural_template is not None:
            data["plural"] = self.plural_template
            data["count"] = self.number
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Message:
        """The message :meth:`to_json` wrote. Raises ``KeyError``/``TypeError`` on a
        malformed one."""
        figures = {
            key: cls.from_json(value) if isinstance(value, Mapping) else value
            for key, value in data["figures"].items()
        }
        if "plural" in data:
            figures.pop("count", None)
            return cls.plural(data["id"], data["plural"], int(data["count"]), **figures)
        return cls(data["id"], **figures)


def say(template: str, /, **figures: Any) -> Message:
    """Shorthand for :class:`Message` (the name the catalogue tools look for)."""
    return Message(template, **figures)


def say_plural(singular: str, plural: str, count: int, /, **figures: Any) -> Message:
    """Shorthand for :meth:`Message.plural`."""
    return Message.plural(singular, plural, count, **figures)


def listed(items: Sequence[str]) -> str:
    """``items`` (one or more sentences) as one text, joined by "; ": a :class:`Message`
    when any of them is one, so that each is translated where it is shown; ``""`` for
    none."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    if not any(isinstance(item, Message) for item in items):
        return "; ".join(items)
    return Message("%(first)s; %(rest)s", first=items[0], rest=listed(items[1:]))


def N_(template: str) -> str:
    """Marks ``template`` as a message id for the catalogue tools and returns it as it is
    (for ids kept in tables and translated where shown)."""
    return template
