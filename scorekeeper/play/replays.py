"""Replays: a finished digital game stepped move by move in the browser, at
``/play/<slug>/replay``, and a game record opened from the phone (``/play/replay``: a file
input that POSTs the record; it is checked against the record contract,
shared/game-record.md, replayed and shown behind a link of its own; the record is kept
only as its job's row).

The engine computes every step (:func:`scorekeeper.engine.replay_steps`: hands, melds,
discard pile, scores, each move in words with its rules) in a ``replay`` job of the queue
(:func:`replay_job`: 0.2 s of CPU for an eight players' game, never in a request; a
finished game's job is shared by every phone that opens its replay, a file's is its own,
behind a secret link); until it is done the page says so and reloads itself. The page
carries the steps as JSON
in a data attribute, packed (:func:`pack_steps`: each step says only what changed since
the step before, so that eight players' game stays a few hundred KB, not megabytes), and
static/replay.js unpacks them and only shows step i. Only a finished game is
replayed: until the game is over the other seats' hands stay hidden (fairness). The
views module adds the routes to the ``play`` blueprint through :func:`register`.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge

from .. import jobs
from ..engine import N_, PRESET_TITLES, Message, ReplayRefused, Step, replay_steps
from ..extensions import db
from ..inputs import load_json
from ..languages.reader import translate
from ..models import DigitalGame, Job
from ..web import same_token
from . import services

NOT_A_RECORD = N_("This is not a game record: a record is a JSON object (shared/game-record.md).")
NO_GAME = N_("There is no game at this address.")
RECORD_FIELD = "record"
"""The file input's name on the upload form."""


def pack_steps(steps: Sequence[Step]) -> dict[str, Any]:
    """``steps`` as the page carries them: ``{"why": [[rule id, why], ...], "steps":
    [...]}``, each step with ``kind``, ``round``, ``player``, ``text``, ``rules`` (indexes
    into ``why``) and only what changed since the step before: ``hands`` (the players
    whose hand changed, each hand one string of card texts), ``melds_all`` (the whole
    table, when it shrank: a new round) or ``melds`` (table index -> meld, those changed),
    ``pile`` (``[cards kept from the pile before, [cards added]]``), ``stock``,
    ``totals``, ``scores`` (an end step's). static/replay.js unpacks it. The engine's
    sentences (a step's ``text``, a rule's ``why``) are kept as message ids with their
    figures too (``said``, ``why_said``), for :func:`in_words` to put them into the
    reader's language when the page is shown (a job runs outside any request)."""
    why: dict[tuple[str, str], int] = {}
    said: list[Any] = []
    packed: list[dict[str, Any]] = []
    before: Step | None = None
    for step in steps:
        out: dict[str, Any] = {k: step[k] for k in ("kind", "round", "player", "text")}
        if isinstance(step["text"], Message):
            out["said"] = step["text"].to_json()
        out["rules"] = []
        for rule in step["rules"]:
            if (rule["id"], rule["why"]) not in why:
                why[(rule["id"], rule["why"])] = len(why)
                said.append(rule["why"].to_json() if isinstance(rule["why"], Message) else None)
            out["rules"].append(why[(rule["id"], rule["why"])])
        out.update(_changes(before, step))
        packed.append(out)
        before = step
    return {"why": [list(pair) for pair in why], "why_said": said, "steps": packed}


def in_words(packed: str) -> str:
    """The packed steps (JSON text, as :func:`pack_steps` made them) with their sentences
    in the request's language, as static/replay.js reads them (JSON text)."""
    data = json.loads(packed)
    for step in data["steps"]:
        if "said" in step:
            step["text"] = translate(Message.from_json(step.pop("said")))
    for pair, kept in zip(data["why"], data.pop("why_said", []), strict=False):
        if kept is not None:
            pair[1] = translate(Message.from_json(kept))
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def _changes(before: Step | None, step: Step) -> dict[str, Any]:
    """What ``step`` changed since ``before`` (every part, for the first step)."""
    out: dict[str, Any] = {}
    old_hands = before["hands"] if before else {}
    hands = {p: " ".join(h) for p, h in step["hands"].items() if old_hands.get(p) != h}
    if hands:
        out["hands"] = hands
    old_melds = before["melds"] if before else []
    if len(step["melds"]) < len(old_melds) or before is None:
        out["melds_all"] = step["melds"]
    else:
        changed = {
            str(i): m
            for i, m in enumerate(step["melds"])
            if i >= len(old_melds) or old_melds[i] != m
        }
        if changed:
            out["melds"] = changed
    out.update(_pile_change(before["pile"] if before else [], step["pile"]))
    for key in ("stock", "totals", "scores"):
        if before is None or before[key] != step[key]:
            out[key] = step[key]
    return out


def _pile_change(old: list[str], new: list[str]) -> dict[str, Any]:
    """``{"pile": [kept, added]}``: the cards of ``old`` kept at the bottom of ``new``,
    the cards added above them; nothing when the pile is the same."""
    if old == new:
        return {}
    kept = 0
    while kept < min(len(old), len(new)) and old[kept] == new[kept]:
        kept += 1
    return {"pile": [kept, new[kept:]]}


