"""The language a request is answered in (:func:`chosen_language`, in the order the
package's docstring gives), Flask-Babel wired with it (:func:`init_app`), and the edge where
the engine's sentences (:class:`~scorekeeper.engine.Message`) and numbers, days and times
are put into the reader's words."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from functools import cached_property
from typing import Any

from babel import Locale, support
from flask import Flask, Response, g, has_request_context, request
from flask_babel import (
    Babel,
    Domain,
    format_date,
    format_datetime,
    format_decimal,
    format_timedelta,
    get_domain,
    refresh,
)
from flask_babel import gettext as _gettext

from ..engine import Message
from . import COOKIE, DEFAULT, DOMAIN, LANGUAGES, PSEUDO, TRANSLATIONS, match_code


def offered(pseudo: bool | None = None) -> dict[str, str]:
    """The languages a phone may choose: code to name; the pseudo-languages too when
    ``pseudo`` (default: the app's ``LANGUAGES_PSEUDO``)."""
    if pseudo is None:
        from flask import current_app

        pseudo = bool(current_app.config.get("LANGUAGES_PSEUDO"))
    names = dict(LANGUAGES)
    if pseudo:
        names.update({code: name for code, (name, _locale) in PSEUDO.items()})
    return names


def known(code: object, *, pseudo: bool | None = None) -> str | None:
    """The offered language ``code`` names (``pt-BR``, ``pt_br`` and ``pt`` are ``pt_BR``;
    ``fr-CA`` is ``fr``), or None for anything else."""
    if not isinstance(code, str) or not code or len(code) > 20:
        return None
    return match_code(code, offered(pseudo))


def chosen_language() -> str:
    """The code of the language this request is answered in (see the module's order);
    English outside a request."""
    if not has_request_context():
        return DEFAULT
    page = g.get("page_language")
    if page and known(request.args.get("lang")) is None:  # ?lang= beats the page's own
        return str(page)
    return reader_language()


def reader_language() -> str:
    """The reader's own choice (:func:`chosen_language` but a page's own language: 2 to 5
    of the module's order), which the footer's switch shows; English outside a request."""
    if not has_request_context():
        return DEFAULT
    cached = g.get("language")
    if cached:
        return str(cached)
    asked = known(request.args.get("lang"))
    if asked is None and request.path.startswith("/api/"):
        language = DEFAULT
    else:
        language = asked or known(request.cookies.get(COOKIE)) or _accepted() or DEFAULT
    g.language = language
    return language


def _accepted() -> str | None:
    """The browser's best ``Accept-Language`` among the real languages (never a pseudo)."""
    for tag, _quality in request.accept_languages:
        code = known(tag, pseudo=False)
        if code is not None:
            return code
    return None


def use_language(code: str | None) -> None:
    """Answer the rest of this request in ``code`` (a game's or a group's language, for
    its TV and shared result); None or an unknown code leaves the reader's choice."""
    language = known(code)
    if language is not None:
        g.page_language = language
        refresh()


def page_language() -> str | None:
    """The page's own language when a view set one (:func:`use_language`: a TV, a
    spectator board, a season), else None; the footer's switch is not offered there."""
    return str(g.page_language) if has_request_context() and g.get("page_language") else None


def locale() -> Locale:
    """The Babel locale that formats numbers and dates and gives the direction of the
    request's language."""
    language = chosen_language()
    return Locale.parse(PSEUDO[language][1] if language in PSEUDO else language)


def html_lang() -> str:
    """The request's language as a BCP 47 tag for ``<html lang>`` (``pt-BR``)."""
    return chosen_language().replace("_", "-")


def direction() -> str:
    """``rtl`` or ``ltr``, for ``<html dir>``."""
    return "rtl" if locale().text_direction == "rtl" else "ltr"


def translate(text: object) -> Any:
    """An engine sentence in the request's language; anything else as it is."""
    if isinstance(text, Message):
        return text.render(_gettext, plural_form)
    return text


def plural_form(singular: str, plural: str, count: int) -> str:
    """The catalogue's form of a plural message id for ``count``, unformatted (Flask-Babel's
    ``ngettext`` formats it with ``num`` only, which a message's own figures would break;
    the scripts' words fill theirs in the browser)."""
    return str(get_domain().get_translations().ungettext(singular, plural, count))


def reword(text: object) -> Any:
    """:func:`translate` for an engine sentence; a plain text kept from an engine sentence
    without figures (a card's value ``"face card"`` in a stored round's scoring, saved as
    its English) looked up as its own message id; anything else as it is. The ``translate``
    filter of the templates, for places ``finalize`` does not reach (a ``{% trans %}``
    figure, a filter's input)."""
    if isinstance(text, Message):
        return translate(text)
    if isinstance(text, str) and text:
        return str(_gettext(text))
    return text


def error_text(error: BaseException) -> str:
    """What an error raised with an engine sentence (or any text) says, in the request's
    language: its first argument translated when it is a :class:`Message`, else
    ``str(error)``."""
    first = error.args[0] if error.args else None
    if isinstance(first, Message):
        return str(translate(first))
    return str(error)


def number(value: float | int) -> str:
    """``value`` formatted for the request's language (1,356 / 1.356 / 1 356)."""
    return str(format_decimal(value))


def day(value: date | datetime | None) -> str:
    """The day of ``value`` in the request's language (``Nov 29, 2026`` / ``29.11.2026``);
    empty for None. A datetime is taken as UTC, as the database keeps them."""
    if value is None:
        return ""
    return str(format_date(value, format="medium"))


def moment(value: datetime | None) -> str:
    """``value`` (UTC) as a date and time in the request's language, in the app's time zone
    (``BABEL_DEFAULT_TIMEZONE``, UTC unless set); empty for None. A time shown to phones
    is better the ``<time datetime data-local>`` pattern (static/localtime.js)."""
    if value is None:
        return ""
    return str(format_datetime(value, format="medium"))


def ago(seconds: float | int | timedelta | None) -> str:
    """How long ago, in the request's language (``5 seconds ago``, ``vor 5 Sekunden``),
    for a number of seconds or a timedelta; empty for None."""
    if seconds is None:
        return ""
    span = seconds if isinstance(seconds, timedelta) else timedelta(seconds=float(seconds))
    return str(format_timedelta(-span, add_direction=True, threshold=0.95))


class _Catalogues(Domain):  # type: ignore[misc]
    """The message domain, keyed by the chosen language (a pseudo-language formats as a
    real locale but reads its own catalogue)."""

    def get_translations(self) -> support.NullTranslations:
        language = chosen_language()
        found: support.NullTranslations | None = self.cache.get(language)
        if found is None:
            found = support.Translations.load(str(TRANSLATIONS), [language], DOMAIN)
            self.cache[language] = found
        return found


class _Babel(Babel):  # type: ignore[misc]
    """Flask-Babel, its default domain being :class:`_Catalogues`."""

    @cached_property
    def domain_instance(self) -> Domain:
        return _Catalogues(domain=DOMAIN)


def _content_language(response: Response) -> Response:
    """Say the answer's language (``Content-Language``) on every page and JSON answer."""
    if request.endpoint != "static" and response.mimetype in ("text/html", "application/json"):
        response.headers.setdefault("Content-Language", html_lang())
    return response


def init_app(app: Flask) -> None:
    """Wire the languages into ``app``: Flask-Babel with this module's choice, the Jinja
    globals (``html_lang``, ``text_direction``, ``languages``), the ``number``, ``day``,
    ``moment``, ``ago`` and ``translate`` (:func:`reword`) filters, each answer's
    ``Content-Language``, and engine sentences translated wherever a template prints one."""
    app.config.setdefault("LANGUAGES_PSEUDO", False)
    _Babel(app, locale_selector=lambda: str(locale()))
    env = app.jinja_env
    env.globals.update(
        html_lang=html_lang,
        text_direction=direction,
        languages=offered,
        chosen_language=chosen_language,
        page_language=page_language,
    )
    env.filters.update(number=number, day=day, moment=moment, ago=ago, translate=reword)
    app.after_request(_content_language)
    env.finalize = translate
    from .places import place_language_form
    from .script_words import script_words
    from .switch import bp, switch_form

    env.globals.update(
        script_words=script_words,
        language_form=switch_form,
        place_language_form=place_language_form,
    )
    app.register_blueprint(bp)
