"""The rules reference (``/rules``, ``/rules/<id>``) and the checker (``/check`` and its
four questions). Every page is a GET: answers are links a table can share, and a game's
house rules load from the query string (:mod:`scorekeeper.house_rules`)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, abort, redirect, render_template, request, url_for
from markupsafe import Markup, escape
from werkzeug.wrappers import Response

from ..engine import OPTIONS, PRESETS
from ..house_rules import HouseRules, rules_from_query
from ..languages.reader import translate
from . import checker, reference
from .quotes import source_names

bp = Blueprint("rules", __name__)


def _house() -> HouseRules:
    return rules_from_query(request.args)


def _rules_href(house: HouseRules | None, rule_id: str) -> str:
    query = urlencode(house.query) if house and house.query != {"preset": "standard"} else ""
    return f"/rules{'?' + query if query else ''}{'#' + rule_id if rule_id else ''}"


@bp.app_template_filter("rule_links")
def rule_links(text: str, house: HouseRules | None = None) -> Markup:
    """Escape ``text`` (an engine sentence in the request's language) and turn every
    catalogue id in it (``M4``) into a link to the row."""
    parts = reference.RULE_ID.split(str(escape(translate(text))))
    out = []
    for i, part in enumerate(parts):
        if i % 2 and reference.known_id(part):
            href = escape(_rules_href(house, part))
            out.append(f'<a class="rule-id" href="{href}">{part}</a>')
        else:
            out.append(part)
    return Markup("".join(out))


@bp.app_template_filter("source_names")
def source_names_filter(seeds: str) -> str:
    """Seed ids (``"000, 002"``) as the rule texts' names (``"the classic text, ..."``)."""
    return source_names(seeds)


@bp.context_processor
def _helpers() -> dict[str, object]:
    return {
        "rules_href": _rules_href,
        "option_label": lambda name, value: OPTIONS[name].label(value),
        "option_info": OPTIONS,
        "row_titles": {r.id: r.title for r in reference.reference_rows()},
        "nomination_choices": checker.nomination_choices,
    }


@bp.get("/rules")
def index() -> str:
    """Show every catalogue row, its choices, sources and presets; filter with ``q``."""
    house = _house()
    query = request.args.get("q", "").strip()[:100]
    rows = reference.filter_rows(query) if query else list(reference.reference_rows())
    return render_template(
        "rules/index.html",
        rows=rows,
        query=query,
        house=house,
        active=reference.active_keys(house.rules) if _has_house() else {},
        matrix=reference.preset_matrix(),
        presets=reference.preset_titles(),
    )


def _has_house() -> bool:
    return any(k == "preset" or k == "rules" or k.startswith("opt_") for k in request.args)


@bp.get("/rules/<rule_id>")
def show_rule(rule_id: str) -> str | Response:
    """Show one catalogue row alone (a link a phone can pass round the table)."""
    row = reference.find_row(rule_id)
    if row is None:
        abort(404)
    if row.id != rule_id:
        values: dict[str, Any] = {**request.args.to_dict(), "rule_id": row.id}
        return redirect(url_for("rules.show_rule", **values))
    house = _house()
    return render_template(
        "rules/row.html",
        row=row,
        house=house,
        active=reference.active_keys(house.rules) if _has_house() else {},
        presets=reference.preset_titles(),
    )


def _page(template: str, house: HouseRules, **context: object) -> str:
    return render_template(
        template,
        house=house,
        presets=reference.preset_titles(),
        preset_names=list(PRESETS),
        **context,
    )


@bp.get("/check")
def check() -> str:
    """Show the four checker questions with the house rules loaded from the query."""
    return _page("rules/check.html", _house())


@bp.get("/check/meld")
def check_meld() -> str:
    """Answer "is this meld legal under our rules, and if not, which rule says no"."""
    house = _house()
    cards, jokers = request.args.get("cards", ""), _nomination(house)
    answer = checker.check_meld_question(house.rules, cards, jokers) if cards.strip() else None
    return _page("rules/check_meld.html", house, cards=cards, jokers=jokers, answer=answer)


@bp.get("/check/layoff")
def check_layoff() -> str:
    """Answer "can this card (or pair) be laid off onto that meld"."""
    house = _house()
    meld, cards = request.args.get("meld", ""), request.args.get("cards", "")
    jokers = _nomination(house)
    asked = bool(meld.strip() or cards.strip())
    answer = checker.check_layoff_question(house.rules, meld, cards, jokers) if asked else None
    return _page(
        "rules/check_layoff.html", house, meld=meld, cards=cards, jokers=jokers, answer=answer
    )


def _nomination(house: HouseRules) -> str:
    """The jokers' nomination this hand asked about (X2; "" for "as the cards show")."""
    if not house.rules.dealers_gambit:
        return ""
    return request.args.get("jokers", "")[:10]


@bp.get("/check/discard")
def check_discard() -> str:
    """Answer "which cards of the discard pile may I take, and what must I then do"."""
    house = _house()
    args = request.args
    has_melded = args.get("melded") == "yes"
    asked = bool(args.get("pile", "").strip() or args.get("hand", "").strip())
    answer = (
        checker.check_discard_question(house.rules, args, has_melded=has_melded) if asked else None
    )
    return _page(
        "rules/check_discard.html",
        house,
        args=args,
        answer=answer,
        has_melded=has_melded,
        tables=range(1, checker.TABLE_MELDS + 1),
    )


@bp.get("/check/score")
def check_score() -> str:
    """Answer "what does this round score, card by card" with the scoring contract."""
    house = _house()
    args = request.args
    contract_rules = {"preset": house.preset, "options": house.options}
    if args.get("go"):
        form, answer = checker.check_score_question(house.rules, contract_rules, args)
    else:
        form, answer = checker.ScoreForm.from_args(args), None
    return _page("rules/check_score.html", house, args=args, form=form, answer=answer)