def _shown(steps: list[Step], record: Mapping[str, object]) -> dict[str, object]:
    """What the replay page of ``record``'s ``steps`` shows, as a job's result (JSON):
    the packed steps already as JSON text, their count, the players, the rules, the
    winner and each round's first step (``[round, index]`` pairs)."""
    final = record.get("final")
    winner = final.get("winner") if isinstance(final, Mapping) else None
    rounds = sorted({s["round"] for s in steps})
    firsts = [[r, next(i for i, s in enumerate(steps) if s["round"] == r)] for r in rounds]
    return {
        "packed": json.dumps(pack_steps(steps), separators=(",", ":")),
        "count": len(steps),
        "players": record.get("players"),
        "rules": record.get("rules"),
        "winner": winner,
        "firsts": firsts,
    }


@jobs.handler("replay")
def replay_job(job: Job) -> dict[str, object]:
    """A ``replay`` job: the steps of the record ``args["record"]`` (a file), else of the
    finished game ``job.game_id``, as :func:`_shown` gives them (``{"shown": ...}``), or
    ``{"problem": sentence}`` when the engine refuses the record."""
    record = job.args.get("record")
    if not isinstance(record, Mapping):
        game = db.session.get(DigitalGame, job.game_id)
        if game is None:
            return {"problem": NO_GAME}
        record = services.record_of(game)
    try:
        steps = replay_steps(record)
    except ReplayRefused as refused:
        return {"problem": _sentence(str(refused))}
    return {"shown": _shown(steps, record)}


def _answer(job: Job, slug: str | None) -> ResponseReturnValue:
    """Where a replay job stands: not done, a page that says so and reloads itself;
    refused, the sentence why (422); done, the replay page."""
    db.session.refresh(job)  # done already when the jobs run where they are asked
    if job.finished_at is None:
        page = render_template("play/replaying.html")
        return page, 200, {"Refresh": "1", "Cache-Control": "no-store"}
    result = job.result or {}
    shown = result.get("shown")
    if not isinstance(shown, dict):
        problem = _(str(result.get("problem") or N_("The replay could not be made: try again.")))
        return _refused(problem, 422) if slug else _form_again(problem)
    rules = shown.get("rules")
    preset = rules.get("preset") if isinstance(rules, Mapping) else None
    shown = shown | {"packed": in_words(str(shown["packed"]))}
    title = PRESET_TITLES.get(str(preset or "standard"), str(preset))
    return render_template("play/replay.html", slug=slug, preset_title=title, **shown), 200


def replay_game(slug: str) -> ResponseReturnValue:
    """A finished digital game's replay (404 no such game; 409 not finished yet: its
    hands stay hidden), by the game's one ``replay`` job. Anyone with the game's link
    may replay it once it is over, as every card may then be shown."""
    game = services.get_game(slug)
    if game is None:
        return _refused(_(NO_GAME), 404)
    if not game.finished:
        return _refused(
            _(
                "Only a finished game can be replayed: until it is over, the other hands stay "
                "hidden. Finish the game first."
            ),
            409,
        )
    return _answer(jobs.submit("replay", game.id, game.version), slug)


def open_record() -> ResponseReturnValue:
    """The form to open a record file from the phone (GET), or its replay (POST: the
    file read, then checked and replayed by a ``replay`` job of its own, nothing else
    stored; its page behind a secret link); a file that cannot be read: the form again
    with one sentence why (400); too many jobs waiting for this phone: 429."""
    if request.method == "GET":
        return render_template("play/replay_open.html", error=None), 200
    try:
        record = _uploaded()
    except (BadRequest, RequestEntityTooLarge) as bad:
        return _form_again(_sentence(str(bad.description)))
    if not isinstance(record, dict):
        return _form_again(_(NOT_A_RECORD))
    token = secrets.token_urlsafe(16)
    job = jobs.submit(
        "replay",
        None,
        secrets.randbits(31),  # a file's job is its own, never another's
        args={"record": record, "token": token},
        bounded=True,
        refusal=_("this phone is replaying a file already: wait until it is shown"),
    )
    return redirect(url_for("play.replaying", job_id=job.id, token=token), 303)


def replaying(job_id: int, token: str) -> ResponseReturnValue:
    """A record file's replay (the phone that sent it holds its link)."""
    job = db.session.get(Job, job_id)
    if job is None or job.kind != "replay" or job.game_id is not None:
        abort(404, description=_("There is no replay at this link."))
    if not same_token(token, str(job.args.get("token", ""))):
        abort(404, description=_("There is no replay at this link."))
    return _answer(job, None)


def _uploaded() -> object:
    """The record JSON of the upload (the file input, or a JSON body from a script);
    raises ``BadRequest`` (no file, not JSON) or ``RequestEntityTooLarge``."""
    limit = int(current_app.config.get("MAX_CONTENT_LENGTH") or 1024 * 1024)
    if request.is_json:
        return load_json(request.get_data(), max_bytes=limit)
    upload = request.files.get(RECORD_FIELD)
    if upload is None or not upload.filename:
        raise BadRequest(_("choose a game record file (.json) to replay"))
    return load_json(upload.read(limit + 1), max_bytes=limit)


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _form_again(message: str) -> tuple[str, int]:
    return render_template("play/replay_open.html", error=message), 400


def _refused(message: str, status: int) -> tuple[str, int]:
    return render_template("play/replay_open.html", error=message, refused=True), status


def register(bp: Blueprint) -> None:
    """Add the replay routes to the ``play`` blueprint (:mod:`.views` calls it)."""
    bp.add_url_rule("/replay", view_func=open_record, methods=["GET", "POST"])
    bp.add_url_rule("/<slug>/replay", view_func=replay_game)
    bp.add_url_rule("/replay/<int:job_id>/<token>", view_func=replaying)
